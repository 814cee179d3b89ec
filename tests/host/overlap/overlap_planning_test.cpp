// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Planning with allowed overlaps (docs/overlap.md): the overlap lower bound
// on hand-derived instances, the overlap variants of the offsets heuristics
// (hand-derived placements, and on random instances with random well-formed
// pairs: valid under the overlap-aware validator, never below the overlap
// bound, and without pairs the plain strategy's offsets exactly), and the
// planner's and CLI's handling of --overlap.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "arenaplan/plan.hpp"
#include "codegen/base/errors.hpp"
#include "codegen/emit/plan_text.hpp"
#include "codegen/emit/svg.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/records.hpp"
#include "codegen/strategies/strategies.hpp"
#include "codegen/strategies/strategy.hpp"
#include "codegen/validator/validator.hpp"
#include "tests/host/support/test_util.hpp"
#include "tests/host/support/usage_problems.hpp"

namespace arenaplan {
namespace {

using R = TensorUsageRecord;

using testing_util::Alias;
using testing_util::Below;
using testing_util::RandomPairs;
using testing_util::RandomRecords;

std::uint64_t Bound(const std::vector<R>& records,
                    const std::vector<OverlapPair>& pairs) {
  return OverlapLowerBound(records, pairs, SummarizeProfiles(records));
}

std::uint64_t Arena(std::span<const R> records, const OffsetsAssignment& plan) {
  std::uint64_t arena = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    arena = std::max(arena, plan.offsets[i] + records[i].size);
  }
  return arena;
}

// A: input [0,1] 64 B; B: output [1,2] 128 B; C: [0,2] 32 B; B may start
// 16 B below A. Operator 1: 64 + 128 + 32 = 224 B, of which A and B can
// share min(128 - 16, 64) = 64: 160 = max(64 + 16, 128) + 32. Operator 0:
// 96, operator 2: 160. Bound 160 (plain bound 224).
TEST(OverlapLowerBound, CountsOnePairAsItsOverlappedFootprint) {
  const std::vector<R> records = {{0, 1, 64}, {1, 2, 128}, {0, 2, 32}};
  EXPECT_EQ(SummarizeProfiles(records).offsets_lower_bound, 224u);
  EXPECT_EQ(Bound(records, {Below(0, 1, 1, 16)}), 160u);
  EXPECT_EQ(OverlapSavings(records, Below(0, 1, 1, 16)), 64u);
  // An output smaller than input + distance: 128 - 96 = 32 shared bytes,
  // footprint max(64 + 96, 128) = 160, + 32 = 192.
  EXPECT_EQ(Bound(records, {Below(0, 1, 1, 96)}), 192u);
  // A distance of the output's size or more shares nothing.
  EXPECT_EQ(Bound(records, {Below(0, 1, 1, 128)}), 224u);
  EXPECT_EQ(Bound(records, {Below(0, 1, 1, 500)}), 224u);
  // No pairs: the plain bound.
  EXPECT_EQ(Bound(records, {}), 224u);
}

// A chain like kws_ref_model's: A [0,1], B [1,2], C [2,3], 64 B each, B at
// least 16 B below A, C 32 B below B. The per-operator bound is 96
// (operator 2: max(64 + 32, 64)). Below 128 B both pairs must overlap
// (each operator alone would need 128), so C <= B - 32 <= A - 48 with
// A <= arena - 64 and C >= 0: arena >= 112. At 111 the constraints have no
// solution; at 112 they do (C 0, B 32, A 48).
TEST(OverlapLowerBound, ForcedPairsAddUpAlongAChain) {
  const std::vector<R> records = {{0, 1, 64}, {1, 2, 64}, {2, 3, 64}};
  const std::vector<OverlapPair> pairs = {Below(0, 1, 1, 16),
                                          Below(1, 2, 2, 32)};
  const ProfileSummary summary = SummarizeProfiles(records);
  EXPECT_EQ(OverlapLowerBound(records, pairs, summary), 96u);
  EXPECT_EQ(OverlapForcedBound(records, pairs, summary, 128), 112u);
  EXPECT_EQ(OverlapForcedBound(records, pairs, summary, 112), 112u);
  // Greedy by size, equal sizes latest first: C 0, B 32, A 48: 112.
  const OffsetsAssignment plan = OffsetsGreedyBySizeOverlap(records, pairs);
  EXPECT_EQ(plan.offsets, (std::vector<std::uint64_t>{48, 32, 0}));
  // The same pair as alias and as kOutputBelowBy is never forced: 96.
  const std::vector<OverlapPair> mixed = {Below(0, 1, 1, 16), Alias(0, 1, 1),
                                          Below(1, 2, 2, 32)};
  // (B -> C alone is forced: C <= B - 32, B <= arena - 64: 96.)
  EXPECT_EQ(OverlapForcedBound(records, mixed, summary, 128), 96u);
}

// tflm_id_model in small: a chain T1 [0,1] -> T2 [1,2] -> T3 [2,3] of 10 B
// tensors, each output 2 B below its input, and L [0,3], 2 B, with no
// pair, alive beside all three. Operators 1 and 2 hold 22 B, or 14 with
// their pair's 8 shared bytes: overlap bound 14. Below 22 B both pairs
// are forced, so T3 <= T2 - 2 <= T1 - 4 and T3 >= 0: T1 >= 4, top >= 14,
// which is all the forced pairs alone give. At arena 15, T1 is in [4, 5],
// T2 in [2, 3], T3 in [0, 1], so every plan covers [5, 14), [3, 12) and
// [1, 10) with them; L meets all three and would have to start at or
// above 14 (13 at most within 15 B) or end at or below 1 (it needs 2 B):
// no plan. At 16 the plan T3 0, T2 2, T1 4, L 14 exists.
TEST(OverlapLowerBound, CompulsoryPartsRaiseTheForcedBound) {
  const std::vector<R> records = {
      {0, 1, 10}, {1, 2, 10}, {2, 3, 10}, {0, 3, 2}};
  const std::vector<OverlapPair> pairs = {Below(0, 1, 1, 2), Below(1, 2, 2, 2)};
  const ProfileSummary summary = SummarizeProfiles(records);
  EXPECT_EQ(OverlapLowerBound(records, pairs, summary), 14u);
  EXPECT_EQ(OverlapForcedBound(records, pairs, summary, 16), 16u);
  EXPECT_EQ(OverlapForcedBound(records, pairs, summary, 30), 16u);
  const std::vector<std::uint64_t> plan = {4, 2, 0, 14};
  EXPECT_TRUE(ValidateOffsets(records, plan, 16, 1, pairs).ok());
}

// Two blockers beside a chain: T1 [0,1] -> T2 [1,2] -> T3 [2,3] of 8 B
// tensors, each output 2 B below its input, and L1, L2 [0,3] of 1 B each
// with no pair. Operators 1 and 2 hold 18 B, or 12 with their pair's 6
// shared bytes: overlap bound 12. Below 18 B both pairs are forced:
// T3 <= T2 - 2 <= T1 - 4, so the chain covers at least [T3, T3 + 12). At
// 13 B each blocker alone still fits (T3 in [0, 1], T1 in [4, 5]: the
// compulsory parts leave offset 0 and offset 12 free), but together they
// need 2 B outside the chain's range, and 13 - 12 = 1: no plan. At 14 the
// plan L1 0, T3 1, T2 3, T1 5, L2 13 exists.
TEST(OverlapLowerBound, BlockersBesideAForcedChainRaiseTheForcedBound) {
  const std::vector<R> records = {
      {0, 1, 8}, {1, 2, 8}, {2, 3, 8}, {0, 3, 1}, {0, 3, 1}};
  const std::vector<OverlapPair> pairs = {Below(0, 1, 1, 2), Below(1, 2, 2, 2)};
  const ProfileSummary summary = SummarizeProfiles(records);
  EXPECT_EQ(OverlapLowerBound(records, pairs, summary), 12u);
  EXPECT_EQ(OverlapForcedBound(records, pairs, summary, 14), 14u);
  EXPECT_EQ(OverlapForcedBound(records, pairs, summary, 30), 14u);
  const std::vector<std::uint64_t> plan = {5, 3, 1, 0, 13};
  EXPECT_TRUE(ValidateOffsets(records, plan, 14, 1, pairs).ok());
}

// An alias shares the whole tensor when the sizes are equal (48 + 48 -> 48
// at operator 1) and nothing when they differ.
TEST(OverlapLowerBound, CountsAnAliasAsOneTensor) {
  const std::vector<R> same = {{0, 1, 48}, {1, 2, 48}};
  EXPECT_EQ(Bound(same, {Alias(0, 1, 1)}), 48u);
  const std::vector<R> differ = {{0, 1, 48}, {1, 2, 64}};
  EXPECT_EQ(Bound(differ, {Alias(0, 1, 1)}), 112u);
}

// ADD: inputs A, B (100 B each, alive at operator 1 only) end at operator
// 1, output O (100 B, operators 1-2) starts there; O may start 10 B below A and
// 20 B below B. Savings 90 + 80 = 170 from 300: 130 (a true bound; A and B
// alone need 200, which the bound does not see, and that is allowed: it may
// only be too low, never too high). The same pair listed twice counts once,
// with its larger savings.
TEST(OverlapLowerBound, SumsSavingsOfPairsSharingATensorOnce) {
  const std::vector<R> records = {{1, 1, 100}, {1, 1, 100}, {1, 2, 100}};
  EXPECT_EQ(Bound(records, {Below(0, 2, 1, 10), Below(1, 2, 1, 20)}), 130u);
  EXPECT_EQ(Bound(records, {Below(0, 2, 1, 10), Below(0, 2, 1, 40)}), 210u);
  // Never below the largest tensor of a pair: 100 + 100 + 100 - 100 - 100.
  EXPECT_EQ(Bound(records, {Alias(0, 2, 1), Alias(1, 2, 1)}), 100u);
  // Every plan is at least the bound: greedy by size places them in 210.
  const std::vector<OverlapPair> pairs = {Below(0, 2, 1, 10),
                                          Below(1, 2, 1, 20)};
  const OffsetsAssignment plan = OffsetsGreedyBySizeOverlap(records, pairs);
  EXPECT_TRUE(
      ValidateOffsets(records, plan.offsets, Arena(records, plan), 1, pairs)
          .ok());
  EXPECT_GE(Arena(records, plan), 130u);
}

// person_detect's peak in miniature: input 18,432 B [0,1], output 36,864 B
// [1,2], the output at least 18,432 B below the input. Greedy by size puts
// the output at 0 first; the input may then start at 0 + 18,432 (the
// relation), so the arena is 36,864 = the overlap bound, where the plain
// plan needs 55,296. Greedy in order places the input first, at 0; the
// output cannot go 18,432 B below offset 0, so it goes on top: 55,296;
// its backward pass places the output first, at 0, and the input at
// 18,432: 36,864, which it keeps.
TEST(OverlapStrategies, PlacesTheOutputBelowItsInputByTheDistance) {
  const std::vector<R> records = {{0, 1, 18432}, {1, 2, 36864}};
  const std::vector<OverlapPair> pairs = {Below(0, 1, 1, 18432)};
  EXPECT_EQ(Bound(records, pairs), 36864u);
  const OffsetsAssignment by_size = OffsetsGreedyBySizeOverlap(records, pairs);
  EXPECT_EQ(by_size.offsets, (std::vector<std::uint64_t>{18432, 0}));
  const OffsetsAssignment by_breadth =
      OffsetsGreedyByBreadthOverlap(records, pairs);
  EXPECT_EQ(by_breadth.offsets, (std::vector<std::uint64_t>{18432, 0}));
  const OffsetsAssignment in_order =
      OffsetsGreedyInOrderOverlap(records, pairs);
  EXPECT_EQ(in_order.offsets, (std::vector<std::uint64_t>{18432, 0}));
  // One byte closer is not what a strategy may produce: the validator
  // rejects the input at 18,431.
  const std::vector<std::uint64_t> closer = {18431, 0};
  EXPECT_EQ(ValidateOffsets(records, closer, 55295, 1, pairs).result,
            ValidationResult::kOverlap);
}

// X [0,0] 32 B, input A [0,1] 64 B, output B [1,2] 64 B (B at least 16 B
// below A), Y [2,2] 32 B. Greedy by size in Alg. 3's order (A, B, X, Y):
// A at 0; B cannot go 16 B below offset 0, so its forbidden starts are
// [0, 64) and it goes to 64; X (meets A) 64, Y (meets B) 0: arena 128.
// Equal sizes latest first (B, A, Y, X): B at 0; A may start at 0 + 16,
// its forbidden starts are [0, 16): A at 16; Y meets B: [0, 64), so 64; X
// meets A: [0, 80), so 80: arena 112, which is kept. (The cluster orders
// repeat these two.) The overlap bound is max(96, 64 + 16, 96) = 96.
TEST(OverlapStrategies, KeepsTheSmallerArenaOfItsOrders) {
  const std::vector<R> records = {
      {0, 0, 32}, {0, 1, 64}, {1, 2, 64}, {2, 2, 32}};
  const std::vector<OverlapPair> pairs = {Below(1, 2, 1, 16)};
  EXPECT_EQ(Bound(records, pairs), 96u);
  const OffsetsAssignment plan = OffsetsGreedyBySizeOverlap(records, pairs);
  EXPECT_EQ(plan.offsets, (std::vector<std::uint64_t>{80, 16, 0, 64}));
  EXPECT_TRUE(ValidateOffsets(records, plan.offsets, 112, 1, pairs).ok());
}

// vww_96_int8's first four operators: image I (27,648 B, operator 0),
// T1 (18,432 B, 0-1), T2 (18,432 B, 1-2), T3 (36,864 B, 2-3); pairs
// I->T1 (112 B), T1->T2 (400 B), T2->T3 (18,448 B). Overlap bound:
// operator 2, max(18,432 + 18,448, 36,864) = 36,880. Alg. 3's order (T3,
// I, T1, T2) puts T3 and I both at 0 (they never meet); T1 can go neither
// 112 B below I at 0 nor inside it: 27,648, arena 46,080; latest first
// (T3, I, T2, T1) also ends with T1 at 27,648. The cluster order (T3, T2,
// T1, I) places T3 at 0, T2 at 0 + 18,448, T1 in the run [0, 16] below
// T2 (its forbidden starts are [17, 18,848)): at 0, and I 112 B above T1:
// 36,880, the bound.
TEST(OverlapStrategies, PlacesAnOverlapClusterTogether) {
  const std::vector<R> records = {
      {0, 0, 27648}, {0, 1, 18432}, {1, 2, 18432}, {2, 3, 36864}};
  const std::vector<OverlapPair> pairs = {
      Below(0, 1, 0, 112), Below(1, 2, 1, 400), Below(2, 3, 2, 18448)};
  EXPECT_EQ(Bound(records, pairs), 36880u);
  const OffsetsAssignment plan = OffsetsGreedyBySizeOverlap(records, pairs);
  EXPECT_EQ(plan.offsets, (std::vector<std::uint64_t>{112, 0, 18448, 0}));
  EXPECT_EQ(Arena(records, plan), 36880u);
}

// RESHAPE: A [0,1] 64 B aliased by B [1,2] 64 B; C [0,0] and D [2,2] 64 B.
// Greedy by size (all 64 B, input order): A at 0; B's partner A is placed,
// so B's allowed starts are {0} and [64, ...): the run [0, 0] is the
// shortest, B at 0. C meets A: 64; D meets B: 64. Arena 128 = the overlap
// bound (operator 0: 128, operator 1: 64, operator 2: 128).
TEST(OverlapStrategies, PutsAnAliasAtItsInputsOffset) {
  const std::vector<R> records = {
      {0, 1, 64}, {1, 2, 64}, {0, 0, 64}, {2, 2, 64}};
  const std::vector<OverlapPair> pairs = {Alias(0, 1, 1)};
  EXPECT_EQ(Bound(records, pairs), 128u);
  const OffsetsAssignment plan = OffsetsGreedyBySizeOverlap(records, pairs);
  EXPECT_EQ(plan.offsets, (std::vector<std::uint64_t>{0, 0, 64, 64}));
  EXPECT_TRUE(ValidateOffsets(records, plan.offsets, 128, 1, pairs).ok());
}

// Random instances, sizes multiples of 16, with random well-formed pairs
// (an input ending where an output starts; kOutputBelowBy with a distance
// of 0 .. 2x the output in steps of 16, or kAlias, sometimes on tensors
// of different sizes). Every overlap variant's plan passes the
// overlap-aware validator and is at least the overlap bound; with no
// pairs, each gives exactly the plain strategy's offsets.
TEST(OverlapStrategies, RandomPlansAreValidAndAtLeastTheOverlapBound) {
  using Overlap =
      OffsetsAssignment (*)(std::span<const R>, std::span<const OverlapPair>);
  using Plain = OffsetsAssignment (*)(std::span<const R>);
  const std::vector<std::pair<Overlap, Plain>> strategies = {
      {&OffsetsGreedyBySizeOverlap, &OffsetsGreedyBySize},
      {&OffsetsGreedyByBreadthOverlap, &OffsetsGreedyByBreadth},
      {&OffsetsGreedyInOrderOverlap, &OffsetsGreedyInOrder},
      {&OffsetsStripPackingBestFitOverlap, &OffsetsStripPackingBestFit},
  };
  std::mt19937_64 rng(20261123);
  std::size_t used_pairs = 0;
  std::size_t below_plain = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::uint32_t ops = 1 + rng() % 12;
    const std::size_t n = 1 + rng() % 14;
    const std::vector<R> records = RandomRecords(
        rng, ops, n, [](std::mt19937_64& g) { return 16 * (1 + g() % 8); });
    const std::vector<OverlapPair> pairs = RandomPairs(
        rng, records,
        [&](std::mt19937_64& g, std::uint32_t in,
            std::uint32_t out) -> std::optional<OverlapPair> {
          if (g() % 3 == 0) return std::nullopt;
          const std::uint32_t op = records[in].last_op;
          if (g() % 4 == 0) return Alias(in, out, op);
          return Below(in, out, op, 16 * (g() % (records[out].size / 8 + 1)));
        });
    const std::uint64_t bound = Bound(records, pairs);
    EXPECT_GE(SummarizeProfiles(records).offsets_lower_bound, bound);
    for (const auto& [overlap, plain] : strategies) {
      const OffsetsAssignment with = overlap(records, pairs);
      const std::uint64_t arena = Arena(records, with);
      const ValidationReport report =
          ValidateOffsets(records, with.offsets, arena, 16, pairs);
      ASSERT_TRUE(report.ok())
          << "trial " << trial << ": " << ToString(report.result);
      ASSERT_GE(arena, bound) << "trial " << trial;
      for (std::size_t k = 0; k < pairs.size(); ++k) {
        const OverlapPair& p = pairs[k];
        const std::uint64_t a = with.offsets[p.input];
        const std::uint64_t b = with.offsets[p.output];
        used_pairs +=
            a < b + records[p.output].size && b < a + records[p.input].size;
      }
      const OffsetsAssignment without = plain(records);
      below_plain += arena < Arena(records, without);
      ASSERT_EQ(overlap(records, {}).offsets, without.offsets)
          << "trial " << trial;
    }
  }
  // The pairs are exercised: many plans share bytes, and some are smaller
  // than the plain strategy's.
  EXPECT_GT(used_pairs, 1000u);
  EXPECT_GT(below_plain, 100u);
}

