// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/solver/pair_search.hpp"

#include <algorithm>
#include <array>
#include <numeric>

namespace arenaplan::solver {

PairSearch::PairSearch(std::span<const TensorUsageRecord> records,
                       std::span<const OverlapPair> overlaps,
                       const Ordering& order, const ExactTechniques& techniques)
    : SearchCore(records, order, techniques) {
  // Rank by the keys (contention on all bytes, pairs ignored: it is only
  // an order), then renumber records and pairs.
  Prepare({});
  const std::vector<std::uint32_t> rank_of = RankRecords();
  std::vector<OverlapPair> pairs(overlaps.begin(), overlaps.end());
  for (OverlapPair& p : pairs) {
    p.input = rank_of[p.input];
    p.output = rank_of[p.output];
  }
  Prepare(pairs);
  ResetPriority();
}

/// Segments, neighbours with their relations, shared bytes per segment.
void PairSearch::Prepare(std::span<const OverlapPair> overlaps) {
  PrepareSegments();
  nbrs_.assign(n_, {});
  ForEachIntersecting([this](std::uint32_t i, std::uint32_t j) {
    nbrs_[i].push_back({j, false, false, r_[i].size, r_[j].size});
    nbrs_[j].push_back({i, false, false, r_[j].size, r_[i].size});
  });
  for (auto& list : nbrs_) {
    std::sort(list.begin(), list.end(),
              [](const Link& a, const Link& b) { return a.j < b.j; });
  }
  // The link of i's list that names j.
  auto link = [&](std::uint32_t i, std::uint32_t j) -> Link* {
    auto it = std::lower_bound(
        nbrs_[i].begin(), nbrs_[i].end(), j,
        [](const Link& l, std::uint32_t v) { return l.j < v; });
    return it != nbrs_[i].end() && it->j == j ? &*it : nullptr;
  };
  // Relations: "u relative to t" is e(u,t) and point(u,t).
  auto relate = [&](std::uint32_t u, std::uint32_t t, std::uint64_t e,
                    bool point) {
    Link* lt = link(t, u);  // in t's list: u relative to t is e_ji
    Link* lu = link(u, t);  // in u's list: u relative to t is e_ij
    if (lt == nullptr || lu == nullptr) return;
    lt->e_ji = std::min(lt->e_ji, e);
    lu->e_ij = std::min(lu->e_ij, e);
    lt->point_ji = lt->point_ji || point;
    lu->point_ij = lu->point_ij || point;
  };
  shared_.clear();
  shared_of_.assign(n_, {});
  for (const OverlapPair& p : overlaps) {
    if (p.input >= n_ || p.output >= n_ || p.input == p.output) continue;
    if (p.relation == OverlapRelation::kOutputBelowBy) {
      relate(p.input, p.output, p.distance, false);
      if (p.distance == 0) relate(p.output, p.input, r_[p.input].size, true);
    } else if (p.relation == OverlapRelation::kAlias &&
               r_[p.input].size == r_[p.output].size) {
      relate(p.input, p.output, r_[p.output].size, true);
      relate(p.output, p.input, r_[p.input].size, true);
    } else {
      continue;
    }
    const std::uint64_t bytes = OverlapSavings(r_, p);
    if (bytes == 0) continue;
    const std::uint32_t a = std::min(p.input, p.output);
    const std::uint32_t b = std::max(p.input, p.output);
    bool merged = false;
    for (std::uint32_t k : shared_of_[a]) {
      if (shared_[k].b == b && shared_[k].a == a) {
        shared_[k].bytes = std::max(shared_[k].bytes, bytes);
        merged = true;
      }
    }
    if (merged) continue;
    // Both are alive only together at the pair's operator: the output's
    // first segment.
    shared_of_[a].push_back(static_cast<std::uint32_t>(shared_.size()));
    shared_of_[b].push_back(static_cast<std::uint32_t>(shared_.size()));
    shared_.push_back({a, b, sa_[p.output], bytes});
  }
  // A relation that starts at the neighbour's own offset needs no point.
  for (auto& list : nbrs_) {
    for (Link& l : list) {
      if (l.e_ji == 0) l.point_ji = false;
      if (l.e_ij == 0) l.point_ij = false;
    }
  }
  rem_.assign(segments_, 0);
  sav_.assign(segments_, 0);
  for (std::size_t i = 0; i < n_; ++i) {
    for (std::uint32_t s = sa_[i]; s < sb_[i]; ++s) rem_[s] += r_[i].size;
  }
  for (const Shared& sh : shared_) sav_[sh.segment] += sh.bytes;
  root_bound_ = 0;
  for (std::size_t s = 0; s < segments_; ++s) {
    root_bound_ = std::max(root_bound_, rem_[s] - std::min(rem_[s], sav_[s]));
  }
  for (const TensorUsageRecord& r : r_) {
    root_bound_ = std::max(root_bound_, r.size);
  }
}

std::uint64_t PairSearch::CheckPlan(
    const std::vector<std::uint64_t>& offsets) const {
  if (offsets.size() != n_) return kInf;
  std::uint64_t arena = 0;
  for (std::size_t i = 0; i < n_; ++i) {
    if (offsets[i] > kInf - r_[i].size) return kInf;
    arena = std::max(arena, offsets[i] + r_[i].size);
  }
  for (std::size_t i = 0; i < n_; ++i) {
    const std::uint64_t oi = offsets[i];
    for (const Link& l : nbrs_[i]) {
      if (l.j < i) continue;
      const std::uint64_t oj = offsets[l.j];
      if (oi >= oj + r_[l.j].size || oj >= oi + r_[i].size) continue;
      // They share bytes: a relation must allow it.
      const bool j_ok =
          oj >= oi && (oj - oi >= l.e_ji || (l.point_ji && oj == oi));
      const bool i_ok =
          oi >= oj && (oi - oj >= l.e_ij || (l.point_ij && oi == oj));
      if (!j_ok && !i_ok) return kInf;
    }
  }
  return arena;
}

RunOutcome PairSearch::Run(std::uint64_t best, std::uint64_t good_enough,
                           Budget* budget) {
  budget_ = budget;
  x_.assign(n_, 0);
  pend_.assign(n_, 0);
  offset_.assign(n_, 0);
  placed_.assign(n_, 0);
  excl_.assign(n_, kInf);
  deg_.resize(n_);
  for (std::size_t i = 0; i < n_; ++i) {
    deg_[i] = static_cast<std::uint32_t>(nbrs_[i].size());
  }
  lowest_.assign(segments_, kInf);
  xlog_.clear();
  xlog_marks_.clear();
  excl_log_.clear();
  Context root = RootContext(best, good_enough);
  Node(root, 0, 0);
  return FinishRun(root);
}

void PairSearch::UndoXTo(std::size_t mark) {
  while (xlog_.size() > mark) {
    const XEntry& e = xlog_.back();
    x_[e.i] = e.x;
    pend_[e.i] = e.pend;
    xlog_.pop_back();
  }
}

/// Places i at `at` (the level): each unplaced neighbour j may now sit at
/// at + e_ji or above, or exactly at `at` when point_ji; it gives up the
/// point as soon as it cannot sit at the level (x above it, or excluded).
void PairSearch::Place(std::uint32_t i, std::uint64_t at) {
  placed_[i] = 1;
  offset_[i] = at;
  for (std::uint32_t s = sa_[i]; s < sb_[i]; ++s) rem_[s] -= r_[i].size;
  for (std::uint32_t k : shared_of_[i]) {
    const Shared& sh = shared_[k];
    if (!placed_[sh.a == i ? sh.b : sh.a]) sav_[sh.segment] -= sh.bytes;
  }
  xlog_marks_.push_back(xlog_.size());
  for (const Link& l : nbrs_[i]) {
    const std::uint32_t j = l.j;
    if (placed_[j]) continue;
    --deg_[j];
    const std::uint64_t mark = SaturatingAdd(at, l.e_ji);
    std::uint64_t x = std::max(x_[j], l.point_ji ? at : mark);
    std::uint64_t pend = l.point_ji ? std::max(pend_[j], mark) : pend_[j];
    if (x > at || excl_[j] == at) x = std::max(x, pend);
    if (x != x_[j] || pend != pend_[j]) SetX(j, x, pend);
  }
}

void PairSearch::Unplace(std::uint32_t i) {
  UndoXTo(xlog_marks_.back());
  xlog_marks_.pop_back();
  for (const Link& l : nbrs_[i]) {
    if (!placed_[l.j]) ++deg_[l.j];
  }
  for (std::uint32_t k : shared_of_[i]) {
    const Shared& sh = shared_[k];
    if (!placed_[sh.a == i ? sh.b : sh.a]) sav_[sh.segment] += sh.bytes;
  }
  for (std::uint32_t s = sa_[i]; s < sb_[i]; ++s) rem_[s] += r_[i].size;
  placed_[i] = 0;
}

/// i does not start at `low`: it gives up its point relations.
void PairSearch::ExcludeAt(std::uint32_t i, std::uint64_t low) {
  excl_log_.emplace_back(i, excl_[i]);
  excl_[i] = low;
  if (pend_[i] > x_[i]) SetX(i, pend_[i], pend_[i]);
}

void PairSearch::Node(Context& ctx, std::uint64_t low, std::uint64_t utop) {
  const std::size_t staged = staged_.size();
  const std::size_t excluded = excl_log_.size();
  const std::size_t xmark = xlog_.size();
  NodeStates(ctx, low, utop);
  UndoXTo(xmark);
  while (excl_log_.size() > excluded) {
    excl_[excl_log_.back().first] = excl_log_.back().second;
    excl_log_.pop_back();
  }
  CommitStaged(ctx, staged);
}

/// The next level: the smallest x among eligible tensors; kInf when a
/// tensor that must be lifted has no unplaced neighbour left (dead), or
/// fits between its x and the level (dominated: a grounded plan with the
/// least sum of offsets would have it there).
std::uint64_t PairSearch::Level(std::size_t mark, std::uint64_t low) {
  return LevelOf(mark,
                 [this, low](std::uint32_t i) { return Eligible(i, low); });
}

/// Per segment of [span_lo, span_hi) holding tensors of live_[begin, end):
/// the lowest offset one of them can take (max(x, m)) + their bytes - the
/// most their pairs there can share; and each tensor's max(x, m) + size.
std::uint64_t PairSearch::SegmentBound(std::size_t begin, std::size_t end,
                                       std::uint64_t m, std::uint32_t span_lo,
                                       std::uint32_t span_hi) {
  std::uint64_t bound = 0;
  for (std::size_t k = begin; k < end; ++k) {
    const std::uint32_t i = live_[k];
    const std::uint64_t v = std::max(x_[i], m);
    bound = std::max(bound, SaturatingAdd(v, r_[i].size));
    for (std::uint32_t s = sa_[i]; s < sb_[i]; ++s) {
      lowest_[s] = std::min(lowest_[s], v);
    }
  }
  for (std::uint32_t s = span_lo; s < span_hi; ++s) {
    if (lowest_[s] == kInf) continue;
    bound = std::max(
        bound, SaturatingAdd(lowest_[s], rem_[s] - std::min(rem_[s], sav_[s])));
    lowest_[s] = kInf;
  }
  return bound;
}

bool PairSearch::MemoFails(const Context& ctx, std::size_t mark,
                           std::uint64_t low, std::uint64_t utop) {
  const std::size_t begin = staged_keys_.size();
  staged_keys_.push_back(low);
  staged_keys_.push_back(utop);
  const std::size_t bits = staged_keys_.size();
  staged_keys_.resize(bits + 2 * ((n_ + 63) / 64), 0);
  const std::size_t excluded = bits + (n_ + 63) / 64;
  for (std::size_t k = mark; k < live_.size(); ++k) {
    const std::uint32_t i = live_[k];
    staged_keys_[bits + i / 64] |= std::uint64_t{1} << (i % 64);
    if (excl_[i] == low) {
      staged_keys_[excluded + i / 64] |= std::uint64_t{1} << (i % 64);
    }
  }
  // x and pend (only while it can still matter) of each unplaced tensor,
  // in the order of live_ (by start segment, a function of the set).
  for (std::size_t k = mark; k < live_.size(); ++k) {
    const std::uint32_t i = live_[k];
    staged_keys_.push_back(x_[i]);
    staged_keys_.push_back(pend_[i] > x_[i] ? pend_[i] : 0);
  }
  return MemoFailsOrStage(ctx, begin);
}

void PairSearch::Split(Context& ctx, std::size_t mark,
                       const std::vector<std::size_t>& starts,
                       std::uint64_t low, std::uint64_t utop) {
  const std::size_t groups = starts.size();
  std::vector<Context> subs(groups);
  std::vector<std::uint64_t> bound(groups, 0);
  for (std::size_t g = 0; g < groups; ++g) {
    const std::size_t end =
        g + 1 < groups ? starts[g + 1] : live_.size() - mark;
    subs[g].members.assign(
        live_.begin() + static_cast<std::ptrdiff_t>(mark + starts[g]),
        live_.begin() + static_cast<std::ptrdiff_t>(mark + end));
    std::uint32_t lo = static_cast<std::uint32_t>(segments_), hi = 0;
    for (std::uint32_t i : subs[g].members) {
      lo = std::min(lo, sa_[i]);
      hi = std::max(hi, sb_[i]);
    }
    bound[g] = SegmentBound(mark + starts[g], mark + end, low, lo, hi);
  }
  SolveGroups(ctx, mark, subs, bound, low, utop,
              [this](Context& sub, std::uint64_t at) { Node(sub, at, 0); });
}

/// The cheap bound (per segment: the level + the unplaced bytes - the most
/// their pairs share), the memo and the segment bound, in that order.
bool PairSearch::Prune(const Context& ctx, std::size_t mark, std::uint64_t low,
                       std::uint64_t m, std::uint64_t utop,
                       std::uint32_t span_lo, std::uint32_t span_hi) {
  std::uint64_t cheap = utop;
  for (std::uint32_t s = span_lo; s < span_hi; ++s) {
    if (rem_[s] != 0) {
      cheap = std::max(cheap, m + rem_[s] - std::min(rem_[s], sav_[s]));
    }
  }
  if (cheap >= ctx.best) return true;
  if (techniques_.memo && MemoFails(ctx, mark, low, utop)) return true;
  return techniques_.release_bound &&
         SegmentBound(mark, live_.size(), m, span_lo, span_hi) >= ctx.best;
}

void PairSearch::NodeStates(Context& ctx, std::uint64_t low,
                            std::uint64_t utop) {
  NodeLoop(*this, ctx, low, utop);
}

}  // namespace arenaplan::solver
