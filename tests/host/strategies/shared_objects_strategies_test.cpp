// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Shared Objects strategies (Pisarchyk & Lee 2019, §4; prior work of Lee et
// al. 2019): hand-derived optima, the paper's worked example, agreement with
// straightforward reference implementations of the algorithms as printed
// (O(k n^2), written here independently of codegen/strategies/), and an
// exact brute force for the min-cost-flow objective.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "codegen/records.hpp"
#include "codegen/strategies/strategies.hpp"
#include "codegen/strategies/strategy.hpp"
#include "tests/host/support/shared_objects_check.hpp"

namespace arenaplan {
namespace {

using namespace shared_objects_check;  // NOLINT(build/namespaces)

std::uint32_t MaxOp(const Records& r) {
  std::uint32_t m = 0;
  for (const auto& x : r) m = std::max(m, x.last_op);
  return m;
}

/// Operator profile of `op`: record indices, size non-increasing, then index.
std::vector<std::size_t> Profile(const Records& r, std::uint32_t op) {
  std::vector<std::size_t> p;
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (r[i].first_op <= op && op <= r[i].last_op) p.push_back(i);
  }
  std::stable_sort(p.begin(), p.end(), [&](std::size_t a, std::size_t b) {
    return r[a].size > r[b].size;
  });
  return p;
}

/// Positional maximums straight from their definition (§3).
std::vector<std::uint64_t> PositionalMaximums(const Records& r) {
  std::vector<std::uint64_t> pm;
  if (r.empty()) return pm;
  for (std::uint32_t op = 0; op <= MaxOp(r); ++op) {
    const auto p = Profile(r, op);
    if (pm.size() < p.size()) pm.resize(p.size(), 0);
    for (std::size_t i = 0; i < p.size(); ++i) {
      pm[i] = std::max(pm[i], r[p[i]].size);
    }
  }
  return pm;
}

// ---------------------------------------------------------------------------
// Reference implementations, transcribed from the paper's pseudo-code with
// the O(n) suitability scan of L.18-23 (Alg. 1) / L.9-13 (Alg. 2).

bool Suitable(const Records& r, const std::vector<std::size_t>& assigned,
              std::size_t t, std::size_t obj) {
  for (std::size_t x = 0; x < r.size(); ++x) {
    if (assigned[x] == obj && Overlap(r[t], r[x])) return false;
  }
  return true;
}

constexpr std::size_t kNil = std::numeric_limits<std::size_t>::max();

SharedObjectsAssignment RefGreedyBySize(const Records& r) {  // Alg. 2
  std::vector<std::size_t> order(r.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](auto a, auto b) { return r[a].size > r[b].size; });
  std::vector<std::size_t> assigned(r.size(), kNil);
  std::vector<std::uint64_t> sizes;
  for (std::size_t t : order) {
    std::size_t best = kNil;
    for (std::size_t obj = 0; obj < sizes.size(); ++obj) {
      if (Suitable(r, assigned, t, obj)) best = obj;  // L.14-15
    }
    if (best == kNil) {
      best = sizes.size();
      sizes.push_back(r[t].size);
    }
    assigned[t] = best;
  }
  return {assigned, sizes};
}

SharedObjectsAssignment RefGreedyByBreadth(const Records& r) {  // Alg. 1
  std::vector<std::size_t> assigned(r.size(), kNil);
  std::vector<std::uint64_t> sizes;
  if (r.empty()) return {assigned, sizes};
  std::vector<std::uint32_t> ops(MaxOp(r) + 1);
  std::iota(ops.begin(), ops.end(), 0U);
  auto breadth = [&](std::uint32_t op) {
    std::uint64_t b = 0;
    for (std::size_t i : Profile(r, op)) b += r[i].size;
    return b;
  };
  std::stable_sort(ops.begin(), ops.end(),
                   [&](auto a, auto b) { return breadth(a) > breadth(b); });
  for (std::uint32_t op : ops) {
    for (std::size_t t : Profile(r, op)) {
      if (assigned[t] != kNil) continue;
      std::size_t best = kNil;
      for (std::size_t obj = 0; obj < sizes.size(); ++obj) {
        bool is_better = true;
        if (best != kNil) {
          if (sizes[best] < r[t].size) {
            if (sizes[obj] <= sizes[best]) is_better = false;
          } else if (sizes[obj] >= sizes[best] || sizes[obj] < r[t].size) {
            is_better = false;
          }
        }
        if (Suitable(r, assigned, t, obj) && is_better) best = obj;
      }
      if (best == kNil) {
        best = sizes.size();
        sizes.push_back(r[t].size);
      } else {
        sizes[best] = std::max(sizes[best], r[t].size);
      }
      assigned[t] = best;
    }
  }
  return {assigned, sizes};
}

