// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// What the plain search (search.hpp) and the search with allowed overlaps
// (pair_search.hpp) share: the ranked records and their time segments, the
// static priority keys, the result of a run, the sub-problem contexts with
// their stop rule, the memo staging of the states on the path, and the
// steps of a node that do not depend on the placement rules (gathering the
// unplaced tensors into time-disjoint groups, the next level).
#ifndef ARENAPLAN_CODEGEN_SOLVER_SEARCH_CORE_HPP_
#define ARENAPLAN_CODEGEN_SOLVER_SEARCH_CORE_HPP_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

#include "codegen/records.hpp"
#include "codegen/solver/budget.hpp"
#include "codegen/solver/exact.hpp"
#include "codegen/solver/memo.hpp"

namespace arenaplan::solver {
/// Keys of the static priority orders (larger first).
enum class Key : std::uint8_t {
  kTotal,  ///< contention: the most bytes alive at one operator of the
           ///< tensor's lifetime (within a split-off group: unplaced bytes)
  kWidth,  ///< lifetime in operators
  kSize,   ///< bytes
  kArea,   ///< bytes x operators
};
using Ordering = std::array<Key, 3>;

enum class RunOutcome : std::uint8_t {
  kComplete,    ///< every plan below the starting bound was examined
  kGoodEnough,  ///< stopped at a plan <= good_enough
  kCutOff,      ///< node budget or time ran out
};

/// The state and steps common to Search and PairSearch. Tensors are
/// renumbered by rank: index i is the i-th under the chosen ordering.
class SearchCore {
 public:
  [[nodiscard]] std::uint32_t Rank(std::size_t k) const { return perm_[k]; }

  /// Proven lower bound of the component, bytes (see each search).
  [[nodiscard]] std::uint64_t RootBound() const { return root_bound_; }

  [[nodiscard]] bool Found() const { return found_; }
  /// Arena (bytes) of the best plan found by the last run that found one.
  [[nodiscard]] std::uint64_t Best() const { return best_; }
  /// Its offsets, rank order.
  [[nodiscard]] const std::vector<std::uint64_t>& BestOffsets() const {
    return best_offsets_;
  }

 protected:
  /// A sub-problem: the tensors of `members` still unplaced, to be placed
  /// with arena (max top among them) < best.
  struct Context {
    std::vector<std::uint32_t> members;  // sorted by start segment
    std::uint64_t best = kInf;
    std::uint64_t good_enough = 0;
    bool found = false;
    bool stop = false;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> best_offsets;
  };

  static constexpr std::uint32_t kNoTensor =
      std::numeric_limits<std::uint32_t>::max();

  /// `records`: the component's tensors in any order (every size > 0).
  SearchCore(std::span<const TensorUsageRecord> records, const Ordering& order,
             const ExactTechniques& techniques)
      : r_(records.begin(), records.end()),
        n_(r_.size()),
        order_(order),
        techniques_(techniques) {}

  /// Cuts r_ (current order) into time segments: segments_, the segment
  /// range [sa_, sb_) of each tensor, and by_start_ (tensors by start
  /// segment, ties by index).
  void PrepareSegments() {
    TimeSegments time = CutIntoSegments(r_);
    segments_ = time.Count();
    sa_ = std::move(time.first);
    sb_ = std::move(time.end);
    by_start_.resize(n_);
    std::iota(by_start_.begin(), by_start_.end(), 0U);
    std::sort(by_start_.begin(), by_start_.end(),
              [&](std::uint32_t a, std::uint32_t b) {
                return sa_[a] != sa_[b] ? sa_[a] < sa_[b] : a < b;
              });
  }

  /// Calls `visit(i, j)` once for every two time-intersecting tensors, i
  /// starting first (by by_start_ order); needs PrepareSegments.
  template <class VisitFn>
  void ForEachIntersecting(const VisitFn& visit) const {
    for (std::size_t a = 0; a < n_; ++a) {
      const std::uint32_t i = by_start_[a];
      for (std::size_t b = a + 1; b < n_ && sa_[by_start_[b]] < sb_[i]; ++b) {
        visit(i, by_start_[b]);
      }
    }
  }

  /// Value of key `k` for tensor i; contention (kTotal) is measured on the
  /// bytes still unplaced (rem_; at construction: all of them).
  [[nodiscard]] std::uint64_t KeyValue(Key k, std::uint32_t i) const {
    const std::uint64_t width =
        std::uint64_t{r_[i].last_op} - r_[i].first_op + 1;
    switch (k) {
      case Key::kTotal: {
        std::uint64_t total = 0;
        for (std::uint32_t s = sa_[i]; s < sb_[i]; ++s) {
          total = std::max(total, rem_[s]);
        }
        return total;
      }
      case Key::kWidth:
        return width;
      case Key::kSize:
        return r_[i].size;
      case Key::kArea:
        return width * r_[i].size;
    }
    return 0;
  }

