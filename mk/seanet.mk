# TensorFlow Lite Micro's SEANet integration suite (127 int16 layer models
# with their inputs and golden outputs as CSV), read from a TFLM checkout
# (the repository holds none of its files):
#   make test-seanet SEANET_DIR=PATH [SEANET_BOARDS="mps2-an386"]
#                    [SEANET_MODELS="conv0 add3"] [OVERLAP=1] [FUSE=1]
# PATH is the checkout's root or its
# tensorflow/lite/micro/integration_tests/seanet directory. Each model is
# compiled (default plan), run on the host and on each board of
# SEANET_BOARDS under QEMU, and its output compared byte for byte with the
# golden CSV (run/seanet.sh): one PASS/FAIL line per model, a summary, exit
# non-zero on any failure. Without SEANET_DIR the target says it is skipped
# and succeeds. Not part of `make test` (the data are not in the tree nor
# in CI); on 2 shared cores it takes about 20 minutes with one board.
SEANET_DIR ?=
SEANET_BOARDS ?= mps2-an386
SEANET_MODELS ?=
# QEMU seconds per run (run/run.sh's default is 120 s).
SEANET_TIMEOUT ?= 600

.PHONY: test-seanet
test-seanet: export RUN_SEANET_DIR := $(value SEANET_DIR)
test-seanet: export RUN_SEANET_MODELS := $(value SEANET_MODELS)
test-seanet: export RUN_SEANET_BOARDS := $(value SEANET_BOARDS)
test-seanet:
	@if [ -z "$$RUN_SEANET_DIR" ]; then \
	  echo "test-seanet: skipped (set SEANET_DIR to a TensorFlow Lite Micro checkout or its integration_tests/seanet directory)"; \
	else \
	  $(MAKE) --no-print-directory run-cli && \
	  ARENAPLAN_CLI=$(ARENAPLAN_CLI) TARGET_TIMEOUT=$(SEANET_TIMEOUT) \
	    RUN_OVERLAP=$(OVERLAP) RUN_FUSE=$(FUSE) \
	    run/seanet.sh "$$RUN_SEANET_DIR" $$RUN_SEANET_BOARDS; \
	fi
