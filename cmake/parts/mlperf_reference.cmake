# The four MLPerf Tiny models of ../shared/models compiled by `arenaplan
# compile` at build time with the default plan (every activation in the
# planned arena). The generated sources form the library
# mlperf_reference_generated, linked into tests/host/compile/mlperf_reference_test.cpp,
# which runs every input of ../shared/reference/<model>/ and compares the
# output bytes with TensorFlow Lite Micro's.
include(${CMAKE_SOURCE_DIR}/cmake/CompiledModels.cmake)
set(MR_MODELS_DIR ${CMAKE_SOURCE_DIR}/../shared/models)
arenaplan_compiled_models(
  LIBRARY mlperf_reference_generated TEST mlperf_reference_test
  OUT_DIR ${CMAKE_BINARY_DIR}/generated/mlperf_reference
  MODELS "${MR_MODELS_DIR}/vww_96_int8.tflite|mr_vww|--assume-dim 1"
         "${MR_MODELS_DIR}/kws_ref_model.tflite|mr_kws|--assume-dim 1"
         "${MR_MODELS_DIR}/pretrainedResnet_quant.tflite|mr_ic|--assume-dim 1"
         "${MR_MODELS_DIR}/ad01_int8.tflite|mr_ad|--assume-dim 1")
