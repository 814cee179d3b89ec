// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Negative control for the fault handler: executes a permanently undefined
// instruction (UDF), which raises a UsageFault (escalated to HardFault on
// ARMv6-M and while UsageFault is disabled). mk/target.mk expects the exit
// status port::kFaultExitStatus and a "FAULT:" line naming the PC.
#include "port/port.hpp"

int main() {
  arenaplan::port::Write("fault: executing UDF\n");
  asm volatile("udf #0");
  arenaplan::port::Write("FAIL fault: execution continued after UDF\n");
  return 1;
}
