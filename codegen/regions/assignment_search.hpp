// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The exact assignment search of PlanRegions (docs/regions.md): branch and
// bound over the region of every sized tensor, with the fit check of
// region_fit.hpp. For codegen/regions/ only.
#ifndef ARENAPLAN_CODEGEN_REGIONS_ASSIGNMENT_SEARCH_HPP_
#define ARENAPLAN_CODEGEN_REGIONS_ASSIGNMENT_SEARCH_HPP_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "codegen/regions/region_fit.hpp"

namespace arenaplan::region_assign {

/// Branch and bound over assignments of the sized records (densest first):
/// a node's bound is the traffic x rank of the records assigned so far plus,
/// for each record left, its traffic x the rank of the fastest region not
/// smaller than it (no completion costs less); a node is cut when its bound
/// reaches the best, or when a region's records
/// no longer fit (breadth bound, then the heuristics; see docs/regions.md
/// for what "fit" means here). Returns the best assignment found (starting
/// from `incumbent`, which may be empty) and whether the search finished.
struct ExactAssignment {
  std::vector<std::uint32_t> region_of;
  std::uint64_t cost = std::numeric_limits<std::uint64_t>::max();
  bool complete = false;
};

class AssignmentSearch {
 public:
  /// `max_nodes`: the search stops after this many nodes (deterministic);
  /// `first_only`: it stops at the first assignment that fits; `seconds`:
  /// wall-clock cap (ClampTimeLimit).
  AssignmentSearch(Context& ctx, const std::vector<std::uint64_t>& traffic,
                   std::vector<std::size_t> order, double seconds,
                   std::uint64_t max_nodes = kNoNodeLimit,
                   bool first_only = false);

  static constexpr std::uint64_t kNoNodeLimit =
      std::numeric_limits<std::uint64_t>::max();

  [[nodiscard]] ExactAssignment Run(
      const std::vector<std::uint32_t>& incumbent);

 private:
  void Descend(std::size_t depth, std::uint64_t cost);

  Context& ctx_;
  const std::vector<std::uint64_t>& traffic_;
  std::vector<std::size_t> order_;
  std::chrono::steady_clock::time_point deadline_;
  std::uint64_t max_nodes_;
  bool first_only_;
  std::vector<std::vector<std::size_t>> members_;
  std::vector<std::uint32_t> current_;
  /// Lower bound of the cost of the records not yet assigned, by depth.
  std::vector<std::uint64_t> rest_;
  ExactAssignment best_;
  std::uint64_t nodes_ = 0;
  bool stopped_ = false;
};

}  // namespace arenaplan::region_assign

#endif  // ARENAPLAN_CODEGEN_REGIONS_ASSIGNMENT_SEARCH_HPP_
