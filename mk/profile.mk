# The per-operator profile on the target (`make run ... PROFILE=1`,
# run/profile_table.pl): ad01_int8 on mps2-an386 under QEMU -icount, with
# and without the marks; passes when the steps' instructions add up to the
# unmarked inference's within 1 % and every operator is listed once
# (tests/run/profile_check.sh). Part of `make test`, about 20 s (45 s on a
# loaded 2-core machine).
.PHONY: test-profile-run
test-profile-run: run-cli
	@ARENAPLAN_CLI=$(ARENAPLAN_CLI) RUN_OUT=$(BUILD)/run/profile-test \
	  tests/run/profile_check.sh $(ARENAPLAN_SHARED)

TEST_TARGETS += test-profile-run