/// §4.4 by brute force over (tensor, object) pairs at every step; also
/// returns the processing order.
SharedObjectsAssignment RefImproved(const Records& r,
                                    std::vector<std::size_t>* order = nullptr) {
  std::vector<std::size_t> assigned(r.size(), kNil);
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint64_t> pm = PositionalMaximums(r);
  pm.erase(std::unique(pm.begin(), pm.end()), pm.end());
  // Stage key: 2i for size == pm[i], 2i - 1 for pm[i] < size < pm[i-1],
  // 2d - 1 below the last one.
  auto stage_of = [&](std::uint64_t s) {
    for (std::size_t i = 0; i < pm.size(); ++i) {
      if (s == pm[i]) return 2 * i;
      if (s > pm[i]) return 2 * i - 1;
    }
    return 2 * pm.size() - 1;
  };
  for (std::size_t stage = 0; stage < 2 * pm.size(); ++stage) {
    while (true) {
      std::size_t bt = kNil, bo = kNil;
      std::uint64_t bgap = 0;
      bool any = false;
      std::size_t largest = kNil;
      for (std::size_t t = 0; t < r.size(); ++t) {
        if (assigned[t] != kNil || stage_of(r[t].size) != stage) continue;
        any = true;
        if (largest == kNil || r[t].size > r[largest].size) largest = t;
        for (std::size_t obj = 0; obj < sizes.size(); ++obj) {
          if (!Suitable(r, assigned, t, obj)) continue;
          std::uint64_t gap = std::numeric_limits<std::uint64_t>::max();
          for (std::size_t x = 0; x < r.size(); ++x) {
            if (assigned[x] != obj) continue;
            gap = std::min<std::uint64_t>(gap,
                                          r[x].last_op < r[t].first_op
                                              ? r[t].first_op - r[x].last_op
                                              : r[x].first_op - r[t].last_op);
          }
          const bool better =
              bt == kNil || gap < bgap ||
              (gap == bgap &&
               (r[t].size > r[bt].size || (r[t].size == r[bt].size && t < bt)));
          if (better) {  // same t, larger obj never replaces: obj ascending
            bt = t;
            bo = obj;
            bgap = gap;
          }
        }
      }
      if (!any) break;
      if (bt == kNil) {
        bt = largest;
        bo = sizes.size();
        sizes.push_back(r[bt].size);
      }
      sizes[bo] = std::max(sizes[bo], r[bt].size);
      assigned[bt] = bo;
      if (order != nullptr) order->push_back(bt);
    }
  }
  return {assigned, sizes};
}

/// TFLite GPU's "Greedy" by scanning a pool vector.
SharedObjectsAssignment RefGreedyInOrder(const Records& r) {
  std::vector<std::size_t> order(r.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) {
    return r[a].first_op < r[b].first_op;
  });
  std::vector<std::size_t> assigned(r.size(), kNil);
  std::vector<std::uint64_t> sizes;
  std::vector<std::uint32_t> busy_until;  // per object: last_op of its tensor
  for (std::size_t t : order) {
    // Smallest free object >= size (lowest index among equal sizes) vs.
    // largest free object < size (highest index among equal sizes).
    std::size_t up = kNil, down = kNil;
    for (std::size_t obj = 0; obj < sizes.size(); ++obj) {
      if (busy_until[obj] >= r[t].first_op) continue;
      if (sizes[obj] >= r[t].size) {
        if (up == kNil || sizes[obj] < sizes[up]) up = obj;
      } else if (down == kNil || sizes[obj] >= sizes[down]) {
        down = obj;
      }
    }
    std::size_t best = up;
    if (down != kNil &&
        (up == kNil || r[t].size - sizes[down] < sizes[up] - r[t].size)) {
      best = down;
    }
    if (best == kNil) {
      best = sizes.size();
      sizes.push_back(r[t].size);
      busy_until.push_back(0);
    }
    sizes[best] = std::max(sizes[best], r[t].size);
    busy_until[best] = r[t].last_op;
    assigned[t] = best;
  }
  return {assigned, sizes};
}

