# ARM MPS2 with the AN386 FPGA image: Cortex-M4 with single-precision FPU.
# Memory map: QEMU hw/arm/mps2.c and docs/system/arm/mps2.rst; see docs/boards.md.
BOARD_CPU := cortex-m4
BOARD_FLOAT := -mfpu=fpv4-sp-d16 -mfloat-abi=hard
BOARD_QEMU_MACHINE := mps2-an386
BOARD_CODE_ORIGIN := 0x00000000
BOARD_CODE_LENGTH := 0x00400000
BOARD_RAM_ORIGIN := 0x20000000
BOARD_RAM_LENGTH := 0x00400000
BOARD_STACK_SIZE := 0x4000
# Memories beside RAM that a plan's regions may name (run/run.sh): the
# FPGA block RAM, 16 KiB at 0x01000000 (QEMU mps.blockram, mirrored up to
# 0x0100ffff), unused otherwise.
BOARD_MEMORIES := BLOCKRAM
BOARD_BLOCKRAM_ORIGIN := 0x01000000
BOARD_BLOCKRAM_LENGTH := 0x00004000
