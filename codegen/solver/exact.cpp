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
// Building a plan by levels. Time is cut into sections (maximal runs of
// operators with the same live tensors). The skyline height floor[s] of a
// section is the highest top of the placed tensors alive in it, and the
// skyline x of an unplaced tensor is the max floor over its sections. The
// search places tensors in non-decreasing order of offset, each at its
// skyline (so every tensor rests). At level L (the current offset) a section
// with floor == L is "open" until it is decided: either some tensor alive in
// it is placed at offset L on it, or it is "closed" (no tensor alive in it
// starts at L). A tensor may be placed at L when its skyline is L and none
// of its sections is closed at L; when no unplaced tensor can, the level
// rises to the smallest skyline that can. Every resting plan is produced by
// exactly one path: at each node the plan says for the chosen section which
// tensor starts there at L, or none (tensors at the same offset do not
// intersect in time, so at most one is alive in a section), and that tensor
// has skyline exactly L when its turn comes (everything below L is placed,
// it rests on something). So the search is complete, and never builds the
// same plan twice (no symmetric duplicates, e.g. between identical tensors).
//
// Branching (fail first): the open section at the level with the fewest
// tensors that could start on it, then the tightest (most unplaced bytes);
// its candidates by start, then "close it". Alternatively (tensor
// branching, other restarts): the first tensor by priority that can start
// at the level starts there, or is excluded at that level (state: the
// tensors excluded at the level, like the closed sections). Priority is a
// rank by three keys among contention, lifetime, size and area (several
// orders are tried in restarts), ranked again within each time-disjoint
// group the search splits into.
//
// Pruning (all sound):
//  * bound: in every section the unplaced tensors alive there stack without
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
//  * memo: a state (level, closed sections, top so far, unplaced set,
//    skyline over their sections) determines its whole subtree, so states
//    proven to have no completion below a bound are remembered.
//  * decomposition: when no unplaced tensor crosses some time cut, the two
//    sides are independent sub-problems, solved one after the other (a
//    failure on one side no longer causes thrashing on the other); the same
//    holds for the components of the input.
//  * the initial plan (best heuristic) is the first upper bound; the search
//    stops as soon as its best plan meets the proven lower bound.
#include "codegen/solver/exact.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

namespace arenaplan {
namespace {

constexpr std::uint64_t kInf = std::numeric_limits<std::uint64_t>::max();
/// The clock is read once per this many nodes (a power of two).
constexpr std::uint64_t kClockEvery = 4096;
/// Components with more tensors than this are not searched (the initial
/// plan, if any, is kept unproven): recursion depth grows with the count.
constexpr std::size_t kMaxSearchRecords = 20000;
/// Restarts: run k of round r may expand kRestartBase << r nodes.
constexpr std::uint64_t kRestartBase = 2048;
/// Rounds that also look for a plan at a component's own lower bound when a
/// larger arena would do (e.g. C at capacity 1,048,576 packs at its bound
/// in a few hundred nodes); later rounds spend their budget on plans that
/// are good enough.
constexpr unsigned kTightRounds = 1;

/// a + b, or kInf when that would overflow.
constexpr std::uint64_t SaturatingAdd(std::uint64_t a, std::uint64_t b) {
  return a > kInf - b ? kInf : a + b;
}

/// Shared stop conditions of one SolveOffsetsExactly call.
struct Budget {
  std::chrono::steady_clock::time_point deadline;
  std::uint64_t node_limit = 0;  // 0 = none
  std::uint64_t run_end = kInf;  // node count at which the current run ends
  std::uint64_t nodes = 0;
  bool timed_out = false;
  bool out_of_nodes = false;
  bool run_over = false;

  [[nodiscard]] bool Finished() const { return timed_out || out_of_nodes; }
  [[nodiscard]] bool Exhausted() const { return Finished() || run_over; }

  /// Counts one node; returns false when the search must stop.
  bool Tick() {
    ++nodes;
    if (node_limit != 0 && nodes >= node_limit) out_of_nodes = true;
    if ((nodes & (kClockEvery - 1)) == 0 &&
        std::chrono::steady_clock::now() >= deadline) {
      timed_out = true;
    }
    if (nodes >= run_end) run_over = true;
    return !Exhausted();
  }
};

/// Keys of the static priority orders (larger first).
enum class Key : std::uint8_t {
  kTotal,  ///< contention: the most bytes alive at one operator of the
           ///< tensor's lifetime (within a split-off group: unplaced bytes)
  kWidth,  ///< lifetime in operators
  kSize,   ///< bytes
  kArea,   ///< bytes x operators
};
using Ordering = std::array<Key, 3>;

/// How a node splits the canonical completions (both are complete and
/// produce every resting plan once).
enum class Branching : std::uint8_t {
  /// The open section with the fewest options: which tensor starts on it at
  /// the level, or none (close it).
  kSection,
  /// The best-ranked tensor that can start at the level: it starts there,
  /// or it does not (it is excluded at this level).
  kTensor,
};

/// The restart portfolio: run k of round r uses entry k with a budget of
/// kRestartBase << r nodes (node counts, never the clock), so a heavy-tailed
/// run is cut short and another order gets its turn. Tensor branching in the
/// three orders MiniMalloc round-robins over (Moffitt, ASPLOS 2023: width,
/// area, contention; contention, area, width; contention, width, area) finds
/// tight packings first; section branching proves bounds and improves
/// incumbents well when minimising (challenging instances D and J).
struct PortfolioEntry {
  Ordering order;
  Branching branching;
};
constexpr std::array<PortfolioEntry, 7> kPortfolio = {{
    {{Key::kWidth, Key::kArea, Key::kTotal}, Branching::kTensor},
    {{Key::kTotal, Key::kArea, Key::kWidth}, Branching::kTensor},
    {{Key::kTotal, Key::kWidth, Key::kArea}, Branching::kTensor},
    {{Key::kTotal, Key::kWidth, Key::kSize}, Branching::kSection},
    {{Key::kWidth, Key::kArea, Key::kTotal}, Branching::kSection},
    {{Key::kTotal, Key::kArea, Key::kWidth}, Branching::kSection},
    {{Key::kArea, Key::kWidth, Key::kTotal}, Branching::kSection},
}};

enum class RunOutcome : std::uint8_t {
  kComplete,    ///< every plan below the starting bound was examined
  kGoodEnough,  ///< stopped at a plan <= good_enough
  kCutOff,      ///< node budget or time ran out
};

/// Failed states of the search: a state (the level, the sections closed at
/// it, the top so far, the set of unplaced tensors of the sub-problem, and
/// the skyline over the sections they occupy) determines the set of
/// completions the search explores below it (not their order) and every
/// pruning rule applied there, so when one state has no completion with
/// arena < B, neither has the same state reached along another path with a
/// bound <= B. Keys are stored whole (no hash-only matches), up to a fixed
/// memory budget.
class Memo {
 public:
  /// A key: words [first, first + len) of a caller's pool, and their hash.
  struct Key {
    std::size_t first = 0;
    std::size_t len = 0;
    std::uint64_t hash = 0;
  };

