# ArenaplanFirmware.cmake -- make an executable a firmware image for one of
# arenaplan's Cortex-M boards (boards/<BOARD>/board.mk), with the port's
# start-up code, semihosting console and link script (port/).
#
#   find_package(arenaplan CONFIG REQUIRED)     # the installed package, or
#   list(APPEND CMAKE_MODULE_PATH path/to/arenaplan/cmake)
#   include(ArenaplanFirmware)                  # this checkout's files
#   add_executable(firmware main.cpp)
#   arenaplan_firmware(TARGET firmware BOARD mps2-an386
#                      [QEMU_TARGET run]    # `cmake --build . --target run`
#                      [CONST_MEMORY])      # the model's constants in the
#                                           # board's CONST memory
#
# Needs a cross compiler for arm-none-eabi (examples/firmware/
# arm-none-eabi.cmake is a toolchain file). TARGET gets the board's
# -mcpu, -mthumb and floating-point flags (compile and link), the flags
# the port is written for (-ffreestanding -fno-exceptions -fno-rtti
# -fno-threadsafe-statics, one section per function and object), the
# port's sources (port/*.cpp: Reset_Handler calls main() and exits with
# its status through semihosting; port/port.hpp is `#include
# "port/port.hpp"`), and the link: port/cortex_m.ld with the board's
# memory as --defsym, -nostdlib, --gc-sections, libgcc. The arena check of
# cortex_m.ld applies, with its fixed message (scripts/firmware_lib.sh's
# measuring link, which writes the sizes into the message, is not run).
# QEMU_TARGET names a custom target that runs the image on the board's
# QEMU machine with semihosting (qemu-system-arm on PATH, or QEMU_SYSTEM_ARM).
# CONST_MEMORY, for a model whose code and constants exceed the board's
# code memory: TARGET's sources get ARENAPLAN_CONST_SECTION=".model_const"
# (the generated model's constant arrays in that section) and the link
# port/cortex_m_const.ld with the board's BOARD_CONST_ORIGIN and
# BOARD_CONST_LENGTH (e.g. mps3-an547's QSPI flash; docs/boards.md, "Model
# constants"); a board without them is an error.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/ArenaplanCommon.cmake)

# port/ and boards/ lie beside this file's directory in the source tree
# and in the installed package (share/arenaplan/).
get_filename_component(_arenaplan_data_dir "${CMAKE_CURRENT_LIST_DIR}/.."
                       ABSOLUTE)
set_property(GLOBAL PROPERTY ARENAPLAN_DATA_DIR "${_arenaplan_data_dir}")
unset(_arenaplan_data_dir)

# Sets BOARD_* in the caller's scope from `board`'s board.mk
# (`BOARD_NAME := value` lines).
function(_arenaplan_read_board data_dir board)
  set(file "${data_dir}/boards/${board}/board.mk")
  if(NOT EXISTS "${file}")
    file(GLOB boards RELATIVE "${data_dir}/boards" "${data_dir}/boards/*")
    message(FATAL_ERROR
      "arenaplan_firmware: no board ${board} (${file}); boards: ${boards}")
  endif()
  file(STRINGS "${file}" lines REGEX "^BOARD_[A-Z_]+ *:= *")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^(BOARD_[A-Z_]+) *:= *(.*)$" "\\1" name "${line}")
    string(REGEX REPLACE "^(BOARD_[A-Z_]+) *:= *(.*)$" "\\2" value "${line}")
    set(${name} "${value}" PARENT_SCOPE)
  endforeach()
endfunction()

