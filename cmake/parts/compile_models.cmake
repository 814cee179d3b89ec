# The other models of ../shared/models compiled by `arenaplan compile` at
# build time, twice each: with the greedy-by-size plan (tensors share the
# arena) and with the naive plan (every tensor its own bytes). The generated
# sources form the library compile_models_generated, linked into
# tests/host/compile/compile_models_test.cpp, which runs both and compares them.
set(CM_GEN_DIR ${CMAKE_BINARY_DIR}/generated/compile_models)
set(CM_MODELS_DIR ${CMAKE_SOURCE_DIR}/../shared/models)
set(CM_SOURCES)
# model stem | namespace prefix | extra arguments
foreach(entry "hello_world_int8|hw|--assume-dim;1"
              "micro_speech_quantized|ms|"
              "keyword_scrambled|kw|")
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 model)
  list(GET fields 1 prefix)
  list(LENGTH fields nfields)
  set(extra)
  if(nfields GREATER 2)
    list(SUBLIST fields 2 -1 extra)
    list(REMOVE_ITEM extra "")
  endif()
  foreach(strategy greedy-by-size naive)
    string(REPLACE "-" "_" ns_suffix ${strategy})
    set(ns cm_${prefix}_${ns_suffix})
    add_custom_command(
      OUTPUT ${CM_GEN_DIR}/${ns}_model.cpp ${CM_GEN_DIR}/${ns}_model.hpp
             ${CM_GEN_DIR}/${ns}_arena.hpp
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CM_GEN_DIR}
      COMMAND $<TARGET_FILE:arenaplan> compile ${CM_MODELS_DIR}/${model}.tflite
              --out-dir ${CM_GEN_DIR} --namespace ${ns} --strategy ${strategy}
              ${extra}
      DEPENDS arenaplan ${CM_MODELS_DIR}/${model}.tflite
      COMMENT "Compiling ${model}.tflite (${strategy})"
      VERBATIM)
    list(APPEND CM_SOURCES ${CM_GEN_DIR}/${ns}_model.cpp)
  endforeach()
endforeach()
add_library(compile_models_generated STATIC ${CM_SOURCES})
target_include_directories(compile_models_generated PUBLIC
  ${CM_GEN_DIR} ${CMAKE_SOURCE_DIR}/core/include
  ${CMAKE_SOURCE_DIR}/kernels/include)
target_compile_definitions(compile_models_generated PUBLIC
  ARENAPLAN_NO_ARENA_SECTION)

# The test executable is defined after the parts are included.
function(_arenaplan_link_compile_models)
  if(TARGET compile_models_test)
    target_link_libraries(compile_models_test PRIVATE compile_models_generated)
  endif()
endfunction()
cmake_language(DEFER CALL _arenaplan_link_compile_models)