  /// Hashes words [first, first + len) of `pool` (four independent lanes,
  /// then a final mix) into a Key.
  [[nodiscard]] static Key MakeKey(const std::vector<std::uint64_t>& pool,
                                   std::size_t first, std::size_t len) {
    constexpr std::uint64_t kMul = 0x9e3779b97f4a7c15ULL;
    std::array<std::uint64_t, 4> lane = {len, 0x243f6a8885a308d3ULL,
                                         0x13198a2e03707344ULL,
                                         0xa4093822299f31d0ULL};
    std::size_t k = 0;
    for (; k + 4 <= len; k += 4) {
      for (std::size_t j = 0; j < 4; ++j) {
        lane[j] = (lane[j] ^ pool[first + k + j]) * kMul;
      }
    }
    for (; k < len; ++k) lane[k % 4] = (lane[k % 4] ^ pool[first + k]) * kMul;
    std::uint64_t h = lane[0] ^ (lane[1] << 1 | lane[1] >> 63) ^
                      (lane[2] << 2 | lane[2] >> 62) ^
                      (lane[3] << 3 | lane[3] >> 61);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return Key{first, len, h};
  }

  /// True when `key` (of `pool`) is known to have no completion below
  /// `best`.
  [[nodiscard]] bool Fails(const std::vector<std::uint64_t>& pool,
                           const Key& key, std::uint64_t best) const {
    for (std::uint32_t e = Head(key.hash); e != kNone; e = entries_[e].next) {
      if (Equal(pool, key, e)) return best <= entries_[e].bound;
    }
    return false;
  }

  void Insert(const std::vector<std::uint64_t>& pool, const Key& key,
              std::uint64_t bound) {
    for (std::uint32_t e = Head(key.hash); e != kNone; e = entries_[e].next) {
      if (Equal(pool, key, e)) {
        entries_[e].bound = std::max(entries_[e].bound, bound);
        return;
      }
    }
    if (words_.size() + key.len > kMaxWords) return;
    auto [it, fresh] = heads_.try_emplace(key.hash, kNone);
    entries_.push_back(Entry{words_.size(), key.len, bound, it->second});
    it->second = static_cast<std::uint32_t>(entries_.size() - 1);
    words_.insert(
        words_.end(), pool.begin() + static_cast<std::ptrdiff_t>(key.first),
        pool.begin() + static_cast<std::ptrdiff_t>(key.first + key.len));
  }

 private:
  static constexpr std::uint32_t kNone =
      std::numeric_limits<std::uint32_t>::max();
  /// 16 MiB of key words per search.
  static constexpr std::size_t kMaxWords = std::size_t{2} << 20;
  struct Entry {
    std::size_t pos;
    std::size_t len;
    std::uint64_t bound;  // no completion with arena < bound
    std::uint32_t next;
  };

  [[nodiscard]] std::uint32_t Head(std::uint64_t h) const {
    const auto it = heads_.find(h);
    return it == heads_.end() ? kNone : it->second;
  }
  [[nodiscard]] bool Equal(const std::vector<std::uint64_t>& pool,
                           const Key& key, std::uint32_t e) const {
    return entries_[e].len == key.len &&
           std::equal(
               words_.begin() + static_cast<std::ptrdiff_t>(entries_[e].pos),
               words_.begin() +
                   static_cast<std::ptrdiff_t>(entries_[e].pos + key.len),
               pool.begin() + static_cast<std::ptrdiff_t>(key.first));
  }

  std::unordered_map<std::uint64_t, std::uint32_t> heads_;
  std::vector<Entry> entries_;
  std::vector<std::uint64_t> words_;
};

/// Branch and bound over one component. Tensors are renumbered by rank:
/// index i is the i-th under the chosen ordering (its starting priority).
class Search {
 public:
  /// `records` are the component's tensors in any order; Rank(k) gives the
  /// position in `records` of the tensor of rank k.
  Search(std::span<const TensorUsageRecord> records, const Ordering& order,
         Branching branching = Branching::kSection)
      : r_(records.begin(), records.end()),
        n_(r_.size()),
        branching_(branching),
        order_(order) {
    Prepare();
    perm_.resize(n_);
    std::iota(perm_.begin(), perm_.end(), 0U);
    SortByKeys(perm_);
    std::vector<TensorUsageRecord> ranked(n_);
    for (std::size_t k = 0; k < n_; ++k) ranked[k] = r_[perm_[k]];
    r_ = std::move(ranked);
    Prepare();
    priority_.resize(n_);
    std::iota(priority_.begin(), priority_.end(), 0U);
  }

