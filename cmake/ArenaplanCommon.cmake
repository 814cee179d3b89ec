# ArenaplanCommon.cmake -- what arenaplan_generate(), arenaplan_compile()
# and arenaplan_firmware() share: the arenaplan tool to run and the
# header-only runtime target.
#
# The same files serve the source tree (cmake/ beside core/, kernels/,
# port/ and boards/) and the installed package (share/arenaplan/cmake beside
# share/arenaplan/port and share/arenaplan/boards; the headers in
# <prefix>/include through arenaplan::runtime, which the package's
# arenaplanTargets.cmake defines before this file is read).
include_guard(GLOBAL)

# arenaplan::runtime: core/ and kernels/ (header-only, C++17). Defined here
# only when neither the package nor the source tree's build defined it:
# a project that puts this checkout's cmake/ on CMAKE_MODULE_PATH.
if(NOT TARGET arenaplan::runtime AND
   EXISTS "${CMAKE_CURRENT_LIST_DIR}/../core/include/arenaplan/plan.hpp")
  add_library(arenaplan::runtime INTERFACE IMPORTED GLOBAL)
  set_target_properties(arenaplan::runtime PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES
      "${CMAKE_CURRENT_LIST_DIR}/../core/include;${CMAKE_CURRENT_LIST_DIR}/../kernels/include"
    INTERFACE_COMPILE_FEATURES cxx_std_17)
endif()

# Sets `out_command` to the arenaplan command line's first word (a path or
# a $<TARGET_FILE:...> expression) and `out_depends` to what a custom
# command running it must depend on, so that a rebuilt or reinstalled tool
# regenerates its outputs. `requested` is the caller's ARENAPLAN argument
# (a binary or a target; may be empty). Without it: the target `arenaplan`
# (this repository's build), else arenaplan::arenaplan (the installed
# package), else ARENAPLAN_EXECUTABLE, else `arenaplan` on PATH.
function(_arenaplan_tool out_command out_depends requested)
  set(tool "${requested}")
  if(NOT tool)
    if(TARGET arenaplan)
      set(tool arenaplan)
    elseif(TARGET arenaplan::arenaplan)
      set(tool arenaplan::arenaplan)
    elseif(ARENAPLAN_EXECUTABLE)
      set(tool "${ARENAPLAN_EXECUTABLE}")
    else()
      find_program(ARENAPLAN_EXECUTABLE arenaplan REQUIRED)
      set(tool "${ARENAPLAN_EXECUTABLE}")
    endif()
  endif()
  if(TARGET ${tool})
    set(${out_command} "$<TARGET_FILE:${tool}>" PARENT_SCOPE)
    # A target built here: its name (built first, and a file-level
    # dependency); an imported one: its file.
    get_target_property(imported ${tool} IMPORTED)
    if(imported)
      set(${out_depends} "$<TARGET_FILE:${tool}>" PARENT_SCOPE)
    else()
      set(${out_depends} ${tool} PARENT_SCOPE)
    endif()
  else()
    set(${out_command} "${tool}" PARENT_SCOPE)
    set(${out_depends} "${tool}" PARENT_SCOPE)
  endif()
endfunction()

# Writes `text` to `file` only when the file's contents differ (creating
# its directory), so that a custom command depending on `file` reruns
# exactly when `text` changes: the options of a generator run, which a
# custom command's own command line does not track under every generator.
function(_arenaplan_stamp file text)
  if(EXISTS "${file}")
    file(READ "${file}" old)
    if(old STREQUAL text)
      return()
    endif()
  endif()
  file(WRITE "${file}" "${text}")
endfunction()
