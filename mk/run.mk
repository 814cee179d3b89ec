# Any int8 or float32 .tflite model on a QEMU board (run/run.sh; README
# "make run"):
#   make run MODEL=path.tflite [BOARD=mps2-an386] [INPUT=in.bin]
#            [OUTPUT=out.bin] [STRATEGY=best] [OVERLAP=1]
#            [REGIONS="dtcm:32768 ram:1048576"]  (docs/regions.md)
# compiles the model ahead of time, runs one inference on BOARD under QEMU
# and on the host (naive plan), and fails unless both give the same bytes.
# OVERLAP=1 plans the firmware with --overlap (docs/overlap.md).
# PROFILE=1 also runs the image with every operator marked and prints
# instructions per operator (run/profile_table.pl); with RUN_ICOUNT=1 it
# fails unless their sum is within 1 % of the unprofiled inference's.
# MIX=1 also prints the inference's instruction mix (vector, floating
# point, loop, scalar; run/instruction_mix.pl); with RUN_ICOUNT=1 it fails
# unless the block log's count is within 0.1 % of the counter's.
#
#   make test-reference   every input in ../shared/reference on the host and
#                         on REF_BOARDS (default mps2-an386), each output
#                         compared byte for byte with TensorFlow Lite
#                         Micro's; part of `make test`
#   make test-models      the same on every board of MODELS_BOARDS, and the
#                         instructions per inference (QEMU -icount) on
#                         mps2-an386; not part of `make test`
ARENAPLAN_SHARED ?= $(abspath ../shared)
RUN_BOARD_DEFAULT := mps2-an386
REFERENCE_DIR ?= $(ARENAPLAN_SHARED)/reference
REF_BOARDS ?= mps2-an386
# The five boards every MLPerf Tiny model fits, and two small ones where
# some do not (their lines say SKIP and why).
MODELS_BOARDS ?= mps2-an385 mps2-an386 mps2-an500 mps2-an505 mps3-an547 \
  lm3s6965evb microbit

.PHONY: run run-cli test-reference test-models

# Only the CLI, not every test target of the build.
run-cli: configure
ifeq ($(ARENAPLAN_PREBUILT),)
	@cmake --build $(BUILD) -j$(JOBS) --target arenaplan >/dev/null
endif

# The values reach run/run.sh through the environment, unexpanded
# ($(value ...)): nothing of them is pasted into the command line (and
# mk/args.mk has refused the characters a path must not hold).
run: export ARENAPLAN_CLI := $(value ARENAPLAN_CLI)
run: export RUN_OVERLAP := $(value OVERLAP)
run: export RUN_FUSE := $(value FUSE)
run: export RUN_PROFILE := $(value PROFILE)
run: export RUN_MIX := $(value MIX)
run: export RUN_REGIONS := $(value REGIONS)
run: export RUN_ARG_MODEL := $(value MODEL)
run: export RUN_ARG_BOARD := $(or $(value BOARD),$(RUN_BOARD_DEFAULT))
run: export RUN_ARG_INPUT := $(value INPUT)
run: export RUN_ARG_OUTPUT := $(value OUTPUT)
run: export RUN_ARG_STRATEGY := $(or $(value STRATEGY),best)
run: run-cli
	@run/run.sh "$$RUN_ARG_MODEL" "$$RUN_ARG_BOARD" "$$RUN_ARG_INPUT" \
	  "$$RUN_ARG_OUTPUT" "$$RUN_ARG_STRATEGY"

test-reference: run-cli run-input-size
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) RUN_OVERLAP=$(OVERLAP) RUN_FUSE=$(FUSE) run/reference.sh \
	  "$(REFERENCE_DIR)" "$(ARENAPLAN_SHARED)/models" $(REF_BOARDS)

# An INPUT whose size is not the input tensor's is refused, exit 2:
# kws_ref_model takes int8 [1,49,10,1] = 490 bytes, ad01's inputs are 640.
.PHONY: run-input-size
run-input-size: run-cli
	@mkdir -p $(BUILD)/run; status=0; \
	ARENAPLAN_CLI=$(ARENAPLAN_CLI) run/run.sh \
	  $(ARENAPLAN_SHARED)/models/kws_ref_model.tflite $(RUN_BOARD_DEFAULT) \
	  $(REFERENCE_DIR)/ad01_int8/sample.in.bin "" best \
	  > $(BUILD)/run/input_size.log 2>&1 || status=$$?; \
	if [ $$status -eq 2 ] && grep -q "has 640 bytes, but the model's input tensor has 490$$" \
	    $(BUILD)/run/input_size.log; then \
	  echo "run: an INPUT of the wrong size is refused (exit 2): PASS"; \
	else echo "run: an INPUT of the wrong size: FAIL (exit $$status)"; \
	  cat $(BUILD)/run/input_size.log; exit 1; fi

