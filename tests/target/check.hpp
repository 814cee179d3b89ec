// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// A minimal test harness for firmware: CHECK prints "FAIL file:line: expr"
// and counts; Finish() prints "PASS name" or "FAIL name: N failed checks"
// and returns the exit status for main(). tests/target/run_qemu.sh treats a
// non-zero status, a missing PASS line or any FAIL line as a failed test.
#ifndef ARENAPLAN_TESTS_TARGET_CHECK_HPP_
#define ARENAPLAN_TESTS_TARGET_CHECK_HPP_

#include <cstdint>

#include "port/port.hpp"

namespace arenaplan::target {

/// Failed checks so far in this image.
inline std::uint32_t failures = 0;

inline void Fail(const char* file, int line, const char* what) {
  ++failures;
  port::Write("FAIL ");
  port::Write(file);
  port::Write(":");
  port::WriteUnsigned(static_cast<std::uint32_t>(line));
  port::Write(": ");
  port::Write(what);
  port::Write("\n");
}

/// Prints the verdict for the image `name`; returns main()'s status.
inline int Finish(const char* name) {
  if (failures == 0) {
    port::Write("PASS ");
    port::Write(name);
    port::Write("\n");
    return 0;
  }
  port::Write("FAIL ");
  port::Write(name);
  port::Write(": ");
  port::WriteUnsigned(failures);
  port::Write(" failed checks\n");
  return 1;
}

}  // namespace arenaplan::target

#define CHECK(cond)              \
  ((cond) ? static_cast<void>(0) \
          : ::arenaplan::target::Fail(__FILE__, __LINE__, #cond))

#endif  // ARENAPLAN_TESTS_TARGET_CHECK_HPP_
