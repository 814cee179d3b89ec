# The property test of `compile` without an oracle
# (tests/host/compile/planned_equals_naive_test.cpp, docs/compile.md): random
# graphs compiled in every mode must give the output bytes of the naive plan.
# `make test` runs it as a ctest under the sanitizers on 300 graphs, `make
# test-host` on 2,000 (seeds 0 .. 1999); this
# target runs it on more:
#
#   make test-property [PROPERTY_GRAPHS=10000] [PROPERTY_FIRST=0] [PROPERTY_JOBS=2]
#
# PROPERTY_GRAPHS graphs from seed PROPERTY_FIRST, PROPERTY_JOBS units
# compiled at once. A failing graph's .tflite is kept and its path printed.
PROPERTY_GRAPHS ?= 10000
PROPERTY_FIRST ?= 0
PROPERTY_JOBS ?= 2

.PHONY: test-property
test-property: configure
	cmake --build $(BUILD) -j$(JOBS) --target arenaplan planned_equals_naive_test
	cd $(BUILD) && ARENAPLAN_PROPERTY_GRAPHS=$(PROPERTY_GRAPHS) \
	  ARENAPLAN_PROPERTY_FIRST=$(PROPERTY_FIRST) \
	  ARENAPLAN_PROPERTY_JOBS=$(PROPERTY_JOBS) ./planned_equals_naive_test
