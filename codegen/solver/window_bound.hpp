// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Lower bounds above max breadth from short windows of time. Restrict the
// input to a window of consecutive segments: keep the tensors alive in it,
// each clipped to the window. Every plan of the whole input, restricted to
// those tensors, is a plan of the window instance (clipping only removes
// overlaps), so the window's optimum is a lower bound of the whole. A
// window of one or two segments never needs more than its max breadth; from
// three segments on, tensors that cross the window's middle split the room
// left at its ends into gaps, and indivisible tensors may not fit them. The
// window instances are small, so the exact search can refute arenas there
// that it cannot refute on the whole input.
#ifndef ARENAPLAN_CODEGEN_SOLVER_WINDOW_BOUND_HPP_
#define ARENAPLAN_CODEGEN_SOLVER_WINDOW_BOUND_HPP_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "codegen/records.hpp"

namespace arenaplan {

struct WindowBoundOptions {
  /// Windows of min_segments .. max_segments consecutive segments.
  std::size_t min_segments = 3;
  std::size_t max_segments = 8;
  /// Only windows whose max breadth is at least this fraction (per mille)
  /// of the bound so far are tried.
  std::uint32_t breadth_permille = 980;
  /// Node limit of each exact search on a window (deterministic).
  std::uint64_t nodes_per_search = 4000;
  /// Total node limit over all windows (0 = none).
  std::uint64_t total_nodes = 4'000'000;
};

struct WindowBound {
  /// Proven: every plan of the input has arena >= bound (bytes); at least
  /// the `known` bound passed in.
  std::uint64_t bound = 0;
  /// The window (segment range [first, end)) that proved it; equal when
  /// none raised the bound.
  std::size_t first_segment = 0;
  std::size_t end_segment = 0;
  std::uint64_t nodes = 0;
  std::size_t windows_tried = 0;
  /// Windows where the search neither found a plan within the bound so far
  /// nor refuted it within its node limit.
  std::size_t windows_undecided = 0;
};

/// The records of `records` alive in segments [first, end) of `time`,
/// clipped to the window; operators renumbered to segment indices from 0.
[[nodiscard]] std::vector<TensorUsageRecord> WindowInstance(
    std::span<const TensorUsageRecord> records, const TimeSegments& time,
    std::size_t first, std::size_t end);

/// Raises `known` (a proven lower bound in bytes, e.g. max breadth) by
/// refuting arenas on window instances. Deterministic (node limits only).
[[nodiscard]] WindowBound WindowLowerBound(
    std::span<const TensorUsageRecord> records, std::uint64_t known,
    const WindowBoundOptions& options = {});

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_SOLVER_WINDOW_BOUND_HPP_
