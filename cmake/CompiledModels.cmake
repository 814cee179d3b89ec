# arenaplan_compiled_models: models compiled by `arenaplan compile` at build
# time into one static library that a host test links.
#
#   arenaplan_compiled_models(LIBRARY <library> OUT_DIR <dir> TEST <test>
#                             [IF_MISSING_DEFINE <definition>]
#                             MODELS "<model.tflite>|<namespace>|<options>" ...)
#
# Each MODELS entry names a .tflite file, the namespace of its generated
# code and the `compile` options for it, separated by spaces (may be
# empty). One arenaplan_compile() per entry (cmake/ArenaplanCompile.cmake)
# writes <namespace>_model.cpp, <namespace>_model.hpp and
# <namespace>_arena.hpp into OUT_DIR; LIBRARY builds the sources with
# arenaplan::runtime (core/ and kernels/), the arena in
# ordinary storage (ARENAPLAN_NO_ARENA_SECTION); TEST links LIBRARY once it
# is defined (the tests are defined after the parts). With
# IF_MISSING_DEFINE, a missing model file gives no library and TEST gets
# the definition instead.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/ArenaplanCompile.cmake)

function(arenaplan_compiled_models)
  cmake_parse_arguments(ACM "" "LIBRARY;OUT_DIR;TEST;IF_MISSING_DEFINE"
                        "MODELS" ${ARGN})
  if(ACM_IF_MISSING_DEFINE)
    foreach(entry IN LISTS ACM_MODELS)
      string(REPLACE "|" ";" fields "${entry}")
      list(GET fields 0 model)
      if(NOT EXISTS ${model})
        cmake_language(EVAL CODE "cmake_language(DEFER CALL
          _arenaplan_link_compiled_models [[${ACM_TEST}]] [[]]
          [[${ACM_IF_MISSING_DEFINE}]])")
        return()
      endif()
    endforeach()
  endif()
  add_library(${ACM_LIBRARY} STATIC)
  foreach(entry IN LISTS ACM_MODELS)
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 model)
    list(GET fields 1 ns)
    list(GET fields 2 options)
    separate_arguments(options UNIX_COMMAND "${options}")
    arenaplan_compile(TARGET ${ACM_LIBRARY} MODEL ${model} NAMESPACE ${ns}
                      OUT_DIR ${ACM_OUT_DIR} ARENAPLAN arenaplan
                      OPTIONS ${options})
  endforeach()
  if(ARENAPLAN_SANITIZE)
    # Generated model code (about 1 MB a model) compiles four times faster
    # at -O0 than at the sanitizer build's -O1 (6.5 s against 1.7 s for
    # vww_96_int8), and its tests run one inference or two.
    target_compile_options(${ACM_LIBRARY} PRIVATE -O0)
  endif()
  # The test includes the generated headers too.
  target_include_directories(${ACM_LIBRARY} PUBLIC ${ACM_OUT_DIR})
  target_link_libraries(${ACM_LIBRARY} PUBLIC arenaplan::runtime)
  target_compile_definitions(${ACM_LIBRARY} PUBLIC ARENAPLAN_NO_ARENA_SECTION)
  cmake_language(EVAL CODE "cmake_language(DEFER CALL
    _arenaplan_link_compiled_models [[${ACM_TEST}]] [[${ACM_LIBRARY}]] [[]])")
endfunction()

# Links `library` into `test`, or gives `test` the definition `define`
# when there is no library; nothing when `test` does not exist.
function(_arenaplan_link_compiled_models test library define)
  if(NOT TARGET ${test})
    return()
  endif()
  if(library)
    target_link_libraries(${test} PRIVATE ${library})
  else()
    target_compile_definitions(${test} PRIVATE ${define})
  endif()
endfunction()
