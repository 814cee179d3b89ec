// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// A picture of a plan: operators along x, arena offsets along y, one
// rectangle per tensor over its usage interval and byte range.
#ifndef ARENAPLAN_CODEGEN_EMIT_SVG_HPP_
#define ARENAPLAN_CODEGEN_EMIT_SVG_HPP_

#include <cstdint>
#include <string>
#include <vector>

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

/// What `plan --fuse` adds to the picture (docs/fuse.md): each fused
/// segment's step with its label (e.g. "segment: operators 0-9"), and
/// which records are rings (indices into the plan's records).
struct SvgSegments {
  std::vector<std::uint32_t> steps;
  std::vector<std::string> labels;  ///< One per step.
  std::vector<std::uint32_t> rings;
};

/// EmitSvg, with every segment's column drawn as a labelled band behind the
/// tensors and every ring cross-hatched with a dashed outline, and a legend
/// line. Throws InternalError for a step or ring outside the plan.
[[nodiscard]] std::string EmitSvg(const PlanResult& plan,
                                  const SvgSegments& segments);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_EMIT_SVG_HPP_