// A second method for the bound: on tiny instances (up to 4 tensors of 1-3
// units of 16 B, random pairs) every placement on the 16 B grid up to the
// sum of sizes is tried and checked by core's pairwise validator (the
// seven-argument FindViolation, which shares no code with the planner);
// the smallest valid arena is the optimum (some optimal plan lies on that
// grid: sizes and distances are multiples of 16, so lowering each offset
// to a multiple of 16 keeps every relation and disjointness). The overlap
// bound must never exceed it, and every overlap variant's arena must be at
// least it.
TEST(OverlapLowerBound, NeverExceedsTheBruteForceOptimum) {
  std::mt19937_64 rng(99);
  std::size_t tight = 0;
  std::size_t forced_tight = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::uint32_t ops = 1 + rng() % 4;
    const std::size_t n = 2 + rng() % 3;
    const std::vector<R> records = RandomRecords(
        rng, ops, n, [](std::mt19937_64& g) { return 16 * (1 + g() % 3); });
    std::uint64_t units = 0;
    for (const R& r : records) units += r.size / 16;
    const std::vector<OverlapPair> pairs =
        RandomPairs(rng, records,
                    [&](std::mt19937_64& g, std::uint32_t in,
                        std::uint32_t out) -> std::optional<OverlapPair> {
                      if (g() % 4 == 0) return std::nullopt;
                      const std::uint32_t op = records[in].last_op;
                      if (g() % 4 == 0) return Alias(in, out, op);
                      return Below(in, out, op, 16 * (g() % 3));
                    });
    std::vector<Placement> plan(n);
    std::vector<OverlapPermit> permits;
    for (const OverlapPair& p : pairs) {
      permits.push_back({p.input, p.output, p.op, p.relation, p.distance});
    }
    std::uint64_t optimum = 16 * units;
    std::vector<std::uint64_t> unit(n, 0);
    for (;;) {
      std::uint64_t arena = 0;
      for (std::size_t i = 0; i < n; ++i) {
        plan[i] = {16 * unit[i], records[i].size, records[i].first_op,
                   records[i].last_op};
        arena = std::max(arena, 16 * unit[i] + records[i].size);
      }
      if (arena < optimum && FindViolation(plan.data(), n, arena, 16, ops,
                                           permits.data(), permits.size())
                                     .result == ValidationResult::kOk) {
        optimum = arena;
      }
      std::size_t k = 0;
      while (k < n && ++unit[k] > units) unit[k++] = 0;
      if (k == n) break;
    }
    const std::uint64_t bound = Bound(records, pairs);
    ASSERT_LE(bound, optimum) << "trial " << trial;
    tight += bound == optimum;
    for (auto* strategy :
         {&OffsetsGreedyBySizeOverlap, &OffsetsGreedyByBreadthOverlap,
          &OffsetsGreedyInOrderOverlap, &OffsetsStripPackingBestFitOverlap}) {
      const std::uint64_t arena = Arena(records, strategy(records, pairs));
      ASSERT_GE(arena, optimum) << "trial " << trial;
      const std::uint64_t forced =
          OverlapForcedBound(records, pairs, SummarizeProfiles(records), arena);
      ASSERT_LE(forced, optimum) << "trial " << trial;
      ASSERT_GE(forced, bound) << "trial " << trial;
      forced_tight += forced == optimum;
    }
  }
  // Not a requirement, a sign the bounds are not trivially low (four
  // strategies a trial for the forced bound).
  EXPECT_GT(tight, 150u);
  EXPECT_GT(forced_tight, 3 * tight);
}

