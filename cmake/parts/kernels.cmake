# int8 kernels (kernels/include, header-only) and the person-detection
# example: the generator, host tests and firmware include the kernels.
target_include_directories(arenaplan_lib PUBLIC ${CMAKE_SOURCE_DIR}/kernels/include)

# person_detect on the host: the model compiled once per planning strategy
# (tests/person_detect/gen_models.sh), run on both images; the output of
# every plan must equal the plan without sharing, byte for byte.
set(PD_GEN_DIR ${CMAKE_BINARY_DIR}/generated/person_detect)
set(PD_MODEL ${CMAKE_SOURCE_DIR}/../shared/models/person_detect.tflite)
add_custom_command(
  OUTPUT ${PD_GEN_DIR}/all_models.cpp
  COMMAND ${CMAKE_SOURCE_DIR}/tests/person_detect/gen_models.sh
          $<TARGET_FILE:arenaplan> ${PD_MODEL} ${PD_GEN_DIR} --all-approaches
  DEPENDS arenaplan ${PD_MODEL} ${CMAKE_SOURCE_DIR}/tests/person_detect/gen_models.sh
  COMMENT "Compiling person_detect.tflite for every planning strategy"
  VERBATIM)
add_executable(person_detect_host
  ${CMAKE_SOURCE_DIR}/tests/person_detect/host_runner.cpp
  ${PD_GEN_DIR}/all_models.cpp)
target_include_directories(person_detect_host PRIVATE
  ${CMAKE_SOURCE_DIR} ${CMAKE_SOURCE_DIR}/core/include
  ${CMAKE_SOURCE_DIR}/kernels/include ${PD_GEN_DIR})
target_compile_definitions(person_detect_host PRIVATE ARENAPLAN_NO_ARENA_SECTION)
if(ARENAPLAN_SANITIZE)
  # Every strategy's person_detect model in one file: -O0 under the
  # sanitizers, as the other generated models (cmake/CompiledModels.cmake).
  set_source_files_properties(${PD_GEN_DIR}/all_models.cpp
                              PROPERTIES COMPILE_OPTIONS -O0)
endif()
add_test(NAME person_detect_host
         COMMAND person_detect_host ${CMAKE_SOURCE_DIR}/../shared/images)
set_tests_properties(person_detect_host PROPERTIES TIMEOUT 300)
