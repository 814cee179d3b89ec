// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The one small interface every memory-planning strategy implements:
// tensor usage records in, an assignment out. One strategy per file under
// codegen/strategies/ (declared in codegen/strategies/strategies.hpp);
// codegen/strategies/registry.cpp lists them, the exact search included.
#ifndef ARENAPLAN_CODEGEN_STRATEGIES_STRATEGY_HPP_
#define ARENAPLAN_CODEGEN_STRATEGIES_STRATEGY_HPP_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "codegen/records.hpp"
#include "codegen/solver/exact.hpp"

namespace arenaplan {

/// The paper's two ways of sharing memory.
enum class Approach : std::uint8_t {
  kOffsets,        ///< Offset Calculation (§5): one block, a byte offset each.
  kSharedObjects,  ///< Shared Objects (§4): tensors assigned to buffers.
};

/// "offsets" or "shared-objects" (the CLI's and the outputs' spelling).
[[nodiscard]] std::string_view ApproachName(Approach approach);

/// The approach spelled `name` as ApproachName spells it, or nullopt.
[[nodiscard]] std::optional<Approach> ApproachFromName(std::string_view name);

/// Offset Calculation result. offsets[i] is the byte offset of records[i];
/// the arena is max(offsets[i] + records[i].size).
struct OffsetsAssignment {
  std::vector<std::uint64_t> offsets;
  /// SIZE_MAX when the strategy's rule placed every record. Otherwise its
  /// work cap (codegen/strategies/common/work_cap.hpp) was spent after this
  /// many records, and the rest were placed by its bounded rule.
  std::size_t capped_after = SIZE_MAX;
};

/// Shared Objects result. object_of[i] is the index of the shared object
/// records[i] is assigned to; object_sizes[k] is object k's size in bytes
/// (at least the size of every tensor assigned to it). The footprint is the
/// sum of object_sizes.
struct SharedObjectsAssignment {
  std::vector<std::size_t> object_of;
  std::vector<std::uint64_t> object_sizes;
  /// As OffsetsAssignment::capped_after: SIZE_MAX when the work cap was
  /// never reached, else the tensors assigned by the paper's rule first.
  std::size_t capped_after = SIZE_MAX;
};

/// Strategies see only records with size > 0, all sizes already rounded up
/// to the plan's alignment (so sums of sizes are aligned offsets). They must
/// be deterministic: the same records give the same assignment.
using OffsetsStrategyFn =
    OffsetsAssignment (*)(std::span<const TensorUsageRecord> records);
using SharedObjectsStrategyFn =
    SharedObjectsAssignment (*)(std::span<const TensorUsageRecord> records);
/// Offset Calculation with allowed overlaps: the records as above and the
/// pairs (indices into `records`, distances rounded up to the plan's
/// alignment). Two records may share bytes only as a pair allows
/// (validator.hpp's overlap-aware ValidateOffsets).
using OffsetsOverlapFn =
    OffsetsAssignment (*)(std::span<const TensorUsageRecord> records,
                          std::span<const OverlapPair> overlaps);
/// An exact search (Offset Calculation): same records, plus a time limit, a
/// capacity and the best heuristic plan to start from (ExactOptions); it
/// returns a plan only when it beats or proves something about that start.
using OffsetsSearchFn = ExactResult (*)(
    std::span<const TensorUsageRecord> records, const ExactOptions& options);

/// A heuristic runs once on the records; a search starts from the best
/// heuristic plan of its approach and improves on it or proves it optimal.
enum class StrategyKind : std::uint8_t { kHeuristic, kSearch };

/// One registry entry (codegen/strategies/registry.cpp, written with
/// designated initializers). A heuristic sets exactly one of `offsets` and
/// `shared_objects`, matching `approach` (and `offsets_overlap` optionally);
/// a search sets `search` only. The planner runs a search from the best
/// heuristic plan of its approach; `best` runs the heuristics and then the
/// search.
struct StrategyInfo {
  std::string_view name;  ///< CLI name, e.g. "greedy-by-size".
  Approach approach = Approach::kOffsets;
  StrategyKind kind = StrategyKind::kHeuristic;
  /// One line: the rule and where it is published (the paper's algorithm
  /// and section, or the prior work it comes from).
  std::string_view reference;
  OffsetsStrategyFn offsets = nullptr;
  /// Offsets heuristics only: the same strategy with allowed overlaps, or
  /// nullptr (then the planner runs `offsets`, whose plan shares no byte).
  OffsetsOverlapFn offsets_overlap = nullptr;
  SharedObjectsStrategyFn shared_objects = nullptr;
  OffsetsSearchFn search = nullptr;
  /// Largest instance (records) the strategy is meant for; `all`/`best` skip
  /// it above this (e.g. O(n^3) min-cost flow). 0 = no limit.
  std::size_t max_records = 0;

  /// True for a heuristic (one pass, no starting plan), false for a search.
  [[nodiscard]] bool IsHeuristic() const {
    return kind == StrategyKind::kHeuristic;
  }
};

/// Every registered strategy, heuristics first (in the order tables print
/// them), then the searches.
[[nodiscard]] std::span<const StrategyInfo> AllStrategies();

/// The strategy named `name` for `approach`, or nullptr.
[[nodiscard]] const StrategyInfo* FindStrategy(Approach approach,
                                               std::string_view name);

/// The first registered search of `approach` (what `best` refines with), or
/// nullptr when the approach has none.
[[nodiscard]] const StrategyInfo* FindSearch(Approach approach);

/// Places shared objects contiguously, in object index order (§5: "The
/// solution of Shared Objects problem can be converted to the solution of
/// Offset Calculation problem by placing the shared objects contiguously").
[[nodiscard]] OffsetsAssignment ObjectsToOffsets(
    const SharedObjectsAssignment& objects);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_STRATEGIES_STRATEGY_HPP_