/// testing_util::Problem with a default alignment of 16 bytes.
UsageProblem Problem(const std::vector<R>& records,
                     const std::vector<OverlapPair>& pairs) {
  UsageProblem p = testing_util::Problem(records, pairs);
  p.default_alignment = Alignment::FromBytes(16);
  return p;
}

// The planner rounds each distance up to the alignment (10 -> 16), plans
// best with the pairs, reports the overlap bound, and runs no search (the
// best heuristic meets the bound).
TEST(OverlapPlanner, AlignsDistancesAndReportsTheOverlapBound) {
  const UsageProblem problem =
      Problem({{0, 1, 18432}, {1, 2, 36864}}, {Below(0, 1, 1, 18430)});
  PlanOptions options;
  options.overlap = true;
  const PlanResult plan = Plan(problem, options);
  ASSERT_EQ(plan.overlaps.size(), 1u);
  EXPECT_EQ(plan.overlaps[0].distance, 18432u);
  EXPECT_EQ(plan.lower_bound, 55296u);
  EXPECT_EQ(plan.overlap_lower_bound, 36864u);
  EXPECT_EQ(plan.arena_bytes, 36864u);
  EXPECT_TRUE(plan.optimal);
  EXPECT_EQ(plan.search_stopped_by, "");
  EXPECT_TRUE(OverlapUsed(plan, 0));
  // Without --overlap the pairs are ignored: the plain bound and plan.
  const PlanResult plain = Plan(problem, PlanOptions{});
  EXPECT_TRUE(plain.overlaps.empty());
  EXPECT_EQ(plain.arena_bytes, 55296u);
  // The exact search knows the pairs: `optimal` proves the same plan.
  options.strategy = "optimal";
  const PlanResult exact = Plan(problem, options);
  EXPECT_EQ(exact.arena_bytes, 36864u);
  EXPECT_TRUE(exact.optimal);
  // A capacity below the overlap bound is proven infeasible.
  options.strategy = "best";
  options.capacity = 36863;
  EXPECT_THROW((void)Plan(problem, options), InfeasibleError);
}

