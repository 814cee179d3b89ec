// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The one folding path every sub-command that plans or compiles a model
// takes (`plan MODEL`, `plan --fuse`, `records`, `inspect`, `compile`):
// reader -> FoldModel -> BuildProblem. It runs, in this order,
//  1. constant folding (const_fold.hpp): operators whose outputs the file
//     fixes (SHAPE, STRIDED_SLICE, PACK, CONCATENATION, FILL of constants)
//     are computed here and removed from subgraph 0; their outputs become
//     constants (no record);
//  2. graph folding (fold.hpp): PAD into its consumer, in-place
//     CONCATENATION, RESHAPE aliases, on what step 1 left.
// Both run only when InputOptions::fold is set (`--no-fold` clears it) and
// not under --fp32 (sizes are then not the tensors' bytes), so `--no-fold`
// plans and compiles the graph exactly as the file has it. `arenaplan tflm`
// does not take this path: TensorFlow Lite Micro runs every operator of the
// model it is handed (SHAPE included), so its plan is of the file's graph.
#ifndef ARENAPLAN_CODEGEN_TFLITE_FOLD_MODEL_HPP_
#define ARENAPLAN_CODEGEN_TFLITE_FOLD_MODEL_HPP_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "codegen/input/input.hpp"
#include "codegen/tflite/const_fold.hpp"
#include "codegen/tflite/fold.hpp"
#include "codegen/tflite/model.hpp"

namespace arenaplan::tflite {

/// A model as the generator plans it.
struct FoldedModel {
  /// The model after both folds (tensor indices are the file's; operator k
  /// is the file's operator file_index[k]; its step in the plan is k).
  Model model;
  /// Operators computed at generation time, in file order (step 1).
  std::vector<FoldedOperator> constants;
  /// file_index[k]: the file's index of operator k of `model`.
  std::vector<std::size_t> file_index;
  /// What graph folding (step 2) removed; those operators keep their step
  /// (Operator::folded set) and touch no tensor.
  FoldReport graph;
  /// Operators of the file's subgraph 0.
  std::size_t file_operator_count = 0;

  /// The step of the file's operator `op`, or -1 when it was computed at
  /// generation time (or is out of range).
  [[nodiscard]] std::int64_t StepOf(std::size_t op) const;
};

/// Folds `file_model` by the two steps above when options.fold and not
/// options.fp32; else `model` is a copy and file_index the identity. Never
/// throws for a model ReadModel accepted.
[[nodiscard]] FoldedModel FoldModel(const Model& file_model,
                                    const InputOptions& options);

/// `options` for BuildProblem on `folded.model`: each --scratch OP (a file
/// operator index, as the user wrote it) becomes that operator's step.
/// Throws InputError "SOURCE: --scratch OP: ..." for an operator computed at
/// generation time; an index past the file's operators is kept as it is
/// (BuildProblem reports it).
[[nodiscard]] InputOptions StepOptions(const FoldedModel& folded,
                                       const InputOptions& options);

}  // namespace arenaplan::tflite

#endif  // ARENAPLAN_CODEGEN_TFLITE_FOLD_MODEL_HPP_
