// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/base/time_limit.hpp"

namespace arenaplan {

double ClampTimeLimit(double seconds) {
  // Written so that NaN (every comparison false) gives 0.
  if (!(seconds > 0)) return 0.0;
  return seconds < kMaxTimeLimitSeconds ? seconds : kMaxTimeLimitSeconds;
}

std::chrono::steady_clock::time_point DeadlineAfter(
    double seconds, std::chrono::steady_clock::time_point now) {
  return now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(ClampTimeLimit(seconds)));
}

}  // namespace arenaplan
