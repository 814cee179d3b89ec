# arenaplan.mk -- make fragment for firmware projects.
#
# Regenerates a plan header whenever its model (or the arenaplan binary)
# changes, and puts core/include and the header's directory on the include
# path. Usage, in the firmware's Makefile:
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
# Variables (set before the include to override):
#   ARENAPLAN       the arenaplan binary (default: $(ARENAPLAN_DIR)/build/arenaplan,
#                   which `make` in the arenaplan checkout builds)
#   ARENAPLAN_FLAGS options passed to every `arenaplan plan` run
# Adds to: CPPFLAGS (-I core/include and -I of each header's directory),
#          ARENAPLAN_HEADERS (every header declared, for `clean` rules).

ARENAPLAN_DIR ?= $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
ARENAPLAN ?= $(ARENAPLAN_DIR)/build/arenaplan
ARENAPLAN_FLAGS ?=
ARENAPLAN_HEADERS ?=

CPPFLAGS += -I$(ARENAPLAN_DIR)/core/include

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
