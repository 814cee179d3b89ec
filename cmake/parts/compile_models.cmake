# The other models of ../shared/models compiled by `arenaplan compile` at
# build time, twice each: with the greedy-by-size plan (tensors share the
# arena) and with the naive plan (every tensor its own bytes). The generated
# sources form the library compile_models_generated, linked into
# tests/host/compile/compile_models_test.cpp, which runs both and compares them.
include(${CMAKE_SOURCE_DIR}/cmake/CompiledModels.cmake)
set(CM_MODELS_DIR ${CMAKE_SOURCE_DIR}/../shared/models)
set(CM_ENTRIES)
# model stem | namespace prefix | extra options
foreach(entry "hello_world_int8|hw|--assume-dim 1"
              "micro_speech_quantized|ms|"
              "keyword_scrambled|kw|")
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 model)
  list(GET fields 1 prefix)
  list(GET fields 2 extra)
  foreach(strategy greedy-by-size naive)
    string(REPLACE "-" "_" ns_suffix ${strategy})
    list(APPEND CM_ENTRIES
         "${CM_MODELS_DIR}/${model}.tflite|cm_${prefix}_${ns_suffix}|--strategy ${strategy} ${extra}")
  endforeach()
endforeach()
arenaplan_compiled_models(
  LIBRARY compile_models_generated TEST compile_models_test
  OUT_DIR ${CMAKE_BINARY_DIR}/generated/compile_models
  MODELS ${CM_ENTRIES})