// `best` with --overlap on random instances with random pairs (raw
// distances, rounded by the planner): the plan passed the overlap-aware
// validator inside Plan (it throws otherwise), is at least the overlap
// bound, and is never larger than strip packing's plain plan, which `best`
// also runs (docs/overlap.md: what is proven).
TEST(OverlapPlanner, BestIsValidAndNoWorseThanStripPacking) {
  std::mt19937_64 rng(7);
  const StrategyInfo* strip =
      FindStrategy(Approach::kOffsets, "strip-packing-best-fit");
  ASSERT_NE(strip, nullptr);
  for (int trial = 0; trial < 400; ++trial) {
    const std::uint32_t ops = 1 + rng() % 10;
    const std::size_t n = 1 + rng() % 12;
    const std::vector<R> records = RandomRecords(
        rng, ops, n, [](std::mt19937_64& g) { return g() % 200; });
    const std::vector<OverlapPair> pairs =
        RandomPairs(rng, records,
                    [&](std::mt19937_64& g, std::uint32_t in,
                        std::uint32_t out) -> std::optional<OverlapPair> {
                      if (g() % 2 != 0) return std::nullopt;
                      const std::uint32_t op = records[in].last_op;
                      if (g() % 5 == 0) return Alias(in, out, op);
                      return Below(in, out, op, g() % 220);
                    });
    const UsageProblem problem = Problem(records, pairs);
    PlanOptions options;
    options.overlap = true;
    const PlanResult plan = Plan(problem, options);
    ASSERT_GE(plan.arena_bytes, plan.overlap_lower_bound) << trial;
    options.strategy = "strip-packing-best-fit";
    const PlanResult strip_plan = Plan(problem, options);
    ASSERT_LE(plan.arena_bytes, strip_plan.arena_bytes) << trial;
    for (const OverlapPair& p : plan.overlaps) {
      ASSERT_EQ(p.distance % 16, 0u);
    }
  }
}

