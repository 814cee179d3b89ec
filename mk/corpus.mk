# The development corpus of real MCU models (../shared/corpus) against
# TensorFlow Lite Micro's outputs (../shared/corpus-reference):
#   make test-corpus [CORPUS_BOARDS="mps2-an386"] [OVERLAP=1] [FUSE=1]
#   make test-corpus-boards [CORPUS_BOARD_SET="mps2-an386 ..."]
# compiles every model; each one `arenaplan compile` accepts runs every
# seeded reference input on the host (its planned arena) and, with
# CORPUS_BOARDS, on those QEMU boards (run/reference.sh), every output
# compared byte for byte; models compile refuses are listed with the
# reason (run/corpus.sh, docs/operators.md). `make test` runs it on the
# host (about a minute); with a board it takes several.
CORPUS_DIR ?= $(ARENAPLAN_SHARED)/corpus
CORPUS_REFERENCE_DIR ?= $(ARENAPLAN_SHARED)/corpus-reference
CORPUS_BOARDS ?=
# QEMU seconds per run: the larger corpus models (mlperf_resnet_6blk) need
# more than run.sh's default 120 s on a loaded machine.
CORPUS_TIMEOUT ?= 600

# The whole corpus on every board of CORPUS_BOARD_SET as well
# (`make test-corpus-boards`): every reference input of every accepted
# model, and each NOREF model once with a zero input, on the board and on
# the host. It takes about 15 minutes on 2 cores (docs/operators.md, "The
# corpus"), so it is not in `make test`.
CORPUS_BOARD_SET ?= mps2-an386
# CORPUS_MODELS="NAME ...": only these corpus models (both targets); empty:
# all of them.
CORPUS_MODELS ?=

.PHONY: test-corpus test-corpus-boards
test-corpus: run-cli
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) RUN_OVERLAP=$(OVERLAP) RUN_FUSE=$(FUSE) \
	  RUN_CORPUS_MODELS="$(CORPUS_MODELS)" TARGET_TIMEOUT=$(CORPUS_TIMEOUT) run/corpus.sh "$(CORPUS_DIR)" \
	  "$(CORPUS_REFERENCE_DIR)" $(CORPUS_BOARDS)
TEST_TARGETS += test-corpus

test-corpus-boards: run-cli
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) RUN_OVERLAP=$(OVERLAP) RUN_FUSE=$(FUSE) \
	  RUN_CORPUS_MODELS="$(CORPUS_MODELS)" TARGET_TIMEOUT=$(CORPUS_TIMEOUT) run/corpus.sh "$(CORPUS_DIR)" \
	  "$(CORPUS_REFERENCE_DIR)" $(CORPUS_BOARD_SET)
