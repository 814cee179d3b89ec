# Two corpus models compiled by `arenaplan compile` at build time twice:
# folded (the default) and with --no-fold. mlperf_v01_vww_96_int8_refsub
# folds five PADs (asymmetric: 0,1,0,1) into its convolutions,
# tflm_retinaface_torch writes six CONCATENATIONs in place and makes its
# RESHAPEs aliases. tests/host/compile/fold_equivalence_test.cpp runs both
# builds of each on the same inputs and compares the output bytes.
set(FE_GEN_DIR ${CMAKE_BINARY_DIR}/generated/fold_equivalence)
set(FE_CORPUS_DIR ${CMAKE_SOURCE_DIR}/../shared/corpus)
set(FE_SOURCES)
if(EXISTS ${FE_CORPUS_DIR}/mlperf_v01_vww_96_int8_refsub.tflite AND
   EXISTS ${FE_CORPUS_DIR}/tflm_retinaface_torch.tflite)
  # model stem | namespace | extra option
  foreach(entry "mlperf_v01_vww_96_int8_refsub|fe_vww_fold|"
                "mlperf_v01_vww_96_int8_refsub|fe_vww_nofold|--no-fold"
                "tflm_retinaface_torch|fe_rf_fold|"
                "tflm_retinaface_torch|fe_rf_nofold|--no-fold")
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 model)
    list(GET fields 1 ns)
    list(GET fields 2 extra)
    add_custom_command(
      OUTPUT ${FE_GEN_DIR}/${ns}_model.cpp ${FE_GEN_DIR}/${ns}_model.hpp
             ${FE_GEN_DIR}/${ns}_arena.hpp
      COMMAND ${CMAKE_COMMAND} -E make_directory ${FE_GEN_DIR}
      COMMAND $<TARGET_FILE:arenaplan> compile ${FE_CORPUS_DIR}/${model}.tflite
              ${extra} --out-dir ${FE_GEN_DIR} --namespace ${ns}
      DEPENDS arenaplan ${FE_CORPUS_DIR}/${model}.tflite
      COMMENT "Compiling ${model}.tflite (${ns})"
      VERBATIM)
    list(APPEND FE_SOURCES ${FE_GEN_DIR}/${ns}_model.cpp)
  endforeach()
  add_library(fold_equivalence_generated STATIC ${FE_SOURCES})
  target_include_directories(fold_equivalence_generated PUBLIC
    ${FE_GEN_DIR} ${CMAKE_SOURCE_DIR}/core/include
    ${CMAKE_SOURCE_DIR}/kernels/include)
  target_compile_definitions(fold_equivalence_generated PUBLIC
    ARENAPLAN_NO_ARENA_SECTION)
endif()

# The test executable is defined after the parts are included.
function(_arenaplan_link_fold_equivalence)
  if(TARGET fold_equivalence_test AND TARGET fold_equivalence_generated)
    target_link_libraries(fold_equivalence_test
                          PRIVATE fold_equivalence_generated)
  elseif(TARGET fold_equivalence_test)
    target_compile_definitions(fold_equivalence_test PRIVATE
                               ARENAPLAN_NO_CORPUS=1)
  endif()
endfunction()
cmake_language(DEFER CALL _arenaplan_link_fold_equivalence)