/// Min-cost-flow objective of an assignment: per object, the first tensor's
/// size plus every increase between consecutive tensors in time order.
std::uint64_t FlowCost(const Records& r, const SharedObjectsAssignment& a) {
  std::uint64_t cost = 0;
  for (std::size_t obj = 0; obj < a.object_sizes.size(); ++obj) {
    std::vector<std::size_t> chain;
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (a.object_of[i] == obj) chain.push_back(i);
    }
    std::sort(chain.begin(), chain.end(),
              [&](auto x, auto y) { return r[x].first_op < r[y].first_op; });
    for (std::size_t k = 0; k < chain.size(); ++k) {
      const std::uint64_t s = r[chain[k]].size;
      const std::uint64_t prev = k == 0 ? 0 : r[chain[k - 1]].size;
      cost += s > prev ? s - prev : 0;
    }
  }
  return cost;
}

/// Exact minimum of FlowCost over all chain covers, by enumeration.
std::uint64_t BruteFlowCost(const Records& r) {
  std::vector<std::size_t> rows(r.size());
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  std::stable_sort(rows.begin(), rows.end(), [&](auto a, auto b) {
    return r[a].first_op < r[b].first_op;
  });
  std::vector<bool> released(r.size(), false);
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  std::function<void(std::size_t, std::uint64_t)> go = [&](std::size_t k,
                                                           std::uint64_t c) {
    if (c >= best) return;
    if (k == rows.size()) {
      best = c;
      return;
    }
    const std::size_t j = rows[k];
    go(k + 1, c + r[j].size);
    for (std::size_t i = 0; i < r.size(); ++i) {
      if (released[i] || r[i].last_op >= r[j].first_op) continue;
      released[i] = true;
      go(k + 1, c + (r[j].size > r[i].size ? r[j].size - r[i].size : 0));
      released[i] = false;
    }
  };
  go(0, 0);
  return best;
}

// ---------------------------------------------------------------------------
// Random instances: chains, residual blocks, branches, random intervals;
// sizes from a small set so that ties are frequent.

Records RandomInstance(std::mt19937_64& rng, std::size_t max_n) {
  const auto pick = [&](std::uint64_t lo, std::uint64_t hi) {
    return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
  };
  const std::uint64_t size_kinds = pick(1, 6);
  const auto size = [&] { return 8 * pick(1, size_kinds); };
  Records r;
  const std::size_t n = pick(1, max_n);
  switch (pick(0, 3)) {
    case 0:  // chain: tensor k lives on [k, k+1]
      for (std::uint32_t k = 0; k < n; ++k) r.push_back({k, k + 1, size()});
      break;
    case 1:  // residual blocks: a skip tensor spans each block of 3 ops
      for (std::uint32_t op = 0; r.size() < n; op += 3) {
        r.push_back({op, op + 3, size()});
        r.push_back({op, op + 1, size()});
        r.push_back({op + 1, op + 2, size()});
        r.push_back({op + 2, op + 3, size()});
      }
      r.resize(n);
      break;
    case 2:  // branches: x feeds two parallel paths joined by a concat
      for (std::uint32_t op = 0; r.size() < n; op += 4) {
        r.push_back({op, op + 2, size()});
        r.push_back({op + 1, op + 3, size()});
        r.push_back({op + 2, op + 3, size()});
        r.push_back({op + 3, op + 4, size()});
      }
      r.resize(n);
      break;
    default: {  // random intervals
      const std::uint64_t ops = pick(1, 2 * n + 1);
      for (std::size_t k = 0; k < n; ++k) {
        const auto a = static_cast<std::uint32_t>(pick(0, ops - 1));
        const auto len = static_cast<std::uint32_t>(pick(0, pick(0, ops)));
        r.push_back({a, a + len, size()});
      }
    }
  }
  std::shuffle(r.begin(), r.end(), rng);
  return r;
}

