# ARM MPS3 with the AN547 FPGA image: Cortex-M55 (SSE-300, boots Secure)
# with FPU and MVE. Code in ITCM (512 KiB at 0x0); data in the 2 MiB SRAM
# at 0x01000000. DTCM (512 KiB at 0x20000000) holds only the region named
# dtcm of a plan across memory regions (make run REGIONS=..., docs/regions.md).
# A model whose code and constants exceed the ITCM keeps its code there and
# its constant arrays in the 8 MiB QSPI flash at 0x28000000 (CONST; QEMU
# models it as ROM; port/cortex_m_const.ld, docs/boards.md).
# Memory map: QEMU hw/arm/mps2-tz.c and hw/arm/armsse.c; see docs/boards.md.
BOARD_CPU := cortex-m55
BOARD_FLOAT := -mfloat-abi=hard
BOARD_QEMU_MACHINE := mps3-an547
BOARD_CODE_ORIGIN := 0x00000000
BOARD_CODE_LENGTH := 0x00080000
BOARD_RAM_ORIGIN := 0x01000000
BOARD_RAM_LENGTH := 0x00200000
BOARD_STACK_SIZE := 0x4000
# Memories beside RAM that a plan's regions may name (run/run.sh).
BOARD_MEMORIES := DTCM
BOARD_DTCM_ORIGIN := 0x20000000
BOARD_DTCM_LENGTH := 0x00080000
# Read-only memory for a model's constant arrays when the code memory cannot
# hold them (run/run.sh, port/cortex_m_const.ld).
BOARD_CONST_ORIGIN := 0x28000000
BOARD_CONST_LENGTH := 0x00800000
