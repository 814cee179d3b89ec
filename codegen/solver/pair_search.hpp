// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Branch and bound over canonical placements for Offset Calculation with
// allowed overlaps (records.hpp's OverlapPair; docs/overlap.md). The full
// argument and its proof are in docs/optimal.md, "Allowed overlaps"; in
// short:
//
// Relations. For two time-intersecting tensors u and t with t placed at
// o_t, the offsets u may take at or above o_t form [o_t + e(u,t), inf)
// plus, when point(u,t), the single offset o_t:
//  * e(u,t) = size_t (u above t, disjoint), lowered to d when u is the
//    input and t the output of a kOutputBelowBy pair with distance d
//    (o_t + d <= o_u: the output starts d bytes below the input);
//  * point(u,t) when u is the output and t the input of a kOutputBelowBy
//    pair with d = 0 (the two at one offset), or the two form a kAlias
//    pair of equal sizes.
// Supports. A tensor u is supported at v when v = 0, or v = o_t + e(u,t)
// or (point) v = o_t for a time-intersecting t. A plan is grounded when
// every tensor sits on a support given by 0 or by a tensor at a lower
// offset or one placed before it at the same offset (no cycle of tensors
// supporting each other at one offset). Every plan can be lowered to a
// grounded one of no larger arena (lowering a tensor, or a group at one
// offset resting only on each other, to the next support below keeps
// every relation), so a plan with the least sum of offsets among the
// optimal ones is grounded.
//
// Search. Levels in non-decreasing offset, tensor branching only: at level
// L the first tensor by priority whose lowest allowed offset x is L starts
// there, or is excluded at L. x is the max over placed neighbours t of
// o_t + e(u,t), or o_t for a point relation; `pend` keeps the max of
// o_t + e(u,t) over the point relations, and x is raised to it as soon as
// u cannot sit at L any more (L passed, or u excluded at L). Every grounded
// plan is reached (docs/optimal.md).
//
// Techniques kept: the work and node budget, the memo (the state is the
// level, the top so far, the unplaced set, x and pend of each unplaced
// tensor and the exclusions at the level), dominance, dead tensors, time
// decomposition and re-ranking of groups, restarts and bound targets (the
// portfolio). Not used with pairs: segment branching (a segment may now
// hold two tensors starting at one offset), and the per-segment skyline
// release-date bound with lifted releases (a tensor may start below the
// skyline of its segments); the bound here is, per segment, the lowest
// offset an unplaced tensor there can take plus the unplaced bytes there
// minus the most the unplaced pairs there can share (Bonferroni), and each
// tensor's x + size.
#ifndef ARENAPLAN_CODEGEN_SOLVER_PAIR_SEARCH_HPP_
#define ARENAPLAN_CODEGEN_SOLVER_PAIR_SEARCH_HPP_

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "codegen/records.hpp"
#include "codegen/solver/budget.hpp"
#include "codegen/solver/exact.hpp"
#include "codegen/solver/memo.hpp"
#include "codegen/solver/search.hpp"
#include "codegen/solver/search_core.hpp"

namespace arenaplan::solver {

/// Branch and bound over one component with allowed overlaps. Tensors are
/// renumbered by rank like Search's; the interface is Search's (so the
/// portfolio's restarts drive both).
class PairSearch : public SearchCore {
  friend class SearchCore;  // NodeLoop calls the steps of a node

 public:
  /// `records`: the component's tensors (every size > 0); `overlaps`:
  /// pairs with indices into `records` (well formed: input.last_op == op ==
  /// output.first_op), distances in bytes already aligned.
  PairSearch(std::span<const TensorUsageRecord> records,
             std::span<const OverlapPair> overlaps, const Ordering& order,
             const ExactTechniques& techniques = {});

  // RootBound() (SearchCore): the proven lower bound of the component
  // (bytes): the largest, over segments, of the bytes alive there minus
  // what the pairs there can share, and the largest tensor.

  /// Arena of `offsets` (rank order) if it is a valid plan with the pairs,
  /// else kInf.
  [[nodiscard]] std::uint64_t CheckPlan(
      const std::vector<std::uint64_t>& offsets) const;

  /// As Search::Run.
  RunOutcome Run(std::uint64_t best, std::uint64_t good_enough, Budget* budget);

 private:
  /// A time-intersecting neighbour j of tensor i: where j may sit once i
  /// is placed at o_i (j >= o_i + e_ji, or j == o_i when point_ji), and
  /// the same for i relative to j (used by CheckPlan).
  struct Link {
    std::uint32_t j = 0;
    bool point_ji = false;
    bool point_ij = false;
    std::uint64_t e_ji = 0;
    std::uint64_t e_ij = 0;
  };
  /// An unordered pair of tensors some OverlapPair relates: the most bytes
  /// they can share and the segment of its operator.
  struct Shared {
    std::uint32_t a = 0, b = 0;
    std::uint32_t segment = 0;
    std::uint64_t bytes = 0;
  };
  struct XEntry {
    std::uint32_t i;
    std::uint64_t x, pend;
  };

  void Prepare(std::span<const OverlapPair> overlaps);
  [[nodiscard]] bool Eligible(std::uint32_t i, std::uint64_t low) const {
    return x_[i] > low || (x_[i] == low && excl_[i] != low);
  }
  void SetX(std::uint32_t i, std::uint64_t x, std::uint64_t pend) {
    xlog_.push_back({i, x_[i], pend_[i]});
    x_[i] = x;
    pend_[i] = pend;
  }
  void UndoXTo(std::size_t mark);
  void Place(std::uint32_t i, std::uint64_t at);
  void Unplace(std::uint32_t i);
  void ExcludeAt(std::uint32_t i, std::uint64_t low);
  void Node(Context& ctx, std::uint64_t low, std::uint64_t utop);
  void NodeStates(Context& ctx, std::uint64_t low, std::uint64_t utop);
  std::uint64_t Level(std::size_t mark, std::uint64_t low);
  std::uint64_t SegmentBound(std::size_t begin, std::size_t end,
                             std::uint64_t m, std::uint32_t span_lo,
                             std::uint32_t span_hi);
  bool MemoFails(const Context& ctx, std::size_t mark, std::uint64_t low,
                 std::uint64_t utop);
  bool Prune(const Context& ctx, std::size_t mark, std::uint64_t low,
             std::uint64_t m, std::uint64_t utop, std::uint32_t span_lo,
             std::uint32_t span_hi);
  void Split(Context& ctx, std::size_t mark,
             const std::vector<std::size_t>& starts, std::uint64_t low,
             std::uint64_t utop);
  bool Branch(Context& ctx, std::size_t mark, std::uint64_t m,
              std::uint64_t utop, std::uint32_t /*span_lo*/,
              std::uint32_t /*span_hi*/) {
    return BranchOnTensorOf(*this, ctx, mark, m, utop);
  }

  std::vector<std::vector<Link>> nbrs_;
  std::vector<Shared> shared_;
  std::vector<std::vector<std::uint32_t>> shared_of_;  // per tensor

  // Search state.
  std::vector<std::uint64_t> sav_;  // most unplaced pairs share, per segment
  std::vector<std::uint64_t> pend_;
  std::vector<std::uint64_t> excl_;  // level the tensor is excluded at
  std::vector<std::pair<std::uint32_t, std::uint64_t>> excl_log_;
  std::vector<XEntry> xlog_;
  std::vector<std::size_t> xlog_marks_;
};

}  // namespace arenaplan::solver

#endif  // ARENAPLAN_CODEGEN_SOLVER_PAIR_SEARCH_HPP_