// The paper's worked example (§3, Figures 1-2), reconstructed from its text.
// The text fixes: operator #3's profile is {36, 28, 16} (breadth 80); the
// third positional maximum is max(16, 16, 16, 10) = 16 (four profiles hold
// three or more tensors); Greedy by Size for Offset Calculation visits
// 5, 7, 2, 0, 1, 3, 6, 4 (so size_5 > size_7 > size_2 > size_0 > size_1 >
// size_3 > size_6 > size_4); §4.4 gives size_5 = 64 = first positional
// maximum, size_7 = 40 = the second, sizes of 0, 1, 2 strictly between 40 and
// 16, objects 64 + 40 + 16 + 8 = 128 = the lower bound; §5.2 gives the
// offsets lower bound 124 (116 + 8). These records satisfy all of it:
//   t  [first, last] size      op:   0  1  2  3  4  5  6  7  8
//   0  [0, 1]  32                    x  x
//   1  [1, 4]  28                       x  x  x  x
//   2  [2, 5]  36                          x  x  x  x
//   3  [3, 5]  16                             x  x  x
//   4  [4, 5]   8                                x  x
//   5  [5, 7]  64                                   x  x  x
//   6  [6, 8]  10                                      x  x  x
//   7  [7, 8]  40                                         x  x
// Profiles (sorted): op3 {36,28,16} = 80; op4 {36,28,16,8}; op5 {64,36,16,8}
// = 124 (max breadth); op7 {64,40,10}; third entries 16,16,16,10.
// Positional maximums: 64, 40, 16, 8 -> lower bound 128.
Records PaperExample() {
  return {{0, 1, 32}, {1, 4, 28}, {2, 5, 36}, {3, 5, 16},
          {4, 5, 8},  {5, 7, 64}, {6, 8, 10}, {7, 8, 40}};
}

TEST(SharedObjectsStrategies, ReconstructPaperExampleFigures) {
  const Records r = PaperExample();
  const ProfileSummary s = SummarizeProfiles(r);
  EXPECT_EQ(s.positional_maximums, (std::vector<std::uint64_t>{64, 40, 16, 8}));
  EXPECT_EQ(s.shared_objects_lower_bound, 128u);
  EXPECT_EQ(s.offsets_lower_bound, 124u);
  EXPECT_EQ(PositionalMaximums(r), s.positional_maximums);
}

// §4.4 narrative: 5 first (64 = 1st positional maximum), then 7 (40), then
// stage (16, 40): 1 (gap 1 to tensor 5 in object A: 5 - 4), then 2 (gap 2 to
// tensor 7 in object B: 7 - 5), then 0 (gap 1 to tensor 2 in B; A is taken
// at op 1 by tensor 1); then 3 (16, overlaps everything: new object C), 6
// (stage (8, 16): gap 1 to tensor 3 in C), 4 (8: overlaps A, B, C: new D).
// Objects A = {5, 1} 64, B = {7, 2, 0} 40, C = {3, 6} 16, D = {4} 8.
TEST(SharedObjectsStrategies, ImprovedReproducesPaperExample) {
  const Records r = PaperExample();
  std::vector<std::size_t> order;
  const auto ref = RefImproved(r, &order);
  EXPECT_EQ(order, (std::vector<std::size_t>{5, 7, 1, 2, 0, 3, 6, 4}));
  const auto a = SharedObjectsGreedyBySizeImproved(r);
  EXPECT_EQ(a.object_of, (std::vector<std::size_t>{1, 0, 1, 2, 3, 0, 2, 1}));
  EXPECT_EQ(a.object_sizes, (std::vector<std::uint64_t>{64, 40, 16, 8}));
  EXPECT_EQ(a.object_of, ref.object_of);
}