  [[nodiscard]] std::uint32_t Rank(std::size_t k) const { return perm_[k]; }

  /// Max operator breadth of the component (paper §5.1).
  [[nodiscard]] std::uint64_t RootBound() const { return root_bound_; }

  /// Arena of `offsets` (rank order) if it is a valid plan, else kInf.
  [[nodiscard]] std::uint64_t CheckPlan(
      const std::vector<std::uint64_t>& offsets) const {
    std::uint64_t arena = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      if (offsets[i] > kInf - r_[i].size) return kInf;
      arena = std::max(arena, offsets[i] + r_[i].size);
      for (std::uint32_t j : nbrs_[i]) {
        if (offsets[i] < offsets[j] + r_[j].size &&
            offsets[j] < offsets[i] + r_[i].size) {
          return kInf;
        }
      }
    }
    return arena;
  }

  /// Searches for plans with arena < `best`, stopping at the first one with
  /// arena <= `good_enough`. Best()/BestOffsets() hold the best plan found
  /// (when Found()).
  RunOutcome Run(std::uint64_t best, std::uint64_t good_enough,
                 Budget* budget) {
    budget_ = budget;
    floor_.assign(sections_, 0);
    lowest_.assign(sections_, kInf);
    x_.assign(n_, 0);
    offset_.assign(n_, 0);
    placed_.assign(n_, 0);
    deg_.resize(n_);
    starts_.assign(sections_, 0);
    ends_.assign(sections_, 0);
    for (std::size_t i = 0; i < n_; ++i) {
      deg_[i] = static_cast<std::uint32_t>(nbrs_[i].size());
      ++starts_[sa_[i]];
      ++ends_[sb_[i] - 1];
    }
    peak_index_.assign(sections_ + 1, 0);
    peak_load_.assign(sections_, 0);
    Context root;
    root.members = by_start_;
    root.best = best;
    root.good_enough = good_enough;
    closed_at_.assign(sections_ + n_, kInf);
    Node(root, 0, 0);
    found_ = root.found;
    if (found_) {
      best_ = root.best;
      best_offsets_.assign(n_, 0);
      for (const auto& [i, off] : root.best_offsets) best_offsets_[i] = off;
    }
    if (budget_->Exhausted()) return RunOutcome::kCutOff;
    return root.stop ? RunOutcome::kGoodEnough : RunOutcome::kComplete;
  }

  [[nodiscard]] bool Found() const { return found_; }
  [[nodiscard]] std::uint64_t Best() const { return best_; }
  [[nodiscard]] const std::vector<std::uint64_t>& BestOffsets() const {
    return best_offsets_;
  }

 private:
  /// A sub-problem: the tensors of `members` still unplaced, to be placed
  /// with arena (max top among them) < best.
  struct Context {
    std::vector<std::uint32_t> members;  // sorted by start section
    std::uint64_t best = kInf;
    std::uint64_t good_enough = 0;
    bool found = false;
    bool stop = false;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> best_offsets;
  };

  /// Sections, section ranges, neighbours, breadths of r_ (current order).
  void Prepare() {
    std::vector<std::uint64_t> cuts;
    cuts.reserve(2 * n_);
    for (const TensorUsageRecord& t : r_) {
      cuts.push_back(t.first_op);
      cuts.push_back(std::uint64_t{t.last_op} + 1);
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    sections_ = cuts.empty() ? 0 : cuts.size() - 1;
    sa_.resize(n_);
    sb_.resize(n_);
    for (std::size_t i = 0; i < n_; ++i) {
      sa_[i] = static_cast<std::uint32_t>(
          std::lower_bound(cuts.begin(), cuts.end(), r_[i].first_op) -
          cuts.begin());
      sb_[i] = static_cast<std::uint32_t>(
          std::lower_bound(cuts.begin(), cuts.end(),
                           std::uint64_t{r_[i].last_op} + 1) -
          cuts.begin());
    }
    by_start_.resize(n_);
    std::iota(by_start_.begin(), by_start_.end(), 0U);
    std::sort(by_start_.begin(), by_start_.end(),
              [&](std::uint32_t a, std::uint32_t b) {
                return sa_[a] != sa_[b] ? sa_[a] < sa_[b] : a < b;
              });
    nbrs_.assign(n_, {});
    for (std::size_t a = 0; a < n_; ++a) {
      const std::uint32_t i = by_start_[a];
      for (std::size_t b = a + 1; b < n_ && sa_[by_start_[b]] < sb_[i]; ++b) {
        const std::uint32_t j = by_start_[b];
        nbrs_[i].push_back(j);
        nbrs_[j].push_back(i);
      }
    }
    for (auto& list : nbrs_) std::sort(list.begin(), list.end());
    rem_.assign(sections_, 0);
    for (std::size_t i = 0; i < n_; ++i) {
      for (std::uint32_t s = sa_[i]; s < sb_[i]; ++s) rem_[s] += r_[i].size;
    }
    root_bound_ = 0;
    for (std::uint64_t b : rem_) root_bound_ = std::max(root_bound_, b);
  }

  /// Value of key `k` for tensor i; contention (kTotal) is measured on the
  /// bytes still unplaced (at construction: all of them).
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
    for (std::size_t k = 0; k < keyed.size(); ++k) tensors[k] = keyed[k].second;
  }

