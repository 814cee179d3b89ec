// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/validator/validator.hpp"

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
  EXPECT_EQ(
      ValidateOffsets(kAbc, std::vector<std::uint64_t>{0, 8}, 16, 8).result,
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
  EXPECT_EQ(
      ValidateSharedObjects(kAbc, std::vector<std::int64_t>{0, 1, 0}, sizes)
          .result,
      ValidationResult::kObjectTooSmall);
  EXPECT_EQ(
      ValidateSharedObjects(kAbc, std::vector<std::int64_t>{0, 2, 0}, sizes)
          .result,
      ValidationResult::kObjectTooSmall);
  EXPECT_EQ(
      ValidateSharedObjects(kAbc, std::vector<std::int64_t>{0, -1, 0}, sizes)
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

// Allowed overlaps. in [0,2] 32 B dies at operator 2, out [2,3] 48 B is
// born there; other [1,3] 16 B is alive beside both.
const std::vector<TensorUsageRecord> kPair = {
    {0, 2, 32}, {2, 3, 48}, {1, 3, 16}};
const std::vector<OverlapPair> kBelowBy8 = {
    {0, 1, 2, OverlapRelation::kOutputBelowBy, 8}};

TEST(ValidateOffsetsWithOverlaps, AcceptsOutputExactlyTheDistanceBelow) {
  // out [0,48), in [8,40): out + 8 == in.
  const std::vector<std::uint64_t> offsets = {8, 0, 48};
  EXPECT_TRUE(ValidateOffsets(kPair, offsets, 64, 8, kBelowBy8).ok());
  // Further below is as safe: out [0,48), in [16,48).
  EXPECT_TRUE(ValidateOffsets(kPair, std::vector<std::uint64_t>{16, 0, 48}, 64,
                              8, kBelowBy8)
                  .ok());
}

TEST(ValidateOffsetsWithOverlaps, RejectsOutputOneByteTooClose) {
  // Alignment 1: out at 1, in at 8 is 7 bytes below, one short.
  const std::vector<std::uint64_t> offsets = {8, 1, 49};
  const ValidationReport r = ValidateOffsets(kPair, offsets, 65, 1, kBelowBy8);
  EXPECT_EQ(r.result, ValidationResult::kOverlap);
  EXPECT_EQ(r.first, 0u);
  EXPECT_EQ(r.second, 1u);
  // Without the pair the same overlap is rejected as well.
  EXPECT_EQ(ValidateOffsets(kPair, std::vector<std::uint64_t>{8, 0, 48}, 64, 8)
                .result,
            ValidationResult::kOverlap);
}

TEST(ValidateOffsetsWithOverlaps, RejectsOutputAboveItsInput) {
  // out [8,56) starts above in [0,32): never allowed by kOutputBelowBy.
  const std::vector<std::uint64_t> offsets = {0, 8, 56};
  EXPECT_EQ(ValidateOffsets(kPair, offsets, 72, 8, kBelowBy8).result,
            ValidationResult::kOverlap);
}

TEST(ValidateOffsetsWithOverlaps, RejectsAThirdTensorInsideThePair) {
  // The pair holds (out [0,48), in [8,40)) but other [32,48) sits inside
  // the input while both are alive.
  const std::vector<std::uint64_t> offsets = {8, 0, 32};
  const ValidationReport r = ValidateOffsets(kPair, offsets, 64, 8, kBelowBy8);
  EXPECT_EQ(r.result, ValidationResult::kOverlap);
}

TEST(ValidateOffsetsWithOverlaps, RejectsAThirdTensorBornWithTheOutput) {
  // in [0,2] 32 B, out [2,3] 16 B at in - 16, late [2,2] 16 B born with out
  // over the top half of in: only out may share in's bytes.
  const std::vector<TensorUsageRecord> r = {{0, 2, 32}, {2, 3, 16}, {2, 2, 16}};
  const std::vector<OverlapPair> pair = {
      {0, 1, 2, OverlapRelation::kOutputBelowBy, 16}};
  EXPECT_TRUE(
      ValidateOffsets(r, std::vector<std::uint64_t>{16, 0, 48}, 64, 16, pair)
          .ok());
  EXPECT_EQ(
      ValidateOffsets(r, std::vector<std::uint64_t>{16, 0, 32}, 64, 16, pair)
          .result,
      ValidationResult::kOverlap);
}

TEST(ValidateOffsetsWithOverlaps, AcceptsAliasOnlyAtTheSameOffset) {
  const std::vector<TensorUsageRecord> r = {{0, 1, 32}, {1, 2, 32}};
  const std::vector<OverlapPair> alias = {
      {0, 1, 1, OverlapRelation::kAlias, 0}};
  EXPECT_TRUE(
      ValidateOffsets(r, std::vector<std::uint64_t>{16, 16}, 48, 16, alias)
          .ok());
  EXPECT_EQ(ValidateOffsets(r, std::vector<std::uint64_t>{16, 0}, 48, 16, alias)
                .result,
            ValidationResult::kOverlap);
}

TEST(ValidateOffsetsWithOverlaps, RejectsMalformedPairs) {
  const std::vector<std::uint64_t> offsets = {8, 0, 48};
  const auto verdict = [&](OverlapPair p) {
    return ValidateOffsets(kPair, offsets, 64, 8, std::vector<OverlapPair>{p})
        .result;
  };
  // Wrong operator: the input dies at 2, not 1.
  EXPECT_EQ(verdict({0, 1, 1, OverlapRelation::kOutputBelowBy, 8}),
            ValidationResult::kBadOverlapPermit);
  // The output is not born at the input's last operator.
  EXPECT_EQ(verdict({0, 2, 2, OverlapRelation::kOutputBelowBy, 8}),
            ValidationResult::kBadOverlapPermit);
  EXPECT_EQ(verdict({0, 0, 2, OverlapRelation::kOutputBelowBy, 8}),
            ValidationResult::kBadOverlapPermit);
  EXPECT_EQ(verdict({0, 7, 2, OverlapRelation::kOutputBelowBy, 8}),
            ValidationResult::kBadOverlapPermit);
  EXPECT_EQ(verdict({0, 1, 2, static_cast<OverlapRelation>(9), 8}),
            ValidationResult::kBadOverlapPermit);
}

// Second method: core's pairwise validator with permits must agree with the
// sweep on random plans with random (well-formed and not) overlap pairs.
TEST(ValidateOffsetsWithOverlaps, AgreesWithThePairwiseCoreValidator) {
  std::mt19937_64 rng(11);
  int accepted_with_overlap = 0;
  int rejected = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    const int n = 2 + static_cast<int>(rng() % 10);
    std::vector<TensorUsageRecord> r;
    std::vector<std::uint64_t> offsets;
    std::vector<Placement> plan;
    for (int i = 0; i < n; ++i) {
      const std::uint32_t a = static_cast<std::uint32_t>(rng() % 6);
      const std::uint32_t b = a + static_cast<std::uint32_t>(rng() % 3);
      const std::uint64_t size = 4 * (rng() % 6);
      const std::uint64_t off = 4 * (rng() % 10);
      r.push_back({a, b, size});
      offsets.push_back(off);
      plan.push_back({off, size, a, b});
    }
    // Pairs: mostly well formed (an input dying where an output is born).
    std::vector<OverlapPair> pairs;
    std::vector<OverlapPermit> permits;
    const int want = static_cast<int>(rng() % 4);
    for (int tries = 0; tries < 40 && static_cast<int>(pairs.size()) < want;
         ++tries) {
      const auto in = static_cast<std::uint32_t>(rng() % n);
      const auto out = static_cast<std::uint32_t>(rng() % n);
      const bool malformed = rng() % 50 == 0;
      if (!malformed && (in == out || r[in].last_op != r[out].first_op)) {
        continue;
      }
      const auto rel = rng() % 4 == 0 ? OverlapRelation::kAlias
                                      : OverlapRelation::kOutputBelowBy;
      const std::uint64_t d = 4 * (rng() % 5);
      pairs.push_back({in, out, r[in].last_op, rel, d});
      permits.push_back({in, out, r[in].last_op, rel, d});
    }
    const ValidationResult core =
        validate(plan.data(), plan.size(), 64, 4, 16,
                 permits.empty() ? nullptr : permits.data(), permits.size());
    const ValidationReport host = ValidateOffsets(r, offsets, 64, 4, pairs);
    ASSERT_EQ(host.result, core) << "iteration " << iter;
    rejected += core != ValidationResult::kOk;
    if (core == ValidationResult::kOk && !pairs.empty()) {
      // Count plans accepted only thanks to a pair.
      accepted_with_overlap += validate(plan.data(), plan.size(), 64, 4, 16) ==
                               ValidationResult::kOverlap;
    }
  }
  // Both paths are exercised, including plans valid only with a pair.
  EXPECT_GT(rejected, 1000);
  EXPECT_GT(accepted_with_overlap, 100);
}

}  // namespace
}  // namespace arenaplan