// Alg. 2 on the example, visiting 5, 7, 2, 0, 1, 3, 6, 4: 5 -> A(64);
// 7 overlaps 5 at op 7 -> B(40); 2 [2,5] overlaps 5 -> B; 0 [0,1] fits A and
// B, the last suitable is B; 1 [1,4] overlaps 0 in B -> A; 3 overlaps 1 and
// 2 -> C(16); 6 [6,8] -> C; 4 -> D(8). Total 128.
// Alg. 1: breadth order ops 5 (124), 7 (114), 4 (88), 3 (80), 6 (74), 2, 1,
// 8, 0. Op 5 gives A=5(64), B=2(36), C=3(16), D=4(8). Op 7: tensor 7 (40)
// suits B, C, D; L.13-15 keeps B (the others are smaller than B), B grows to
// 40; tensor 6 (10) suits C and D; D (8 < 10) is not better than C (16).
// Op 4: tensor 1 suits only A. Op 1: tensor 0 suits B, C, D -> B (C, D are
// smaller than 32 and smaller than B). Again 64 + 40 + 16 + 8 = 128, the
// same sets as Greedy by Size Improved (as the paper notes), numbered in
// creation order.
TEST(SharedObjectsStrategies, GreedyBySizeAndBreadthOnPaperExample) {
  const Records r = PaperExample();
  const auto by_size = SharedObjectsGreedyBySize(r);
  EXPECT_EQ(by_size.object_of,
            (std::vector<std::size_t>{1, 0, 1, 2, 3, 0, 2, 1}));
  EXPECT_EQ(by_size.object_sizes, (std::vector<std::uint64_t>{64, 40, 16, 8}));
  const auto by_breadth = SharedObjectsGreedyByBreadth(r);
  EXPECT_EQ(by_breadth.object_of,
            (std::vector<std::size_t>{1, 0, 1, 2, 3, 0, 2, 1}));
  EXPECT_EQ(by_breadth.object_sizes,
            (std::vector<std::uint64_t>{64, 40, 16, 8}));
}

// Greedy in execution order on the example: 0 -> A(32); 1 starts at op 1
// where A is still in use -> B(28); 2 (36) at op 2: pool {A 32}, nothing
// >= 36, so A grows to 36; 3 at op 3 and 4 at op 4: nothing free -> C(16),
// D(8); 5 (64) at op 5: B (last op 4) is free -> B grows to 64; 6 (10) at
// op 6: pool {D 8, C 16, A 36}: smallest >= 10 is C (waste 6), largest
// smaller is D (grow by 2 < 6) -> D grows to 10; 7 (40) at op 7: pool
// {C 16, A 36} -> A grows to 40. Total 40 + 64 + 16 + 10 = 130 > 128.
TEST(SharedObjectsStrategies, GreedyInOrderOnPaperExample) {
  const auto a = SharedObjectsGreedyInOrder(PaperExample());
  EXPECT_EQ(a.object_of, (std::vector<std::size_t>{0, 1, 0, 2, 3, 1, 3, 0}));
  EXPECT_EQ(a.object_sizes, (std::vector<std::uint64_t>{40, 64, 16, 10}));
}

// Min-cost flow on the example: the greedy assignment above has monotone
// chains 1->5 (28 + 36), 0->2->7 (32 + 4 + 4), 3->6 (16), 4 (8): flow cost
// 128 = lower bound, and any flow's cost >= its footprint >= 128. So the
// optimum flow costs 128 and its footprint is exactly 128.
TEST(SharedObjectsStrategies, MinCostFlowReachesLowerBoundOnPaperExample) {
  const Records r = PaperExample();
  const auto a = SharedObjectsMinCostFlow(r);
  EXPECT_EQ(Check(r, a), "");
  EXPECT_EQ(FlowCost(r, a), 128u);
  EXPECT_EQ(Footprint(a), 128u);
}

// Chain t_k = [k, k+1], sizes 10, 20, 30, 40. Profiles {10}, {10,20},
// {20,30}, {30,40}, {40}: positional maximums 40, 30 -> lower bound 70,
// reached by alternating objects {t3, t1} (40) and {t2, t0} (30).
// Every strategy reaches it (greedy-in-order: t0 -> A, t1 -> B, t2 reuses A
// grown to 30, t3 reuses B grown to 40).
TEST(SharedObjectsStrategies, ChainReachesLowerBound) {
  const Records r = {{0, 1, 10}, {1, 2, 20}, {2, 3, 30}, {3, 4, 40}};
  for (const Named& s : kAll) {
    const auto a = s.fn(r);
    EXPECT_EQ(Check(r, a), "") << s.name;
    EXPECT_EQ(Footprint(a), 70u) << s.name;
    EXPECT_EQ(a.object_sizes.size(), 2u) << s.name;
    EXPECT_EQ(a.object_of[1], a.object_of[3]) << s.name;
  }
}

