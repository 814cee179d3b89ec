# The compile fuzz target's per-operator seeds (tests/fuzz/fuzz_seed_models.cpp):
# a host tool run by mk/fuzz.mk, built with the generator library.
add_executable(fuzz_seed_models ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_seed_models.cpp)
target_link_libraries(fuzz_seed_models PRIVATE arenaplan_lib)
