// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Every strategy, one declaration each (one definition a file in this
// folder; the exact search in codegen/solver/exact.hpp). registry.cpp lists
// them with their names; tests call them directly through this header.
// Helpers shared by several strategies live in codegen/strategies/common/.
// Every function takes records with size > 0, sizes already rounded to the
// plan's alignment, and returns one entry per record, in record order.
#ifndef ARENAPLAN_CODEGEN_STRATEGIES_STRATEGIES_HPP_
#define ARENAPLAN_CODEGEN_STRATEGIES_STRATEGIES_HPP_

#include <cstdint>
#include <span>

#include "codegen/records.hpp"
#include "codegen/solver/exact.hpp"  // SolveOffsetsExactly, the exact search
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {

// --- Offset Calculation (§5) ---

/// Greedy by Size (Alg. 3, §5.2): largest first, smallest fitting gap.
OffsetsAssignment OffsetsGreedyBySize(
    std::span<const TensorUsageRecord> records);
/// Greedy by Breadth (§5.3): operators by breadth, their tensors by size.
OffsetsAssignment OffsetsGreedyByBreadth(
    std::span<const TensorUsageRecord> records);
/// Prior work Greedy (Lee et al. 2019): execution order, best-fit gap.
OffsetsAssignment OffsetsGreedyInOrder(
    std::span<const TensorUsageRecord> records);
/// Prior work Strip Packing Best-fit (Sekiyama et al. 2018).
OffsetsAssignment OffsetsStripPackingBestFit(
    std::span<const TensorUsageRecord> records);
/// Baseline: every tensor its own bytes.
OffsetsAssignment OffsetsNaive(std::span<const TensorUsageRecord> records);

// --- Offset Calculation with allowed overlaps (docs/overlap.md) ---
// The same strategies, placing a record whose overlap partner is already
// placed by offset_gaps::GapPlacer's overlap rule. With no pairs each gives
// its plain counterpart's offsets. Strip packing and naive have none (their
// plans share no byte, so they are valid with any pairs).

/// Greedy by Size with allowed overlaps.
OffsetsAssignment OffsetsGreedyBySizeOverlap(
    std::span<const TensorUsageRecord> records,
    std::span<const OverlapPair> overlaps);
/// Greedy by Breadth with allowed overlaps.
OffsetsAssignment OffsetsGreedyByBreadthOverlap(
    std::span<const TensorUsageRecord> records,
    std::span<const OverlapPair> overlaps);
/// Greedy in execution order with allowed overlaps.
OffsetsAssignment OffsetsGreedyInOrderOverlap(
    std::span<const TensorUsageRecord> records,
    std::span<const OverlapPair> overlaps);

// --- Shared Objects (§4) ---

/// Greedy by Size Improved (§4.4).
SharedObjectsAssignment SharedObjectsGreedyBySizeImproved(
    std::span<const TensorUsageRecord> records);
/// Greedy by Size (Alg. 2, §4.3).
SharedObjectsAssignment SharedObjectsGreedyBySize(
    std::span<const TensorUsageRecord> records);
/// Greedy by Breadth (Alg. 1, §4.2).
SharedObjectsAssignment SharedObjectsGreedyByBreadth(
    std::span<const TensorUsageRecord> records);
/// Prior work Greedy (Lee et al. 2019): execution order, free-object pool.
SharedObjectsAssignment SharedObjectsGreedyInOrder(
    std::span<const TensorUsageRecord> records);
/// Prior work Min-cost Flow (Lee et al. 2019).
SharedObjectsAssignment SharedObjectsMinCostFlow(
    std::span<const TensorUsageRecord> records);
/// Baseline: one object per tensor.
SharedObjectsAssignment SharedObjectsNaive(
    std::span<const TensorUsageRecord> records);

// --- The same Shared Objects strategies with an explicit work cap ---
// Each function above that is quadratic on dense inputs is the one below
// with cap = HeuristicWorkCap(records.size()) (common/work_cap.hpp). With
// cap = UINT64_MAX the result is the paper's rule throughout; with a smaller
// cap the strategy switches to the bounded rule stated in its file once the
// cap is spent, and sets capped_after. For tests and benchmarks.

SharedObjectsAssignment SharedObjectsGreedyBySizeImprovedWithCap(
    std::span<const TensorUsageRecord> records, std::uint64_t cap);
SharedObjectsAssignment SharedObjectsGreedyBySizeWithCap(
    std::span<const TensorUsageRecord> records, std::uint64_t cap);
SharedObjectsAssignment SharedObjectsGreedyByBreadthWithCap(
    std::span<const TensorUsageRecord> records, std::uint64_t cap);
SharedObjectsAssignment SharedObjectsMinCostFlowWithCap(
    std::span<const TensorUsageRecord> records, std::uint64_t cap);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_STRATEGIES_STRATEGIES_HPP_