// Residual block: op 0 conv(x) -> a, op 1 conv(a) -> b, op 2 add(b, x) -> y,
// op 3 reads y. x [0,2] 32, a [0,1] 8, b [1,2] 8, y [2,3] 32. Profiles
// {32,8}, {32,8,8}, {32,32,8}, {32}: maxima 32, 32, 8 -> lower bound 72.
// b meets x, a and y, so it needs its own object (8); x and y meet at op 2;
// a and y are disjoint: {x} 32 + {a, y} 32 + {b} 8 = 72, optimal.
TEST(SharedObjectsStrategies, ResidualBlockReachesLowerBound) {
  const Records r = {{0, 2, 32}, {0, 1, 8}, {1, 2, 8}, {2, 3, 32}};
  for (const Named& s : kAll) {
    const auto a = s.fn(r);
    EXPECT_EQ(Check(r, a), "") << s.name;
    EXPECT_EQ(Footprint(a), 72u) << s.name;
    EXPECT_EQ(a.object_of[1], a.object_of[3]) << s.name;
  }
}

// Branch: x feeds ops 1 and 2, op 1 -> p, op 2 -> q, op 3 concat(p, q) -> z.
// x [0,2] 24, p [1,3] 8, q [2,3] 16, z [3,4] 40. Sorted profiles {24},
// {24,8}, {24,16,8}, {40,16,8}, {40}: maxima 40, 16, 8 -> lower bound 64,
// reached by {x, z} (40), {q} (16), {p} (8): x ends at op 2, z starts at 3.
TEST(SharedObjectsStrategies, BranchReachesLowerBound) {
  const Records r = {{0, 2, 24}, {1, 3, 8}, {2, 3, 16}, {3, 4, 40}};
  for (const Named& s : kAll) {
    const auto a = s.fn(r);
    EXPECT_EQ(Check(r, a), "") << s.name;
    EXPECT_EQ(Footprint(a), 64u) << s.name;
    EXPECT_EQ(a.object_of[0], a.object_of[3]) << s.name;
  }
}

// Greedy in order grows a freed object. t0 [0,0] 10, t1 [1,1] 30,
// t2 [0,1] 20, visited t0, t2, t1 (first_op order): t0 -> A(10); t2 starts
// at op 0 where A is busy -> B(20); t1 at op 1: A (last op 0) is free, pool
// {A 10}, nothing >= 30, so A grows to 30. Objects A 30 {t0, t1}, B 20 {t2}
// = 50 = lower bound (profiles {20,10}, {30,20}: maxima 30, 20).
TEST(SharedObjectsStrategies, GreedyInOrderTakesFreedObject) {
  const Records r = {{0, 0, 10}, {1, 1, 30}, {0, 1, 20}};
  const auto a = SharedObjectsGreedyInOrder(r);
  EXPECT_EQ(a.object_of, (std::vector<std::size_t>{0, 0, 1}));
  EXPECT_EQ(a.object_sizes, (std::vector<std::uint64_t>{30, 20}));
}

// Min-cost flow can beat the greedy strategies on its own objective. Four
// tensors: a [0,0] 100, b [0,0] 10, c [1,1] 10, d [1,1] 100. Reuse pairs
// (last < first): a->c, a->d, b->c, b->d. Optimum {a,d} 100 + {b,c} 10 =
// 110 with flow cost 100 + 0 + 10 + 0 = 110; the alternative {a,c},{b,d}
// costs 100 + 0 + 10 + 90 = 200 and the all-new cover 220.
TEST(SharedObjectsStrategies, MinCostFlowPairsLikeSizes) {
  const Records r = {{0, 0, 100}, {0, 0, 10}, {1, 1, 10}, {1, 1, 100}};
  const auto a = SharedObjectsMinCostFlow(r);
  EXPECT_EQ(Check(r, a), "");
  EXPECT_EQ(Footprint(a), 110u);
  EXPECT_EQ(a.object_of[0], a.object_of[3]);
  EXPECT_EQ(a.object_of[1], a.object_of[2]);
}

/// Every registered Shared Objects heuristic (naive and any new one too).
std::vector<Named> Registered() {
  std::vector<Named> out;
  for (const StrategyInfo& s : AllStrategies()) {
    if (s.approach == Approach::kSharedObjects && s.IsHeuristic()) {
      out.push_back({s.name.data(), s.shared_objects});
    }
  }
  return out;
}

