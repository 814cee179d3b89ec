// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Brute-force optima for tiny instances (at most kMaxExhaustiveRecords
// tensors), for both of the paper's approaches. Test-only, header-only, and
// deliberately independent of every strategy and of the exact solver in
// codegen/solver/: it includes nothing from them and shares no placement
// code, so agreeing with it is evidence, not tautology.
//
// Offset Calculation (§5): the minimum, over all n! orders, of the arena the
// "lowest fit" placement gives: take the tensors in that order and put each at
// the lowest offset where it shares no byte with an already placed tensor
// whose usage interval intersects its own.
//
// Why this is the exact optimum. Every lowest-fit plan is a valid plan, so the
// minimum is >= the optimum. Conversely take any optimal plan with offsets
// o_1 <= o_2 <= ... <= o_n (renumbered by offset, ties in any order) and run
// lowest fit in that order, giving offsets p_1, p_2, .... By induction
// p_k <= o_k: when tensor k is placed, every earlier tensor j that
// intersects it in time satisfies o_j + size_j <= o_k (the optimal plan is
// valid and o_j <= o_k), hence p_j + size_j <= o_j + size_j <= o_k, so o_k is
// a feasible offset for k among the tensors already placed, and the lowest
// feasible offset p_k is at most o_k. So this order's lowest-fit arena
// max(p_k + size_k) <= max(o_k + size_k) = the optimum. The lowest feasible
// offset is always 0 or the top (offset + size) of a placed, time-
// intersecting tensor, so only those candidates are tried.
//
// Shared Objects (§4): every set partition of the tensors (Bell(8) = 4,140
// for 8 tensors) whose blocks hold pairwise time-disjoint tensors; the cost
// of a partition is the sum over blocks of the largest size in the block
// (the object must hold each of its tensors); the minimum cost is the
// optimum by definition.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_EXHAUSTIVE_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_EXHAUSTIVE_HPP_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "codegen/records.hpp"

namespace arenaplan::testing {

/// Largest instance the exhaustive searches accept (8! = 40,320 orders).
inline constexpr std::size_t kMaxExhaustiveRecords = 8;

namespace exhaustive_detail {

/// Inclusive usage intervals intersect (written out here rather than calling
/// TensorUsageRecord::Intersects, to stay independent).
inline bool Live(const TensorUsageRecord& a, const TensorUsageRecord& b) {
  return !(a.last_op < b.first_op || b.last_op < a.first_op);
}

struct OffsetsSearch {
  std::span<const TensorUsageRecord> r;
  std::array<std::uint64_t, kMaxExhaustiveRecords> offset{};
  std::array<bool, kMaxExhaustiveRecords> placed{};
  std::array<std::uint64_t, kMaxExhaustiveRecords> best_offset{};
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();

  /// Lowest byte offset at which tensor t fits among the placed tensors.
  std::uint64_t LowestFit(std::size_t t) const {
    std::uint64_t lowest = std::numeric_limits<std::uint64_t>::max();
    for (std::size_t c = 0; c <= r.size(); ++c) {
      // Candidate c == r.size() is offset 0; otherwise the top of tensor c.
      std::uint64_t cand = 0;
      if (c < r.size()) {
        if (!placed[c] || !Live(r[c], r[t])) continue;
        cand = offset[c] + r[c].size;
      }
      if (cand >= lowest) continue;
      bool clash = false;
      for (std::size_t j = 0; j < r.size() && !clash; ++j) {
        if (!placed[j] || !Live(r[j], r[t])) continue;
        // [cand, cand+size_t) and [offset_j, offset_j+size_j) share a byte.
        clash = cand < offset[j] + r[j].size && offset[j] < cand + r[t].size;
      }
      if (!clash) lowest = cand;
    }
    return lowest;
  }

  /// Depth-first over every order (prefixes shared). `arena` is the top of
  /// the placed tensors; branches that already reach `best` cannot improve
  /// it (the arena only grows as tensors are added), so they are cut.
  void Run(std::size_t depth, std::uint64_t arena) {
    if (arena >= best) return;
    if (depth == r.size()) {
      best = arena;
      best_offset = offset;
      return;
    }
    for (std::size_t t = 0; t < r.size(); ++t) {
      if (placed[t]) continue;
      offset[t] = LowestFit(t);
      placed[t] = true;
      Run(depth + 1, std::max(arena, offset[t] + r[t].size));
      placed[t] = false;
    }
  }
};

}  // namespace exhaustive_detail

/// The minimum Offset Calculation arena in bytes for `records` (at most
/// kMaxExhaustiveRecords; sizes may be 0). If `offsets` is not null it
/// receives one optimal plan (byte offsets indexed like `records`).
/// Throws std::invalid_argument for larger instances.
inline std::uint64_t ExhaustiveOffsetsOptimum(
    std::span<const TensorUsageRecord> records,
    std::vector<std::uint64_t>* offsets = nullptr) {
  if (records.size() > kMaxExhaustiveRecords) {
    throw std::invalid_argument("ExhaustiveOffsetsOptimum: too many records");
  }
  exhaustive_detail::OffsetsSearch search;
  search.r = records;
  if (records.empty()) {
    search.best = 0;
  } else {
    search.Run(0, 0);
  }
  if (offsets != nullptr) {
    offsets->assign(search.best_offset.begin(),
                    search.best_offset.begin() + records.size());
  }
  return search.best;
}

/// The minimum Shared Objects footprint in bytes (sum of object sizes) for
/// `records` (at most kMaxExhaustiveRecords). If `object_of` is not null it
/// receives one optimal assignment (object index per record, objects
/// numbered from 0 in order of their first record).
/// Throws std::invalid_argument for larger instances.
inline std::uint64_t ExhaustiveSharedObjectsOptimum(
    std::span<const TensorUsageRecord> records,
    std::vector<std::size_t>* object_of = nullptr) {
  const std::size_t n = records.size();
  if (n > kMaxExhaustiveRecords) {
    throw std::invalid_argument(
        "ExhaustiveSharedObjectsOptimum: too many records");
  }
  if (object_of != nullptr) object_of->assign(n, 0);
  if (n == 0) return 0;
  // Restricted growth strings a[0..n): a[0] = 0, a[i] <= 1 + max(a[0..i)).
  // Each string is exactly one set partition.
  std::vector<std::size_t> a(n, 0);
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  while (true) {
    bool ok = true;
    for (std::size_t i = 0; i < n && ok; ++i) {
      for (std::size_t j = i + 1; j < n && ok; ++j) {
        ok = a[i] != a[j] || !exhaustive_detail::Live(records[i], records[j]);
      }
    }
    if (ok) {
      std::vector<std::uint64_t> block_max(n, 0);
      for (std::size_t i = 0; i < n; ++i) {
        block_max[a[i]] = std::max(block_max[a[i]], records[i].size);
      }
      std::uint64_t cost = 0;
      for (std::uint64_t m : block_max) cost += m;
      if (cost < best) {
        best = cost;
        if (object_of != nullptr) *object_of = a;
      }
    }
    // Next restricted growth string, lexicographically.
    std::size_t i = n - 1;
    while (i > 0) {
      std::size_t prefix_max = 0;
      for (std::size_t k = 0; k < i; ++k)
        prefix_max = std::max(prefix_max, a[k]);
      if (a[i] <= prefix_max) {
        ++a[i];
        std::fill(a.begin() + static_cast<std::ptrdiff_t>(i) + 1, a.end(), 0);
        break;
      }
      --i;
    }
    if (i == 0) break;
  }
  return best;
}

}  // namespace arenaplan::testing

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_EXHAUSTIVE_HPP_
