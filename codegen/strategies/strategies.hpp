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

// The strategies' function types. A declaration below such as
// `OffsetsStrategy OffsetsGreedyBySize;` declares the function
// `OffsetsAssignment OffsetsGreedyBySize(std::span<const TensorUsageRecord>)`;
// each file defines its function with the full signature.
using OffsetsStrategy =
    OffsetsAssignment(std::span<const TensorUsageRecord> records);
using OffsetsOverlapStrategy =
    OffsetsAssignment(std::span<const TensorUsageRecord> records,
                      std::span<const OverlapPair> overlaps);
using SharedObjectsStrategy =
    SharedObjectsAssignment(std::span<const TensorUsageRecord> records);
using SharedObjectsCappedStrategy = SharedObjectsAssignment(
    std::span<const TensorUsageRecord> records, std::uint64_t cap);

// --- Offset Calculation (§5) ---

/// Greedy by Size (Alg. 3, §5.2): largest first, smallest fitting gap.
OffsetsStrategy OffsetsGreedyBySize;
/// Greedy by Breadth (§5.3): operators by breadth, their tensors by size.
OffsetsStrategy OffsetsGreedyByBreadth;
/// Prior work Greedy (Lee et al. 2019): execution order, best-fit gap.
OffsetsStrategy OffsetsGreedyInOrder;
/// Prior work Strip Packing Best-fit (Sekiyama et al. 2018).
OffsetsStrategy OffsetsStripPackingBestFit;
/// Baseline: every tensor its own bytes.
OffsetsStrategy OffsetsNaive;

// --- Offset Calculation with allowed overlaps (docs/overlap.md) ---
// The same strategies, placing a record whose overlap partner is already
// placed by offset_gaps::GapPlacer's overlap rule. With no pairs each gives
// its plain counterpart's offsets. Naive has none (its plans share no
// byte, so they are valid with any pairs).

/// Greedy by Size with allowed overlaps.
OffsetsOverlapStrategy OffsetsGreedyBySizeOverlap;
/// Greedy by Breadth with allowed overlaps.
OffsetsOverlapStrategy OffsetsGreedyByBreadthOverlap;
/// Greedy in execution order with allowed overlaps.
OffsetsOverlapStrategy OffsetsGreedyInOrderOverlap;
/// Strip packing's placement order, each record placed by GapPlacer with
/// the pairs; the smaller of that and the plain strip packing.
OffsetsOverlapStrategy OffsetsStripPackingBestFitOverlap;

// --- Shared Objects (§4) ---

/// Greedy by Size Improved (§4.4).
SharedObjectsStrategy SharedObjectsGreedyBySizeImproved;
/// Greedy by Size (Alg. 2, §4.3).
SharedObjectsStrategy SharedObjectsGreedyBySize;
/// Greedy by Breadth (Alg. 1, §4.2).
SharedObjectsStrategy SharedObjectsGreedyByBreadth;
/// Prior work Greedy (Lee et al. 2019): execution order, free-object pool.
SharedObjectsStrategy SharedObjectsGreedyInOrder;
/// Prior work Min-cost Flow (Lee et al. 2019).
SharedObjectsStrategy SharedObjectsMinCostFlow;
/// Baseline: one object per tensor.
SharedObjectsStrategy SharedObjectsNaive;

// --- The same Shared Objects strategies with an explicit work cap ---
// Each function above that is quadratic on dense inputs is the one below
// with cap = HeuristicWorkCap(records.size()) (common/work_cap.hpp). With
// cap = UINT64_MAX the result is the paper's rule throughout; with a smaller
// cap the strategy switches to the bounded rule stated in its file once the
// cap is spent, and sets capped_after. For tests and benchmarks.

SharedObjectsCappedStrategy SharedObjectsGreedyBySizeImprovedWithCap;
SharedObjectsCappedStrategy SharedObjectsGreedyBySizeWithCap;
SharedObjectsCappedStrategy SharedObjectsGreedyByBreadthWithCap;
SharedObjectsCappedStrategy SharedObjectsMinCostFlowWithCap;

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_STRATEGIES_STRATEGIES_HPP_
