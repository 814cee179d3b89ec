// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The time-independent components of an Offset Calculation input: cut
// where no earlier tensor is still alive, so each is planned on its own and
// the arena is the largest of theirs.
#ifndef ARENAPLAN_CODEGEN_SOLVER_COMPONENTS_HPP_
#define ARENAPLAN_CODEGEN_SOLVER_COMPONENTS_HPP_

#include <cstdint>
#include <span>
#include <vector>

#include "codegen/records.hpp"
#include "codegen/solver/budget.hpp"

namespace arenaplan::solver {

/// One time-independent component of the input and what is known of it.
struct Component {
  std::vector<std::uint32_t> ids;  ///< input indices, by first_op then index
  std::vector<TensorUsageRecord> records;  ///< records[k] = input[ids[k]]
  std::uint64_t bound = 0;                 ///< proven lower bound, bytes
  std::uint64_t value = kInf;              ///< best arena known (kInf: none)
  std::vector<std::uint64_t> offsets;      ///< of that plan, indexed like ids
  bool proven = false;      ///< value is this component's optimum
  bool infeasible = false;  ///< proven: nothing below the start
};

/// Splits the records of size > 0 into components, ordered by their first
/// operator: a new one starts at a tensor whose first_op is after every
/// earlier tensor's last_op. With `split` false, all of them form one
/// component (same order). Zero-size records belong to none.
[[nodiscard]] std::vector<Component> SplitIntoComponents(
    std::span<const TensorUsageRecord> records, bool split = true);

}  // namespace arenaplan::solver

#endif  // ARENAPLAN_CODEGEN_SOLVER_COMPONENTS_HPP_
