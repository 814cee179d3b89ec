// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/base/time_limit.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <limits>

namespace arenaplan {
namespace {

using std::chrono::hours;
using std::chrono::seconds;
using std::chrono::steady_clock;

TEST(TimeLimit, ClampsIntoZeroToTheMaximum) {
  EXPECT_EQ(ClampTimeLimit(2.5), 2.5);
  EXPECT_EQ(ClampTimeLimit(0), 0.0);
  EXPECT_EQ(ClampTimeLimit(-1), 0.0);
  EXPECT_EQ(ClampTimeLimit(std::numeric_limits<double>::quiet_NaN()), 0.0);
  EXPECT_EQ(ClampTimeLimit(1e10), kMaxTimeLimitSeconds);
  EXPECT_EQ(ClampTimeLimit(1e308), kMaxTimeLimitSeconds);
  EXPECT_EQ(ClampTimeLimit(std::numeric_limits<double>::infinity()),
            kMaxTimeLimitSeconds);
}

// A limit of 10^10 s or 10^308 s (what overflowed 64-bit nanoseconds and
// gave a deadline in the past) lies 10^7 s (2777 h) ahead, not behind.
TEST(TimeLimit, PutsHugeLimitsFarAheadNotBehind) {
  const steady_clock::time_point now = steady_clock::now();
  for (double s : {1e7, 1e10, 1e19, 1e308}) {
    const steady_clock::time_point d = DeadlineAfter(s, now);
    EXPECT_GT(d, now + hours(2777)) << s;
    EXPECT_LT(d, now + hours(2778)) << s;
  }
  EXPECT_EQ(DeadlineAfter(-5, now), now);
  EXPECT_EQ(DeadlineAfter(3, now), now + seconds(3));
}

}  // namespace
}  // namespace arenaplan
