// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `arenaplan report`: one self-contained HTML page per model (no script,
// style sheet, font or image loaded from anywhere: everything is inline)
// for a firmware engineer to read and to show. It holds the model summary
// (operators, MACs, flash of constants, the arena of each planning mode),
// the plan drawing (EmitSvg: tensors named on hover), a table with one row
// per operator of the file (shapes, MACs, constant bytes, bytes live in the
// arena at its step, what folding, overlap or fusion did to it, and the
// instructions of a profile when one is given) and the live bytes over
// operator time as a chart. Every name from the model goes through XmlText.
// The figures are computed by the caller (codegen/cli/report_command.cpp)
// with the same functions `plan --json`, `inspect` and `compile` use.
#ifndef ARENAPLAN_CODEGEN_EMIT_REPORT_HPP_
#define ARENAPLAN_CODEGEN_EMIT_REPORT_HPP_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace arenaplan {

/// One operator of the model file (one table row).
struct ReportOperator {
  std::size_t index = 0;  ///< In the file's subgraph 0.
  std::string builtin;    ///< Builtin name (or the custom code).
  std::string inputs;     ///< Shapes and types of its tensor inputs.
  std::string outputs;    ///< Shapes and types of its outputs.
  std::uint64_t macs = 0;
  std::uint64_t constant_bytes = 0;  ///< Its constant inputs' bytes.
  /// Bytes of the tensors alive in the arena at its step (the default
  /// plan's records, sizes aligned); none for an operator computed at
  /// generation time.
  std::optional<std::uint64_t> live_bytes;
  /// What generation did to it ("", "folded: ...", "overlap: ...",
  /// "fused: ..."; several joined by "; ").
  std::string applied;
  /// Instructions (or cycles) of one inference from a profile.
  std::optional<std::uint64_t> instructions;
};

/// One planning mode's arena.
struct ReportArena {
  std::string mode;  ///< e.g. "arenaplan --overlap".
  std::optional<std::uint64_t> bytes;
  std::string note;  ///< Why there is no figure, or what it includes.
};

struct Report {
  std::string model;   ///< The file's base name.
  std::string sha256;  ///< Of the file's bytes.
  std::size_t file_operators = 0;
  std::uint64_t macs = 0;                 ///< Sum over the operators.
  std::uint64_t constant_bytes = 0;       ///< Every constant tensor, once.
  std::uint64_t parameters = 0;           ///< Elements of the constants.
  std::vector<ReportArena> arenas;        ///< Default plan first.
  std::string plan_svg;                   ///< EmitSvg of the default plan.
  std::vector<ReportOperator> operators;  ///< In file order.
  /// The profile's whole-inference count, when a profile is given.
  std::optional<std::uint64_t> profile_total;
  std::string profile_unit = "instructions";
};

/// The page (UTF-8, deterministic for the same report).
[[nodiscard]] std::string EmitReportHtml(const Report& report);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_EMIT_REPORT_HPP_
