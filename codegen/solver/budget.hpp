// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Stop conditions shared by every run of one SolveOffsetsExactly call: the
// wall-clock safety cap, the deterministic work budget, and the node budget
// of the current restart run (codegen/solver/portfolio.hpp).
#ifndef ARENAPLAN_CODEGEN_SOLVER_BUDGET_HPP_
#define ARENAPLAN_CODEGEN_SOLVER_BUDGET_HPP_

#include <chrono>
#include <cstdint>
#include <limits>

#include "codegen/base/saturating.hpp"

namespace arenaplan::solver {

inline constexpr std::uint64_t kInf = std::numeric_limits<std::uint64_t>::max();

/// Counts search nodes and decides when a run or the whole search stops.
/// Only `deadline` depends on the clock, and it is read once every
/// kClockEvery nodes, so the search never depends on it otherwise.
struct Budget {
  /// The clock is read once per this many nodes (a power of two).
  static constexpr std::uint64_t kClockEvery = 4096;

  std::chrono::steady_clock::time_point deadline =
      std::chrono::steady_clock::time_point::max();
  std::uint64_t node_limit = 0;  ///< nodes of the whole search; 0 = none
  /// Work units of the whole search (0 = none): a node costs 1 + the number
  /// of tensors of the sub-problem it scans, so the budget tracks time on
  /// large instances too, yet never depends on the clock.
  std::uint64_t work_limit = 0;
  std::uint64_t run_end = kInf;  ///< node count at which the current run ends
  std::uint64_t nodes = 0;       ///< nodes expanded so far
  std::uint64_t work = 0;        ///< work units spent so far
  bool timed_out = false;
  bool out_of_nodes = false;  ///< node_limit or work_limit reached
  bool run_over = false;

  [[nodiscard]] bool Finished() const { return timed_out || out_of_nodes; }
  [[nodiscard]] bool Exhausted() const { return Finished() || run_over; }

  /// Counts one node scanning `scanned` tensors; returns false when the
  /// search must stop.
  bool Tick(std::uint64_t scanned = 0) {
    ++nodes;
    work += 1 + scanned;
    if (node_limit != 0 && nodes >= node_limit) out_of_nodes = true;
    if (work_limit != 0 && work >= work_limit) out_of_nodes = true;
    if ((nodes & (kClockEvery - 1)) == 0 &&
        std::chrono::steady_clock::now() >= deadline) {
      timed_out = true;
    }
    if (nodes >= run_end) run_over = true;
    return !Exhausted();
  }
};

}  // namespace arenaplan::solver

#endif  // ARENAPLAN_CODEGEN_SOLVER_BUDGET_HPP_
