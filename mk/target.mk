# Firmware for the Cortex-M boards under boards/ and the on-target tests,
# run under qemu-system-arm. Included by the top-level Makefile; also works
# alone: `make -f mk/target.mk test-target-all` from the repository root.
#
#   make test-target BOARD=mps2-an385   build and run every image on a board
#   make test-target-all                every board (boards/*/board.mk)
#   make target-firmware BOARD=...      build a board's images, run nothing
#   make target-size BOARD=...          arm-none-eabi-size of the images
#
# Outputs go to build/target/<board>/ (generated plan headers to
# build/target/plans/). Each test image reports through semihosting and its
# exit status; tests/target/run_qemu.sh judges it (timeout TARGET_TIMEOUT s).

TARGET_TOP_MAKEFILE := $(firstword $(MAKEFILE_LIST))
TARGET_BOARDS := $(sort $(patsubst boards/%/board.mk,%,$(wildcard boards/*/board.mk)))
TARGET_OUT := build/target
ARM_CXX ?= arm-none-eabi-g++
ARM_SIZE ?= arm-none-eabi-size
ARM_NM ?= arm-none-eabi-nm
QEMU ?= qemu-system-arm
TARGET_TIMEOUT ?= 60
export QEMU TARGET_TIMEOUT ARM_NM

# The inputs whose plans the arena walk runs (ARENAPLAN_CLI, the generator,
# from the top-level Makefile): every model in the shared directory, one
# MiniMalloc example, and a synthetic problem that fits the small boards.
ARENAPLAN_SHARED ?= $(abspath ../shared)
TARGET_WALK_INPUTS ?= $(wildcard $(ARENAPLAN_SHARED)/models/*.tflite) \
  $(ARENAPLAN_SHARED)/benchmarks/minimalloc-challenging/example.12.csv \
  tests/target/data/synthetic_small.csv
# A problem whose smallest possible arena (80000 bytes, see the CSV) does not
# fit the small boards: linking it must fail with the arena ASSERT.
TARGET_TOO_BIG_INPUT := tests/target/data/too_big_for_small.csv
TARGET_PLANS := $(TARGET_OUT)/plans

.PHONY: test-target test-target-all target-firmware target-size target-plans

# `make test` runs the on-target tests of every board.
TEST_TARGETS += test-target-all
# Boards built and run at once by test-target-all (QEMU is single-threaded).
TARGET_JOBS ?= 2

test-target-all: target-plans
	@$(MAKE) --no-print-directory -j$(TARGET_JOBS) -f $(TARGET_TOP_MAKEFILE) \
	  ARENAPLAN_PREBUILT=1 $(addprefix target-board-,$(TARGET_BOARDS))

target-board-%:
	@$(MAKE) --no-print-directory -f $(TARGET_TOP_MAKEFILE) ARENAPLAN_PREBUILT=1 \
	  test-target BOARD=$*

# --- plan headers (board independent) --------------------------------------
target-plans: $(TARGET_PLANS)/index.txt

$(TARGET_PLANS)/index.txt: $(ARENAPLAN_CLI) tests/target/gen_plans.sh \
    $(TARGET_WALK_INPUTS) $(TARGET_TOO_BIG_INPUT)
	@tests/target/gen_plans.sh $(ARENAPLAN_CLI) $(TARGET_PLANS) \
	  $(TARGET_WALK_INPUTS)
	@tests/target/gen_plans.sh $(ARENAPLAN_CLI) $(TARGET_PLANS)/too_big \
	  $(TARGET_TOO_BIG_INPUT)

# --- one board ---------------------------------------------------------------
ifdef BOARD
ifeq ($(wildcard boards/$(BOARD)/board.mk),)
$(error BOARD=$(BOARD): no boards/$(BOARD)/board.mk; boards: $(TARGET_BOARDS))
endif
include boards/$(BOARD)/board.mk

TB := $(TARGET_OUT)/$(BOARD)
TARGET_ARCH_FLAGS := -mcpu=$(BOARD_CPU) -mthumb $(BOARD_FLOAT)
TARGET_CXXFLAGS := $(TARGET_ARCH_FLAGS) -std=c++17 -O2 -g \
  -ffreestanding -fno-exceptions -fno-rtti -nostdlib -fno-threadsafe-statics \
  -ffunction-sections -fdata-sections -Wall -Wextra -Werror \
  -I. -Icore/include -I$(TB) -I$(TARGET_PLANS) \
  -DARENAPLAN_BOARD='"$(BOARD)"' \
  -DARENAPLAN_RAM_LENGTH=$(BOARD_RAM_LENGTH) -MMD -MP
TARGET_DEFSYMS = -Wl,--defsym=__arenaplan_code_origin=$(BOARD_CODE_ORIGIN) \
  -Wl,--defsym=__arenaplan_code_length=$(BOARD_CODE_LENGTH) \
  -Wl,--defsym=__arenaplan_ram_origin=$(BOARD_RAM_ORIGIN) \
  -Wl,--defsym=__arenaplan_stack_size=$(BOARD_STACK_SIZE)
TARGET_LDFLAGS := $(TARGET_ARCH_FLAGS) -nostdlib -T port/cortex_m.ld \
  -Wl,--gc-sections $(TARGET_DEFSYMS)
TARGET_LIBS := -lgcc

TARGET_PORT_OBJS := $(patsubst port/%.cpp,$(TB)/port/%.o,$(wildcard port/*.cpp))
# Images run on every board: NAME:EXPECTED_STATUS[:REQUIRED_REGEX]. Status 3
# is port::kFaultExitStatus; walk_overlap must fail (status 1) exactly where
# its comment derives.
TARGET_RUNS := smoke:0:^smoke:.hello \
  exit_status:7:returning.7 \
  fault:3:^FAULT:.*pc=0x \
  core_runtime:0 \
  core_debug:0 \
  cost_runtime:0 \
  cost_baseline:0 \
  walk_overlap:1:FAILED.at.step.2:.tensor.1.lost.its.pattern.at.arena.offset.16 \
  walk:0:^walk:.[0-9]+.plans
TARGET_IMAGES := $(foreach r,$(TARGET_RUNS),$(firstword $(subst :, ,$(r))))
TARGET_ELFS := $(TARGET_IMAGES:%=$(TB)/%.elf)
# The arena budget of the walk: RAM minus the stack minus 2 KiB for the walk
# image's own .data and .bss.
TARGET_WALK_BUDGET = $(shell echo $$(( $(BOARD_RAM_LENGTH) - $(BOARD_STACK_SIZE) - 2048 )))
# Boards too small for tests/target/data/too_big_for_small.csv (80000 B).
TARGET_TOO_SMALL = $(shell [ $$(( $(BOARD_RAM_LENGTH) )) -lt 80000 ] && echo yes)

# Keep objects between runs (make would delete them as intermediates).
.SECONDARY: $(TARGET_PORT_OBJS) $(TARGET_IMAGES:%=$(TB)/obj/%.o)

target-firmware: $(TARGET_ELFS)

target-size: $(TARGET_ELFS)
	@$(ARM_SIZE) $(TARGET_ELFS)

test-target: $(TARGET_ELFS) target-cost target-link-fail
	@fail=0; for run in $(TARGET_RUNS); do \
	  name=$${run%%:*}; rest=$${run#*:}; status=$${rest%%:*}; \
	  regex=$${rest#*:}; [ "$$regex" = "$$rest" ] && regex=""; \
	  tests/target/run_qemu.sh "$(BOARD) $$name" $(BOARD_QEMU_MACHINE) \
	    $(TB)/$$name.elf $(TB)/$$name.log $$status "$$regex" || fail=1; \
	done; exit $$fail

# The runtime's cost: cost_runtime.elf minus cost_baseline.elf (same work,
# by hand). Fails unless the runtime adds 0 bytes of RAM and < 100 of code.
.PHONY: target-cost target-link-fail
target-cost: $(TB)/cost_runtime.elf $(TB)/cost_baseline.elf
	@$(ARM_SIZE) $^ | awk -v board=$(BOARD) ' \
	  NR == 2 { t = $$1; d = $$2; b = $$3 } \
	  NR == 3 { t -= $$1; d -= $$2; b -= $$3; \
	    printf "target %s runtime cost: %+d B code, %+d B .data, %+d B .bss\n", board, t, d, b; \
	    if (d != 0 || b != 0 || t >= 100) { print "target " board " runtime cost: FAILED (limits: 0 B RAM, < 100 B code)"; exit 1 } }'

# Linking the too-big plan must fail with the arena message of the linker
# script, naming the plan's 80000 bytes (boards with less RAM only).
ifeq ($(TARGET_TOO_SMALL),yes)
target-link-fail: $(TB)/obj/too_big.o $(TARGET_PORT_OBJS) port/cortex_m.ld
	@rm -f $(TB)/too_big.elf; \
	if $(MAKE) --no-print-directory -f $(TARGET_TOP_MAKEFILE) BOARD=$(BOARD) \
	    $(TB)/too_big.elf > $(TB)/too_big.link.log 2>&1; then \
	  echo "target $(BOARD) link-fail: FAILED: too_big.elf linked"; exit 1; fi; \
	if grep -qE 'arenaplan: the arena needs 80000 bytes but board $(BOARD) has [0-9]+ bytes of RAM left' \
	    $(TB)/too_big.link.log; then \
	  echo "target $(BOARD) link-fail: ok ($$(grep -oE 'the arena needs 80000 bytes[^"]*' $(TB)/too_big.link.log | head -n 1))"; \
	else echo "target $(BOARD) link-fail: FAILED: no arena message in $(TB)/too_big.link.log"; \
	  tail -n 5 $(TB)/too_big.link.log; exit 1; fi
else
target-link-fail:
	@echo "target $(BOARD) link-fail: not applicable ($(BOARD_RAM_LENGTH) bytes of RAM hold 80000)"
endif

$(TB)/obj/too_big.o: $(TARGET_PLANS)/index.txt
$(TB)/obj/walk.o: $(TB)/walk_plans.hpp
$(TB)/walk_plans.hpp: $(TARGET_PLANS)/index.txt tests/target/select_plans.sh \
    boards/$(BOARD)/board.mk
	@mkdir -p $(@D)
	@tests/target/select_plans.sh $< $(TARGET_WALK_BUDGET) $@
$(TB)/obj/core_debug.o: TARGET_EXTRA_FLAGS := -DARENAPLAN_DEBUG=1
# -Os: the optimisation the model firmware is built with (FW_OPT,
# scripts/firmware_lib.sh).
KP_TARGET_FLAGS = -Ikernels/include -Os $(KERNELS_PROPERTY_FLAGS)
$(TB)/obj/kernels_property.o: TARGET_EXTRA_FLAGS := $(KP_TARGET_FLAGS)
$(TB)/obj/kernels_property/%.o: TARGET_EXTRA_FLAGS := $(KP_TARGET_FLAGS)
# The property test's case families, one object each, linked into its image.
$(TB)/kernels_property.elf: $(patsubst tests/target/%.cpp,$(TB)/obj/%.o,\
  $(wildcard tests/target/kernels_property/*.cpp))

$(TB)/port/libc_min.o: TARGET_EXTRA_FLAGS := -fno-tree-loop-distribute-patterns

$(TB)/port/%.o: port/%.cpp boards/$(BOARD)/board.mk
	@mkdir -p $(@D)
	$(ARM_CXX) $(TARGET_CXXFLAGS) $(TARGET_EXTRA_FLAGS) -c $< -o $@

$(TB)/obj/%.o: tests/target/%.cpp boards/$(BOARD)/board.mk
	@mkdir -p $(@D)
	$(ARM_CXX) $(TARGET_CXXFLAGS) $(TARGET_EXTRA_FLAGS) -c $< -o $@

# Two links: a measuring one with RAM made large and the fit ASSERTs off
# (__arenaplan_measure), whose symbols give the exact arena size and the RAM
# left for it; they are written into arenaplan_fit.ld, the ASSERT message of
# the real link.
$(TB)/%.elf: $(TB)/obj/%.o $(TARGET_PORT_OBJS) port/cortex_m.ld \
    tests/target/fit_ld.sh
	@mkdir -p $(TB)/$*.ld && : > $(TB)/$*.ld/arenaplan_fit.ld
	@$(ARM_CXX) $(TARGET_LDFLAGS) -L$(TB)/$*.ld \
	  -Wl,--defsym=__arenaplan_ram_length=0x40000000 \
	  -Wl,--defsym=__arenaplan_measure=1 \
	  $(filter %.o,$^) $(TARGET_LIBS) -o $(TB)/$*.measure.elf
	@tests/target/fit_ld.sh $(TB)/$*.measure.elf $(BOARD) \
	  $(BOARD_RAM_ORIGIN) $(BOARD_RAM_LENGTH) $(BOARD_STACK_SIZE) \
	  > $(TB)/$*.ld/arenaplan_fit.ld
	$(ARM_CXX) $(TARGET_LDFLAGS) -L$(TB)/$*.ld \
	  -Wl,--defsym=__arenaplan_ram_length=$(BOARD_RAM_LENGTH) \
	  -Wl,-Map=$(TB)/$*.map $(filter %.o,$^) $(TARGET_LIBS) -o $@

-include $(wildcard $(TB)/port/*.d $(TB)/obj/*.d $(TB)/obj/*/*.d)
endif
