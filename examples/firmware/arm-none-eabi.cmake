# CMake toolchain file for bare-metal Cortex-M with the Arm GNU toolchain
# (arm-none-eabi-gcc on PATH, or ARM_TOOLCHAIN_PREFIX=/path/bin/arm-none-eabi-).
#   cmake -S . -B build-arm --toolchain arm-none-eabi.cmake ...
# The CPU flags (-mcpu, -mthumb, the FPU) come from the board:
# arenaplan_firmware() gives them to the firmware target.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
if(NOT ARM_TOOLCHAIN_PREFIX)
  set(ARM_TOOLCHAIN_PREFIX arm-none-eabi-)
endif()
set(CMAKE_C_COMPILER ${ARM_TOOLCHAIN_PREFIX}gcc)
set(CMAKE_CXX_COMPILER ${ARM_TOOLCHAIN_PREFIX}g++)
set(CMAKE_ASM_COMPILER ${ARM_TOOLCHAIN_PREFIX}gcc)
# Without start-up code nothing links: try only compiling.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
# Programs (arenaplan, qemu-system-arm) and packages (arenaplan's) are the
# build machine's; libraries and headers would be the target's.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
