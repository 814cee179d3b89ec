# The example on the host with make instead of CMake, through the make
# fragment of the installed package (share/arenaplan/arenaplan.mk):
#   make -f host.mk ARENAPLAN_PREFIX=<arenaplan prefix> MODEL=model.tflite \
#        INPUT=input.bin [OUT=build-make]
#   build-make/example          prints `output <hex>`, as the CMake build
all: $(OUT)/example

ARENAPLAN_PREFIX ?= /usr/local
OUT ?= build-make
CXX ?= g++
CXXFLAGS ?= -O2
include $(ARENAPLAN_PREFIX)/share/arenaplan/arenaplan.mk
$(eval $(call arenaplan_compiled_model,$(MODEL),$(OUT)/gen,model,))

EXAMPLE_FLAGS := -std=c++17 -Wall -Wextra -DARENAPLAN_NO_ARENA_SECTION \
  -DEXAMPLE_HOST -DEXAMPLE_INPUT_FILE='"$(INPUT)"'
$(OUT)/main.o: main.cpp $(INPUT) $(OUT)/gen/model_model.hpp
	$(CXX) $(CPPFLAGS) $(EXAMPLE_FLAGS) $(CXXFLAGS) -c $< -o $@
$(OUT)/%.o: $(OUT)/gen/%.cpp
	$(CXX) $(CPPFLAGS) $(EXAMPLE_FLAGS) $(CXXFLAGS) -c $< -o $@
$(OUT)/example: $(OUT)/main.o $(patsubst $(OUT)/gen/%.cpp,$(OUT)/%.o,$(ARENAPLAN_SOURCES))
	$(CXX) $^ -o $@
