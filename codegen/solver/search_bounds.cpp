// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The search's release-date bound (search.hpp, "Pruning"): the unplaced
// tensors of each segment stack above their lowest possible offsets, which
// bounds the arena like one machine with release dates.
#include <algorithm>
#include <array>
#include <numeric>

#include "codegen/solver/search.hpp"

namespace arenaplan::solver {

/// The release-height bound of the live tensors live_[mark..] at level m
/// over segments [span_lo, span_hi) (see NodeStates), or a smaller value
/// when it is below `best` anyway: the result is >= best exactly when the
/// bound is, and the computation stops as soon as it reaches best.
std::uint64_t Search::ReleaseBound(std::size_t mark, std::uint64_t m,
                                   std::uint32_t span_lo, std::uint32_t span_hi,
                                   std::uint64_t best) {
  // Only peak segments need the sum: those where an unplaced tensor ends
  // with another started since the previous end (the maximal cliques of
  // the interval graph). Every other segment's unplaced tensors are a
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
  // Every release is >= m, and v = m gives m + unplaced bytes, which the
  // cheap bound already covers: only releases > m can add.
  release_.clear();
  for (std::size_t k = mark; k < live_.size(); ++k) {
    const std::uint32_t i = live_[k];
    const std::uint64_t v = eligible_[k - mark]           ? x_[i]
                            : techniques_.lifted_releases ? LiftedRelease(i, m)
                                                          : m + 1;
    if (v > m) release_.emplace_back(v, i);
  }
  // A release >= best - 1 reaches best by itself (sizes are > 0).
  release_groups_.Build(release_, best - 1);
  // Tensors are added highest release first, a whole group of equal
  // releases v at a time: the bound is the max over v of v + the most
  // bytes with release >= v stacked in one peak. Peaks a group does not
  // touch gave a larger term already (same bytes, higher release), so
  // only the peaks between the group's first and last need the max. Each
  // group adds its sizes to its peaks with a difference array (diff_, all
  // zero between calls): two entries per tensor and one pass over the
  // group's peaks, instead of a pass over every tensor's peaks.
  std::uint64_t bound = 0;
  std::size_t k = 0;
  for (const auto& [v, end] : release_groups_.Groups()) {
    std::uint32_t lo = peaks, hi = 0;
    for (; k < end; ++k) {
      const std::uint32_t i = release_groups_.Tensors()[k];
      const std::uint32_t a = peak_index_[sa_[i]], b = peak_index_[sb_[i]];
      diff_[a] += r_[i].size;  // modulo 2^64; every running sum is exact
      diff_[b] -= r_[i].size;
      lo = std::min(lo, a);
      hi = std::max(hi, b);
    }
    std::uint64_t run = 0, stacked = 0;
    for (std::uint32_t p = lo; p < hi; ++p) {
      run += diff_[p];
      diff_[p] = 0;
      peak_load_[p] += run;
      stacked = std::max(stacked, peak_load_[p]);
    }
    if (lo < hi) diff_[hi] = 0;
    bound = std::max(bound, SaturatingAdd(v, stacked));
    if (bound >= best) break;
  }
  return bound;
}

void ReleaseGroups::Build(
    std::vector<std::pair<std::uint64_t, std::uint32_t>>& releases,
    std::uint64_t cap) {
  tensors_.clear();
  groups_.clear();
  // Usually few distinct releases (skyline heights of a few runs): find
  // them, sort them, and place each tensor in its group (counting sort).
  std::array<std::uint64_t, kFew> values{};
  std::array<std::uint32_t, kFew> count{};
  std::size_t distinct = 0, last = 0;
  group_.clear();
  for (const auto& [release, i] : releases) {
    const std::uint64_t v = std::min(release, cap);
    if (distinct == 0 || values[last] != v) {
      last = 0;
      while (last < distinct && values[last] != v) ++last;
      if (last == distinct) {
        if (distinct == kFew) break;
        values[distinct++] = v;
      }
    }
    ++count[last];
    group_.push_back(static_cast<std::uint8_t>(last));
  }
  if (group_.size() == releases.size()) {
    std::array<std::uint8_t, kFew> by_value{};
    std::iota(by_value.begin(), by_value.begin() + distinct, std::uint8_t{0});
    std::sort(
        by_value.begin(), by_value.begin() + distinct,
        [&](std::uint8_t a, std::uint8_t b) { return values[a] > values[b]; });
    // first[g]: where group g's next tensor goes.
    std::array<std::size_t, kFew> first{};
    std::size_t end = 0;
    for (std::size_t r = 0; r < distinct; ++r) {
      first[by_value[r]] = end;
      end += count[by_value[r]];
      groups_.emplace_back(values[by_value[r]], end);
    }
    tensors_.resize(releases.size());
    for (std::size_t k = 0; k < releases.size(); ++k) {
      tensors_[first[group_[k]]++] = releases[k].second;
    }
    return;
  }
  // Many distinct releases: sort them all.
  for (auto& entry : releases) entry.first = std::min(entry.first, cap);
  std::sort(releases.begin(), releases.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [v, i] : releases) {
    if (groups_.empty() || groups_.back().first != v) {
      groups_.emplace_back(v, tensors_.size());
    }
    tensors_.push_back(i);
    groups_.back().second = tensors_.size();
  }
}

/// Lowest offset a tensor that cannot start at its skyline (it waits
/// below the level `m`, or is closed or excluded at it) may still get.
/// It will rest on a tensor placed later that intersects it in time (the
/// tensors placed so far end at or below its skyline, which is <= m), and
/// every later placement is at the level or above, at or above its own
/// skyline: so its offset is at least the least max(x_j, m) + size_j over
/// its unplaced neighbours j. kInf when none is left (a dead tensor).
std::uint64_t Search::LiftedRelease(std::uint32_t i, std::uint64_t m) const {
  std::uint64_t v = kInf;
  for (std::uint32_t j : nbrs_[i]) {
    if (!placed_[j])
      v = std::min(v, SaturatingAdd(std::max(x_[j], m), r_[j].size));
  }
  return v;
}

}  // namespace arenaplan::solver