  /// Sorts `tensors` by the keys of `order_` (larger values first), ties by
  /// index (the static rank). Each key is computed once per tensor.
  void SortByKeys(std::vector<std::uint32_t>& tensors) const {
    std::vector<std::pair<std::array<std::uint64_t, 3>, std::uint32_t>> keyed;
    keyed.reserve(tensors.size());
    for (std::uint32_t i : tensors) {
      keyed.push_back({{KeyValue(order_[0], i), KeyValue(order_[1], i),
                        KeyValue(order_[2], i)},
                       i});
    }
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (std::size_t k = 0; k < keyed.size(); ++k) {
      tensors[k] = keyed[k].second;
    }
  }

  /// Ranks the records by the keys (on the segments prepared for the
  /// current order), reorders r_ by rank (perm_[rank] = former index) and
  /// returns the rank of each former index.
  std::vector<std::uint32_t> RankRecords() {
    perm_.resize(n_);
    std::iota(perm_.begin(), perm_.end(), 0U);
    SortByKeys(perm_);
    std::vector<TensorUsageRecord> ranked(n_);
    std::vector<std::uint32_t> rank_of(n_);
    for (std::size_t k = 0; k < n_; ++k) {
      ranked[k] = r_[perm_[k]];
      rank_of[perm_[k]] = static_cast<std::uint32_t>(k);
    }
    r_ = std::move(ranked);
    return rank_of;
  }

  /// The priority of every tensor is its rank.
  void ResetPriority() {
    priority_.resize(n_);
    std::iota(priority_.begin(), priority_.end(), 0U);
  }

  /// The root context of a run: every tensor, plans below `best`.
  [[nodiscard]] Context RootContext(std::uint64_t best,
                                    std::uint64_t good_enough) const {
    Context root;
    root.members = by_start_;
    root.best = best;
    root.good_enough = good_enough;
    return root;
  }

  /// Keeps the best plan of a finished run from its root context.
  RunOutcome FinishRun(const Context& root) {
    found_ = root.found;
    if (found_) {
      best_ = root.best;
      best_offsets_.assign(n_, 0);
      for (const auto& [i, off] : root.best_offsets) best_offsets_[i] = off;
    }
    if (budget_->Exhausted()) return RunOutcome::kCutOff;
    return root.stop ? RunOutcome::kGoodEnough : RunOutcome::kComplete;
  }

  /// A complete plan of ctx.members with arena `top` (offsets in `offsets`).
  static void Record(Context& ctx, std::uint64_t top,
                     const std::vector<std::uint64_t>& offsets) {
    if (top >= ctx.best) return;
    ctx.best = top;
    ctx.found = true;
    ctx.best_offsets.clear();
    for (std::uint32_t i : ctx.members) {
      ctx.best_offsets.emplace_back(i, offsets[i]);
    }
    if (top <= ctx.good_enough) ctx.stop = true;
  }

  /// Closes the state whose key words were pushed onto staged_keys_ from
  /// `begin`: true (and the words dropped) when the memo already knows the
  /// state has no completion below ctx.best, else the state is staged for
  /// CommitStaged and false is returned.
  [[nodiscard]] bool MemoFailsOrStage(const Context& ctx, std::size_t begin) {
    const Memo::Key key =
        Memo::MakeKey(staged_keys_, begin, staged_keys_.size() - begin);
    if (memo_.Fails(staged_keys_, key, ctx.best)) {
      staged_keys_.resize(begin);
      return true;
    }
    staged_.push_back(key);
    return false;
  }

  /// Ends a node whose staged states start at `staged`: every state it
  /// went through has no completion below ctx.best (all were explored with
  /// bounds >= it), unless the search was cut, so they go into the memo;
  /// then they are unstaged.
  void CommitStaged(const Context& ctx, std::size_t staged) {
    if (!ctx.stop && !budget_->Exhausted()) {
      for (std::size_t k = staged; k < staged_.size(); ++k) {
        memo_.Insert(staged_keys_, staged_[k], ctx.best);
      }
    }
    const std::size_t key_begin =
        staged < staged_.size() ? staged_[staged].first : staged_keys_.size();
    staged_.resize(staged);
    staged_keys_.resize(key_begin);
  }

