# The kernels' property test on the boards (tests/target/kernels_property.cpp,
# header comment; its cases in tests/target/kernels_property/): the same source built for the host and for each board of
# KERNELS_PROPERTY_BOARDS (a Cortex-M4 with the DSP extension, a Cortex-M3
# without, a Cortex-M55 with Helium: integer MVE); passes when every board
# runs all cases without a fast/reference mismatch and prints the host's
# digest lines, line for line.
#
#   make test-kernels-board [KERNELS_PROPERTY_BOARDS="mps2-an386 ..."]
#
# To find the first case where a board differs, build both sides with
# -DARENAPLAN_KERNELS_PROPERTY_TRACE (a digest line after every case; for the
# boards pass it as KERNELS_PROPERTY_FLAGS) and diff the outputs.
KERNELS_PROPERTY_BOARDS ?= mps2-an386 mps2-an385 mps3-an547
KP_OUT := build/target/kernels_property
KP_HOST := $(KP_OUT)/kernels_property_host
KP_HOST_CXX ?= g++
KP_CASES := $(wildcard tests/target/kernels_property/*.cpp)
KP_SOURCES := tests/target/kernels_property.cpp $(KP_CASES) \
  tests/target/host_port.cpp

.PHONY: test-kernels-board
TEST_TARGETS += test-kernels-board

$(KP_HOST): $(KP_SOURCES) $(wildcard tests/target/kernels_property/*.hpp) \
    $(wildcard kernels/include/arenaplan/kernels/*.hpp) \
    $(wildcard kernels/include/arenaplan/kernels/helium/*.hpp) \
    $(wildcard kernels/include/arenaplan/kernels/int16/*.hpp) \
    port/port.hpp
	@mkdir -p $(@D)
	$(KP_HOST_CXX) -std=c++17 -O2 -Wall -Wextra -Werror \
	  -DARENAPLAN_KERNELS_PROPERTY_HOST -I. -Icore/include -Ikernels/include \
	  $(KP_SOURCES) -o $@

test-kernels-board: $(KP_HOST)
	@$(KP_HOST) > $(KP_OUT)/host.log || { echo "kernels_property host: FAILED"; \
	  tail -n 5 $(KP_OUT)/host.log; exit 1; }
	@grep '^digest ' $(KP_OUT)/host.log > $(KP_OUT)/host.digests
	@$(MAKE) --no-print-directory -j$(words $(KERNELS_PROPERTY_BOARDS)) \
	  -f $(firstword $(MAKEFILE_LIST)) ARENAPLAN_PREBUILT=1 \
	  $(addprefix kernels-property-board-,$(KERNELS_PROPERTY_BOARDS))

kernels-property-board-%: $(KP_HOST)
	@$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) \
	  ARENAPLAN_PREBUILT=1 BOARD=$* build/target/$*/kernels_property.elf
	@tests/target/run_qemu.sh "$* kernels_property" \
	  $$(sed -n 's/^BOARD_QEMU_MACHINE := //p' boards/$*/board.mk) \
	  build/target/$*/kernels_property.elf build/target/$*/kernels_property.log 0 \
	  '^PASS kernels_property'
	@grep '^digest ' build/target/$*/kernels_property.log \
	  > build/target/$*/kernels_property.digests; \
	if diff $(KP_OUT)/host.digests build/target/$*/kernels_property.digests \
	    > build/target/$*/kernels_property.diff; then \
	  echo "target $* kernels_property: $$(wc -l < $(KP_OUT)/host.digests) digest lines equal the host's"; \
	else echo "target $* kernels_property: FAILED: digests differ from the host's (build/target/$*/kernels_property.diff)"; \
	  head -n 10 build/target/$*/kernels_property.diff; exit 1; fi