  /// Eligible: may still be placed at its skyline at level `low` or later
  /// without being lifted first (see the file comment).
  [[nodiscard]] bool Eligible(std::uint32_t i, std::uint64_t low) const {
    if (x_[i] != low) return x_[i] > low;
    if (closed_at_[sections_ + i] == low) return false;
    // Tensor branching closes no sections (only excludes tensors).
    if (branching_ == Branching::kTensor) return true;
    for (std::uint32_t s = sa_[i]; s < sb_[i]; ++s) {
      if (closed_at_[s] == low) return false;
    }
    return true;
  }

  /// The release-height bound of the live tensors live_[mark..] at level m
  /// over sections [span_lo, span_hi) (see NodeStates); it stops as soon as
  /// the bound reaches `best`, returning a value >= best.
  std::uint64_t ReleaseBound(std::size_t mark, std::uint64_t m,
                             std::uint32_t span_lo, std::uint32_t span_hi,
                             std::uint64_t best) {
    // Only peak sections need the sum: those where an unplaced tensor ends
    // with another started since the previous end (the maximal cliques of
    // the interval graph). Every other section's unplaced tensors are a
    // subset of a peak's (up to the next end nothing leaves; with no start
    // since the end before, nothing came), and the bound only grows with
    // the set. Peaks are numbered within the span.
    std::uint32_t peaks = 0;
    bool started = false;
    for (std::uint32_t s = span_lo; s < span_hi; ++s) {
      peak_index_[s] = peaks;
      started = started || starts_[s] != 0;
      if (ends_[s] != 0 && started) {
        peak_load_[peaks++] = 0;
        started = false;
      }
    }
    peak_index_[span_hi] = peaks;
    // Adds tensor i with release v (taken highest release first); returns
    // the bound so far.
    std::uint64_t bound = 0;
    auto add = [&](std::uint64_t v, std::uint32_t i) {
      std::uint64_t stacked = 0;  // max over the peaks i covers
      for (std::uint32_t k = peak_index_[sa_[i]]; k < peak_index_[sb_[i]];
           ++k) {
        peak_load_[k] += r_[i].size;
        stacked = std::max(stacked, peak_load_[k]);
      }
      bound = std::max(bound, SaturatingAdd(v, stacked));
      return bound;
    };
    // Every release is >= m, and v = m gives m + unplaced bytes, which the
    // cheap bound already covers: only releases > m can add. Sorted packed
    // as release << bits | tensor when every release below `best` fits (a
    // release >= best - 1 reaches best by itself: sizes are > 0).
    release_.clear();
    for (std::size_t k = mark; k < live_.size(); ++k) {
      const std::uint32_t i = live_[k];
      const std::uint64_t v = eligible_[k - mark] ? x_[i] : LiftedRelease(i, m);
      if (v > m) release_.emplace_back(v, i);
    }
    const unsigned bits =
        std::max(1U, static_cast<unsigned>(std::bit_width(n_)));
    if (bits < 64 && best <= (std::uint64_t{1} << (64 - bits))) {
      packed_.clear();
      for (const auto& [v, i] : release_) {
        packed_.push_back((std::min(v, best - 1) << bits) | i);
      }
      std::sort(packed_.begin(), packed_.end(), std::greater<>());
      const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
      for (const std::uint64_t word : packed_) {
        if (add(word >> bits, static_cast<std::uint32_t>(word & mask)) >=
            best) {
          break;
        }
      }
      return bound;
    }
    std::sort(release_.begin(), release_.end(),
              [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [v, i] : release_) {
      if (add(v, i) >= best) break;
    }
    return bound;
  }

  /// Lowest offset a tensor that cannot start at its skyline (it waits
  /// below the level `m`, or is closed or excluded at it) may still get.
  /// It will rest on a tensor placed later that intersects it in time (the
  /// tensors placed so far end at or below its skyline, which is <= m), and
  /// every later placement is at the level or above, at or above its own
  /// skyline: so its offset is at least the least max(x_j, m) + size_j over
  /// its unplaced neighbours j. kInf when none is left (a dead tensor).
  [[nodiscard]] std::uint64_t LiftedRelease(std::uint32_t i,
                                            std::uint64_t m) const {
    std::uint64_t v = kInf;
    for (std::uint32_t j : nbrs_[i]) {
      if (!placed_[j])
        v = std::min(v, SaturatingAdd(std::max(x_[j], m), r_[j].size));
    }
    return v;
  }

  /// Marks section s closed at level `low` (undone by ReopenTo); s =
  /// sections_ + i excludes tensor i from starting at `low`.
  void Close(std::uint32_t s, std::uint64_t low) {
    closed_log_.emplace_back(s, closed_at_[s]);
    closed_at_[s] = low;
  }
  void ReopenTo(std::size_t mark) {
    while (closed_log_.size() > mark) {
      closed_at_[closed_log_.back().first] = closed_log_.back().second;
      closed_log_.pop_back();
    }
  }

  void Place(std::uint32_t i, std::uint64_t at) {
    const std::uint64_t top = at + r_[i].size;
    placed_[i] = 1;
    offset_[i] = at;
    --starts_[sa_[i]];
    --ends_[sb_[i] - 1];
    for (std::uint32_t s = sa_[i]; s < sb_[i]; ++s) {
      floor_log_.push_back(floor_[s]);
      floor_[s] = top;
      rem_[s] -= r_[i].size;
    }
    x_log_marks_.push_back(x_log_.size());
    for (std::uint32_t j : nbrs_[i]) {
      if (placed_[j]) continue;
      --deg_[j];
      if (x_[j] < top) {
        x_log_.emplace_back(j, x_[j]);
        x_[j] = top;
      }
    }
  }

  void Unplace(std::uint32_t i) {
    for (std::size_t k = x_log_.size(); k > x_log_marks_.back(); --k) {
      x_[x_log_[k - 1].first] = x_log_[k - 1].second;
    }
    x_log_.resize(x_log_marks_.back());
    x_log_marks_.pop_back();
    for (std::uint32_t j : nbrs_[i]) {
      if (!placed_[j]) ++deg_[j];
    }
    for (std::uint32_t s = sb_[i]; s-- > sa_[i];) {
      floor_[s] = floor_log_.back();
      floor_log_.pop_back();
      rem_[s] += r_[i].size;
    }
    ++starts_[sa_[i]];
    ++ends_[sb_[i] - 1];
    placed_[i] = 0;
  }

  /// A complete plan of ctx.members with arena `top` (offsets in offset_).
  static void Record(Context& ctx, std::uint64_t top,
                     const std::vector<std::uint64_t>& offsets) {
    if (top >= ctx.best) return;
    ctx.best = top;
    ctx.found = true;
    ctx.best_offsets.clear();
    for (std::uint32_t i : ctx.members)
      ctx.best_offsets.emplace_back(i, offsets[i]);
    if (top <= ctx.good_enough) ctx.stop = true;
  }

  /// Solves the time-disjoint groups live_[mark..] splits into (cut where no
  /// unplaced tensor crosses) one after another, as independent contexts.
  void Split(Context& ctx, std::size_t mark,
             const std::vector<std::size_t>& starts, std::uint64_t low,
             std::uint64_t utop) {
    const std::size_t groups = starts.size();
    std::vector<Context> subs(groups);
    std::vector<std::uint64_t> bound(groups, 0);
    for (std::size_t g = 0; g < groups; ++g) {
      const std::size_t end = g + 1 < groups ? starts[g + 1] : live_.size();
      subs[g].members.assign(
          live_.begin() + static_cast<std::ptrdiff_t>(mark + starts[g]),
          live_.begin() + static_cast<std::ptrdiff_t>(mark + end));
      std::uint32_t lo = sections_, hi = 0;
      for (std::uint32_t i : subs[g].members) {
        lo = std::min(lo, sa_[i]);
        hi = std::max(hi, sb_[i]);
      }
      for (std::uint32_t s = lo; s < hi; ++s) {
        if (rem_[s] != 0)
          bound[g] = std::max(bound[g], std::max(floor_[s], low) + rem_[s]);
      }
    }
    live_.resize(mark);
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
      Node(sub, low, 0);
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

  /// Explores the canonical completions of ctx.members whose next offset is
  /// >= `low` (the sections closed at `low` stay closed); `utop` is the
  /// highest top among members placed so far.
  void Node(Context& ctx, std::uint64_t low, std::uint64_t utop) {
    const std::size_t staged = staged_.size();
    const std::size_t closed = closed_log_.size();
    NodeStates(ctx, low, utop);
    ReopenTo(closed);
    // Every state this call went through has no completion below ctx.best
    // (all were explored with bounds >= it), unless the search was cut.
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

  /// Node() without the bookkeeping: one loop iteration per state of this
  /// node (the level `low` and the sections closed at it).
  void NodeStates(Context& ctx, std::uint64_t low, std::uint64_t utop) {
    while (true) {
      if (!budget_->Tick()) return;
      const std::size_t mark = live_.size();
      for (std::uint32_t i : ctx.members) {
        if (!placed_[i]) live_.push_back(i);
      }
      if (live_.size() == mark) {
        Record(ctx, utop, offset_);
        return;
      }
      // Time decomposition (after the pruning below, which looks at every
      // group at once): members are sorted by start section.
      std::uint32_t reach = sb_[live_[mark]];
      split_starts_.clear();
      split_starts_.push_back(0);
      for (std::size_t k = mark + 1; k < live_.size(); ++k) {
        const std::uint32_t i = live_[k];
        if (sa_[i] >= reach) split_starts_.push_back(k - mark);
        reach = std::max(reach, sb_[i]);
      }
      const std::uint32_t span_lo = sa_[live_[mark]];
      const std::uint32_t span_hi = reach;
      // The level: the smallest skyline among eligible tensors. Dead
      // waiting tensors (nothing left that could lift them) end the node.
      std::uint64_t m = kInf;
      eligible_.clear();
      for (std::size_t k = mark; k < live_.size(); ++k) {
        const std::uint32_t i = live_[k];
        const bool e = Eligible(i, low);
        eligible_.push_back(e);
        if (e) {
          m = std::min(m, x_[i]);
        } else if (deg_[i] == 0) {
          m = kInf;
          break;
        }
      }
      bool prune = m == kInf;
      // Dominance: nothing intersecting these tensors is placed below m any
      // more, so a tensor that fits between its skyline and m could be
      // lowered there in every completion; a plan with the least sum of
      // offsets never allows that, and one such plan is optimal.
      for (std::size_t k = mark; k < live_.size() && !prune; ++k) {
        const std::uint32_t i = live_[k];
        prune = x_[i] + r_[i].size <= m;
      }
      if (!prune && m > low) {
        // New level: sections closed at the old one are plain gaps now.
        low = m;
        for (std::size_t k = mark; k < live_.size(); ++k) {
          eligible_[k - mark] = Eligible(live_[k], low);
        }
      }
      // Bound, cheap form: max(floor, m) + unplaced bytes per section.
      if (!prune) {
        std::uint64_t bound = utop;
        for (std::uint32_t s = span_lo; s < span_hi; ++s) {
          if (rem_[s] != 0)
            bound = std::max(bound, std::max(floor_[s], m) + rem_[s]);
        }
        prune = bound >= ctx.best;
      }
      // Memo of states already proven to have no completion below a bound.
      if (!prune) {
        const std::size_t begin = staged_keys_.size();
        staged_keys_.push_back(low);
        staged_keys_.push_back(utop);
        const std::size_t bits = staged_keys_.size();
        staged_keys_.resize(bits + (n_ + 63) / 64, 0);
        for (std::size_t k = mark; k < live_.size(); ++k) {
          staged_keys_[bits + live_[k] / 64] |= std::uint64_t{1}
                                                << (live_[k] % 64);
        }
        for (std::uint32_t s = span_lo; s < span_hi; ++s) {
          if (rem_[s] != 0) staged_keys_.push_back(floor_[s]);
        }
        if (branching_ == Branching::kSection) {
          // Which of those sections are closed at the level, as bits.
          std::size_t bit = 0;
          for (std::uint32_t s = span_lo; s < span_hi; ++s) {
            if (rem_[s] == 0) continue;
            if (bit % 64 == 0) staged_keys_.push_back(0);
            if (closed_at_[s] == low) {
              staged_keys_.back() |= std::uint64_t{1} << (bit % 64);
            }
            ++bit;
          }
        }
        if (branching_ == Branching::kTensor) {
          const std::size_t excluded = staged_keys_.size();
          staged_keys_.resize(excluded + (n_ + 63) / 64, 0);
          for (std::size_t k = mark; k < live_.size(); ++k) {
            if (closed_at_[sections_ + live_[k]] == low) {
              staged_keys_[excluded + live_[k] / 64] |= std::uint64_t{1}
                                                        << (live_[k] % 64);
            }
          }
        }
        const Memo::Key key =
            Memo::MakeKey(staged_keys_, begin, staged_keys_.size() - begin);
        if (memo_.Fails(staged_keys_, key, ctx.best)) {
          staged_keys_.resize(begin);
          prune = true;
        } else {
          staged_.push_back(key);
        }
      }
      // Bound: in every section s the unplaced tensors alive there stack
      // without overlap, each at or above its own lowest possible offset v
      // (its skyline, or while it cannot start there the lowest top of a
      // neighbour that could still lift it: LiftedRelease). Stacking with
      // such release heights needs at least v + (bytes of the tensors with
      // release >= v) for every v: single-machine makespan with release
      // dates. With v = the smallest release it is max breadth (§5.1).
      if (!prune) {
        prune = ReleaseBound(mark, m, span_lo, span_hi, ctx.best) >= ctx.best;
      }
      if (prune) {
        live_.resize(mark);
        return;
      }
      if (split_starts_.size() > 1) {
        const std::vector<std::size_t> starts = split_starts_;
        Split(ctx, mark, starts, low, utop);
        return;
      }
      if (branching_ == Branching::kTensor) {
        // The first tensor by priority that can start at m: it starts
        // there, or it does not.
        std::uint32_t pick = kNoTensor;
        for (std::size_t k = mark; k < live_.size(); ++k) {
          const std::uint32_t i = live_[k];
          if (eligible_[k - mark] && x_[i] == m &&
              (pick == kNoTensor || priority_[i] < priority_[pick])) {
            pick = i;
          }
        }
        live_.resize(mark);
        if (pick == kNoTensor) return;
        Place(pick, m);
        Node(ctx, m, std::max(utop, m + r_[pick].size));
        Unplace(pick);
        if (ctx.stop || budget_->Exhausted()) return;
        Close(static_cast<std::uint32_t>(sections_) + pick, m);
        continue;
      }
      // Branch on one open section at level m: which tensor sits on it at
      // offset m, or none (close it). Pick the section with the fewest
      // options (fail first), leftmost on ties.
      for (std::uint32_t s = span_lo; s < span_hi; ++s) lowest_[s] = 0;
      for (std::size_t k = mark; k < live_.size(); ++k) {
        const std::uint32_t i = live_[k];
        if (!eligible_[k - mark] || x_[i] != m) continue;
        for (std::uint32_t s = sa_[i]; s < sb_[i]; ++s) {
          if (floor_[s] == m) ++lowest_[s];
        }
      }
      // A section with no slack (m + unplaced bytes == best - 1) cannot be
      // closed: the gap would overflow it, so it has one branch fewer.
      for (std::uint32_t s = span_lo; s < span_hi; ++s) {
        if (lowest_[s] != 0 && m + rem_[s] + 1 < ctx.best) ++lowest_[s];
      }
      std::uint32_t pick = span_hi;
      for (std::uint32_t s = span_lo; s < span_hi; ++s) {
        if (lowest_[s] == 0) continue;
        if (pick == span_hi || lowest_[s] < lowest_[pick] ||
            (lowest_[s] == lowest_[pick] && rem_[s] > rem_[pick])) {
          pick = s;
        }
      }
      const std::size_t cmark = cand_.size();
      for (std::size_t k = mark; k < live_.size(); ++k) {
        const std::uint32_t i = live_[k];
        if (eligible_[k - mark] && x_[i] == m && sa_[i] <= pick &&
            pick < sb_[i]) {
          cand_.push_back(i);
        }
      }
      live_.resize(mark);
      for (std::size_t k = cmark; k < cand_.size(); ++k) {
        const std::uint32_t i = cand_[k];
        Place(i, m);
        Node(ctx, m, std::max(utop, m + r_[i].size));
        Unplace(i);
        if (ctx.stop || budget_->Exhausted()) break;
      }
      cand_.resize(cmark);
      if (ctx.stop || budget_->Exhausted()) return;
      Close(pick, m);
    }
  }

  static constexpr std::uint32_t kNoTensor =
      std::numeric_limits<std::uint32_t>::max();

  std::vector<TensorUsageRecord> r_;
  std::size_t n_;
  Branching branching_;
  Ordering order_;
  std::vector<std::uint32_t> perm_;
  /// Branching priority per tensor (smaller first): its rank, and within a
  /// time-disjoint group its rank in that group (see Split).
  std::vector<std::uint32_t> priority_;
  std::size_t sections_ = 0;
  std::vector<std::uint32_t> sa_, sb_;  // section range [sa, sb) per tensor
  std::vector<std::uint32_t> by_start_;
  std::vector<std::vector<std::uint32_t>> nbrs_;
  std::uint64_t root_bound_ = 0;

  // Search state.
  std::vector<std::uint64_t> rem_;    // unplaced bytes alive per section
  std::vector<std::uint64_t> floor_;  // skyline height per section
  std::vector<std::uint64_t> x_;      // skyline position per unplaced tensor
  std::vector<std::uint64_t> offset_;
  std::vector<std::uint8_t> placed_;
  std::vector<std::uint32_t> deg_;  // unplaced neighbours per tensor
  std::vector<std::uint64_t> floor_log_;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> x_log_;
  std::vector<std::size_t> x_log_marks_;
  std::vector<std::uint32_t> live_, cand_;  // stacks shared by all frames
  std::vector<std::size_t> split_starts_;
  std::vector<std::uint64_t> lowest_;  // scratch of Node(), per section
  std::vector<std::pair<std::uint64_t, std::uint32_t>> release_;  // scratch
  std::vector<std::uint64_t> packed_;         // scratch of the sort
  std::vector<std::uint32_t> starts_, ends_;  // unplaced tensors starting,
                                              // ending in each section
  std::vector<std::uint32_t> peak_index_;     // scratch, per section + 1
  std::vector<std::uint64_t> peak_load_;      // scratch, per peak section
  std::vector<std::uint8_t> eligible_;        // scratch, parallel to live_
  std::vector<std::uint64_t> closed_at_;      // level a section is closed at
  std::vector<std::pair<std::uint32_t, std::uint64_t>> closed_log_;
  Memo memo_;
  std::vector<std::uint64_t> staged_keys_;  // keys of the states on the path
  std::vector<Memo::Key> staged_;
  Budget* budget_ = nullptr;

  bool found_ = false;
  std::uint64_t best_ = kInf;
  std::vector<std::uint64_t> best_offsets_;
};

/// One time-independent component of the input.
struct Component {
  std::vector<std::uint32_t> ids;  // input indices
  std::vector<TensorUsageRecord> records;
  std::uint64_t bound = 0;
  std::uint64_t value = kInf;          // best arena known (kInf: none)
  std::vector<std::uint64_t> offsets;  // indexed like ids
  bool proven = false;                 // value is this component's optimum
  bool infeasible = false;             // proven: nothing below the start
};

/// Improves `c` until it is proven, reaches `good_enough`, or the budget
/// ends: restarts cycling through kPortfolio with doubling node budgets,
/// every run starting from the best arena known so far.
void SolveComponent(Component& c, std::uint64_t cap_plus_one,
                    std::uint64_t good_enough, Budget* budget) {
  std::vector<Search> searches;
  searches.reserve(kPortfolio.size());
  for (const PortfolioEntry& entry : kPortfolio) {
    searches.emplace_back(c.records, entry.order, entry.branching);
  }
  // One run of `search` looking below `start`, stopping at <= `enough`.
  auto run = [&](Search& search, std::uint64_t start, std::uint64_t enough,
                 std::uint64_t nodes) {
    budget->run_over = false;
    budget->run_end = budget->nodes + nodes;
    const RunOutcome outcome = search.Run(start, enough, budget);
    budget->run_over = false;
    budget->run_end = kInf;
    if (search.Found() && search.Best() < c.value) {
      c.value = search.Best();
      c.offsets.assign(c.ids.size(), 0);
      for (std::size_t k = 0; k < c.ids.size(); ++k) {
        c.offsets[search.Rank(k)] = search.BestOffsets()[k];
      }
    }
    return outcome;
  };
  // Tight targets prune far harder than a loose incumbent, so every round
  // first asks for a plan at the proven lower bound itself (a decision
  // run), then improves the incumbent by branch and bound.
  bool try_bound = true;
  bool good_refuted = false;
  for (unsigned round = 0; !budget->Finished(); ++round) {
    const std::uint64_t base_nodes = kRestartBase << std::min(round, 40U);
    for (std::size_t q = 0; q < searches.size(); ++q) {
      Search& search = searches[q];
      const std::uint64_t nodes = base_nodes;
      const std::uint64_t target = c.bound;
      // When a looser arena is good enough (a capacity, or another
      // component's bound), tight runs only get the first rounds.
      if (try_bound && (target >= good_enough || round < kTightRounds) &&
          target + 1 < std::min(c.value, cap_plus_one)) {
        const RunOutcome outcome = run(search, target + 1, target, nodes);
        if (outcome == RunOutcome::kGoodEnough) {
          c.proven = true;  // a plan at the lower bound
          return;
        }
        if (outcome == RunOutcome::kComplete) {
          c.bound = target + 1;  // proven: nothing fits within target bytes
          try_bound = false;
        }
        if (budget->Finished()) return;
      }
      // While no plan within good_enough is known or refuted, every other
      // round (once some plan is known) looks only for one: a decision run
      // prunes far harder than a loose incumbent.
      std::uint64_t start = std::min(c.value, cap_plus_one);
      const bool aim = !good_refuted && c.value != kInf && round % 2 == 0 &&
                       good_enough + 1 < start;
      if (aim) start = good_enough + 1;
      const RunOutcome outcome = run(search, start, good_enough, nodes);
      if (outcome == RunOutcome::kComplete && aim) {
        good_refuted = true;  // proven: nothing fits within good_enough
        c.bound = std::max(c.bound, good_enough + 1);
        if (budget->Finished()) return;
        continue;
      }
      if (outcome == RunOutcome::kComplete) {
        if (c.value == kInf) {
          c.infeasible = true;
        } else {
          c.proven = true;
        }
        return;
      }
      if (outcome == RunOutcome::kGoodEnough || budget->Finished()) return;
    }
  }
}

}  // namespace

ExactResult SolveOffsetsExactly(std::span<const TensorUsageRecord> records,
                                const ExactOptions& options) {
  ExactResult result;
  const std::size_t n = records.size();
  Budget budget;
  budget.node_limit = options.node_limit;
  budget.deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(
              // NaN and negative: no time; at most 1e7 s, so the cast
              // to clock ticks cannot overflow.
              options.time_limit_s > 0 ? std::min(options.time_limit_s, 1e7)
                                       : 0.0));
  const std::uint64_t cap_plus_one =
      options.capacity && *options.capacity < kInf ? *options.capacity + 1
                                                   : kInf;

  // Components: by first_op, cut where no earlier tensor is still alive.
  // Zero-size tensors take no space: offset 0, left out of the search.
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (records[i].size != 0) order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return records[a].first_op != records[b].first_op
               ? records[a].first_op < records[b].first_op
               : a < b;
  });
  std::vector<Component> comps;
  std::uint64_t reach = 0;  // max last_op + 1 so far
  for (std::uint32_t i : order) {
    if (comps.empty() || records[i].first_op >= reach) comps.emplace_back();
    comps.back().ids.push_back(i);
    comps.back().records.push_back(records[i]);
    reach = std::max(reach, std::uint64_t{records[i].last_op} + 1);
  }

