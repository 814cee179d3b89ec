# BBC micro:bit (nRF51822): Cortex-M0, no FPU, 256 KiB flash, 16 KiB SRAM.
# Memory map: QEMU hw/arm/nrf51_soc.c and docs/system/arm/nrf.rst.
BOARD_CPU := cortex-m0
BOARD_FLOAT := -mfloat-abi=soft
BOARD_QEMU_MACHINE := microbit
BOARD_CODE_ORIGIN := 0x00000000
BOARD_CODE_LENGTH := 0x00040000
BOARD_RAM_ORIGIN := 0x20000000
BOARD_RAM_LENGTH := 0x00004000
BOARD_STACK_SIZE := 0x800
