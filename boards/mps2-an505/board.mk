# ARM MPS2 with the AN505 FPGA image: Cortex-M33 (TrustZone, boots Secure)
# with single-precision FPU. Code in SSRAM1 and data in SSRAM2+3 through
# their Secure aliases. Memory map: QEMU hw/arm/mps2-tz.c; see docs/boards.md.
BOARD_CPU := cortex-m33
BOARD_FLOAT := -mfpu=fpv5-sp-d16 -mfloat-abi=hard
BOARD_QEMU_MACHINE := mps2-an505
BOARD_CODE_ORIGIN := 0x10000000
BOARD_CODE_LENGTH := 0x00400000
BOARD_RAM_ORIGIN := 0x38000000
BOARD_RAM_LENGTH := 0x00400000
BOARD_STACK_SIZE := 0x4000
