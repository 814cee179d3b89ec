# arenaplan.mk -- make fragment for firmware projects.
#
# Regenerates a plan header (`arenaplan plan`) or a model's code
# (`arenaplan compile`) whenever its model, its options or the arenaplan
# binary change, and puts the runtime's headers (core/ and kernels/) and
# the generated files' directory on the include path. Works from this
# checkout and from an installed package (PREFIX/share/arenaplan/arenaplan.mk:
# headers in PREFIX/include, the CLI in PREFIX/bin). Usage, in the
# firmware's Makefile:
#
#   all: build/firmware.elf       # your default goal first: the rules below
#                                 # would otherwise become make's default
#   ARENAPLAN_DIR := path/to/arenaplan
#   include $(ARENAPLAN_DIR)/arenaplan.mk
#   $(eval $(call arenaplan_header,models/person_detect.tflite,build/person_detect_plan.hpp,person_detect))
#   build/main.o: build/person_detect_plan.hpp
#
# arguments of arenaplan_header: MODEL, HEADER, NAMESPACE, and optional extra
# `arenaplan plan` options (e.g. --align 16 --strategy best --svg plan.svg).
#
# A model compiled ahead of time (docs/integration.md):
#
#   $(eval $(call arenaplan_compiled_model,models/person_detect.tflite,build/gen,person_detect,--overlap))
#   build/main.o: build/gen/person_detect_model.hpp
#   build/firmware.elf: build/main.o $(ARENAPLAN_SOURCES:.cpp=.o) ...
#
# arguments of arenaplan_compiled_model: MODEL, OUT_DIR, NAMESPACE, and
# optional extra `arenaplan compile` options (--overlap, --fuse,
# --region NAME:BYTES[:SECTION], --strategy ...; no single quotes). It
# writes OUT_DIR/NAMESPACE_model.cpp, NAMESPACE_model.hpp and
# NAMESPACE_arena.hpp; compile the .cpp with the firmware's own flags (its
# -mcpu selects the kernels' DSP paths).
#
# Variables (set before the include to override):
#   ARENAPLAN       the arenaplan binary (default: $(ARENAPLAN_DIR)/build/arenaplan,
#                   which `make` in the arenaplan checkout builds, or
#                   PREFIX/bin/arenaplan when installed)
#   ARENAPLAN_FLAGS options passed to every `arenaplan plan` run
#   ARENAPLAN_COMPILE_FLAGS options passed to every `arenaplan compile` run
# Adds to: CPPFLAGS (-I of the runtime's headers and of each generated
#          file's directory), ARENAPLAN_HEADERS (every header declared, for
#          `clean` rules), ARENAPLAN_SOURCES (every generated .cpp).

ARENAPLAN_DIR ?= $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
ifneq ($(wildcard $(ARENAPLAN_DIR)/core/include),)
ARENAPLAN ?= $(ARENAPLAN_DIR)/build/arenaplan
ARENAPLAN_INCLUDE_DIRS ?= $(ARENAPLAN_DIR)/core/include $(ARENAPLAN_DIR)/kernels/include
else
ARENAPLAN ?= $(ARENAPLAN_DIR)/../../bin/arenaplan
ARENAPLAN_INCLUDE_DIRS ?= $(ARENAPLAN_DIR)/../../include
endif
ARENAPLAN_FLAGS ?=
ARENAPLAN_COMPILE_FLAGS ?=
ARENAPLAN_HEADERS ?=
ARENAPLAN_SOURCES ?=

CPPFLAGS += $(addprefix -I,$(ARENAPLAN_INCLUDE_DIRS))

# NAMESPACE.options holds a compile run's options and is rewritten only
# when they change (its rule runs every time, through this phony target;
# the leading dot keeps it from becoming make's default goal), so that the
# generated files depending on it are remade exactly then.
.PHONY: .arenaplan-options-check
.arenaplan-options-check: ;

# $(1) model, $(2) header, $(3) namespace, $(4) extra options.
# The header is written atomically by arenaplan (temporary file + rename),
# so an interrupted or failed run leaves no stale or partial header.
define arenaplan_header
ARENAPLAN_HEADERS += $(2)
CPPFLAGS += -I$(patsubst %/,%,$(dir $(2)))
$(2): $(1) $$(ARENAPLAN)
	@mkdir -p $$(@D)
	$$(ARENAPLAN) plan $(1) --header $$@ --namespace $(3) $$(ARENAPLAN_FLAGS) $(4)
endef

# $(1) model, $(2) output directory, $(3) namespace, $(4) extra options.
# `arenaplan compile` writes its three files atomically; the headers are
# remade with the .cpp.
define arenaplan_compiled_model
ARENAPLAN_SOURCES += $(2)/$(3)_model.cpp
ARENAPLAN_HEADERS += $(2)/$(3)_model.hpp $(2)/$(3)_arena.hpp
CPPFLAGS += -I$(2)
$(2)/$(3)_model.hpp $(2)/$(3)_arena.hpp: $(2)/$(3)_model.cpp ;
$(2)/$(3)_model.cpp: $(1) $$(ARENAPLAN) $(2)/$(3).options
	$$(ARENAPLAN) compile $(1) --out-dir $(2) --namespace $(3) $$(ARENAPLAN_COMPILE_FLAGS) $(4)
$(2)/$(3).options: .arenaplan-options-check
	@mkdir -p $$(@D)
	@printf '%s\n' '$$(ARENAPLAN_COMPILE_FLAGS) $(4)' | cmp -s - $$@ || \
	  printf '%s\n' '$$(ARENAPLAN_COMPILE_FLAGS) $(4)' > $$@
endef
