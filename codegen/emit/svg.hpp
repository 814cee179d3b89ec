// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// A picture of a plan: operators along x, arena offsets along y, one
// rectangle per tensor over its usage interval and byte range.
#ifndef ARENAPLAN_CODEGEN_EMIT_SVG_HPP_
#define ARENAPLAN_CODEGEN_EMIT_SVG_HPP_

#include <string>

#include "codegen/planner/planner.hpp"

namespace arenaplan {

/// A standalone SVG 1.1 document for `plan`. Operator k occupies column k
/// (tensors span columns first_op .. last_op, both included); offset 0 is at
/// the bottom. Every tensor of non-zero size is a rectangle labelled with
/// its name and size where the label fits, and always carries a <title>
/// tooltip (name, id, size, offset, operators). A dashed line marks the
/// lower bound, a solid one the arena size; the title states arena, lower
/// bound and naive total. Deterministic. Throws InternalError when the
/// plan's offsets do not match its records.
[[nodiscard]] std::string EmitSvg(const PlanResult& plan);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_EMIT_SVG_HPP_
