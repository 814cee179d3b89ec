// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/solver/search.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <numeric>

namespace arenaplan::solver {

Search::Search(std::span<const TensorUsageRecord> records,
               const Ordering& order, Branching branching,
               const ExactTechniques& techniques)
    : SearchCore(records, order, techniques), branching_(branching) {
  Prepare();
  RankRecords();
  Prepare();
  ResetPriority();
}

std::uint64_t Search::CheckPlan(
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

RunOutcome Search::Run(std::uint64_t best, std::uint64_t good_enough,
                       Budget* budget) {
  budget_ = budget;
  floor_.assign(segments_, 0);
  lowest_.assign(segments_, kInf);
  x_.assign(n_, 0);
  offset_.assign(n_, 0);
  placed_.assign(n_, 0);
  deg_.resize(n_);
  starts_.assign(segments_, 0);
  ends_.assign(segments_, 0);
  for (std::size_t i = 0; i < n_; ++i) {
    deg_[i] = static_cast<std::uint32_t>(nbrs_[i].size());
    ++starts_[sa_[i]];
    ++ends_[sb_[i] - 1];
  }
  peak_index_.assign(segments_ + 1, 0);
  peak_load_.assign(segments_, 0);
  diff_.assign(segments_ + 1, 0);
  Context root = RootContext(best, good_enough);
  closed_at_.assign(segments_ + n_, kInf);
  Node(root, 0, 0);
  return FinishRun(root);
}

/// Segments, segment ranges, neighbours, breadths of r_ (current order).
void Search::Prepare() {
  PrepareSegments();
  nbrs_.assign(n_, {});
  ForEachIntersecting([this](std::uint32_t i, std::uint32_t j) {
    nbrs_[i].push_back(j);
    nbrs_[j].push_back(i);
  });
  for (auto& list : nbrs_) std::sort(list.begin(), list.end());
  rem_.assign(segments_, 0);
  for (std::size_t i = 0; i < n_; ++i) {
    for (std::uint32_t s = sa_[i]; s < sb_[i]; ++s) rem_[s] += r_[i].size;
  }
  root_bound_ = 0;
  for (std::uint64_t b : rem_) root_bound_ = std::max(root_bound_, b);
  // Memo keys: every floor is a sum of sizes (tensors rest on tops), so a
  // multiple of their gcd and at most their total; every run of segments
  // is at most their count.
  std::uint64_t total = 0;
  floor_unit_ = 1;
  for (std::size_t i = 0; i < n_; ++i) {
    total = SaturatingAdd(total, r_[i].size);
    floor_unit_ = i == 0 ? r_[i].size : std::gcd(floor_unit_, r_[i].size);
  }
  length_bits_ = static_cast<unsigned>(std::bit_width(segments_));
  const unsigned run_bits =
      std::max(1U, static_cast<unsigned>(std::bit_width(total / floor_unit_)) +
                       length_bits_);
  runs_per_word_ = total == kInf || run_bits > 64 ? 0 : 64 / run_bits;
}

/// Eligible: may still be placed at its skyline at level `low` or later
/// without being lifted first (see the file comment).
bool Search::Eligible(std::uint32_t i, std::uint64_t low) const {
  if (x_[i] != low) return x_[i] > low;
  if (closed_at_[segments_ + i] == low) return false;
  // Tensor branching closes no segments (only excludes tensors).
  if (branching_ == Branching::kTensor) return true;
  for (std::uint32_t s = sa_[i]; s < sb_[i]; ++s) {
    if (closed_at_[s] == low) return false;
  }
  return true;
}

void Search::Place(std::uint32_t i, std::uint64_t at) {
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

void Search::Unplace(std::uint32_t i) {
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

/// Solves the time-disjoint groups live_[mark..] splits into (cut where no
/// unplaced tensor crosses) one after another, as independent contexts.
void Search::Split(Context& ctx, std::size_t mark,
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
    std::uint32_t lo = segments_, hi = 0;
    for (std::uint32_t i : subs[g].members) {
      lo = std::min(lo, sa_[i]);
      hi = std::max(hi, sb_[i]);
    }
    for (std::uint32_t s = lo; s < hi; ++s) {
      if (rem_[s] != 0)
        bound[g] = std::max(bound[g], std::max(floor_[s], low) + rem_[s]);
    }
  }
  SolveGroups(ctx, mark, subs, bound, low, utop,
              [this](Context& sub, std::uint64_t at) { Node(sub, at, 0); });
}

/// Explores the canonical completions of ctx.members whose next offset is
/// >= `low` (the segments closed at `low` stay closed); `utop` is the
/// highest top among members placed so far.
void Search::Node(Context& ctx, std::uint64_t low, std::uint64_t utop) {
  const std::size_t staged = staged_.size();
  const std::size_t closed = closed_log_.size();
  NodeStates(ctx, low, utop);
  ReopenTo(closed);
  CommitStaged(ctx, staged);
}

/// The level of live_[mark..] at `low`: the smallest skyline among eligible
/// tensors (eligible_ filled, parallel to live_[mark..]); kInf when the node
/// has no completion: a dead waiting tensor (nothing left that could lift
/// it), or a dominated one.
std::uint64_t Search::Level(std::size_t mark, std::uint64_t low) {
  return LevelOf(mark,
                 [this, low](std::uint32_t i) { return Eligible(i, low); });
}

/// Appends to staged_keys_ the skyline over the occupied segments of
/// [span_lo, span_hi) (their count follows from the unplaced set),
/// run-length coded: runs_per_word_ runs of equal floors a word, each
/// (floor / unit) << length_bits_ | length in a slot of 64 / runs_per_word_
/// bits, the last word holding the rest in its low bits (a run's length is
/// > 0, so the unused high bits, all zero, code no run); or two words a run,
/// floor and length, when one does not fit in a word.
void Search::AppendSkylineKey(std::uint32_t span_lo, std::uint32_t span_hi) {
  std::uint64_t run_floor = 0, run_length = 0, word = 0;
  unsigned in_word = 0;
  auto end_run = [&] {
    if (run_length == 0) return;
    if (runs_per_word_ == 0) {
      staged_keys_.push_back(run_floor);
      staged_keys_.push_back(run_length);
      return;
    }
    const std::uint64_t code =
        (run_floor / floor_unit_) << length_bits_ | run_length;
    // Shifts only when a run takes at most half a word.
    word = in_word == 0 ? code : word << (64 / runs_per_word_) | code;
    if (++in_word == runs_per_word_) {
      staged_keys_.push_back(word);
      in_word = 0;
    }
  };
  for (std::uint32_t s = span_lo; s < span_hi; ++s) {
    if (rem_[s] == 0) continue;
    if (run_length != 0 && floor_[s] == run_floor) {
      ++run_length;
    } else {
      end_run();
      run_floor = floor_[s];
      run_length = 1;
    }
  }
  end_run();
  if (in_word != 0) staged_keys_.push_back(word);
}

/// True when the memo proves this state (level `low`, top `utop`, the
/// unplaced live_[mark..] over [span_lo, span_hi), what is closed or
/// excluded at `low`) has no completion below ctx.best; otherwise its key
/// is staged, to be remembered when the node fails (Node()).
bool Search::MemoFails(const Context& ctx, std::size_t mark, std::uint64_t low,
                       std::uint64_t utop, std::uint32_t span_lo,
                       std::uint32_t span_hi) {
  const std::size_t begin = staged_keys_.size();
  staged_keys_.push_back(low);
  staged_keys_.push_back(utop);
  const std::size_t bits = staged_keys_.size();
  staged_keys_.resize(bits + (n_ + 63) / 64, 0);
  for (std::size_t k = mark; k < live_.size(); ++k) {
    staged_keys_[bits + live_[k] / 64] |= std::uint64_t{1} << (live_[k] % 64);
  }
  AppendSkylineKey(span_lo, span_hi);
  if (branching_ == Branching::kSegment) {
    // Which of those segments are closed at the level, as bits.
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
      if (closed_at_[segments_ + live_[k]] == low) {
        staged_keys_[excluded + live_[k] / 64] |= std::uint64_t{1}
                                                  << (live_[k] % 64);
      }
    }
  }
  return MemoFailsOrStage(ctx, begin);
}

/// True when no completion of live_[mark..] at level m (spanning segments
/// [span_lo, span_hi)) can beat ctx.best: the cheap bound, the memo, then
/// the release-date bound.
bool Search::Prune(const Context& ctx, std::size_t mark, std::uint64_t low,
                   std::uint64_t m, std::uint64_t utop, std::uint32_t span_lo,
                   std::uint32_t span_hi) {
  // Bound, cheap form: max(floor, m) + unplaced bytes per segment.
  std::uint64_t bound = utop;
  for (std::uint32_t s = span_lo; s < span_hi; ++s) {
    if (rem_[s] != 0) bound = std::max(bound, std::max(floor_[s], m) + rem_[s]);
  }
  if (bound >= ctx.best) return true;
  // Memo of states already proven to have no completion below a bound.
  if (techniques_.memo && MemoFails(ctx, mark, low, utop, span_lo, span_hi)) {
    return true;
  }
  // Bound: in every segment s the unplaced tensors alive there stack
  // without overlap, each at or above its own lowest possible offset v
  // (its skyline, or while it cannot start there the lowest top of a
  // neighbour that could still lift it: LiftedRelease). Stacking with
  // such release heights needs at least v + (bytes of the tensors with
  // release >= v) for every v: single-machine makespan with release
  // dates. With v = the smallest release it is max breadth (§5.1).
  return techniques_.release_bound &&
         ReleaseBound(mark, m, span_lo, span_hi, ctx.best) >= ctx.best;
}

/// The open segment of [span_lo, span_hi) at level m with the fewest
/// options (fail first), the tightest (most unplaced bytes) on ties, then
/// the leftmost; span_hi when none is open.
std::uint32_t Search::PickSegment(std::size_t mark, std::uint64_t m,
                                  std::uint32_t span_lo, std::uint32_t span_hi,
                                  std::uint64_t best) {
  for (std::uint32_t s = span_lo; s < span_hi; ++s) lowest_[s] = 0;
  for (std::size_t k = mark; k < live_.size(); ++k) {
    const std::uint32_t i = live_[k];
    if (!eligible_[k - mark] || x_[i] != m) continue;
    for (std::uint32_t s = sa_[i]; s < sb_[i]; ++s) {
      if (floor_[s] == m) ++lowest_[s];
    }
  }
  // A segment with no slack (m + unplaced bytes == best - 1) cannot be
  // closed: the gap would overflow it, so it has one branch fewer.
  for (std::uint32_t s = span_lo; s < span_hi; ++s) {
    if (lowest_[s] != 0 && m + rem_[s] + 1 < best) ++lowest_[s];
  }
  std::uint32_t pick = span_hi;
  for (std::uint32_t s = span_lo; s < span_hi; ++s) {
    if (lowest_[s] == 0) continue;
    if (pick == span_hi || lowest_[s] < lowest_[pick] ||
        (lowest_[s] == lowest_[pick] && rem_[s] > rem_[pick])) {
      pick = s;
    }
  }
  return pick;
}

/// Segment branching at level m: which tensor of live_[mark..] sits on the
/// segment PickSegment chose at offset m, or none (it is closed). Pops
/// live_ to `mark`. False when the node is done.
bool Search::BranchOnSegment(Context& ctx, std::size_t mark, std::uint64_t m,
                             std::uint64_t utop, std::uint32_t span_lo,
                             std::uint32_t span_hi) {
  const std::uint32_t pick = PickSegment(mark, m, span_lo, span_hi, ctx.best);
  const std::size_t cmark = cand_.size();
  for (std::size_t k = mark; k < live_.size(); ++k) {
    const std::uint32_t i = live_[k];
    if (eligible_[k - mark] && x_[i] == m && sa_[i] <= pick && pick < sb_[i]) {
      cand_.push_back(i);
    }
  }
  live_.resize(mark);
  for (std::size_t k = cmark; k < cand_.size(); ++k) {
    if (!PlaceAndSearch(*this, ctx, cand_[k], m, utop)) break;
  }
  cand_.resize(cmark);
  if (ctx.stop || budget_->Exhausted()) return false;
  Close(pick, m);
  return true;
}

/// Branches at level m by the chosen rule. False when the node is done.
bool Search::Branch(Context& ctx, std::size_t mark, std::uint64_t m,
                    std::uint64_t utop, std::uint32_t span_lo,
                    std::uint32_t span_hi) {
  return branching_ == Branching::kTensor
             ? BranchOnTensorOf(*this, ctx, mark, m, utop)
             : BranchOnSegment(ctx, mark, m, utop, span_lo, span_hi);
}

/// Node() without the bookkeeping: one loop iteration per state of this
/// node (the level `low` and the segments closed at it).
void Search::NodeStates(Context& ctx, std::uint64_t low, std::uint64_t utop) {
  NodeLoop(*this, ctx, low, utop);
}

}  // namespace arenaplan::solver
