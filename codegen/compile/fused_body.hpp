// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `compile --fuse` (docs/fuse.md): Invoke()'s body with every fused segment
// of a fuse::FusePlan run by k::RunResolved (kernels/fused.hpp). The operators
// are lowered as always (constants, requantization, checks); the calls of
// a segment's operators are then read back (kernel name and arguments) and
// turned into the segment's k::FusedOp table, so the kernels, parameters
// and constants are exactly those of the unfused build.
#ifndef ARENAPLAN_CODEGEN_COMPILE_FUSED_BODY_HPP_
#define ARENAPLAN_CODEGEN_COMPILE_FUSED_BODY_HPP_

#include <string>

#include "codegen/fuse/fuse.hpp"
#include "codegen/tflite/model.hpp"

namespace arenaplan::compile {

/// Replaces, in `body` (Lowerer::Body(): one "  // operator K: NAME" block
/// per operator), the blocks of every segment of `plan` by one block
/// running it. Records are indices of plan.problem (kPlan's order). Each
/// block also holds static_asserts that kPlan gives every ring at least
/// its bytes and places the output at least the segment's distance below
/// each input it may overlap (or clear of it), so an edited header that
/// shrinks a ring or moves the output into live input rows does not
/// compile. Throws InputError when an operator of a segment was lowered to
/// a kernel the fused executor does not run.
[[nodiscard]] std::string FuseBody(const std::string& body,
                                   const fuse::FusePlan& plan,
                                   const tflite::Model& model,
                                   const std::string& path);

}  // namespace arenaplan::compile

#endif  // ARENAPLAN_CODEGEN_COMPILE_FUSED_BODY_HPP_
