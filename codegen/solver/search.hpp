// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Branch and bound over canonical placements for Offset Calculation.
//
// Resting plans. Call a plan "resting" when every tensor sits at offset 0 or
// exactly on top (offset + size) of a tensor whose usage interval intersects
// its own. Any plan can be made resting without growing: while some tensor k
// does not rest, lower it to the highest top of an intersecting tensor below
// it (or to 0); the tensors intersecting k below it end at or under that
// point and those above stay above, so the plan stays valid, and the sum of
// offsets strictly drops, so this ends. Hence some optimal plan is resting;
// in particular every plan with the least sum of offsets among the optimal
// ones is resting, and in such a plan no tensor can be moved lower at all.
//
// Building a plan by levels. Time is cut into segments (maximal runs of
// operators with the same live tensors). The skyline height floor[s] of a
// segment is the highest top of the placed tensors alive in it, and the
// skyline x of an unplaced tensor is the max floor over its segments. The
// search places tensors in non-decreasing order of offset, each at its
// skyline (so every tensor rests). At level L (the current offset) a segment
// with floor == L is "open" until it is decided: either some tensor alive in
// it is placed at offset L on it, or it is "closed" (no tensor alive in it
// starts at L). A tensor may be placed at L when its skyline is L and none
// of its segments is closed at L; when no unplaced tensor can, the level
// rises to the smallest skyline that can. Every resting plan is produced by
// exactly one path: at each node the plan says for the chosen segment which
// tensor starts there at L, or none (tensors at the same offset do not
// intersect in time, so at most one is alive in a segment), and that tensor
// has skyline exactly L when its turn comes (everything below L is placed,
// it rests on something). So the search is complete, and never builds the
// same plan twice (no symmetric duplicates, e.g. between identical tensors).
//
// Branching (fail first): the open segment at the level with the fewest
// tensors that could start on it, then the tightest (most unplaced bytes);
// its candidates by start, then "close it". Alternatively (tensor
// branching, other restarts): the first tensor by priority that can start
// at the level starts there, or is excluded at that level (state: the
// tensors excluded at the level, like the closed segments). Priority is a
// rank by three keys among contention, lifetime, size and area (several
// orders are tried in restarts), ranked again within each time-disjoint
// group the search splits into.
//
// Pruning (all sound):
//  * bound: in every segment the unplaced tensors alive there stack without
//    overlap, each at or above its lowest possible offset, which bounds the
//    arena like a single machine with release dates; at the root it is the
//    max operator breadth (paper §5.1). Cheap form first: max(floor, L) +
//    unplaced bytes. The lowest possible offset is the skyline, except for
//    a tensor that cannot start there (it waits below L, or is closed or
//    excluded at L): it must be lifted by a neighbour placed later, at L or
//    above and at or above that neighbour's own skyline, so it cannot start
//    below the least such top (docs/optimal.md measures what this gains).
//  * dead tensors: a tensor that cannot go at its skyline needs a later,
//    time-intersecting placement to lift it; with none left, no completion.
//  * dominance: nothing is placed below the level any more, so an unplaced
//    tensor whose skyline + size <= L could be lowered into that gap in
//    every completion; plans with the least sum of offsets never allow it.
//  * memo: a state (level, closed segments, top so far, unplaced set,
//    skyline over their segments) determines its whole subtree, so states
//    proven to have no completion below a bound are remembered.
//  * decomposition: when no unplaced tensor crosses some time cut, the two
//    sides are independent sub-problems, solved one after the other (a
//    failure on one side no longer causes thrashing on the other); the same
//    holds for the components of the input.
//  * the initial plan (best heuristic) is the first upper bound; the search
//    stops as soon as its best plan meets the proven lower bound.
//
// The pieces live in their own files: time segments (codegen/records.hpp,
// CutIntoSegments), the memo (memo.hpp), this search of one component
// (search.hpp), restarts over the portfolio and the budgets (portfolio.hpp,
// budget.hpp), the components of the input (components.hpp), and the entry
// point (exact.hpp).
#ifndef ARENAPLAN_CODEGEN_SOLVER_SEARCH_HPP_
#define ARENAPLAN_CODEGEN_SOLVER_SEARCH_HPP_

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "codegen/records.hpp"
#include "codegen/solver/budget.hpp"
#include "codegen/solver/exact.hpp"
#include "codegen/solver/memo.hpp"
#include "codegen/solver/search_core.hpp"

namespace arenaplan::solver {
/// How a node splits the canonical completions (both are complete and
/// produce every resting plan once).
enum class Branching : std::uint8_t {
  /// The open segment with the fewest options: which tensor starts on it at
  /// the level, or none (close it).
  kSegment,
  /// The best-ranked tensor that can start at the level: it starts there,
  /// or it does not (it is excluded at this level).
  kTensor,
};

/// Tensors grouped by equal release height, highest release first: the
/// order in which the release-date bound adds them (Search::ReleaseBound).
class ReleaseGroups {
 public:
  /// Up to this many distinct releases are grouped by a counting sort;
  /// more are sorted in full.
  static constexpr std::size_t kFew = 32;

  /// Groups `releases` (release height in bytes, tensor); a release above
  /// `cap` counts as `cap`. `releases` may be reordered and capped.
  void Build(std::vector<std::pair<std::uint64_t, std::uint32_t>>& releases,
             std::uint64_t cap);
  /// The tensors, group after group (any order within a group).
  [[nodiscard]] const std::vector<std::uint32_t>& Tensors() const {
    return tensors_;
  }
  /// Per group, highest first: its release and the end of its tensors in
  /// Tensors() (the group starts where the one before ends).
  [[nodiscard]] const std::vector<std::pair<std::uint64_t, std::size_t>>&
  Groups() const {
    return groups_;
  }

