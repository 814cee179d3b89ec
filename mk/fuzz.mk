# libFuzzer targets (tests/fuzz/), built with clang and AddressSanitizer +
# UndefinedBehaviorSanitizer:
#   tflite_reader_fuzz  the TFLite reader, seeded from ../shared/models
#   records_plan_fuzz   the records CSV reader, every strategy, the exact
#                       search (against the brute force on tiny inputs),
#                       and, when the input's last line is "--region A B
#                       ...", ParseRegion, CheckRegions and PlanRegions on
#                       those values (names, sections, capacities); seeded
#                       from tests/fuzz/records_seeds and MiniMalloc's
#                       instances in ../shared/benchmarks
#   compile_lowering_fuzz  `compile` on mutated models (seeded from
#                       ../shared/models, the corpus, and one
#                       single-operator model per operator kind found
#                       there): every generated comment, literal,
#                       identifier and directive checked against what C++
#                       allows, every kernel parameter in range
#                       (tests/fuzz/kernel_params_check.hpp); the
#                       input's last byte picks plain, `--overlap` or two
#                       regions (`--region`)
# Seeds are copied into a temporary corpus directory at run time.
#   make fuzz-smoke   reproducible run for CI: a fixed number of inputs per
#                     target (FUZZ_SMOKE_RUNS_TFLITE, FUZZ_SMOKE_RUNS_RECORDS,
#                     FUZZ_SMOKE_RUNS_COMPILE; about 30 s, 35 s and 30 s
#                     here: the reader's later inputs are its slowest, 150,000
#                     took 114 s) from the fixed seed
#                     FUZZ_SEED, so a given commit passes or fails the same
#                     way on every machine; FUZZ_SMOKE_SECONDS caps a slow one
#   make fuzz         long run of each target from a fresh random seed
#                     (FUZZ_SECONDS each, default 1800 s), to find new faults
FUZZ_DIR ?= build-fuzz
FUZZ_CXX ?= clang++
FUZZ_SMOKE_RUNS_TFLITE ?= 50000
FUZZ_SMOKE_RUNS_RECORDS ?= 60000
FUZZ_SMOKE_RUNS_COMPILE ?= 4000
FUZZ_SEED ?= 1
FUZZ_SMOKE_SECONDS ?= 300
FUZZ_SECONDS ?= 1800
FUZZ_MODELS ?= $(CURDIR)/../shared/models
FUZZ_BENCHMARKS ?= $(CURDIR)/../shared/benchmarks/minimalloc-challenging
FUZZ_GEN := $(FUZZ_DIR)/generated/tflite_subset_generated.h
FUZZ_CXXFLAGS := -std=c++20 -gline-tables-only -O1 -MMD -MP \
                 -fsanitize=fuzzer-no-link,address,undefined \
                 -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
                 -I. -Icore/include -Ikernels/include -I$(FUZZ_DIR)/generated
FUZZ_LDFLAGS := -fsanitize=fuzzer,address,undefined

# Every generator source but main.cpp, compiled once for all targets, one
# translation unit per room (codegen/<room>/, as the CMake build groups
# them): FUZZ_DIR/unity/<room>.cpp includes the room's files, and is
# rewritten only when that list changes.
FUZZ_LIB_SRCS := $(filter-out codegen/main.cpp,$(wildcard codegen/*.cpp codegen/*/*.cpp codegen/*/*/*.cpp))
fuzz_room = $(subst /,_,$(patsubst %/,%,$(dir $(1))))
FUZZ_ROOMS := $(sort $(foreach f,$(FUZZ_LIB_SRCS),$(call fuzz_room,$(f))))
$(foreach r,$(FUZZ_ROOMS),$(eval FUZZ_ROOM_SRCS_$(r) := \
  $(foreach f,$(FUZZ_LIB_SRCS),$(if $(filter $(r),$(call fuzz_room,$(f))),$(f)))))
FUZZ_UNITY_SRCS := $(patsubst %,$(FUZZ_DIR)/unity/%.cpp,$(FUZZ_ROOMS))
FUZZ_LIB_OBJS := $(patsubst %.cpp,$(FUZZ_DIR)/obj/%.o,$(FUZZ_UNITY_SRCS))
FUZZ_TARGETS := tflite_reader_fuzz records_plan_fuzz compile_lowering_fuzz
FUZZ_BINS := $(addprefix $(FUZZ_DIR)/,$(FUZZ_TARGETS))
FUZZ_TARGET_OBJS := $(patsubst %,$(FUZZ_DIR)/obj/tests/fuzz/%.o,$(FUZZ_TARGETS))

# The objects are built once and kept: without this, make treats them as
# intermediate files of the pattern rules below and deletes them after
# linking, so every run recompiled the library. Header dependencies come
# from the compiler (-MMD -MP, the .d files beside the objects).
.SECONDARY: $(FUZZ_LIB_OBJS) $(FUZZ_TARGET_OBJS) $(FUZZ_GEN) $(FUZZ_UNITY_SRCS)
-include $(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_TARGET_OBJS:.o=.d)

$(FUZZ_GEN): codegen/tflite/tflite_subset.fbs
	mkdir -p $(FUZZ_DIR)/generated
	flatc --cpp --scoped-enums -o $(FUZZ_DIR)/generated $<

