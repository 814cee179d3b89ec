// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// core's constexpr validator against hand-derived verdicts, and against the
// host validator (a sweep line sharing no code with it) on random plans.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "arenaplan/plan.hpp"
#include "arenaplan/violation.hpp"
#include "codegen/validator/validator.hpp"

namespace arenaplan {
namespace {

// Two tensors alive at operator 1, bytes [0,64) and [64,96): sound.
constexpr Placement kSound[] = {{0, 64, 0, 1}, {64, 32, 1, 2}, {0, 64, 2, 3}};
static_assert(validate(kSound, 96, 16) == ValidationResult::kOk);
// Tensor 1 moved to 32: bytes [32,64) shared with tensor 0 at operator 1.
constexpr Placement kOverlapping[] = {{0, 64, 0, 1}, {32, 32, 1, 2}};
static_assert(validate(kOverlapping, 96, 16) == ValidationResult::kOverlap);
static_assert(FindViolation(kOverlapping, 2, 96, 16).first == 0);
static_assert(FindViolation(kOverlapping, 2, 96, 16).second == 1);
// Same bytes, disjoint lifetimes (0..1 and 2..3): sound.
constexpr Placement kReused[] = {{0, 64, 0, 1}, {0, 64, 2, 3}};
static_assert(validate(kReused, 64, 16) == ValidationResult::kOk);
// Touching lifetimes (1 and 1, inclusive ends) do intersect.
constexpr Placement kTouching[] = {{0, 64, 0, 1}, {0, 64, 1, 3}};
static_assert(validate(kTouching, 64, 16) == ValidationResult::kOverlap);
// Zero-size tensors overlap nothing.
constexpr Placement kZero[] = {{0, 64, 0, 3}, {0, 0, 0, 3}};
static_assert(validate(kZero, 64, 16) == ValidationResult::kOk);
static_assert(validate(kSound, 95, 16) == ValidationResult::kOutOfBounds);
static_assert(validate(kSound, 96, 24) == ValidationResult::kBadAlignment);
static_assert(validate(kSound, 96, 128) == ValidationResult::kMisaligned);
// kSound's last operator is 3: four operators are needed, three are not
// (tensor 2 is named).
static_assert(ValidateTable(kSound, 3, 96, 16, 4) == ValidationResult::kOk);
static_assert(ValidateTable(kSound, 3, 96, 16, 3) ==
              ValidationResult::kOperatorOutOfRange);
static_assert(FindTableViolation(kSound, 3, 96, 16, 3).first == 2);
// The table holds 3 entries: a count of 4 or 2 disagrees with it.
static_assert(ValidateTable(kSound, 4, 96, 16, 4) ==
              ValidationResult::kCountMismatch);
static_assert(ValidateTable(kSound, 2, 96, 16, 4) ==
              ValidationResult::kCountMismatch);
// An empty plan's all-zero filler entry with count 0 (and no operators).
constexpr Placement kFiller[] = {{0, 0, 0, 0}};
static_assert(ValidateTable(kFiller, 0, 0, 16, 0) == ValidationResult::kOk);
static_assert(ValidateTable(kFiller, 1, 0, 16, 0) ==
              ValidationResult::kOperatorOutOfRange);

/// The per-tensor rule `p` breaks, or kOk (the checks of FindViolation's
/// first loop, written out again for the test).
ValidationResult TensorFault(const Placement& p, std::size_t arena,
                             std::size_t alignment) {
  if (p.first_op > p.last_op) return ValidationResult::kBadInterval;
  if (p.offset % alignment != 0) return ValidationResult::kMisaligned;
  if (p.offset + p.size > arena) return ValidationResult::kOutOfBounds;
  return ValidationResult::kOk;
}

TEST(CoreValidate, FindViolationNamesTheTensorsAtFault) {
  std::mt19937 rng(7);
  int faults = 0, overlaps = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t n = 1 + rng() % 8;
    std::vector<Placement> plan(n);
    for (Placement& p : plan) {
      p.first_op = rng() % 6;
      p.last_op = p.first_op + rng() % 4 - (rng() % 10 == 0 ? 2 : 0);
      p.size = (rng() % 5) * 8;
      p.offset = (rng() % 12) * 4;
    }
    const std::size_t arena = 32 + rng() % 40;
    const std::size_t alignment = std::size_t{1} << (rng() % 4);
    const Violation v = FindViolation(plan.data(), n, arena, alignment);
    ASSERT_EQ(v.result, validate(plan.data(), n, arena, alignment));
    // The first tensor breaking a per-tensor rule, if any, is named.
    std::size_t first_fault = n;
    for (std::size_t i = 0; i < n && first_fault == n; ++i) {
      if (TensorFault(plan[i], arena, alignment) != ValidationResult::kOk) {
        first_fault = i;
      }
    }
    if (first_fault < n) {
      ++faults;
      EXPECT_EQ(v.first, first_fault);
      EXPECT_EQ(v.result, TensorFault(plan[first_fault], arena, alignment));
      continue;
    }
    if (v.result == ValidationResult::kOverlap) {
      ++overlaps;
      ASSERT_LT(v.first, v.second);
      ASSERT_LT(v.second, n);
      EXPECT_TRUE(LifetimesIntersect(plan[v.first], plan[v.second]));
      EXPECT_TRUE(BytesIntersect(plan[v.first], plan[v.second]));
    } else {
      EXPECT_EQ(v.result, ValidationResult::kOk);
    }
  }
  EXPECT_GT(faults, 100);
  EXPECT_GT(overlaps, 100);
}

// Random plans whose only possible fault is an overlap:
// the constexpr pairwise check and the host sweep line must agree.
TEST(CoreValidate, AgreesWithTheHostValidator) {
  std::mt19937 rng(11);
  int ok = 0, overlap = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::size_t n = 1 + rng() % 10;
    std::vector<TensorUsageRecord> records(n);
    std::vector<std::uint64_t> offsets(n);
    std::vector<Placement> plan(n);
    for (std::size_t i = 0; i < n; ++i) {
      records[i].first_op = rng() % 8;
      records[i].last_op = records[i].first_op + rng() % 4;
      // offset + size <= 96 = the arena: only overlaps can be wrong.
      records[i].size = (rng() % 4) * 16;
      offsets[i] = (rng() % (7 - records[i].size / 16)) * 16;
      plan[i] = {offsets[i], records[i].size, records[i].first_op,
                 records[i].last_op};
    }
    const std::uint64_t arena = 96;
    const ValidationResult core = validate(plan.data(), n, arena, 16);
    const ValidationReport host = ValidateOffsets(records, offsets, arena, 16);
    ASSERT_EQ(core, host.result) << "trial " << trial;
    ok += core == ValidationResult::kOk;
    overlap += core == ValidationResult::kOverlap;
  }
  // Both verdicts occur often enough for the comparison to mean something.
  EXPECT_GT(ok, 100);
  EXPECT_GT(overlap, 100);
}

}  // namespace
}  // namespace arenaplan
