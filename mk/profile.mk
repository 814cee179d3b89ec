# The per-operator profile on the target (`make run ... PROFILE=1`,
# run/profile_table.pl): ad01_int8 on mps2-an386 under QEMU -icount, with
# and without the marks; passes when the steps' instructions add up to the
# unmarked inference's within 1 % and every operator is listed once
# (tests/run/profile_check.sh); then the instruction mix of ad01_int8 on
# mps2-an386 and mps3-an547 (tests/run/mix_check.sh: the block log's count
# within 0.1 % of -icount's, vector instructions only on the Cortex-M55).
# Part of `make test`, about 40 s (90 s on a loaded 2-core machine).
.PHONY: test-profile-run
test-profile-run: run-cli
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) RUN_OUT=$(BUILD)/run/profile-test \
	  tests/run/profile_check.sh $(ARENAPLAN_SHARED)
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) RUN_OUT=$(BUILD)/run/profile-test \
	  tests/run/mix_check.sh $(ARENAPLAN_SHARED)

TEST_TARGETS += test-profile-run
