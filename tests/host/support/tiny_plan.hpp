// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The small hand-made plan several runtime and header tests compile (the one
// tests/compile_fail/README.md describes).
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_TINY_PLAN_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_TINY_PLAN_HPP_

#include "codegen/planner/planner.hpp"

namespace arenaplan::testing_util {

/// Derived by hand: alignment 16; "input" 60 B (rounded to 64) alive 0..1 at
/// 0; "conv1/Relu" 32 B alive 1..2 at 64 (input is still alive at 1, so it
/// sits above it); "output" 64 B alive 2..3 at 0 (input is dead by 2);
/// "empty" 0 B. Arena = 64 + 32 = 96 = the breadth of operator 1 (64 + 32) =
/// the lower bound; naive = 64 + 32 + 64 = 160.
inline PlanResult TinyPlan() {
  PlanResult p;
  p.problem.records = {{0, 1, 64}, {1, 2, 32}, {2, 3, 64}, {1, 1, 0}};
  p.problem.ids = {"0", "1", "2", "3"};
  p.problem.names = {"input", "conv1/Relu", "output", "empty"};
  p.problem.operator_count = 4;
  p.problem.source = "tiny.csv";
  p.strategy = "hand";
  p.alignment = 16;
  p.offsets = {0, 64, 0, 0};
  p.arena_bytes = 96;
  p.lower_bound = 96;
  p.naive_bytes = 160;
  return p;
}

/// Derived by hand, with one allowed overlap: "input" 64 B alive 0..1 at 32;
/// "conv1/Relu" 64 B alive 1..2 at 0, allowed over "input" at operator 1
/// when it starts at least 32 bytes below it (0 + 32 <= 32 holds). Arena =
/// 96 (without the overlap the two would need 128); naive = 128.
/// `alignment` 16, or 1 to let a test move an offset by one byte.
inline PlanResult TinyOverlapPlan(std::uint64_t alignment = 16) {
  PlanResult p;
  p.problem.records = {{0, 1, 64}, {1, 2, 64}};
  p.problem.ids = {"0", "1"};
  p.problem.names = {"input", "conv1/Relu"};
  p.problem.operator_count = 3;
  p.problem.source = "tiny_overlap.tflite";
  p.problem.overlaps = {{0, 1, 1, OverlapRelation::kOutputBelowBy, 32}};
  p.strategy = "hand";
  p.alignment = alignment;
  p.offsets = {32, 0};
  p.arena_bytes = 96;
  p.lower_bound = 128;
  p.naive_bytes = 128;
  return p;
}

}  // namespace arenaplan::testing_util

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_TINY_PLAN_HPP_
