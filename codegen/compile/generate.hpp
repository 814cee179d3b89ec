// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Ahead-of-time compilation of an int8 TFLite model for firmware: the plan
// header (codegen/emit/header.hpp), every constant tensor the kernels read
// as a const array (flash), per-channel requantization parameters computed
// here on the host, and Invoke(): the operator sequence as straight-line
// calls into arenaplan's kernels (kernels/include), each tensor addressed at
// its planned arena offset. No interpreter, no heap, no run-time planning.
#ifndef ARENAPLAN_CODEGEN_COMPILE_GENERATE_HPP_
#define ARENAPLAN_CODEGEN_COMPILE_GENERATE_HPP_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codegen/input/input.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/regions/regions.hpp"
#include "codegen/tflite/const_fold.hpp"
#include "codegen/tflite/fold.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/trace/schedule.hpp"

namespace arenaplan::compile {

struct CompileOptions {
  /// C++ namespace of everything generated (a valid namespace path).
  std::string namespace_name = "model";
  /// File name stem: files are STEM_arena.hpp, STEM_model.hpp and
  /// STEM_model.cpp. Empty: the namespace with "::" replaced by "_".
  std::string file_stem;
  PlanOptions plan;
  /// How the model becomes records (e.g. --assume-dim for a dynamic batch
  /// dimension); --scratch and --fp32 do not apply to compiled models
  /// (the kernels' own scratch is planned: codegen/scratch/).
  InputOptions input;
  /// SHA-256 of the model file's bytes (64 lowercase hex digits) for the
  /// generated comments; empty: computed from the file at `path`.
  std::string input_sha256;
  /// Memory regions, fastest first (docs/regions.md). Two or more: the
  /// plan across them, its header, and Invoke() addressing every tensor in
  /// its region (its `arena` argument unused). Zero or one: as without.
  std::vector<RegionSpec> regions;
  RegionSearch region_search = RegionSearch::kGreedy;
  /// --fuse: run the segments fuse::PlanFusion chooses row by row
  /// (docs/fuse.md), planned with their rings and overlap pairs; implies
  /// the single operators' overlap pairs too. Excludes regions.
  bool fuse = false;
};

/// The generated files' contents (nothing is written here).
struct CompiledModel {
  std::string arena_header_name;  ///< "STEM_arena.hpp"
  std::string arena_header;
  std::string model_header_name;  ///< "STEM_model.hpp"
  std::string model_header;
  std::string model_source_name;  ///< "STEM_model.cpp"
  std::string model_source;
  PlanResult plan;
  std::uint64_t constant_bytes = 0;  ///< Bytes of const arrays emitted.
  /// Operators computed at generation time (codegen/tflite/const_fold.hpp),
  /// in file order; their outputs are constants, not in `plan`.
  std::vector<tflite::FoldedOperator> folded;
  /// Operators of the file's subgraph 0; `plan.problem.operator_count`
  /// (kOperatorCount) is this less `folded.size()`.
  std::size_t file_operator_count = 0;
  /// Operators graph folding removed (codegen/tflite/fold.hpp): they keep
  /// their step in kOperatorCount and run no code.
  tflite::FoldReport graph_folded;
  /// With two or more regions: the plan across them (`plan` then holds
  /// the aligned problem, strategy "regions" and the regions' total bytes).
  std::optional<RegionPlan> region_plan;
  /// Invoke()'s schedule as the trace check saw it (it passed):
  /// codegen/compile/trace_schedule.hpp.
  trace::Schedule schedule;
};

/// Compiles subgraph 0 of `model` (read from `path`). Throws InputError
/// "PATH: operator K (NAME): what" for an operator, option or tensor type
/// the kernels do not support, before anything is generated. Every
/// compile ends with the whole-model trace check (codegen/trace/check.hpp)
/// of its schedule: a schedule that fails it throws InternalError "PATH:
/// trace check failed (RESULT): operator K (NAME): ..." naming the tensor
/// and the byte range, and nothing is returned.
[[nodiscard]] CompiledModel CompileModel(const tflite::Model& model,
                                         const std::string& path,
                                         const CompileOptions& options);

/// Lowers every operator of subgraph 0 of `model` as it stands (no folding,
/// no plan: each tensor and kernel scratch record at offset 0), discarding
/// the code. Throws InputError as CompileModel does when an operator, option
/// or tensor type is not supported; returns normally otherwise.
void CheckLowers(const tflite::Model& model, const std::string& path);

}  // namespace arenaplan::compile

#endif  // ARENAPLAN_CODEGEN_COMPILE_GENERATE_HPP_
