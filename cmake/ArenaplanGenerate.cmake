# ArenaplanGenerate.cmake -- generate an arenaplan plan header at build time.
#
#   find_package(arenaplan CONFIG REQUIRED)     # the installed package, or
#   list(APPEND CMAKE_MODULE_PATH path/to/arenaplan/cmake)
#   include(ArenaplanGenerate)                  # this checkout's files
#   arenaplan_generate(TARGET firmware
#                      MODEL ${CMAKE_SOURCE_DIR}/models/person_detect.tflite
#                      NAMESPACE person_detect
#                      [HEADER <path>]        # default: ${CMAKE_CURRENT_BINARY_DIR}/arenaplan/<NAMESPACE>_plan.hpp
#                      [SVG <path>]
#                      [ARENAPLAN <binary or target>]  # default: see _arenaplan_tool (ArenaplanCommon.cmake)
#                      [OPTIONS --align 16 --strategy best ...])
#
# The header is regenerated whenever MODEL, the options or the arenaplan
# binary change; TARGET gets the header's directory on its include path, links
# arenaplan::runtime (core/ and kernels/, header-only) and is built after
# the header.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/ArenaplanCommon.cmake)

function(arenaplan_generate)
  cmake_parse_arguments(AP "" "TARGET;MODEL;NAMESPACE;HEADER;SVG;ARENAPLAN"
                        "OPTIONS" ${ARGN})
  foreach(required TARGET MODEL NAMESPACE)
    if(NOT AP_${required})
      message(FATAL_ERROR "arenaplan_generate: ${required} is required")
    endif()
  endforeach()
  if(NOT AP_HEADER)
    set(AP_HEADER "${CMAKE_CURRENT_BINARY_DIR}/arenaplan/${AP_NAMESPACE}_plan.hpp")
  endif()
  get_filename_component(model "${AP_MODEL}" ABSOLUTE)
  get_filename_component(header "${AP_HEADER}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  get_filename_component(header_dir "${header}" DIRECTORY)

  _arenaplan_tool(command tool_dependency "${AP_ARENAPLAN}")

  set(outputs "${header}")
  set(svg_args)
  if(AP_SVG)
    get_filename_component(svg "${AP_SVG}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    list(APPEND outputs "${svg}")
    set(svg_args --svg "${svg}")
  endif()

  set(stamp "${header}.options")
  _arenaplan_stamp("${stamp}" "${AP_NAMESPACE};${svg_args};${AP_OPTIONS}")
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} -E make_directory "${header_dir}"
    COMMAND ${command} plan "${model}" --header "${header}"
            --namespace ${AP_NAMESPACE} ${svg_args} ${AP_OPTIONS}
    DEPENDS "${model}" ${tool_dependency} "${stamp}"
    COMMENT "arenaplan: planning ${AP_MODEL}"
    VERBATIM)
  # Listing the header as a source makes TARGET's compilation wait for it.
  target_sources(${AP_TARGET} PRIVATE "${header}")
  target_include_directories(${AP_TARGET} PRIVATE "${header_dir}")
  target_link_libraries(${AP_TARGET} PRIVATE arenaplan::runtime)
endfunction()
