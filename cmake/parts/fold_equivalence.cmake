# Two corpus models compiled by `arenaplan compile` at build time twice:
# folded (the default) and with --no-fold. mlperf_v01_vww_96_int8_refsub
# folds five PADs (asymmetric: 0,1,0,1) into its convolutions,
# tflm_retinaface_torch writes six CONCATENATIONs in place and makes its
# RESHAPEs aliases. tests/host/compile/fold_equivalence_test.cpp runs both
# builds of each on the same inputs and compares the output bytes; without
# the corpus it is built with ARENAPLAN_NO_CORPUS=1.
include(${CMAKE_SOURCE_DIR}/cmake/CompiledModels.cmake)
set(FE_CORPUS_DIR ${CMAKE_SOURCE_DIR}/../shared/corpus)
arenaplan_compiled_models(
  LIBRARY fold_equivalence_generated TEST fold_equivalence_test
  OUT_DIR ${CMAKE_BINARY_DIR}/generated/fold_equivalence
  IF_MISSING_DEFINE ARENAPLAN_NO_CORPUS=1
  MODELS "${FE_CORPUS_DIR}/mlperf_v01_vww_96_int8_refsub.tflite|fe_vww_fold|"
         "${FE_CORPUS_DIR}/mlperf_v01_vww_96_int8_refsub.tflite|fe_vww_nofold|--no-fold"
         "${FE_CORPUS_DIR}/tflm_retinaface_torch.tflite|fe_rf_fold|"
         "${FE_CORPUS_DIR}/tflm_retinaface_torch.tflite|fe_rf_nofold|--no-fold")
