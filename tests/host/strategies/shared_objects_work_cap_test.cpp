// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The work cap of the Shared Objects strategies (codegen/strategies/common/
// work_cap.hpp, issue 17 finding 5): with an unlimited cap each strategy is
// its default; a small cap still gives a valid plan and says where it
// stopped; the default cap is never reached on network-shaped inputs or on
// MiniMalloc's instances.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "codegen/input/input.hpp"
#include "codegen/records.hpp"
#include "codegen/solver/instances.hpp"
#include "codegen/strategies/common/object_intervals.hpp"
#include "codegen/strategies/strategies.hpp"
#include "codegen/strategies/strategy.hpp"
#include "codegen/validator/validator.hpp"

namespace arenaplan {
namespace {

using Records = std::vector<TensorUsageRecord>;
using Plain = SharedObjectsAssignment (*)(std::span<const TensorUsageRecord>);
using Capped = SharedObjectsAssignment (*)(std::span<const TensorUsageRecord>,
                                           std::uint64_t);

struct Named {
  const char* name;
  Plain plain;
  Capped capped;
};
const Named kCapped[] = {
    {"greedy-by-size-improved", &SharedObjectsGreedyBySizeImproved,
     &SharedObjectsGreedyBySizeImprovedWithCap},
    {"greedy-by-size", &SharedObjectsGreedyBySize,
     &SharedObjectsGreedyBySizeWithCap},
    {"greedy-by-breadth", &SharedObjectsGreedyByBreadth,
     &SharedObjectsGreedyByBreadthWithCap},
    {"min-cost-flow", &SharedObjectsMinCostFlow,
     &SharedObjectsMinCostFlowWithCap},
};

bool Valid(const Records& r, const SharedObjectsAssignment& a) {
  std::vector<std::int64_t> object_of(a.object_of.begin(), a.object_of.end());
  return ValidateSharedObjects(r, object_of, a.object_sizes).ok();
}

/// A network-shaped chain: tensor i is produced by operator i and read by
/// operator i + 1, and every 4th also by operator i + 4 (a residual).
Records Network(std::size_t n) {
  Records r(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto first = static_cast<std::uint32_t>(i);
    r[i] = {first, first + (i % 4 == 0 ? 4u : 1u),
            std::uint64_t{1024} * (1 + (i * 7) % 13)};
  }
  return r;
}

TEST(SharedObjectsWorkCap, UnlimitedCapEqualsDefault) {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t n = 1 + rng() % 300;
    const Records r =
        GenerateDenseLifetimes(n, static_cast<std::uint32_t>(rng()));
    for (const Named& s : kCapped) {
      const SharedObjectsAssignment a = s.plain(r);
      const SharedObjectsAssignment b = s.capped(r, UINT64_MAX);
      EXPECT_EQ(a.object_of, b.object_of) << s.name << " trial " << trial;
      EXPECT_EQ(a.object_sizes, b.object_sizes) << s.name;
      EXPECT_EQ(a.capped_after, SIZE_MAX) << s.name;
      EXPECT_EQ(b.capped_after, SIZE_MAX) << s.name;
    }
  }
}

TEST(SharedObjectsWorkCap, SmallCapGivesValidPlanAndSaysWhere) {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    const Records r = GenerateDenseLifetimes(3000, seed);
    const std::uint64_t bound = SummarizeProfiles(r).shared_objects_lower_bound;
    for (const Named& s : kCapped) {
      for (std::uint64_t cap : {std::uint64_t{0}, std::uint64_t{5000}}) {
        const SharedObjectsAssignment a = s.capped(r, cap);
        EXPECT_TRUE(Valid(r, a)) << s.name << " cap " << cap;
        EXPECT_LT(a.capped_after, r.size()) << s.name << " cap " << cap;
        std::uint64_t total = 0;
        for (std::uint64_t x : a.object_sizes) total += x;
        EXPECT_GE(total, bound) << s.name;
      }
    }
  }
}

// Hand-derived, with m = kCappedObjectCandidates + 1: tensor 0 (size 100,
// operators 0..1), then m tensors of size 50 over operators 0..10 (each
// overlaps all before it: objects 1..m), then one of size 10 at operator 5.
// Alg. 2 gives the last one object 0, the only one free at operator 5.
// Tensor i (in size order) examines i objects, so with a cap of 10 units
// tensors 0..4 spend 0+1+2+3+4 = 10 and tensor 5 is the first one capped;
// from then on only the kCappedObjectCandidates newest objects are tried, so
// the last tensor, whose only free object is object 0, opens object m + 1.
TEST(SharedObjectsWorkCap, GreedyBySizeCapLimitsCandidates) {
  const std::size_t m = kCappedObjectCandidates + 1;
  Records r;
  r.push_back({0, 1, 100});
  for (std::size_t i = 0; i < m; ++i) r.push_back({0, 10, 50});
  r.push_back({5, 5, 10});
  const SharedObjectsAssignment exact =
      SharedObjectsGreedyBySizeWithCap(r, UINT64_MAX);
  EXPECT_EQ(exact.object_of.back(), 0u);
  EXPECT_EQ(exact.object_sizes.size(), m + 1);
  EXPECT_EQ(exact.capped_after, SIZE_MAX);
  const SharedObjectsAssignment capped =
      SharedObjectsGreedyBySizeWithCap(r, 10);
  EXPECT_EQ(capped.capped_after, 5u);
  EXPECT_EQ(capped.object_of.back(), m + 1);
  EXPECT_EQ(capped.object_sizes.size(), m + 2);
  EXPECT_TRUE(Valid(r, capped));
}

TEST(SharedObjectsWorkCap, DefaultCapNotReachedOnNetworkShapedInputs) {
  const Records large = Network(20000);
  const Records small = Network(2000);  // min-cost flow's max_records
  for (const Named& s : kCapped) {
    const bool cubic = std::string(s.name) == "min-cost-flow";
    const Records& r = cubic ? small : large;
    const SharedObjectsAssignment a = s.plain(r);
    EXPECT_EQ(a.capped_after, SIZE_MAX) << s.name;
    EXPECT_TRUE(Valid(r, a)) << s.name;
  }
}

TEST(SharedObjectsWorkCap, DefaultCapNotReachedOnMinimallocInstances) {
  for (const char* name : {"A", "B", "C", "D", "E"}) {
    const Records r = LoadCsvProblem(std::string(ARENAPLAN_SHARED_DIR) +
                                     "/benchmarks/minimalloc-challenging/" +
                                     name + ".1048576.csv")
                          .records;
    ASSERT_FALSE(r.empty()) << name;
    for (const Named& s : kCapped) {
      EXPECT_EQ(s.plain(r).capped_after, SIZE_MAX) << s.name << " on " << name;
    }
  }
}

}  // namespace
}  // namespace arenaplan