function(arenaplan_firmware)
  cmake_parse_arguments(AP "CONST_MEMORY" "TARGET;BOARD;QEMU_TARGET" ""
                        ${ARGN})
  foreach(required TARGET BOARD)
    if(NOT AP_${required})
      message(FATAL_ERROR "arenaplan_firmware: ${required} is required")
    endif()
  endforeach()
  get_property(data_dir GLOBAL PROPERTY ARENAPLAN_DATA_DIR)
  _arenaplan_read_board("${data_dir}" "${AP_BOARD}")
  separate_arguments(float_flags UNIX_COMMAND "${BOARD_FLOAT}")
  set(arch -mcpu=${BOARD_CPU} -mthumb ${float_flags})

  file(GLOB port_sources "${data_dir}/port/*.cpp")
  target_sources(${AP_TARGET} PRIVATE ${port_sources})
  # The port's memcpy and friends must not become calls to themselves.
  set_source_files_properties("${data_dir}/port/libc_min.cpp" PROPERTIES
    COMPILE_OPTIONS -fno-tree-loop-distribute-patterns)
  target_include_directories(${AP_TARGET} PRIVATE "${data_dir}")
  target_link_libraries(${AP_TARGET} PRIVATE arenaplan::runtime)
  target_compile_options(${AP_TARGET} PRIVATE ${arch}
    -ffunction-sections -fdata-sections
    "$<$<COMPILE_LANGUAGE:CXX>:-ffreestanding;-fno-exceptions;-fno-rtti;-fno-threadsafe-statics>")

  # cortex_m.ld includes arenaplan_fit.ld from the library path: here an
  # empty one (see above).
  set(ld_dir "${CMAKE_CURRENT_BINARY_DIR}/arenaplan/ld")
  _arenaplan_stamp("${ld_dir}/arenaplan_fit.ld"
    "/* arenaplan_firmware(): no measuring link; cortex_m.ld's ASSERTs apply. */\n")
  set(script "${data_dir}/port/cortex_m.ld")
  set(const_options "")
  if(AP_CONST_MEMORY)
    if(NOT BOARD_CONST_ORIGIN OR NOT BOARD_CONST_LENGTH)
      message(FATAL_ERROR "arenaplan_firmware: CONST_MEMORY: board "
        "${AP_BOARD} names no CONST memory (BOARD_CONST_ORIGIN, "
        "BOARD_CONST_LENGTH in its board.mk)")
    endif()
    set(script "${data_dir}/port/cortex_m_const.ld")
    # cortex_m_const.ld includes cortex_m.ld from the -L path.
    set(const_options "-L${data_dir}/port"
      -Wl,--defsym=__arenaplan_const_origin=${BOARD_CONST_ORIGIN}
      -Wl,--defsym=__arenaplan_const_length=${BOARD_CONST_LENGTH})
    target_compile_definitions(${AP_TARGET} PRIVATE
      "ARENAPLAN_CONST_SECTION=\".model_const\"")
    set_property(TARGET ${AP_TARGET} APPEND PROPERTY LINK_DEPENDS
      "${data_dir}/port/cortex_m.ld")
  endif()
  target_link_options(${AP_TARGET} PRIVATE ${arch} -nostdlib
    "SHELL:-T \"${script}\"" "-L${ld_dir}" -Wl,--gc-sections
    -Wl,--defsym=__arenaplan_code_origin=${BOARD_CODE_ORIGIN}
    -Wl,--defsym=__arenaplan_code_length=${BOARD_CODE_LENGTH}
    -Wl,--defsym=__arenaplan_ram_origin=${BOARD_RAM_ORIGIN}
    -Wl,--defsym=__arenaplan_ram_length=${BOARD_RAM_LENGTH}
    -Wl,--defsym=__arenaplan_stack_size=${BOARD_STACK_SIZE}
    ${const_options})
  target_link_libraries(${AP_TARGET} PRIVATE gcc)
  set_property(TARGET ${AP_TARGET} APPEND PROPERTY LINK_DEPENDS "${script}")
  set_target_properties(${AP_TARGET} PROPERTIES
    ARENAPLAN_BOARD "${AP_BOARD}"
    ARENAPLAN_QEMU_MACHINE "${BOARD_QEMU_MACHINE}")

  if(AP_QEMU_TARGET)
    find_program(QEMU_SYSTEM_ARM qemu-system-arm)
    if(NOT QEMU_SYSTEM_ARM)
      message(WARNING "arenaplan_firmware: no qemu-system-arm; "
                      "no target ${AP_QEMU_TARGET}")
      return()
    endif()
    add_custom_target(${AP_QEMU_TARGET}
      COMMAND "${QEMU_SYSTEM_ARM}" -M ${BOARD_QEMU_MACHINE} -nographic
              -semihosting-config enable=on,target=native
              -kernel "$<TARGET_FILE:${AP_TARGET}>"
      DEPENDS ${AP_TARGET}
      COMMENT "Running ${AP_TARGET} on ${BOARD_QEMU_MACHINE} (QEMU)"
      USES_TERMINAL VERBATIM)
  endif()
endfunction()
