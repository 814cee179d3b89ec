// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The firmware header: a self-contained C++17 header with the plan as
// constexpr constants, one named tensor id per planned tensor, and a
// static_assert that core's constexpr validator accepts the plan.
#ifndef ARENAPLAN_CODEGEN_EMIT_HEADER_HPP_
#define ARENAPLAN_CODEGEN_EMIT_HEADER_HPP_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/planner/planner.hpp"
#include "codegen/records.hpp"

namespace arenaplan {

struct HeaderOptions {
  /// C++ namespace of the constants; nested names with "::" are allowed
  /// (C++17 nested namespace definition).
  std::string namespace_name = "arenaplan_model";
  /// The input as the comment names it (e.g. the file's base name).
  std::string input_name;
  /// SHA-256 of the input file's bytes, 64 lowercase hex digits ("" when
  /// the input is not a file, e.g. "zoo:NAME").
  std::string input_sha256;
  /// Exact byte size of every record before rounding to the alignment,
  /// indexed like plan.problem.records. Empty: use the rounded sizes. Typed
  /// access derives element counts from these.
  std::vector<std::uint64_t> tensor_bytes;
};

/// The header text for `plan`. Deterministic: the same plan and options give
/// byte-identical text. Throws InputError ("--namespace 'NAME': why") for
/// a namespace NamespaceProblem refuses, and InternalError when the
/// plan's vectors disagree in length or tensor_bytes exceed planned sizes.
[[nodiscard]] std::string EmitHeader(const PlanResult& plan,
                                     const HeaderOptions& options);

/// The C++ identifier of every record's tensor id constant, indexed like
/// problem.records: "k" + the name's alphanumeric words in CamelCase (the
/// trailing words only, when the name is long; the part before the first
/// ';' of a TFLite fused name), "kTensor" + the id when there is no name,
/// made unique with "_<index>" (and never one of the header's own names).
[[nodiscard]] std::vector<std::string> TensorIdentifiers(
    const UsageProblem& problem);

/// True when `name` can be the namespace of generated code
/// (NamespaceProblem in codegen/emit/cpp_text.hpp returns "").
[[nodiscard]] bool IsValidNamespace(std::string_view name);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_EMIT_HEADER_HPP_