$(FUZZ_UNITY_SRCS): $(FUZZ_DIR)/unity/%.cpp: FORCE
	@mkdir -p $(dir $@)
	@printf '#include "%s"\n' $(FUZZ_ROOM_SRCS_$*) > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

.PHONY: FORCE
FORCE:

$(FUZZ_DIR)/obj/%.o: %.cpp | $(FUZZ_GEN)
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -c $< -o $@

$(FUZZ_DIR)/%_fuzz: $(FUZZ_DIR)/obj/tests/fuzz/%_fuzz.o $(FUZZ_LIB_OBJS)
	$(FUZZ_CXX) $(FUZZ_LDFLAGS) $^ -o $@

fuzz-bins: $(FUZZ_BINS)

# Runs target $(1) with the extra libFuzzer flags $(3) on a fresh corpus
# made of the files $(2).
define run_fuzzer
	@corpus=$$(mktemp -d) && cp $(2) $$corpus/ && \
	echo "== $(1)" && \
	$(FUZZ_DIR)/$(1) $(3) -max_len=400000 -rss_limit_mb=2048 \
	  -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/$(1)- $$corpus; \
	rc=$$?; rm -rf $$corpus; exit $$rc
endef

FUZZ_TFLITE_SEEDS = $(FUZZ_MODELS)/*.tflite
FUZZ_RECORDS_SEEDS = tests/fuzz/records_seeds/*.csv $(FUZZ_BENCHMARKS)/*.csv
# Plus the development corpus's models under -max_len: PAD, MEAN, SHAPE,
# STRIDED_SLICE, PACK, CONCATENATION, TRANSPOSE, float32 and uint8 graph
# edges, several outputs, UNIDIRECTIONAL_SEQUENCE_LSTM (tflm_mnist_lstm_int8,
# tflm_micro_speech_lstm) and a foldable SHAPE -> STRIDED_SLICE -> PACK ->
# FILL chain (armex_basic_lstm_s) (docs/operators.md, docs/compile.md).
FUZZ_CORPUS ?= $(CURDIR)/../shared/corpus
# And one single-operator model per operator kind of those models
# (fuzz-op-seeds: tests/fuzz/fuzz_seed_models.cpp), so that every lowering
# is reached from a small first input; tests/fuzz/compile_seeds holds one
# small model per operator no shared model has (written by the
# tests/host/compile/lower_*_test.cpp end-to-end tests with
# ARENAPLAN_WRITE_COMPILE_SEEDS=tests/fuzz/compile_seeds).
FUZZ_CORPUS_MODELS = $(shell find $(FUZZ_CORPUS) -name '*.tflite' -size -390k 2>/dev/null)
FUZZ_OP_SEEDS := $(FUZZ_DIR)/op_seeds
FUZZ_COMPILE_SEEDS = $(FUZZ_MODELS)/*.tflite $(FUZZ_CORPUS_MODELS) \
  tests/fuzz/compile_seeds/*.tflite $(FUZZ_OP_SEEDS)/*.tflite
FUZZ_SMOKE_FLAGS = -seed=$(FUZZ_SEED) -max_total_time=$(FUZZ_SMOKE_SECONDS)

TEST_TARGETS += fuzz-smoke

.PHONY: fuzz fuzz-smoke fuzz-bins fuzz-op-seeds
fuzz-op-seeds: configure
	@cmake --build $(BUILD) -j$(JOBS) --target fuzz_seed_models >/dev/null
	@rm -rf $(FUZZ_OP_SEEDS)
	@$(BUILD)/fuzz_seed_models $(FUZZ_OP_SEEDS) $(FUZZ_MODELS)/*.tflite \
	  $(FUZZ_CORPUS_MODELS) >/dev/null
	@echo "fuzz-op-seeds: $$(ls $(FUZZ_OP_SEEDS) | wc -l) single-operator models in $(FUZZ_OP_SEEDS)"

fuzz-smoke: fuzz-op-seeds
	$(MAKE) --no-print-directory -j$(JOBS) fuzz-bins
	$(call run_fuzzer,tflite_reader_fuzz,$(FUZZ_TFLITE_SEEDS),$(FUZZ_SMOKE_FLAGS) -runs=$(FUZZ_SMOKE_RUNS_TFLITE))
	$(call run_fuzzer,records_plan_fuzz,$(FUZZ_RECORDS_SEEDS),$(FUZZ_SMOKE_FLAGS) -runs=$(FUZZ_SMOKE_RUNS_RECORDS))
	$(call run_fuzzer,compile_lowering_fuzz,$(FUZZ_COMPILE_SEEDS),$(FUZZ_SMOKE_FLAGS) -runs=$(FUZZ_SMOKE_RUNS_COMPILE))

fuzz: fuzz-op-seeds
	$(MAKE) --no-print-directory -j$(JOBS) fuzz-bins
	$(call run_fuzzer,tflite_reader_fuzz,$(FUZZ_TFLITE_SEEDS),-max_total_time=$(FUZZ_SECONDS))
	$(call run_fuzzer,records_plan_fuzz,$(FUZZ_RECORDS_SEEDS),-max_total_time=$(FUZZ_SECONDS))
	$(call run_fuzzer,compile_lowering_fuzz,$(FUZZ_COMPILE_SEEDS),-max_total_time=$(FUZZ_SECONDS))
