# The kernels' property test (tests/target/kernels_property.cpp and its
# case families, tests/target/kernels_property/*.cpp) built for
# the host: the same source as the board firmware, with port/port.hpp on
# stdio. Its digest lines are what `make test-kernels-board` compares the
# boards' with; as a ctest it also runs under ASan and UBSan (make test-asan).
file(GLOB KERNELS_PROPERTY_CASES CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/tests/target/kernels_property/*.cpp)
add_executable(kernels_property_test
  ${CMAKE_SOURCE_DIR}/tests/target/kernels_property.cpp
  ${KERNELS_PROPERTY_CASES}
  ${CMAKE_SOURCE_DIR}/tests/target/host_port.cpp)
target_include_directories(kernels_property_test PRIVATE
  ${CMAKE_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/core/include
  ${CMAKE_SOURCE_DIR}/kernels/include)
target_compile_definitions(kernels_property_test PRIVATE
  ARENAPLAN_KERNELS_PROPERTY_HOST)
# Host test code: GCC 12's false warnings off as for every other test (the
# board builds of the same source keep -Werror and every warning).
arenaplan_test_gcc12_warnings(kernels_property_test)
add_test(NAME kernels_property_test COMMAND kernels_property_test)
set_tests_properties(kernels_property_test PROPERTIES
  PASS_REGULAR_EXPRESSION "PASS kernels_property" FAIL_REGULAR_EXPRESSION "FAIL"
  TIMEOUT 300)