// The chain of ForcedPairsAddUpAlongAChain through the planner: the
// overlap bound stays 96 (its definition), the proven bound is 112 and the
// plan (112) is reported optimal.
TEST(OverlapPlanner, ProvesAChainPlanOptimal) {
  PlanOptions options;
  options.overlap = true;
  const PlanResult plan =
      Plan(Problem({{0, 1, 64}, {1, 2, 64}, {2, 3, 64}},
                   {Below(0, 1, 1, 16), Below(1, 2, 2, 32)}),
           options);
  EXPECT_EQ(plan.overlap_lower_bound, 96u);
  EXPECT_EQ(plan.lower_bound_proven, 112u);
  EXPECT_EQ(plan.arena_bytes, 112u);
  EXPECT_TRUE(plan.optimal);
  EXPECT_EQ(plan.gap_bytes, 0u);
}

TEST(OverlapPlanner, RefusesAMalformedPair) {
  PlanOptions options;
  options.overlap = true;
  // The input does not end at operator 1.
  EXPECT_THROW(
      (void)Plan(Problem({{0, 2, 16}, {1, 2, 16}}, {Below(0, 1, 1, 0)}),
                 options),
      InputError);
  // Index outside the records.
  EXPECT_THROW(
      (void)Plan(Problem({{0, 1, 16}, {1, 2, 16}}, {Below(0, 7, 1, 0)}),
                 options),
      InputError);
}

