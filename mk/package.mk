# The installed package from outside the tree (docs/integration.md):
#   make test-package    cmake --install to a moved prefix, examples/firmware
#                        built from clean directories against it on the host
#                        and for mps2-an386 (QEMU), and with arenaplan.mk;
#                        outputs equal to TFLM's reference, model and option
#                        changes rerun `arenaplan compile`
#                        (tests/package/check.sh); part of `make test`
.PHONY: test-package
test-package: run-cli
	@tests/package/check.sh $(BUILD) $(ARENAPLAN_SHARED)

TEST_TARGETS += test-package
