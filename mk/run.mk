# Any int8 .tflite model on a QEMU board (run/run.sh; README "make run"):
#   make run MODEL=path.tflite [BOARD=mps2-an386] [INPUT=in.bin]
#            [OUTPUT=out.bin] [STRATEGY=best]
# compiles the model ahead of time, runs one inference on BOARD under QEMU
# and on the host (naive plan), and fails unless both give the same bytes.
#
#   make test-reference   every input in ../shared/reference on the host and
#                         on REF_BOARDS (default mps2-an386), each output
#                         compared byte for byte with TensorFlow Lite
#                         Micro's; part of `make test`
#   make test-models      the same on every board of MODELS_BOARDS, and the
#                         instructions per inference (QEMU -icount) on
#                         mps2-an386; not part of `make test`
ARENAPLAN_CLI ?= build/arenaplan
ARENAPLAN_SHARED ?= $(abspath ../shared)
RUN_BOARD_DEFAULT := mps2-an386
REFERENCE_DIR ?= $(ARENAPLAN_SHARED)/reference
REF_BOARDS ?= mps2-an386
MODELS_BOARDS ?= mps2-an385 mps2-an386 mps2-an500 mps2-an505 mps3-an547

.PHONY: run run-cli test-reference test-models

# Only the CLI, not every test target of the build.
run-cli: configure
ifeq ($(ARENAPLAN_PREBUILT),)
	@cmake --build $(BUILD) -j$(JOBS) --target arenaplan >/dev/null
endif

run: run-cli
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) run/run.sh "$(MODEL)" \
	  "$(or $(BOARD),$(RUN_BOARD_DEFAULT))" "$(INPUT)" "$(OUTPUT)" \
	  "$(or $(STRATEGY),best)"

test-reference: run-cli
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) run/reference.sh "$(REFERENCE_DIR)" \
	  "$(ARENAPLAN_SHARED)/models" $(REF_BOARDS)

test-models: run-cli
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) RUN_ICOUNT_BOARD=mps2-an386 \
	  run/reference.sh "$(REFERENCE_DIR)" "$(ARENAPLAN_SHARED)/models" \
	  $(MODELS_BOARDS)

TEST_TARGETS += test-reference