// JSON and SVG say more only with --overlap: the overlap bound and the
// pairs, the hatched shared bytes (one rectangle per used pair) and the
// legend line.
TEST(OverlapOutputs, ReportOverlapOnlyWhenAskedFor) {
  const UsageProblem problem =
      Problem({{0, 1, 18432}, {1, 2, 36864}}, {Below(0, 1, 1, 18430)});
  PlanOptions options;
  options.overlap = true;
  const PlanResult plan = Plan(problem, options);
  const std::string json = PlanJson(plan, true);
  EXPECT_NE(json.find("\"overlap_lower_bound\":36864,"
                      "\"lower_bound_proven\":36864,\"overlap_pairs\":1,"
                      "\"overlap_pairs_used\":1"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("{\"input\":\"0\",\"output\":\"1\",\"op\":1,"
                      "\"relation\":\"output_below_by\",\"distance\":18432,"
                      "\"used\":true}"),
            std::string::npos)
      << json;
  const std::string svg = EmitSvg(plan);
  EXPECT_NE(svg.find("url(#overlap-hatch)"), std::string::npos);
  EXPECT_NE(svg.find("shares 18432 B with input"), std::string::npos);
  EXPECT_NE(svg.find("1 of 1 pairs used"), std::string::npos);

  const PlanResult plain = Plan(problem, PlanOptions{});
  EXPECT_EQ(PlanJson(plain, true).find("overlap"), std::string::npos);
  EXPECT_EQ(EmitSvg(plain).find("overlap"), std::string::npos);
}

TEST(OverlapCli, RefusesOverlapForTflm) {
  const testing_util::CommandResult r = testing_util::RunCommand(
      std::string(ARENAPLAN_BINARY) +
      " tflm " ARENAPLAN_SHARED_DIR
      "/models/kws_ref_model.tflite --out /nonexistent/x.tflite --overlap");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("--overlap: not for tflm"), std::string::npos)
      << r.output;
}

// kws_ref_model: a chain of nine 8,000 B tensors through operators 1-8,
// alternately DEPTHWISE_CONV_2D (d = 384) and 1x1 CONV_2D (d = 63, aligned
// to 64); each output sits its distance below its input, so the chain needs
// 8,000 + 4 x 384 + 4 x 64 = 9,792 bytes, and the text summary says it.
TEST(OverlapCli, SaysWhatIsProvenInTheTextSummary) {
  const testing_util::CommandResult r = testing_util::RunCommand(
      std::string(ARENAPLAN_BINARY) + " plan " ARENAPLAN_SHARED_DIR
                                      "/models/kws_ref_model.tflite --overlap");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("arena:       9792 bytes"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("proven:      no plan with these overlaps needs "
                          "less than 9792 bytes: this plan is optimal\n"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace arenaplan
