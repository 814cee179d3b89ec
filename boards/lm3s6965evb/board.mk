# TI Stellaris LM3S6965 evaluation board: Cortex-M3, no FPU, 256 KiB flash,
# 64 KiB SRAM. The small board. Memory map: QEMU hw/arm/stellaris.c.
BOARD_CPU := cortex-m3
BOARD_FLOAT := -mfloat-abi=soft
BOARD_QEMU_MACHINE := lm3s6965evb
BOARD_CODE_ORIGIN := 0x00000000
BOARD_CODE_LENGTH := 0x00040000
BOARD_RAM_ORIGIN := 0x20000000
BOARD_RAM_LENGTH := 0x00010000
BOARD_STACK_SIZE := 0x1000