TEST(SharedObjectsStrategies, EmptyInputGivesNoObjects) {
  for (const Named& s : Registered()) {
    const auto a = s.fn({});
    EXPECT_TRUE(a.object_of.empty()) << s.name;
    EXPECT_TRUE(a.object_sizes.empty()) << s.name;
  }
}

// Ties in `best` go to the earlier entry: the paper's strategies (§4) come
// before the prior work, and the naive baseline is last. A new strategy may
// go anywhere before naive.
TEST(SharedObjectsStrategies, RegisteredInTieBreakOrder) {
  std::vector<std::string> names;
  for (const StrategyInfo& s : AllStrategies()) {
    if (s.approach == Approach::kSharedObjects) names.emplace_back(s.name);
  }
  auto position = [&](const std::string& name) {
    return std::find(names.begin(), names.end(), name) - names.begin();
  };
  const std::vector<std::string> tie_break = {
      "greedy-by-size-improved", "greedy-by-size", "greedy-by-breadth",
      "greedy-in-order",         "min-cost-flow",  "naive"};
  for (std::size_t k = 0; k + 1 < tie_break.size(); ++k) {
    EXPECT_LT(position(tie_break[k]), position(tie_break[k + 1]))
        << tie_break[k];
  }
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names.back(), "naive");
  const StrategyInfo* mcf =
      FindStrategy(Approach::kSharedObjects, "min-cost-flow");
  ASSERT_NE(mcf, nullptr);
  EXPECT_EQ(mcf->max_records, 2000u);
  EXPECT_EQ(mcf->shared_objects, &SharedObjectsMinCostFlow);
}

TEST(SharedObjectsStrategies, MatchReferenceImplementations) {
  std::mt19937_64 rng(20190707);
  for (int iter = 0; iter < 3000; ++iter) {
    const Records r = RandomInstance(rng, 40);
    SCOPED_TRACE(iter);
    const auto by_size = SharedObjectsGreedyBySize(r);
    const auto ref_size = RefGreedyBySize(r);
    ASSERT_EQ(by_size.object_of, ref_size.object_of);
    ASSERT_EQ(by_size.object_sizes, ref_size.object_sizes);
    const auto by_breadth = SharedObjectsGreedyByBreadth(r);
    const auto ref_breadth = RefGreedyByBreadth(r);
    ASSERT_EQ(by_breadth.object_of, ref_breadth.object_of);
    ASSERT_EQ(by_breadth.object_sizes, ref_breadth.object_sizes);
    const auto improved = SharedObjectsGreedyBySizeImproved(r);
    const auto ref_improved = RefImproved(r);
    ASSERT_EQ(improved.object_of, ref_improved.object_of);
    ASSERT_EQ(improved.object_sizes, ref_improved.object_sizes);
    const auto in_order = SharedObjectsGreedyInOrder(r);
    const auto ref_in_order = RefGreedyInOrder(r);
    ASSERT_EQ(in_order.object_of, ref_in_order.object_of);
    ASSERT_EQ(in_order.object_sizes, ref_in_order.object_sizes);
  }
}

TEST(SharedObjectsStrategies, ValidAndAboveLowerBound) {
  std::mt19937_64 rng(42);
  for (int iter = 0; iter < 2000; ++iter) {
    const Records r = RandomInstance(rng, 60);
    const std::uint64_t bound = SummarizeProfiles(r).shared_objects_lower_bound;
    for (const Named& s : Registered()) {
      const auto a = s.fn(r);
      ASSERT_EQ(Check(r, a), "") << s.name << " iter " << iter;
      ASSERT_GE(Footprint(a), bound) << s.name << " iter " << iter;
    }
  }
}

TEST(SharedObjectsStrategies, MinCostFlowIsOptimalForItsObjective) {
  std::mt19937_64 rng(1907);
  for (int iter = 0; iter < 400; ++iter) {
    const Records r = RandomInstance(rng, 7);
    const auto a = SharedObjectsMinCostFlow(r);
    ASSERT_EQ(Check(r, a), "") << iter;
    ASSERT_EQ(FlowCost(r, a), BruteFlowCost(r)) << iter;
    ASSERT_LE(Footprint(a), FlowCost(r, a)) << iter;
  }
}

}  // namespace
}  // namespace arenaplan
