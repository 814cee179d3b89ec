// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The per-operator profile of a compiled model (`make run ... PROFILE=1`).
// Invoke() holds one ARENAPLAN_PROFILE_MARK(s) line as step s starts (a
// step: one operator, or one fused segment) and ARENAPLAN_PROFILE_MARK(N)
// at its end. The model source defines the macro as a call of
// ::arenaplan::profile::Mark(s) (core/include/arenaplan/profile.hpp, the
// port's counter) when ARENAPLAN_PROFILE is defined, else as nothing: the
// code without ARENAPLAN_PROFILE is token for token the code without the
// lines, so unprofiled images do not change. The model header's table of
// the steps (operator names, constant and live bytes) is compiled only
// under ARENAPLAN_PROFILE too.
#ifndef ARENAPLAN_CODEGEN_COMPILE_PROFILE_HPP_
#define ARENAPLAN_CODEGEN_COMPILE_PROFILE_HPP_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/fuse/fuse.hpp"
#include "codegen/records.hpp"
#include "codegen/tflite/model.hpp"

namespace arenaplan::compile {

/// One step of Invoke(): an operator, or a fused segment of several.
struct ProfileStep {
  /// The file's indices of its first and last operator (both included).
  std::size_t first_operator = 0;
  std::size_t last_operator = 0;
  /// The operators' builtin names in order, joined by '+' (untrusted
  /// bytes: the table passes them through StringLiteral).
  std::string operators;
  /// Bytes of the constant arrays (flash) its lowering emitted; an array
  /// two steps read is counted in the first.
  std::uint64_t constant_bytes = 0;
  /// Sum of the sizes, as planned (rounded up to the plan's alignment), of
  /// the plan's records alive at the step (an overlapped pair counted
  /// twice).
  std::uint64_t live_bytes = 0;
};

/// The steps of the lowered model `sg`: one per operator, or per step of
/// `fused` when not null. `file_index[k]` is the file's index of operator
/// k (identity when empty); `constants_before[k]` the constant bytes
/// emitted before operator k was lowered, with one more entry, the total;
/// `planned` the problem the arena was planned for (steps as above).
[[nodiscard]] std::vector<ProfileStep> ProfileSteps(
    const tflite::Subgraph& sg, const std::vector<std::size_t>& file_index,
    const std::vector<std::uint64_t>& constants_before,
    const UsageProblem& planned, const fuse::FusePlan* fused);

/// The model source's definition of ARENAPLAN_PROFILE_MARK (after its
/// #includes).
[[nodiscard]] std::string ProfileMacroText();

/// `body` (Invoke()'s body) with "  ARENAPLAN_PROFILE_MARK(s)" after the
/// comment line that opens step s ("  // operator K: " or "  // operators
/// A .. B: ", counted in order) and ARENAPLAN_PROFILE_MARK(step_count) at
/// the end. InternalError unless `body` opens exactly `step_count` steps.
[[nodiscard]] std::string WithProfileMarks(const std::string& body,
                                           std::size_t step_count);

/// The model header's profile table (kProfileSteps), inside
/// #ifdef ARENAPLAN_PROFILE.
[[nodiscard]] std::string ProfileTableText(
    const std::vector<ProfileStep>& steps);

}  // namespace arenaplan::compile

#endif  // ARENAPLAN_CODEGEN_COMPILE_PROFILE_HPP_