test-models: run-cli
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) RUN_ICOUNT_BOARD=mps2-an386 \
	  run/reference.sh "$(REFERENCE_DIR)" "$(ARENAPLAN_SHARED)/models" \
	  $(MODELS_BOARDS)

TEST_TARGETS += test-reference

# The overlapped plans on the board (docs/overlap.md): kws_ref_model's
# sample and vww_96_int8's rand1 inputs with OVERLAP=1 on mps2-an386, each output
# compared with TensorFlow Lite Micro's (run.sh also compares it with the
# host's naive plan); part of `make test`, about 20 s.
.PHONY: test-overlap-run
test-overlap-run: run-cli
	@mkdir -p $(BUILD)/run; for c in kws_ref_model/sample vww_96_int8/rand1; do \
	  m=$${c%/*}; \
	  ARENAPLAN_CLI=$(ARENAPLAN_CLI) RUN_OVERLAP=1 run/run.sh \
	    $(ARENAPLAN_SHARED)/models/$$m.tflite $(RUN_BOARD_DEFAULT) \
	    $(REFERENCE_DIR)/$$c.in.bin $(BUILD)/run/overlap.$$m.out.bin \
	    best > $(BUILD)/run/overlap.$$m.log 2>&1 && \
	  cmp -s $(BUILD)/run/overlap.$$m.out.bin \
	    $(REFERENCE_DIR)/$$c.out.bin && \
	  grep -q '(overlap): arena' $(BUILD)/run/overlap.$$m.log && \
	  echo "overlap run $$m $(RUN_BOARD_DEFAULT): PASS ($$(sed -n 's/.*(overlap): \(arena [0-9]* bytes\).*/\1/p' $(BUILD)/run/overlap.$$m.log))" || \
	  { echo "overlap run $$m $(RUN_BOARD_DEFAULT): FAIL"; \
	    cat $(BUILD)/run/overlap.$$m.log; exit 1; }; done

TEST_TARGETS += test-overlap-run

# `make run` variables hold data, never code (tests/run/args_check.sh,
# issue 27): values with '$', quotes, backquotes, blanks or newlines are
# refused with exit 2 and run nothing; OUTPUT naming a directory and
# REGIONS with '*' are refused. Part of `make test`, about 30 s.
# tests/run/stale_check.sh: when an object of `make run` is built again.
.PHONY: test-run-args
test-run-args: run-cli
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) tests/run/args_check.sh $(ARENAPLAN_SHARED)
	@tests/run/stale_check.sh

TEST_TARGETS += test-run-args

# A model's constants in the board's CONST memory when the code memory
# cannot hold them (tests/run/const_check.sh; docs/boards.md, "Model
# constants"): tflm_id_model on mps3-an547 (constants in the QSPI flash)
# against TFLM's bytes, kws_ref_model with its constants beside the code as
# before, and constants larger than the CONST memory refused at link time.
# Part of `make test`.
.PHONY: test-const-memory
test-const-memory: run-cli
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) tests/run/const_check.sh $(ARENAPLAN_SHARED)

TEST_TARGETS += test-const-memory

# face_detection_short_range (float32, its FLOAT16 constants widened at
# generation time) on FACE_BOARDS: the output equals TFLM's for the model
# widened (the SHA-256 of lower_float_test) and the host's
# (tests/run/face_detection_check.sh). On mps3-an547 its constants go to the
# QSPI flash (docs/boards.md). Part of `make test`, about a minute.
# OVERLAP=1 plans it with --overlap (run/run.sh's RUN_OVERLAP); FUSE=1
# compiles it with --fuse (RUN_FUSE; no REGIONS run, the fused arena fits
# one memory).
FACE_BOARDS ?= mps2-an386 mps3-an547
.PHONY: test-face-detection
test-face-detection: run-cli
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) RUN_OVERLAP=$(OVERLAP) RUN_FUSE=$(FUSE) \
	  tests/run/face_detection_check.sh $(ARENAPLAN_SHARED) $(FACE_BOARDS)

TEST_TARGETS += test-face-detection
