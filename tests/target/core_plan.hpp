// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// A small hand-made plan for the runtime's on-target tests, written in the
// shape of a generated header so that the numbers can be checked by hand.
// Bytes are [offset, offset + size); operators are inclusive.
//   tensor 0 "in"   [ 0, 32) exact 32 B (8 floats)   ops 0..1
//   tensor 1 "mid"  [32, 80) exact 40 B (10 floats)  ops 0..2
//   tensor 2 "out"  [ 0, 32) exact 32 B (8 floats)   ops 2..3  (reuses "in")
//   tensor 3 "acc"  [80, 96) exact 16 B (4 int32)    ops 1..3
// Pairs alive together (0-1, 0-3, 1-2, 1-3, 2-3) are disjoint; 0 and 2 share
// bytes but never live together (0 ends at op 1, 2 starts at op 2). The
// arena is 96 bytes, aligned to 16, and every offset is a multiple of 16.
#ifndef ARENAPLAN_TESTS_TARGET_CORE_PLAN_HPP_
#define ARENAPLAN_TESTS_TARGET_CORE_PLAN_HPP_

#include <cstddef>

#include "arenaplan/arenaplan.hpp"

namespace core_plan {
inline constexpr std::size_t kArenaSize = 96;
inline constexpr std::size_t kAlignment = 16;
inline constexpr std::size_t kOperatorCount = 4;
inline constexpr std::size_t kTensorCount = 4;
inline constexpr arenaplan::Placement kPlan[kTensorCount] = {
    {0, 32, 0, 1}, {32, 48, 0, 2}, {0, 32, 2, 3}, {80, 16, 1, 3}};
inline constexpr std::size_t kTensorBytes[kTensorCount] = {32, 40, 32, 16};
alignas(kAlignment) ARENAPLAN_ARENA_ATTRIBUTES
    inline std::byte arena_storage[kArenaSize];
using Plan =
    arenaplan::PlanTraits<kArenaSize, kAlignment, kOperatorCount, kTensorCount,
                          kPlan, kTensorBytes, arena_storage>;
using Arena = arenaplan::Arena<Plan>;
inline constexpr arenaplan::TensorId<Plan, 0> kIn{};
inline constexpr arenaplan::TensorId<Plan, 1> kMid{};
inline constexpr arenaplan::TensorId<Plan, 2> kOut{};
inline constexpr arenaplan::TensorId<Plan, 3> kAcc{};
static_assert(arenaplan::validate(kPlan, kArenaSize, kAlignment) ==
              arenaplan::ValidationResult::kOk);
}  // namespace core_plan

#endif  // ARENAPLAN_TESTS_TARGET_CORE_PLAN_HPP_
