# libFuzzer target over the TFLite reader (tests/fuzz/), built with clang and
# AddressSanitizer + UndefinedBehaviorSanitizer, seeded from ../shared/models
# (copied into a temporary corpus directory at run time).
#   make fuzz-smoke   reproducible run for CI: FUZZ_SMOKE_RUNS inputs from
#                     the fixed seed FUZZ_SEED (about 40 s here), so a given
#                     commit passes or fails the same way on every machine;
#                     FUZZ_SMOKE_SECONDS caps it on a slow machine
#   make fuzz         long run from a fresh random seed (FUZZ_SECONDS,
#                     default 1800 s), for finding new crashes
FUZZ_DIR ?= build-fuzz
FUZZ_CXX ?= clang++
FUZZ_SMOKE_RUNS ?= 150000
FUZZ_SEED ?= 1
FUZZ_SMOKE_SECONDS ?= 300
FUZZ_SECONDS ?= 1800
FUZZ_MODELS ?= $(CURDIR)/../shared/models
FUZZ_BIN := $(FUZZ_DIR)/tflite_reader_fuzz
FUZZ_GEN := $(FUZZ_DIR)/generated/tflite_subset_generated.h
FUZZ_SRCS := tests/fuzz/tflite_reader_fuzz.cpp codegen/tflite/model.cpp \
             codegen/tflite/problem.cpp codegen/tflite/tflm.cpp
FUZZ_FLAGS := -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined \
              -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
              -I. -Icore/include -I$(FUZZ_DIR)/generated

$(FUZZ_GEN): codegen/tflite/tflite_subset.fbs
	mkdir -p $(FUZZ_DIR)/generated
	flatc --cpp --scoped-enums -o $(FUZZ_DIR)/generated $<

$(FUZZ_BIN): $(FUZZ_SRCS) $(FUZZ_GEN) $(wildcard codegen/tflite/*.hpp)
	$(FUZZ_CXX) $(FUZZ_FLAGS) $(FUZZ_SRCS) -o $@

# Runs the fuzzer on a fresh copy of the seed models with the extra
# libFuzzer flags $(1).
define run_tflite_fuzzer
	@corpus=$$(mktemp -d) && cp $(FUZZ_MODELS)/*.tflite $$corpus/ && \
	$(FUZZ_BIN) $(1) -max_len=400000 -rss_limit_mb=2048 \
	  -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/ $$corpus; \
	rc=$$?; rm -rf $$corpus; exit $$rc
endef

TEST_TARGETS += fuzz-smoke

.PHONY: fuzz fuzz-smoke
fuzz-smoke: $(FUZZ_BIN)
	$(call run_tflite_fuzzer,-seed=$(FUZZ_SEED) -runs=$(FUZZ_SMOKE_RUNS) -max_total_time=$(FUZZ_SMOKE_SECONDS))

fuzz: $(FUZZ_BIN)
	$(call run_tflite_fuzzer,-max_total_time=$(FUZZ_SECONDS))
