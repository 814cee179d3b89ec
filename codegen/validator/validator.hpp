// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The host validator: checks a plan knowing nothing of how it was made
// (shares no code with the strategies). Returns the same ValidationResult
// values as core's constexpr arenaplan::validate().
#ifndef ARENAPLAN_CODEGEN_VALIDATOR_VALIDATOR_HPP_
#define ARENAPLAN_CODEGEN_VALIDATOR_VALIDATOR_HPP_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include "arenaplan/plan.hpp"
#include "codegen/records.hpp"

namespace arenaplan {

inline constexpr std::size_t kNoRecord =
    std::numeric_limits<std::size_t>::max();

/// The verdict and, when it is not kOk, the record(s) at fault.
struct ValidationReport {
  ValidationResult result = ValidationResult::kOk;
  std::size_t first = kNoRecord;   ///< Index of the offending record.
  std::size_t second = kNoRecord;  ///< The other record of an overlap/conflict.
  [[nodiscard]] bool ok() const { return result == ValidationResult::kOk; }
};

/// Offset Calculation: every record has an offset (offsets.size() ==
/// records.size()), each a multiple of `alignment`, each tensor inside
/// [0, arena_bytes), and no two records whose inclusive usage intervals
/// intersect share a byte. Zero-size records occupy no byte.
/// Sweep over time with the live tensors ordered by offset: O(n log n).
[[nodiscard]] ValidationReport ValidateOffsets(
    std::span<const TensorUsageRecord> records,
    std::span<const std::uint64_t> offsets, std::uint64_t arena_bytes,
    std::uint64_t alignment);

/// ValidateOffsets() with the usage records' allowed-overlap list: every
/// pair must be well formed (kBadOverlapPermit, first = the pair's index:
/// indices inside `records` and distinct, records[input].last_op == op ==
/// records[output].first_op, a known relation), and two records alive at a
/// common operator may share a byte only when a pair of `overlaps` for
/// those two holds at their offsets (kOverlap otherwise).
/// Same sweep, O((n + p) log n) for p pairs: an input whose pair is used
/// (the two share bytes) leaves the sweep one operator early and is then
/// checked at its last operator against everything alive there except its
/// partners.
[[nodiscard]] ValidationReport ValidateOffsets(
    std::span<const TensorUsageRecord> records,
    std::span<const std::uint64_t> offsets, std::uint64_t arena_bytes,
    std::uint64_t alignment, std::span<const OverlapPair> overlaps);

/// Shared Objects: every non-zero-size record has an object index below
/// object_sizes.size() (zero-size records may have -1), no object is smaller
/// than a record assigned to it, and no two records whose usage intervals
/// intersect share an object.
[[nodiscard]] ValidationReport ValidateSharedObjects(
    std::span<const TensorUsageRecord> records,
    std::span<const std::int64_t> object_of,
    std::span<const std::uint64_t> object_sizes);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_VALIDATOR_VALIDATOR_HPP_
