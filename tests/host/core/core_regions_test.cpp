// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// core's per-region constexpr check with allowed overlaps
// (FindRegionViolation with kOverlaps, core/include/arenaplan/regions.hpp):
// hand-derived verdicts at compile time, and on random plans across regions
// the verdict of each region against the host validator (a sweep line
// sharing no code with it) given the region's records and the pairs inside
// it.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "arenaplan/regions.hpp"
#include "codegen/records.hpp"
#include "codegen/validator/validator.hpp"

namespace arenaplan {
namespace {

constexpr auto kBelow = OverlapRelation::kOutputBelowBy;

// Region 0: tensor 0 (ops 0..1, bytes [16,48)) dies at operator 1, which
// creates tensor 1 (ops 1..2, bytes [0,32)): they share [16,32), allowed
// when tensor 1 starts at least 16 bytes below tensor 0. Region 1: tensor
// 2 (ops 1..2) and tensor 3 (ops 0..1), both at offset 0 of region 1.
constexpr RegionPlacement kPlan[] = {
    {0, 16, 32, 0, 1}, {0, 0, 32, 1, 2}, {1, 0, 32, 1, 2}, {1, 0, 32, 0, 1}};
constexpr OverlapPermit kBoth[] = {{0, 1, 1, kBelow, 16}, {3, 2, 1, kBelow, 0}};

static_assert(FindRegionViolation(kPlan, 4, 0, 2, 48, 16, 3, kBoth, 2).result ==
              ValidationResult::kOk);
static_assert(FindRegionViolation(kPlan, 4, 1, 2, 48, 16, 3, kBoth, 2).result ==
              ValidationResult::kOk);

// Without permits the shared bytes are an overlap, named by kPlan indices
// (region 1's entries are its tensors 2 and 3).
static_assert(FindRegionViolation(kPlan, 4, 0, 2, 48, 16, 3).result ==
              ValidationResult::kOverlap);
static_assert(FindRegionViolation(kPlan, 4, 1, 2, 48, 16, 3).first == 2);
static_assert(FindRegionViolation(kPlan, 4, 1, 2, 48, 16, 3).second == 3);

// Region 0's permit alone: region 1 still overlaps (tensors 2 and 3).
constexpr OverlapPermit kFirst[] = {{0, 1, 1, kBelow, 16}};
static_assert(FindRegionViolation(kPlan, 4, 0, 2, 48, 16, 3, kFirst, 1)
                  .result == ValidationResult::kOk);
static_assert(FindRegionViolation(kPlan, 4, 1, 2, 48, 16, 3, kFirst, 1)
                  .result == ValidationResult::kOverlap);
static_assert(FindRegionViolation(kPlan, 4, 1, 2, 48, 16, 3, kFirst, 1).first ==
              2);

// A distance of 32: tensor 1 would have to start 32 bytes below tensor 0
// (0 + 32 > 16), so the permit does not hold.
constexpr OverlapPermit kFar[] = {{0, 1, 1, kBelow, 32}};
static_assert(FindRegionViolation(kPlan, 4, 0, 2, 48, 16, 3, kFar, 1).result ==
              ValidationResult::kOverlap);
static_assert(FindRegionViolation(kPlan, 4, 0, 2, 48, 16, 3, kFar, 1).second ==
              1);

// A pair split across regions (tensor 0 in region 0, tensor 2 in region 1)
// is no permit: region 0's call names it (permit index 1).
constexpr OverlapPermit kSplit[] = {{0, 1, 1, kBelow, 16},
                                    {0, 2, 1, kBelow, 0}};
static_assert(FindRegionViolation(kPlan, 4, 0, 2, 48, 16, 3, kSplit, 2)
                  .result == ValidationResult::kBadOverlapPermit);
static_assert(FindRegionViolation(kPlan, 4, 0, 2, 48, 16, 3, kSplit, 2).first ==
              1);
// A permit at an operator where its input does not die (tensor 0 dies at
// 1, not 0).
constexpr OverlapPermit kWrongOp[] = {{0, 1, 0, kBelow, 16}};
static_assert(FindRegionViolation(kPlan, 4, 0, 2, 48, 16, 3, kWrongOp, 1)
                  .result == ValidationResult::kBadOverlapPermit);
// The permits table holds 2 entries; a count of 1 disagrees with it.
static_assert(FindRegionViolation(kPlan, 4, 0, 2, 48, 16, 3, kBoth, 1).result ==
              ValidationResult::kCountMismatch);
// Per-tensor faults come first, as without permits: region 0 of 32 bytes
// does not hold tensor 0 ([16,48)).
static_assert(FindRegionViolation(kPlan, 4, 0, 2, 32, 16, 3, kBoth, 2).result ==
              ValidationResult::kOutOfBounds);

TEST(CoreRegions, ChecksEachRegionWithItsPermitsAtRunTime) {
  // The compile-time verdicts above hold at run time too.
  EXPECT_EQ(FindRegionViolation(kPlan, 4, 0, 2, 48, 16, 3, kBoth, 2).result,
            ValidationResult::kOk);
  EXPECT_EQ(FindRegionViolation(kPlan, 4, 1, 2, 48, 16, 3, kFirst, 1).result,
            ValidationResult::kOverlap);
  EXPECT_EQ(FindRegionViolation(kPlan, 4, 0, 2, 48, 16, 3, kSplit, 2).first,
            1u);
}

// Random plans of 8 tensors across 3 regions with 4 permits, each naming two
// tensors of one region, alive one after the other (a permit may repeat):
// each region's verdict is kOk exactly when the host validator accepts the
// region's records with the pairs inside it, and both agree on kOverlap.
TEST(CoreRegions, AgreesWithTheHostValidatorPerRegion) {
  constexpr std::size_t kN = 8;
  constexpr std::size_t kM = 4;
  constexpr std::size_t kRegions = 3;
  constexpr std::size_t kRegionSize = 128;
  std::mt19937_64 rng(20261126);
  int checked = 0;
  int ok = 0;
  int overlap = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    RegionPlacement plan[kN];
    for (RegionPlacement& p : plan) {
      const std::size_t a = rng() % 5;
      const std::size_t b = rng() % 5;
      p = {rng() % kRegions, 16 * (rng() % 6), 16 * (1 + rng() % 3),
           std::min(a, b), std::max(a, b)};
    }
    std::vector<OverlapPermit> pool;
    for (std::size_t in = 0; in < kN; ++in) {
      for (std::size_t out = 0; out < kN; ++out) {
        if (in == out || plan[in].region != plan[out].region ||
            plan[in].last_op != plan[out].first_op) {
          continue;
        }
        if (plan[in].size == plan[out].size && rng() % 4 == 0) {
          pool.push_back(
              {in, out, plan[in].last_op, OverlapRelation::kAlias, 0});
        } else {
          pool.push_back({in, out, plan[in].last_op, kBelow, 16 * (rng() % 3)});
        }
      }
    }
    if (pool.empty()) continue;
    OverlapPermit permits[kM];
    for (OverlapPermit& p : permits) p = pool[rng() % pool.size()];
    for (std::size_t r = 0; r < kRegions; ++r) {
      std::vector<TensorUsageRecord> records;
      std::vector<std::uint64_t> offsets;
      std::vector<std::size_t> position(kN, kN);
      for (std::size_t i = 0; i < kN; ++i) {
        if (plan[i].region != r) continue;
        position[i] = records.size();
        records.push_back({static_cast<std::uint32_t>(plan[i].first_op),
                           static_cast<std::uint32_t>(plan[i].last_op),
                           plan[i].size});
        offsets.push_back(plan[i].offset);
      }
      std::vector<OverlapPair> pairs;
      for (const OverlapPermit& p : permits) {
        if (plan[p.input].region != r) continue;
        pairs.push_back({static_cast<std::uint32_t>(position[p.input]),
                         static_cast<std::uint32_t>(position[p.output]),
                         static_cast<std::uint32_t>(p.op), p.relation,
                         p.distance});
      }
      const ValidationReport host =
          ValidateOffsets(records, offsets, kRegionSize, 16, pairs);
      const Violation core = FindRegionViolation(
          plan, kN, r, kRegions, kRegionSize, 16, 5, permits, kM);
      ASSERT_EQ(host.ok(), core.result == ValidationResult::kOk)
          << "trial " << trial << " region " << r << ": host "
          << ToString(host.result);
      if (host.result == ValidationResult::kOverlap) {
        EXPECT_EQ(core.result, ValidationResult::kOverlap) << "trial " << trial;
        EXPECT_EQ(plan[core.first].region, r);
        EXPECT_EQ(plan[core.second].region, r);
      }
      ++checked;
      ok += host.ok();
      overlap += host.result == ValidationResult::kOverlap;
    }
  }
  // Both verdicts are exercised often.
  EXPECT_GT(checked, 10000);
  EXPECT_GT(ok, 1000);
  EXPECT_GT(overlap, 1000);
}

}  // namespace
}  // namespace arenaplan
