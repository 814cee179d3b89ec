// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Checks shared by the fuzz targets: a failed check aborts, which libFuzzer
// reports as a crash and saves the input.
#ifndef ARENAPLAN_TESTS_FUZZ_FUZZ_CHECK_HPP_
#define ARENAPLAN_TESTS_FUZZ_FUZZ_CHECK_HPP_

#include <cstdlib>
#include <string>
#include <string_view>

namespace arenaplan::fuzz {

/// Aborts unless `ok`.
inline void Check(bool ok) {
  if (!ok) std::abort();
}

/// An error message must be one line and start with the input's name.
inline void CheckMessage(const std::string& what, std::string_view source) {
  Check(what.find('\n') == std::string::npos && what.rfind(source, 0) == 0);
}

}  // namespace arenaplan::fuzz

#endif  // ARENAPLAN_TESTS_FUZZ_FUZZ_CHECK_HPP_
