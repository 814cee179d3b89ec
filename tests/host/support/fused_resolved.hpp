// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The generated code's way of running a fused segment (kernels/fused.hpp):
// the schedule's calls recorded (RowStepRecorder), their offsets resolved
// (ResolveSteps, here at run time) and the steps run (RunResolved), for the
// fused execution tests to hold against k::RunFused on the same arena.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_FUSED_RESOLVED_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_FUSED_RESOLVED_HPP_

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "arenaplan/kernels/fused.hpp"

namespace arenaplan::testing_util {

/// Runs `seg` the generated code's way in `arena` (its bytes before
/// k::RunFused ran on a copy that became `fused`, which returned
/// `fused_ok`): resolving must refuse exactly where RunFused did, and
/// otherwise give the same bytes in [0, planned) (after them, the tests'
/// scratch, whose tap tables hold absolute addresses).
inline void ExpectResolvedRunEqual(const kernels::FusedSegment& seg,
                                   std::vector<std::uint8_t> arena,
                                   const std::vector<std::uint8_t>& fused,
                                   bool fused_ok, std::size_t planned) {
  namespace k = kernels;
  constexpr std::size_t kMost = 4096;
  std::vector<k::RowStep> steps(kMost);
  k::RowStepRecorder recorder(steps.data(), static_cast<std::int32_t>(kMost));
  k::BasicRowSchedule<k::FusedOp>(seg.ops, seg.n).Run(recorder);
  ASSERT_LE(recorder.count(), static_cast<std::int32_t>(kMost));
  const auto run = std::make_unique<k::ResolvedSteps<std::uint32_t, kMost>>(
      k::ResolveSteps<std::uint32_t, k::kMaxSegmentOps, 0, kMost>(
          seg, steps.data(), recorder.count()));
  ASSERT_EQ(run->ok, fused_ok);
  if (!run->ok) return;
  k::RunResolved<k::KernelRows>(seg, *run, arena.data());
  ASSERT_GE(fused.size(), planned);
  arena.resize(planned);
  EXPECT_EQ(arena, std::vector<std::uint8_t>(
                       fused.begin(),
                       fused.begin() + static_cast<std::ptrdiff_t>(planned)));
}

}  // namespace arenaplan::testing_util

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_FUSED_RESOLVED_HPP_
