// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/validator.hpp"

#include <gtest/gtest.h>

#include <random>

#include "arenaplan/plan.hpp"

namespace arenaplan {
namespace {

// Records used below: a [0,1] 8 B, b [1,2] 8 B, c [3,4] 8 B.
// a and b share operator 1; c shares no operator with either.
const std::vector<TensorUsageRecord> kAbc = {{0, 1, 8}, {1, 2, 8}, {3, 4, 8}};

TEST(ValidateOffsets, AcceptsDisjointPlacements) {
  const std::vector<std::uint64_t> offsets = {0, 8, 0};
  EXPECT_TRUE(ValidateOffsets(kAbc, offsets, 16, 8).ok());
}

TEST(ValidateOffsets, RejectsOverlapOfLiveTensors) {
  const std::vector<std::uint64_t> offsets = {0, 4, 0};
  const ValidationReport r = ValidateOffsets(kAbc, offsets, 16, 4);
  EXPECT_EQ(r.result, ValidationResult::kOverlap);
  EXPECT_EQ(r.first, 0u);
  EXPECT_EQ(r.second, 1u);
}

TEST(ValidateOffsets, AllowsOverlapOfTensorsLiveAtDifferentTimes) {
  // a and c never share an operator: same bytes are fine.
  const std::vector<TensorUsageRecord> r = {{0, 1, 8}, {2, 3, 8}};
  EXPECT_TRUE(ValidateOffsets(r, std::vector<std::uint64_t>{0, 0}, 8, 1).ok());
}

TEST(ValidateOffsets, RejectsTensorPastTheArena) {
  const std::vector<std::uint64_t> offsets = {0, 8, 16};
  EXPECT_EQ(ValidateOffsets(kAbc, offsets, 16, 8).result,
            ValidationResult::kOutOfBounds);
}

TEST(ValidateOffsets, RejectsOffsetNearOverflow) {
  const std::vector<TensorUsageRecord> r = {{0, 0, 16}};
  const std::vector<std::uint64_t> offsets = {~std::uint64_t{0} - 7};
  EXPECT_EQ(ValidateOffsets(r, offsets, ~std::uint64_t{0}, 1).result,
            ValidationResult::kOutOfBounds);
}

TEST(ValidateOffsets, RejectsMisalignedOffset) {
  const std::vector<std::uint64_t> offsets = {0, 12, 0};
  EXPECT_EQ(ValidateOffsets(kAbc, offsets, 32, 8).result,
            ValidationResult::kMisaligned);
}

TEST(ValidateOffsets, RejectsBadAlignmentAndMissingTensors) {
  const std::vector<std::uint64_t> offsets = {0, 8, 0};
  EXPECT_EQ(ValidateOffsets(kAbc, offsets, 16, 3).result,
            ValidationResult::kBadAlignment);
  EXPECT_EQ(ValidateOffsets(kAbc, offsets, 16, 0).result,
            ValidationResult::kBadAlignment);
  EXPECT_EQ(ValidateOffsets(kAbc, std::vector<std::uint64_t>{0, 8}, 16, 8).result,
            ValidationResult::kMissingTensor);
}

TEST(ValidateOffsets, RejectsReversedInterval) {
  const std::vector<TensorUsageRecord> r = {{3, 2, 8}};
  EXPECT_EQ(ValidateOffsets(r, std::vector<std::uint64_t>{0}, 8, 1).result,
            ValidationResult::kBadInterval);
}

TEST(ValidateOffsets, IgnoresZeroSizeTensorsForOverlap) {
  const std::vector<TensorUsageRecord> r = {{0, 5, 8}, {1, 2, 0}};
  EXPECT_TRUE(ValidateOffsets(r, std::vector<std::uint64_t>{0, 4}, 8, 4).ok());
}

TEST(ValidateOffsets, FindsOverlapHiddenBehindARetiredNeighbour) {
  // Long tensor L at [0,16) ops 0..9; S1 [16,24) ops 0..1 retires; S2 at
  // [8,24) ops 5..6 overlaps L only.
  const std::vector<TensorUsageRecord> r = {{0, 9, 16}, {0, 1, 8}, {5, 6, 16}};
  const ValidationReport rep =
      ValidateOffsets(r, std::vector<std::uint64_t>{0, 16, 8}, 32, 8);
  EXPECT_EQ(rep.result, ValidationResult::kOverlap);
}

TEST(ValidateSharedObjects, AcceptsTimeDisjointSharing) {
  const std::vector<std::int64_t> objects = {0, 1, 0};
  const std::vector<std::uint64_t> sizes = {8, 8};
  EXPECT_TRUE(ValidateSharedObjects(kAbc, objects, sizes).ok());
}

TEST(ValidateSharedObjects, RejectsLiveTensorsSharingAnObject) {
  const std::vector<std::int64_t> objects = {0, 0, 1};
  const std::vector<std::uint64_t> sizes = {8, 8};
  const ValidationReport r = ValidateSharedObjects(kAbc, objects, sizes);
  EXPECT_EQ(r.result, ValidationResult::kObjectConflict);
}

TEST(ValidateSharedObjects, RejectsConflictWithAnEarlierLongTensor) {
  // Object 0 holds x ops 0..9, y ops 1..2 (conflict with x), z ops 5..6.
  const std::vector<TensorUsageRecord> r = {{0, 9, 4}, {1, 2, 4}, {5, 6, 4}};
  const std::vector<std::int64_t> objects = {0, 1, 0};
  const std::vector<std::uint64_t> sizes = {4, 4};
  EXPECT_EQ(ValidateSharedObjects(r, objects, sizes).result,
            ValidationResult::kObjectConflict);
}

TEST(ValidateSharedObjects, RejectsTooSmallOrMissingObjects) {
  const std::vector<std::uint64_t> sizes = {8, 4};
  EXPECT_EQ(ValidateSharedObjects(kAbc, std::vector<std::int64_t>{0, 1, 0}, sizes)
                .result,
            ValidationResult::kObjectTooSmall);
  EXPECT_EQ(ValidateSharedObjects(kAbc, std::vector<std::int64_t>{0, 2, 0}, sizes)
                .result,
            ValidationResult::kObjectTooSmall);
  EXPECT_EQ(ValidateSharedObjects(kAbc, std::vector<std::int64_t>{0, -1, 0}, sizes)
                .result,
            ValidationResult::kMissingTensor);
}

// Second method: core's constexpr pairwise validator must agree with the
// sweep on random plans, valid and invalid alike.
TEST(ValidateOffsets, AgreesWithThePairwiseCoreValidator) {
  std::mt19937_64 rng(7);
  int overlaps = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    const int n = 1 + static_cast<int>(rng() % 12);
    std::vector<TensorUsageRecord> r;
    std::vector<std::uint64_t> offsets;
    std::vector<Placement> plan;
    for (int i = 0; i < n; ++i) {
      const std::uint32_t a = static_cast<std::uint32_t>(rng() % 10);
      const std::uint32_t b = a + static_cast<std::uint32_t>(rng() % 4);
      const std::uint64_t size = 4 * (rng() % 5);
      const std::uint64_t off = 4 * (rng() % 12);
      r.push_back({a, b, size});
      offsets.push_back(off);
      plan.push_back({off, size, a, b});
    }
    const ValidationResult core = validate(plan.data(), plan.size(), 64, 4);
    const ValidationReport host = ValidateOffsets(r, offsets, 64, 4);
    ASSERT_EQ(host.result, core) << "iteration " << iter;
    overlaps += core == ValidationResult::kOverlap;
  }
  EXPECT_GT(overlaps, 100);  // the random plans exercise the failing path
}

}  // namespace
}  // namespace arenaplan
