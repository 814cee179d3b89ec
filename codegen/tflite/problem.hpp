// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// From a TFLite model to tensor usage records, with TensorFlow Lite Micro's
// lifetime rules (so the arena planned here is the non-persistent arena a
// TFLM firmware needs for the same tensors):
//  - subgraph 0 only; operator k runs at step k (file order);
//  - planned: tensors with no constant data, not variable, non-zero size and
//    touched by the graph (a graph input/output or an operator's
//    input/output);
//  - graph inputs live from step 0, graph outputs until the last step, an
//    operator's output from its step, an input until the last operator that
//    reads it, an output nobody reads for its own step; input index -1
//    (optional input left out) is skipped; a graph output that no operator
//    writes, under any of its names, lives from step 0;
//  - size = product(shape) x element size, unaligned (the planner rounds);
//  - a folded model (codegen/tflite/fold.hpp): folded operators touch
//    nothing; an alias tensor has no record. An alias and the tensor it
//    lives in (its home) are one buffer with one lifetime: from the first
//    write under any of its names to the last read under any of them, graph
//    outputs included (HomeOf, HoldsGraphOutput below). So a folded RESHAPE
//    that is a graph output keeps its home alive to the end but not from
//    step 0 when an operator makes the home.
#ifndef ARENAPLAN_CODEGEN_TFLITE_PROBLEM_HPP_
#define ARENAPLAN_CODEGEN_TFLITE_PROBLEM_HPP_

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/input/input.hpp"
#include "codegen/records.hpp"
#include "codegen/tflite/model.hpp"

namespace arenaplan::tflite {

/// Why a tensor of subgraph 0 is or is not in the plan.
enum class TensorRole : std::uint8_t {
  kPlanned,   ///< In the plan.
  kConstant,  ///< Has constant data in its buffer (lives in the model).
  kVariable,  ///< is_variable: persistent, counted in persistent_bytes.
  kEmpty,     ///< Zero bytes (a dimension is 0).
  kUnused,    ///< No operator and no graph input/output touches it.
  /// Folded (codegen/tflite/fold.hpp): lives inside the planned tensor
  /// Tensor::alias_of, whose record covers its lifetime; no record.
  kAlias,
};

[[nodiscard]] const char* TensorRoleName(TensorRole role);

/// One tensor of subgraph 0 as the planner sees it.
struct TensorLifetime {
  TensorRole role = TensorRole::kUnused;
  /// Bytes, unaligned: product of the (resolved) shape x element size.
  /// 0 when not computed (constants whose type has no static size).
  std::uint64_t bytes = 0;
  /// Inclusive operator steps (planned tensors only; else both -1).
  std::int64_t first_op = -1;
  std::int64_t last_op = -1;
};

/// A model turned into a planning problem.
struct TfliteProblem {
  /// records / ids / names as LoadTfliteProblem returns them: planned tensors
  /// in tensor index order (id = tensor index), then --scratch buffers in
  /// the order given (id "scratch<K>", K counting from 0; name
  /// "scratch of operator <OP> <BUILTIN>").
  UsageProblem problem;
  /// Tensor index of every record (-1 for scratch buffers).
  std::vector<std::int32_t> record_tensor;
  /// Every tensor of subgraph 0, by tensor index.
  std::vector<TensorLifetime> tensors;
  /// Tensors of all subgraphs (the length TFLM's offline plan must have).
  std::size_t total_tensor_count = 0;
  /// One line per thing that is not in the plan although TFLM may need
  /// memory for it (tensors of subgraphs other than 0).
  std::vector<std::string> not_planned;
};

/// Computes lifetimes and sizes. Sizes come from `shape`, as in TFLM, when
/// it is fully known, whatever shape_signature says; problem.warnings then
/// gets one line naming the first tensor whose signature is dynamic.
/// options.assume_dim replaces every -1 instead (see TensorBytes). Throws
/// InputError "SOURCE: subgraph 0: tensor T: what" for a -1 in `shape`
/// without options.assume_dim, types without a static element size,
/// negative dimensions, byte sizes that overflow 64 bits, and bad --scratch
/// operators.
[[nodiscard]] TfliteProblem BuildProblem(const Model& model,
                                         const InputOptions& options);

/// The tensor whose bytes hold tensor `t` of `graph`: Tensor::alias_of for a
/// folded alias (codegen/tflite/fold.hpp), else `t`. `t` must be a valid
/// index.
[[nodiscard]] std::int32_t HomeOf(const Subgraph& graph, std::int32_t t);

/// Whether the buffer holding tensor `t` (its home, HomeOf) also holds a
/// graph output of `graph`: `t`, its home or any alias of its home is in
/// graph.outputs. A buffer that does must keep its bytes to the end of
/// Invoke(): nothing may be written over it (overlap pairs, fused rings).
[[nodiscard]] bool HoldsGraphOutput(const Subgraph& graph, std::int32_t t);

/// The resolved byte size of `tensor` (see BuildProblem for the errors;
/// `place` prefixes them).
[[nodiscard]] std::uint64_t TensorBytes(const Tensor& tensor,
                                        const InputOptions& options,
                                        const std::string& place);

}  // namespace arenaplan::tflite

#endif  // ARENAPLAN_CODEGEN_TFLITE_PROBLEM_HPP_
