# arenaplan — top-level build.
#   make          build build/arenaplan (optimised)
#   make test     install what is missing, build, run every host test (under the
#                 sanitizers) and every on-target test; make test-all adds the
#                 host tests in the optimised build
#   make bench    run the benchmarks (Google Benchmark)
#   make demo     strategy table, arena beside TFLM's, --overlap, person detection in QEMU
SHELL := /bin/bash
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc)
SHARED ?= $(abspath ../shared)
ARENAPLAN := $(BUILD)/arenaplan
DEMO_MODEL ?= $(SHARED)/models/person_detect.tflite
DEMO_BOARD ?= mps2-an386

.PHONY: all bootstrap configure build test test-all test-host test-asan test-release-only test-person-detect bench demo clean format lint

all: build

bootstrap:
	@scripts/bootstrap.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null

configure: $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j$(JOBS)

# Sub-makes that run in parallel (e.g. one per board) pass
# ARENAPLAN_PREBUILT=1 so that they do not rebuild the CLI concurrently.
ifeq ($(ARENAPLAN_PREBUILT),)
$(ARENAPLAN): configure
	cmake --build $(BUILD) -j$(JOBS) --target arenaplan
endif

# The sanitizer build is optimised a little (-O1, as the sanitizers'
# documentation advises): the property tests' random searches run about
# three times faster than at -O0, and every check stays. It is built with
# clang (ASAN_CXX; the fuzz targets need it anyway): the same code took
# about 0.7 of GCC 12's compile time here, and the optimised build keeps
# GCC, so host code is compiled and warned about by both compilers.
ASAN_CXX ?= clang++
$(ASAN_BUILD)/CMakeCache.txt:
	CXX=$(ASAN_CXX) cmake -S . -B $(ASAN_BUILD) \
	  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
	  -DARENAPLAN_SANITIZE=ON >/dev/null

# Host tests in an optimised build.
test-host: build
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

# The same host tests under AddressSanitizer and UndefinedBehaviorSanitizer,
# except golden_plans_test: it checks bytes of output, not memory, and runs
# the CLI 256 times (about 6 minutes under the sanitizers), and
# report_browser_test: it checks pages in a browser (report_command_test
# runs `report` under the sanitizers).
ASAN_EXCLUDED := golden_plans_test report_browser_test
asan_empty :=
# ^(a|b)$: ctest's pattern for exactly the tests of ASAN_EXCLUDED.
ASAN_EXCLUDED_RE := ^($(subst $(asan_empty) ,|,$(strip $(ASAN_EXCLUDED))))$$
test-asan: $(ASAN_BUILD)/CMakeCache.txt
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j$(JOBS) -E '$(ASAN_EXCLUDED_RE)'

# The host tests test-asan leaves out, in the optimised build.
test-release-only: configure
	cmake --build $(BUILD) -j$(JOBS) --target arenaplan $(ASAN_EXCLUDED)
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) \
	  -R '$(ASAN_EXCLUDED_RE)'

# Parts add their own test targets to TEST_TARGETS in mk/*.mk.
TEST_TARGETS :=
-include $(sort $(wildcard mk/*.mk))

# person_detect on every board that holds it: every offsets strategy on one
# board (bit-exact against the host), the default plan on the others.
# lm3s6965evb (256 KiB of code memory) no longer holds the test firmware
# (the model, two images and the fast kernels: 263,820 bytes of code on a
# Cortex-M3, 1,676 over); `make run` still runs the MLPerf Tiny models that
# fit it.
PD_TEST_BOARDS ?= mps2-an385 mps2-an500 mps2-an505 mps3-an547
test-person-detect: $(ARENAPLAN)
	$(MAKE) --no-print-directory person-detect BOARD=$(DEMO_BOARD)
	@for b in $(PD_TEST_BOARDS); do \
	  $(MAKE) --no-print-directory person-detect BOARD=$$b PD_STRATEGIES=greedy-by-size || exit 1; \
	done
TEST_TARGETS += test-person-detect

# `make test` builds the host tests once, under the sanitizers (test-asan),
# and of the optimised build only the CLI and the two tests the sanitizer
# run leaves out (test-release-only); `make test-host` runs every host test
# in the optimised build too (`make test-all`: both, then the suites).
# Each part's wall time is printed after it (`make test: <part> <s> s`).
test: bootstrap
	@for t in test-asan test-release-only $(TEST_TARGETS); do \
	  s=$$(date +%s); $(MAKE) $$t || exit 1; \
	  echo "make test: $$t $$(( $$(date +%s) - s )) s"; \
	done
	@echo "make test: all test suites passed"

test-all: bootstrap
	$(MAKE) test-host
	$(MAKE) test-asan
	@for t in $(TEST_TARGETS); do $(MAKE) $$t || exit 1; done
	@echo "make test-all: all test suites passed"

bench: build
	@for b in $(BUILD)/*_bench; do echo "== $$b"; $$b --benchmark_min_time=0.2 || exit 1; done

# Builds only the CLI and one firmware image; prints about 30 lines.
demo: bootstrap
	@$(MAKE) -j1 --no-print-directory demo-plan demo-tflm demo-qemu

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp' '*.h' '*.c')

lint: build
	clang-tidy -p $(BUILD) $$(git ls-files 'codegen/*.cpp')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
