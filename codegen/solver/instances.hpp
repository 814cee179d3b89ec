// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Seeded Offset Calculation instances whose optimum is known by
// construction, and transformations that keep the optimum, for testing and
// benchmarking the exact search on classes it was not tuned on; and dense
// random lifetimes, the hostile case of the heuristics (issue 17).
#ifndef ARENAPLAN_CODEGEN_SOLVER_INSTANCES_HPP_
#define ARENAPLAN_CODEGEN_SOLVER_INSTANCES_HPP_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "codegen/records.hpp"

namespace arenaplan {

/// How the rectangle is cut into buffers.
enum class PackingCut {
  /// Guillotine: repeatedly cut a random piece (chosen with probability
  /// proportional to its area) in two, across time or across bytes.
  kGuillotine,
  /// Horizontal strips of random heights, each cut across time at random
  /// points (many buffers share a height).
  kStrips,
  /// Strips of one height (width / strips), each cut across time: many
  /// buffers of the same size.
  kEqualSizes,
  /// A tenth of the buffers are small (one alignment unit high) and live
  /// for about half of the operators or more; the rest is a guillotine cut.
  kLongLivedSmall,
};

/// A rectangle of `width` bytes x `operators` operators cut into `buffers`
/// rectangles; each becomes a record {first_op, last_op (inclusive), size}.
/// Every operator's buffers fill the width exactly, so max operator breadth
/// = width and the pieces' own positions are a plan of arena `width`: the
/// optimum is exactly `width` and every operator is tight.
struct PerfectPackingParams {
  std::uint64_t width = 1 << 20;   ///< W, bytes (a multiple of `align`)
  std::uint32_t operators = 1000;  ///< T
  std::size_t buffers = 100;       ///< wanted count (fewer if W, T too small)
  std::uint64_t align = 16;        ///< byte cuts at multiples of this
  PackingCut cut = PackingCut::kGuillotine;
  /// Guillotine: probability (per mille) that a cut is across time.
  std::uint32_t time_cut_permille = 500;
};

/// The records of one perfect packing; the same params and seed give the
/// same records on every platform (own integer arithmetic, no std
/// distributions). `offsets` (if not null) receives the construction's plan.
[[nodiscard]] std::vector<TensorUsageRecord> GeneratePerfectPacking(
    const PerfectPackingParams& params, std::uint64_t seed,
    std::vector<std::uint64_t>* offsets = nullptr);

/// The same records with time reversed (operator t -> last - t): same
/// optimum.
[[nodiscard]] std::vector<TensorUsageRecord> ReverseTime(
    std::span<const TensorUsageRecord> records);

/// The same records in a seeded random order: same optimum.
[[nodiscard]] std::vector<TensorUsageRecord> PermuteRecords(
    std::span<const TensorUsageRecord> records, std::uint64_t seed);

/// Dense random lifetimes: n tensors over n operators, each usage interval
/// [first_op, last_op] (both ends included) from two operator indices drawn
/// uniformly, so about a third of all tensors are alive at a typical
/// operator; sizes uniform in 16 .. 1 MiB, multiples of 16 (so equal sizes
/// occur). Unlike the generators above it draws with std::mt19937_64 and
/// std distributions, so its records are the same for one standard library.
[[nodiscard]] std::vector<TensorUsageRecord> GenerateDenseLifetimes(
    std::size_t n, std::uint64_t seed);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_SOLVER_INSTANCES_HPP_