  /// Solves the time-disjoint groups `subs` (members taken off live_[mark..],
  /// `bound`: a lower bound of each, bytes) one after another, largest bound
  /// first, each with `node(sub, low)` starting at level `low`; records
  /// their combined plan (with `utop`) in ctx when every group has one.
  template <class NodeFn>
  void SolveGroups(Context& ctx, std::size_t mark, std::vector<Context>& subs,
                   const std::vector<std::uint64_t>& bound, std::uint64_t low,
                   std::uint64_t utop, const NodeFn& node) {
    live_.resize(mark);
    const std::size_t groups = subs.size();
    std::vector<std::size_t> order(groups);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(
        order.begin(), order.end(),
        [&](std::size_t a, std::size_t b) { return bound[a] > bound[b]; });
    const std::uint64_t max_bound =
        *std::max_element(bound.begin(), bound.end());
    if (std::max(utop, max_bound) >= ctx.best) return;
    // Each group is a sub-problem of its own: its tensors are ranked again
    // by the same keys, contention now measured on the bytes still unplaced
    // (MiniMalloc re-sorts the sub-problems it splits off the same way);
    // ties keep the static rank. Restored when the split is done.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> saved;  // i, old
    std::vector<std::uint32_t> ranked;
    for (const Context& sub : subs) {
      if (!techniques_.rerank_groups) break;
      ranked = sub.members;
      SortByKeys(ranked);
      for (std::size_t k = 0; k < ranked.size(); ++k) {
        saved.emplace_back(ranked[k], priority_[ranked[k]]);
        priority_[ranked[k]] = static_cast<std::uint32_t>(k);
      }
    }
    auto restore = [&] {
      for (const auto& [i, old] : saved) priority_[i] = old;
    };
    std::uint64_t result = utop;
    for (std::size_t g : order) {
      Context& sub = subs[g];
      sub.best = ctx.best;
      sub.good_enough = std::max({result, ctx.good_enough, max_bound});
      node(sub, low);
      if (budget_->Exhausted() || !sub.found) {
        restore();
        return;
      }
      result = std::max(result, sub.best);
      for (const auto& [i, off] : sub.best_offsets) offset_[i] = off;
    }
    restore();
    Record(ctx, result, offset_);
  }

  /// Pushes ctx's unplaced members onto live_ (from `mark`; sorted by start
  /// segment) and the offsets, relative to `mark`, where they split into
  /// time-disjoint groups onto split_starts_. Returns the segments they
  /// span, [first, second).
  std::pair<std::uint32_t, std::uint32_t> GatherLive(const Context& ctx,
                                                     std::size_t mark) {
    for (std::uint32_t i : ctx.members) {
      if (!placed_[i]) live_.push_back(i);
    }
    if (live_.size() == mark) return {0, 0};
    std::uint32_t reach = sb_[live_[mark]];
    split_starts_.clear();
    split_starts_.push_back(0);
    for (std::size_t k = mark + 1; k < live_.size(); ++k) {
      const std::uint32_t i = live_[k];
      if (sa_[i] >= reach) split_starts_.push_back(k - mark);
      reach = std::max(reach, sb_[i]);
    }
    return {sa_[live_[mark]], reach};
  }

  /// The level of live_[mark..]: the smallest x among the tensors
  /// `eligible` accepts (eligible_ filled, parallel to live_[mark..]); kInf
  /// when the node has no completion: a dead waiting tensor (no unplaced
  /// neighbour left that could lift it), or a dominated one.
  template <class IsEligible>
  std::uint64_t LevelOf(std::size_t mark, const IsEligible& eligible) {
    std::uint64_t m = kInf;
    eligible_.clear();
    for (std::size_t k = mark; k < live_.size(); ++k) {
      const std::uint32_t i = live_[k];
      const bool e = eligible(i);
      eligible_.push_back(e);
      if (e) {
        m = std::min(m, x_[i]);
      } else if (deg_[i] == 0) {
        return kInf;
      }
    }
    // Dominance: nothing intersecting these tensors is placed below m any
    // more, so a tensor that fits between its x and m could be lowered
    // there in every completion; a plan with the least sum of offsets
    // never allows that, and one such plan is optimal.
    for (std::size_t k = mark;
         techniques_.dominance && m != kInf && k < live_.size(); ++k) {
      const std::uint32_t i = live_[k];
      if (x_[i] + r_[i].size <= m) return kInf;
    }
    return m;
  }

  /// The first tensor of live_[mark..] by priority that is eligible
  /// (eligible_) and can start at level m (x == m), or kNoTensor. Pops
  /// live_ to `mark`.
  std::uint32_t PickTensor(std::size_t mark, std::uint64_t m) {
    std::uint32_t pick = kNoTensor;
    for (std::size_t k = mark; k < live_.size(); ++k) {
      const std::uint32_t i = live_[k];
      if (eligible_[k - mark] && x_[i] == m &&
          (pick == kNoTensor || priority_[i] < priority_[pick])) {
        pick = i;
      }
    }
    live_.resize(mark);
    return pick;
  }

