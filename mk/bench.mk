# Instructions per inference (QEMU -icount), flash and RAM of the compiled
# firmware for the shared MLPerf Tiny models and person_detect, with and
# without --overlap, on the Cortex-M4, M7 and M55 (Helium) boards
# (scripts/bench_firmware.sh; docs/results-firmware.md, docs/results-helium.md);
# not part of `make test`:
#   make bench-firmware [BENCH_BOARDS="mps2-an386 mps2-an500 mps3-an547"]
BENCH_BOARDS ?= mps2-an386 mps2-an500 mps3-an547

.PHONY: bench-firmware
bench-firmware: run-cli
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) scripts/bench_firmware.sh \
	  "$(ARENAPLAN_SHARED)/models" $(BENCH_BOARDS)
