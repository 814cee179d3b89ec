# `make demo` (the Makefile's demo target runs these after bootstrap):
#   demo-cli     builds only the arenaplan CLI (no test binaries)
#   demo-plan    the strategy table of DEMO_MODEL, its header and SVG
#   demo-tflm    per shared model: TensorFlow Lite Micro's own planner (as
#                `arenaplan tflm` replays it), arenaplan's plan for TFLM,
#                the --overlap and --fuse arenas and the whole
#                kTensorArenaSize
#   demo-qemu    person_detect on DEMO_BOARD under QEMU, greedy-by-size's
#                plan, checked against the host; only the result lines;
#                then `make run` of DEMO_MODEL with OVERLAP=1 (zeros input)
DEMO_OUT ?= $(BUILD)/demo

.PHONY: demo-cli demo-plan demo-tflm demo-qemu

demo-cli: configure
	@cmake --build $(BUILD) -j$(JOBS) --target arenaplan >/dev/null

demo-plan: demo-cli
	@echo "== arenaplan plan $(notdir $(DEMO_MODEL)) --strategy all   (bytes; LB = lower bound)"
	@$(ARENAPLAN) plan "$(DEMO_MODEL)" --strategy all
	@mkdir -p $(DEMO_OUT)
	@$(ARENAPLAN) plan "$(DEMO_MODEL)" --header $(DEMO_OUT)/plan.hpp \
	  --namespace demo_plan --svg $(DEMO_OUT)/plan.svg >/dev/null
	@echo "wrote $(DEMO_OUT)/plan.hpp (the firmware header) and $(DEMO_OUT)/plan.svg"

demo-tflm: demo-cli
	@echo "== TFLM's own planner against arenaplan's plan, activations + scratch (bytes)"
	@mkdir -p $(DEMO_OUT)
	@printf '%-28s %12s %10s %10s %8s %17s\n' model "TFLM planner" arenaplan \
	  --overlap --fuse kTensorArenaSize
	@set -o pipefail; for m in "$(SHARED)"/models/*.tflite; do \
	  n=$$(basename "$$m" .tflite); \
	  e="$(DEMO_OUT)/$$n.stderr"; \
	  t=$$($(ARENAPLAN) tflm "$$m" --out "$(DEMO_OUT)/$$n.planned.tflite" 2>"$$e") || { cat "$$e"; exit 1; }; \
	  o=$$($(ARENAPLAN) plan "$$m" --overlap 2>"$$e") || { cat "$$e"; exit 1; }; \
	  f=$$($(ARENAPLAN) plan "$$m" --fuse 2>"$$e") || { cat "$$e"; exit 1; }; \
	  own=$$(sed -n 's/.*GreedyMemoryPlanner without the plan: \([0-9]*\) bytes.*/\1/p' <<<"$$t"); \
	  ours=$$(sed -n 's/^non-persistent (head) arena: \([0-9]*\) bytes.*/\1/p' <<<"$$t"); \
	  whole=$$(sed -n 's/^constexpr std::size_t kTensorArenaSize = \([0-9]*\);.*/\1/p' <<<"$$t"); \
	  ov=$$(sed -n 's/^arena: *\([0-9]*\) bytes.*/\1/p' <<<"$$o"); \
	  fu=$$(sed -n 's/^arena: *\([0-9]*\) bytes.*/\1/p' <<<"$$f"); \
	  printf '%-28s %12s %10s %10s %8s %17s\n' "$$n" "$$own" "$$ours" "$$ov" "$$fu" "$$whole"; \
	done
	@echo "(--overlap, --fuse: activations only, \`plan --overlap\` / \`plan --fuse\` (row-streaming segments, docs/fuse.md); for compile/make run: TFLM's kernels make no such promise)"

demo-qemu: demo-cli
	@echo "== person detection on $(DEMO_BOARD) in QEMU, every activation in the planned arena"
	@set -o pipefail; $(MAKE) --no-print-directory person-detect BOARD=$(DEMO_BOARD) \
	  PD_STRATEGIES=greedy-by-size ARENAPLAN_PREBUILT=1 ARENAPLAN_SHARED="$(SHARED)" 2>&1 \
	  | grep -E '^(person_detect|person-detect) '
	@echo "== the --overlap plan on $(DEMO_BOARD) (make run OVERLAP=1, zeros input): output equal to the host's"
	@$(MAKE) --no-print-directory run MODEL="$(DEMO_MODEL)" BOARD=$(DEMO_BOARD) \
	  OVERLAP=1 ARENAPLAN_PREBUILT=1 ARENAPLAN_SHARED="$(SHARED)"