  /// Places tensor i at level m (self.Place), searches below it
  /// (self.Node, the top so far raised to i's top) and takes it back
  /// (self.Unplace). False when the search is to stop (a good-enough plan,
  /// or the budget ran out).
  template <class Derived>
  bool PlaceAndSearch(Derived& self, Context& ctx, std::uint32_t i,
                      std::uint64_t m, std::uint64_t utop) {
    self.Place(i, m);
    self.Node(ctx, m, std::max(utop, m + r_[i].size));
    self.Unplace(i);
    return !ctx.stop && !budget_->Exhausted();
  }

  /// Tensor branching at level m: the first tensor of live_[mark..] by
  /// priority that can start at m starts there, or it does not
  /// (self.ExcludeAt(i, m)). Pops live_ to `mark`. False when the node is
  /// done.
  template <class Derived>
  bool BranchOnTensorOf(Derived& self, Context& ctx, std::size_t mark,
                        std::uint64_t m, std::uint64_t utop) {
    const std::uint32_t pick = PickTensor(mark, m);
    if (pick == kNoTensor) return false;
    if (!PlaceAndSearch(self, ctx, pick, m, utop)) return false;
    self.ExcludeAt(pick, m);
    return true;
  }

  /// The states of one node, one loop iteration each (Node() without the
  /// bookkeeping): gathers the unplaced members, records a complete plan,
  /// moves to the next level (self.Level(mark, low); nothing is closed or
  /// excluded at a new level yet, so eligible means x >= it), prunes
  /// (self.Prune(ctx, mark, low, m, utop, span_lo, span_hi)), splits
  /// time-disjoint groups (self.Split(ctx, mark, starts, low, utop)) or
  /// branches (self.Branch(ctx, mark, m, utop, span_lo, span_hi), false
  /// when the node is done). `self` is the search (Search or PairSearch).
  template <class Derived>
  void NodeLoop(Derived& self, Context& ctx, std::uint64_t low,
                std::uint64_t utop) {
    while (true) {
      if (!budget_->Tick(ctx.members.size())) return;
      const std::size_t mark = live_.size();
      // Time decomposition (after the pruning below, which looks at every
      // group at once): members are sorted by start segment.
      const auto [span_lo, span_hi] = GatherLive(ctx, mark);
      if (live_.size() == mark) {
        Record(ctx, utop, offset_);
        return;
      }
      const std::uint64_t m = self.Level(mark, low);
      bool prune = m == kInf;
      if (!prune && m > low) {
        // New level: whatever was closed or excluded at the old one is
        // not at m (every closing on the path was at a level <= the old
        // one), so a tensor is eligible at m when x_i >= m.
        low = m;
        for (std::size_t k = mark; k < live_.size(); ++k) {
          eligible_[k - mark] = x_[live_[k]] >= m;
        }
      }
      if (prune || self.Prune(ctx, mark, low, m, utop, span_lo, span_hi)) {
        live_.resize(mark);
        return;
      }
      if (split_starts_.size() > 1 && techniques_.decomposition) {
        const std::vector<std::size_t> starts = split_starts_;
        self.Split(ctx, mark, starts, low, utop);
        return;
      }
      if (!self.Branch(ctx, mark, m, utop, span_lo, span_hi)) return;
    }
  }

  std::vector<TensorUsageRecord> r_;
  std::size_t n_ = 0;
  Ordering order_;
  ExactTechniques techniques_;
  std::vector<std::uint32_t> perm_;
  /// Branching priority per tensor (smaller first): its rank, and within a
  /// time-disjoint group its rank in that group.
  std::vector<std::uint32_t> priority_;
  std::size_t segments_ = 0;
  std::vector<std::uint32_t> sa_, sb_;  // segment range [sa, sb) per tensor
  std::vector<std::uint32_t> by_start_;
  std::uint64_t root_bound_ = 0;

  // Search state.
  std::vector<std::uint64_t> rem_;  // unplaced bytes alive per segment
  std::vector<std::uint64_t> x_;    // lowest offset per unplaced tensor
  std::vector<std::uint64_t> offset_;
  std::vector<std::uint8_t> placed_;
  std::vector<std::uint32_t> deg_;   // unplaced neighbours per tensor
  std::vector<std::uint32_t> live_;  // stack shared by all frames
  std::vector<std::size_t> split_starts_;
  std::vector<std::uint8_t> eligible_;  // scratch, parallel to live_
  std::vector<std::uint64_t> lowest_;   // scratch, per segment
  Memo memo_;
  std::vector<std::uint64_t> staged_keys_;  // keys of the states on the path
  std::vector<Memo::Key> staged_;
  Budget* budget_ = nullptr;

  bool found_ = false;
  std::uint64_t best_ = kInf;
  std::vector<std::uint64_t> best_offsets_;
};

}  // namespace arenaplan::solver

#endif  // ARENAPLAN_CODEGEN_SOLVER_SEARCH_CORE_HPP_
