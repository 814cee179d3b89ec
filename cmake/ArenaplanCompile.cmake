# ArenaplanCompile.cmake -- compile an int8 .tflite model ahead of time
# (`arenaplan compile`) at build time and build its code into a target.
#
#   find_package(arenaplan CONFIG REQUIRED)     # the installed package, or
#   list(APPEND CMAKE_MODULE_PATH path/to/arenaplan/cmake)
#   include(ArenaplanCompile)                   # this checkout's files
#   arenaplan_compile(TARGET firmware
#                     MODEL ${CMAKE_SOURCE_DIR}/models/person_detect.tflite
#                     NAMESPACE person_detect
#                     [OVERLAP]                  # --overlap (docs/overlap.md)
#                     [FUSE]                     # --fuse (docs/fuse.md)
#                     [REGIONS dtcm:32768:.dtcm sram:1048576:.sram]  # --region each (docs/regions.md)
#                     [OPTIONS --strategy greedy-by-size --assume-dim 1 ...]
#                     [OUT_DIR <dir>]            # default: ${CMAKE_CURRENT_BINARY_DIR}/arenaplan/<NAMESPACE>
#                     [ARENAPLAN <binary or target>])  # default: see _arenaplan_tool (ArenaplanCommon.cmake)
#
# Writes OUT_DIR/<NAMESPACE>_model.cpp, <NAMESPACE>_model.hpp and
# <NAMESPACE>_arena.hpp (docs/compile.md) whenever MODEL, the options or
# the arenaplan binary change. TARGET compiles the .cpp with its own flags
# (so the kernels' DSP paths follow its -mcpu), gets OUT_DIR on its include
# path and links arenaplan::runtime (core/ and kernels/, header-only).
# Under GCC, TARGET's C++ gets -fconstexpr-ops-limit=2^30: the plan
# header's compile-time check of a large plan (about 900 tensors) takes
# more than GCC's default 2^25 operations; no generated code changes.
# On a host, define ARENAPLAN_NO_ARENA_SECTION for TARGET to keep the
# static arena in .bss instead of the .arena section (docs/runtime.md).
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/ArenaplanCommon.cmake)

function(arenaplan_compile)
  cmake_parse_arguments(AP "OVERLAP;FUSE"
                        "TARGET;MODEL;NAMESPACE;OUT_DIR;ARENAPLAN"
                        "REGIONS;OPTIONS" ${ARGN})
  foreach(required TARGET MODEL NAMESPACE)
    if(NOT AP_${required})
      message(FATAL_ERROR "arenaplan_compile: ${required} is required")
    endif()
  endforeach()
  if(AP_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
      "arenaplan_compile: unexpected arguments: ${AP_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT AP_OUT_DIR)
    set(AP_OUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/arenaplan/${AP_NAMESPACE}")
  endif()
  get_filename_component(model "${AP_MODEL}" ABSOLUTE)
  get_filename_component(out_dir "${AP_OUT_DIR}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  _arenaplan_tool(command tool_dependency "${AP_ARENAPLAN}")

  set(options)
  if(AP_OVERLAP)
    list(APPEND options --overlap)
  endif()
  if(AP_FUSE)
    list(APPEND options --fuse)
  endif()
  foreach(region IN LISTS AP_REGIONS)
    list(APPEND options --region "${region}")
  endforeach()
  list(APPEND options ${AP_OPTIONS})

  set(stem "${out_dir}/${AP_NAMESPACE}")
  set(outputs "${stem}_model.cpp" "${stem}_model.hpp" "${stem}_arena.hpp")
  set(stamp "${stem}.options")
  _arenaplan_stamp("${stamp}" "${options}")
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${command} compile "${model}" --out-dir "${out_dir}"
            --namespace ${AP_NAMESPACE} ${options}
    DEPENDS "${model}" ${tool_dependency} "${stamp}"
    COMMENT "arenaplan: compiling ${AP_MODEL} (${AP_NAMESPACE})"
    VERBATIM)
  target_sources(${AP_TARGET} PRIVATE ${outputs})
  target_include_directories(${AP_TARGET} PRIVATE "${out_dir}")
  target_link_libraries(${AP_TARGET} PRIVATE arenaplan::runtime)
  target_compile_options(${AP_TARGET} PRIVATE
    "$<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-fconstexpr-ops-limit=1073741824>")
endfunction()
