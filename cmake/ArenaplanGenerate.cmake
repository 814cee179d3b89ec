# ArenaplanGenerate.cmake -- generate an arenaplan plan header at build time.
#
#   list(APPEND CMAKE_MODULE_PATH path/to/arenaplan/cmake)
#   include(ArenaplanGenerate)
#   arenaplan_generate(TARGET firmware
#                      MODEL ${CMAKE_SOURCE_DIR}/models/person_detect.tflite
#                      NAMESPACE person_detect
#                      [HEADER <path>]        # default: ${CMAKE_CURRENT_BINARY_DIR}/arenaplan/<NAMESPACE>_plan.hpp
#                      [SVG <path>]
#                      [ARENAPLAN <binary or target>]  # default: target `arenaplan` if it exists, else ARENAPLAN_EXECUTABLE or `arenaplan` on PATH
#                      [OPTIONS --align 16 --strategy best ...])
#
# The header is regenerated whenever MODEL (or the arenaplan binary)
# changes; TARGET gets the header's directory and core/include on its
# include path and is built after the header.

set(ARENAPLAN_CORE_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../core/include"
    CACHE PATH "arenaplan core/include")

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

  if(NOT AP_ARENAPLAN)
    if(TARGET arenaplan)
      set(AP_ARENAPLAN arenaplan)
    elseif(ARENAPLAN_EXECUTABLE)
      set(AP_ARENAPLAN "${ARENAPLAN_EXECUTABLE}")
    else()
      find_program(ARENAPLAN_EXECUTABLE arenaplan REQUIRED)
      set(AP_ARENAPLAN "${ARENAPLAN_EXECUTABLE}")
    endif()
  endif()
  if(TARGET ${AP_ARENAPLAN})
    set(command "$<TARGET_FILE:${AP_ARENAPLAN}>")
    set(tool_dependency ${AP_ARENAPLAN})
  else()
    set(command "${AP_ARENAPLAN}")
    set(tool_dependency "${AP_ARENAPLAN}")
  endif()

  set(outputs "${header}")
  set(svg_args)
  if(AP_SVG)
    get_filename_component(svg "${AP_SVG}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    list(APPEND outputs "${svg}")
    set(svg_args --svg "${svg}")
  endif()

  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} -E make_directory "${header_dir}"
    COMMAND ${command} plan "${model}" --header "${header}"
            --namespace ${AP_NAMESPACE} ${svg_args} ${AP_OPTIONS}
    DEPENDS "${model}" ${tool_dependency}
    COMMENT "arenaplan: planning ${AP_MODEL}"
    VERBATIM)
  # Listing the header as a source makes TARGET's compilation wait for it.
  target_sources(${AP_TARGET} PRIVATE "${header}")
  target_include_directories(${AP_TARGET} PRIVATE "${header_dir}"
                             "${ARENAPLAN_CORE_INCLUDE_DIR}")
endfunction()
