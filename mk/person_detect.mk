# person_detect end to end: the int8 model compiled by `arenaplan compile`,
# run on the host (reference: every tensor in its own buffer) and on a QEMU
# board, once per offsets strategy; every board run must print the host's
# lines byte for byte and classify both images.
#
#   make person-detect BOARD=mps2-an386     one board, every offsets strategy
#   make person-detect BOARD=... PD_STRATEGIES="greedy-by-size"
#   make person-detect-host                 the host reference only
#
# Works alone too: make -f mk/person_detect.mk person-detect BOARD=...
# Alone, the CLI of build/ (the top-level Makefile sets ARENAPLAN_CLI).
ARENAPLAN_CLI ?= build/arenaplan
ARENAPLAN_SHARED ?= $(abspath ../shared)
PD_OUT ?= build/person_detect
PD_HOST_CXX ?= g++
PD_STRATEGIES ?=
PD_HOST := $(PD_OUT)/host

.PHONY: person-detect person-detect-host

person-detect-host: $(PD_HOST)/expected.txt
	@cat $<

$(PD_HOST)/expected.txt: $(ARENAPLAN_CLI) tests/person_detect/gen_models.sh \
    tests/person_detect/host_runner.cpp tests/person_detect/bmp.hpp \
    tests/person_detect/models.hpp $(wildcard kernels/include/arenaplan/kernels/*.hpp) \
    $(ARENAPLAN_SHARED)/models/person_detect.tflite
	@mkdir -p $(PD_HOST)
	tests/person_detect/gen_models.sh $(ARENAPLAN_CLI) \
	  $(ARENAPLAN_SHARED)/models/person_detect.tflite $(PD_HOST)
	$(PD_HOST_CXX) -std=c++20 -O2 -Wall -Wextra -I. -Icore/include -Ikernels/include \
	  -I$(PD_HOST) -DARENAPLAN_NO_ARENA_SECTION tests/person_detect/host_runner.cpp \
	  $(PD_HOST)/all_models.cpp -o $(PD_HOST)/person_detect_host
	$(PD_HOST)/person_detect_host $(ARENAPLAN_SHARED)/images > $@.tmp
	@mv $@.tmp $@

person-detect: $(PD_HOST)/expected.txt
ifndef BOARD
	$(error person-detect needs BOARD=NAME (boards: $(notdir $(wildcard boards/*))))
endif
	@tests/person_detect/run_target.sh $(BOARD) $(ARENAPLAN_CLI) $(PD_OUT) \
	  $(ARENAPLAN_SHARED) $(PD_STRATEGIES)
