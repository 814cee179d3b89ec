// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Time limits in seconds, as the CLI's --time-limit gives them, turned into
// steady-clock deadlines one way for every search: NaN and negative values
// mean no time at all, values above kMaxTimeLimitSeconds are clamped to it,
// so that the conversion to clock ticks never overflows.
#ifndef ARENAPLAN_CODEGEN_BASE_TIME_LIMIT_HPP_
#define ARENAPLAN_CODEGEN_BASE_TIME_LIMIT_HPP_

#include <chrono>

namespace arenaplan {

/// The longest time limit honoured, seconds (10^7 s, about 116 days): far
/// below what 64-bit nanoseconds hold (about 292 years), far above any run.
inline constexpr double kMaxTimeLimitSeconds = 1e7;

/// `seconds` within [0, kMaxTimeLimitSeconds]: NaN and negative values give
/// 0, larger values (infinity too) kMaxTimeLimitSeconds.
[[nodiscard]] double ClampTimeLimit(double seconds);

/// `now` + ClampTimeLimit(seconds), on the steady clock.
[[nodiscard]] std::chrono::steady_clock::time_point DeadlineAfter(
    double seconds, std::chrono::steady_clock::time_point now =
                        std::chrono::steady_clock::now());

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_BASE_TIME_LIMIT_HPP_