 private:
  std::vector<std::uint8_t> group_;  // scratch: each release's group
  std::vector<std::uint32_t> tensors_;
  std::vector<std::pair<std::uint64_t, std::size_t>> groups_;
};

/// Branch and bound over one component. Tensors are renumbered by rank:
/// index i is the i-th under the chosen ordering (its starting priority).
class Search : public SearchCore {
  friend class SearchCore;  // NodeLoop calls the steps of a node

 public:
  /// `records` are the component's tensors in any order (every size > 0);
  /// Rank(k) gives the position in `records` of the tensor of rank k.
  /// `techniques` switches pruning rules off (all on by default).
  Search(std::span<const TensorUsageRecord> records, const Ordering& order,
         Branching branching = Branching::kSegment,
         const ExactTechniques& techniques = {});

  // RootBound() (SearchCore): the max operator breadth of the component
  // (paper §5.1), bytes.

  /// Arena of `offsets` (rank order) if it is a valid plan, else kInf.
  [[nodiscard]] std::uint64_t CheckPlan(
      const std::vector<std::uint64_t>& offsets) const;

  /// Searches for plans with arena < `best`, stopping at the first one with
  /// arena <= `good_enough`. Best()/BestOffsets() hold the best plan found
  /// (when Found()). Every node is counted in `budget`; the run is cut off
  /// when budget->Exhausted().
  RunOutcome Run(std::uint64_t best, std::uint64_t good_enough, Budget* budget);

 private:
  void Prepare();
  [[nodiscard]] bool Eligible(std::uint32_t i, std::uint64_t low) const;
  std::uint64_t ReleaseBound(std::size_t mark, std::uint64_t m,
                             std::uint32_t span_lo, std::uint32_t span_hi,
                             std::uint64_t best);
  [[nodiscard]] std::uint64_t LiftedRelease(std::uint32_t i,
                                            std::uint64_t m) const;

  /// Marks segment s closed at level `low` (undone by ReopenTo); s =
  /// segments_ + i excludes tensor i from starting at `low`.
  void Close(std::uint32_t s, std::uint64_t low) {
    closed_log_.emplace_back(s, closed_at_[s]);
    closed_at_[s] = low;
  }
  /// Tensor i does not start at `low` (tensor branching's second branch).
  void ExcludeAt(std::uint32_t i, std::uint64_t low) {
    Close(static_cast<std::uint32_t>(segments_) + i, low);
  }
  void ReopenTo(std::size_t mark) {
    while (closed_log_.size() > mark) {
      closed_at_[closed_log_.back().first] = closed_log_.back().second;
      closed_log_.pop_back();
    }
  }

  void Place(std::uint32_t i, std::uint64_t at);
  void Unplace(std::uint32_t i);
  void Split(Context& ctx, std::size_t mark,
             const std::vector<std::size_t>& starts, std::uint64_t low,
             std::uint64_t utop);
  void Node(Context& ctx, std::uint64_t low, std::uint64_t utop);
  void NodeStates(Context& ctx, std::uint64_t low, std::uint64_t utop);
  bool Branch(Context& ctx, std::size_t mark, std::uint64_t m,
              std::uint64_t utop, std::uint32_t span_lo, std::uint32_t span_hi);
  // The steps of NodeStates (search.cpp).
  std::uint64_t Level(std::size_t mark, std::uint64_t low);
  void AppendSkylineKey(std::uint32_t span_lo, std::uint32_t span_hi);
  bool MemoFails(const Context& ctx, std::size_t mark, std::uint64_t low,
                 std::uint64_t utop, std::uint32_t span_lo,
                 std::uint32_t span_hi);
  bool Prune(const Context& ctx, std::size_t mark, std::uint64_t low,
             std::uint64_t m, std::uint64_t utop, std::uint32_t span_lo,
             std::uint32_t span_hi);
  std::uint32_t PickSegment(std::size_t mark, std::uint64_t m,
                            std::uint32_t span_lo, std::uint32_t span_hi,
                            std::uint64_t best);
  bool BranchOnSegment(Context& ctx, std::size_t mark, std::uint64_t m,
                       std::uint64_t utop, std::uint32_t span_lo,
                       std::uint32_t span_hi);

  Branching branching_;
  std::vector<std::vector<std::uint32_t>> nbrs_;
  /// Memo keys code a run of equal floors as (floor / floor_unit_) <<
  /// length_bits_ | length, runs_per_word_ runs a word (0: two words a
  /// run, floor and length, when one run does not fit in a word).
  std::uint64_t floor_unit_ = 1;  ///< gcd of the sizes, bytes
  unsigned length_bits_ = 0;
  unsigned runs_per_word_ = 0;

  // Search state.
  std::vector<std::uint64_t> floor_;  // skyline height per segment
  std::vector<std::uint64_t> floor_log_;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> x_log_;
  std::vector<std::size_t> x_log_marks_;
  std::vector<std::uint32_t> cand_;  // stack shared by all frames
  std::vector<std::pair<std::uint64_t, std::uint32_t>> release_;  // scratch
  ReleaseGroups release_groups_;              // scratch of ReleaseBound
  std::vector<std::uint64_t> diff_;           // per peak + 1, zero between uses
  std::vector<std::uint32_t> starts_, ends_;  // unplaced tensors starting,
                                              // ending in each segment
  std::vector<std::uint32_t> peak_index_;     // scratch, per segment + 1
  std::vector<std::uint64_t> peak_load_;      // scratch, per peak segment
  std::vector<std::uint64_t> closed_at_;      // level a segment is closed at
  std::vector<std::pair<std::uint32_t, std::uint64_t>> closed_log_;
};

}  // namespace arenaplan::solver

#endif  // ARENAPLAN_CODEGEN_SOLVER_SEARCH_HPP_