  const bool have_initial = options.initial_offsets.size() == n;
  std::uint64_t proven_lb = 0;  // max over components of proven bounds
  for (Component& c : comps) {
    const Search probe(c.records, kPortfolio[0].order);
    c.bound = probe.RootBound();
    proven_lb = std::max(proven_lb, c.bound);
    if (have_initial) {
      std::vector<std::uint64_t> init(c.ids.size());
      for (std::size_t k = 0; k < c.ids.size(); ++k) {
        init[k] = options.initial_offsets[c.ids[k]];
      }
      std::vector<std::uint64_t> ranked(c.ids.size());
      for (std::size_t k = 0; k < c.ids.size(); ++k) {
        ranked[k] = init[probe.Rank(k)];
      }
      const std::uint64_t arena = probe.CheckPlan(ranked);
      if (arena < cap_plus_one) {
        c.value = arena;
        c.offsets = std::move(init);
      }
    }
  }
  if (proven_lb >= cap_plus_one) {
    result.status = ExactResult::kInfeasible;
    result.lower_bound = proven_lb;
    return result;
  }
  // Decreasing lower bound, then input order of the first tensor.
  std::vector<std::size_t> by_bound(comps.size());
  std::iota(by_bound.begin(), by_bound.end(), std::size_t{0});
  std::stable_sort(by_bound.begin(), by_bound.end(),
                   [&](std::size_t a, std::size_t b) {
                     return comps[a].bound > comps[b].bound;
                   });
  for (std::size_t idx : by_bound) {
    Component& c = comps[idx];
    // Good enough: what the whole plan provably needs anyway (or, for the
    // decision problem, anything within capacity).
    std::uint64_t good_enough = proven_lb;
    if (!options.minimize && cap_plus_one != kInf) {
      good_enough = std::max(good_enough, cap_plus_one - 1);
    }
    if (c.value == c.bound) c.proven = true;
    if (c.value <= good_enough || c.proven) continue;
    if (budget.Finished() || c.ids.size() > kMaxSearchRecords ||
        options.time_limit_s <= 0) {
      continue;
    }
    SolveComponent(c, cap_plus_one, good_enough, &budget);
    if (c.infeasible) {
      result.nodes = budget.nodes;
      result.status = ExactResult::kInfeasible;
      result.lower_bound = cap_plus_one;
      return result;
    }
    proven_lb = std::max(proven_lb, c.bound);
    if (c.proven) proven_lb = std::max(proven_lb, c.value);
  }
  result.nodes = budget.nodes;
  result.timed_out = budget.timed_out;
  std::uint64_t arena = 0;
  for (const Component& c : comps) {
    if (c.value == kInf) {
      result.status = ExactResult::kUnknown;
      result.lower_bound = proven_lb;
      return result;
    }
    arena = std::max(arena, c.value);
  }
  result.offsets.assign(n, 0);
  for (const Component& c : comps) {
    for (std::size_t k = 0; k < c.ids.size(); ++k) {
      result.offsets[c.ids[k]] = c.offsets[k];
    }
  }
  result.arena_bytes = arena;
  result.lower_bound = std::min(proven_lb, arena);
  result.status =
      arena == proven_lb ? ExactResult::kOptimal : ExactResult::kFeasible;
  return result;
}

}  // namespace arenaplan
