// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Plain-text outputs of a plan: JSON and the strategy comparison table
// (the CSV outputs are in csv.hpp).
#ifndef ARENAPLAN_CODEGEN_EMIT_PLAN_TEXT_HPP_
#define ARENAPLAN_CODEGEN_EMIT_PLAN_TEXT_HPP_

#include <span>
#include <string>
#include <string_view>

#include "codegen/planner/planner.hpp"

namespace arenaplan {

/// One JSON object: arena_bytes, lower_bound, naive_bytes, strategy,
/// approach, tensors (count), plan_ms, alignment, operators,
/// offsets_lower_bound, shared_objects_lower_bound, optimal, gap_bytes and,
/// when `with_placements`, the placements array (input order).
[[nodiscard]] std::string PlanJson(const PlanResult& plan,
                                   bool with_placements);

/// `--strategy all`: a table (strategy, arena bytes, arena / lower bound,
/// planning time) or, with `json`, an array of PlanJson summaries.
[[nodiscard]] std::string StrategyTable(std::span<const PlanResult> plans,
                                        bool json);

/// Escapes `s` as the contents of a JSON string (no quotes added).
[[nodiscard]] std::string JsonEscape(std::string_view s);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_EMIT_PLAN_TEXT_HPP_
