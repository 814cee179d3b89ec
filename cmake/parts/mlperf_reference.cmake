# The four MLPerf Tiny models of ../shared/models compiled by `arenaplan
# compile` at build time with the default plan (every activation in the
# planned arena). The generated sources form the library
# mlperf_reference_generated, linked into tests/host/compile/mlperf_reference_test.cpp,
# which runs every input of ../shared/reference/<model>/ and compares the
# output bytes with TensorFlow Lite Micro's.
set(MR_GEN_DIR ${CMAKE_BINARY_DIR}/generated/mlperf_reference)
set(MR_MODELS_DIR ${CMAKE_SOURCE_DIR}/../shared/models)
set(MR_SOURCES)
# model stem | namespace
foreach(entry "vww_96_int8|mr_vww" "kws_ref_model|mr_kws"
              "pretrainedResnet_quant|mr_ic" "ad01_int8|mr_ad")
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 model)
  list(GET fields 1 ns)
  add_custom_command(
    OUTPUT ${MR_GEN_DIR}/${ns}_model.cpp ${MR_GEN_DIR}/${ns}_model.hpp
           ${MR_GEN_DIR}/${ns}_arena.hpp
    COMMAND ${CMAKE_COMMAND} -E make_directory ${MR_GEN_DIR}
    COMMAND $<TARGET_FILE:arenaplan> compile ${MR_MODELS_DIR}/${model}.tflite
            --assume-dim 1 --out-dir ${MR_GEN_DIR} --namespace ${ns}
    DEPENDS arenaplan ${MR_MODELS_DIR}/${model}.tflite
    COMMENT "Compiling ${model}.tflite"
    VERBATIM)
  list(APPEND MR_SOURCES ${MR_GEN_DIR}/${ns}_model.cpp)
endforeach()
add_library(mlperf_reference_generated STATIC ${MR_SOURCES})
target_include_directories(mlperf_reference_generated PUBLIC
  ${MR_GEN_DIR} ${CMAKE_SOURCE_DIR}/core/include
  ${CMAKE_SOURCE_DIR}/kernels/include)
target_compile_definitions(mlperf_reference_generated PUBLIC
  ARENAPLAN_NO_ARENA_SECTION)

# The test executable is defined after the parts are included.
function(_arenaplan_link_mlperf_reference)
  if(TARGET mlperf_reference_test)
    target_link_libraries(mlperf_reference_test
                          PRIVATE mlperf_reference_generated)
  endif()
endfunction()
cmake_language(DEFER CALL _arenaplan_link_mlperf_reference)
