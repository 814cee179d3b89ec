# Plans across memory regions on QEMU (docs/regions.md):
#   make test-regions    vww_96_int8 and person_detect split between a 32 KiB
#                        DTCM region and the RAM of mps3-an547, a plan-time
#                        and a link-time refusal, and with OVERLAP=1
#                        vww_96_int8 and kws_ref_model against TFLM's
#                        reference bytes (tests/regions/check.sh, about two
#                        minutes); part of `make test`
#   make regions-table   the table of docs/results.md: per model, the split, the
#                        traffic per region (greedy and exact, without and
#                        with --overlap) and the naive split's, and the QEMU
#                        runs; not part of `make test`
.PHONY: test-regions regions-table

test-regions: run-cli
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) tests/regions/check.sh $(ARENAPLAN_SHARED)

regions-table: run-cli
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) scripts/regions_table.sh $(ARENAPLAN_SHARED)

TEST_TARGETS += test-regions
