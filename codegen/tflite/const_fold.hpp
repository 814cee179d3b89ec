// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Constant folding at generation time (step 1 of tflite::FoldModel,
// fold_model.hpp, which plan, records, inspect and compile share): an operator
// of subgraph 0 whose output the generator can compute from what the file
// already fixes is computed here, its output becomes a constant tensor (its
// bytes in a new buffer) and the operator is removed, so the output gets no
// arena record and no kernel call. The rule, operator by operator:
//  - SHAPE: the input's `shape` has no negative dimension (the shape TFLM
//    plans with); output INT32 or INT64;
//  - STRIDED_SLICE: input, begin, end and strides constant (begin/end/
//    strides INT32), no ellipsis_mask, new_axis_mask or offset;
//  - PACK, CONCATENATION: every input constant, of the output's type (int8
//    inputs quantized as the output), no fused activation; PACK's axis is
//    the only output dimension the inputs can be stacked along (PACK's
//    options are not read; several candidates: not folded);
//  - FILL: dims (INT32 or INT64) and value constant, the dims equal to the
//    output's shape, the value of the output's type;
//  - DEQUANTIZE of a FLOAT16 constant to FLOAT32 (the converter's float16
//    weights): each value widened exactly (HalfToFloatBits), so the
//    float32 copy lives in flash (twice the half's bytes) and the output
//    gets no arena record.
// In every case the output must have a static shape whose element count
// is the computed one (at most 1 MiB of data), an element type of static
// size, and must not be a graph output or a variable tensor. Operators
// are visited in order, so a chain (SHAPE -> STRIDED_SLICE -> PACK ->
// FILL) folds whole. Anything else stays for its lowering, which reports
// it as before.
#ifndef ARENAPLAN_CODEGEN_TFLITE_CONST_FOLD_HPP_
#define ARENAPLAN_CODEGEN_TFLITE_CONST_FOLD_HPP_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/tflite/model.hpp"

namespace arenaplan::tflite {

/// One operator computed at generation time.
struct FoldedOperator {
  std::size_t op = 0;       ///< Its index in the file's subgraph 0.
  std::string builtin;      ///< Its builtin name.
  std::int32_t output = 0;  ///< The tensor that became a constant.
};

struct FoldResult {
  /// The model with the folded outputs constant and the folded operators
  /// removed from subgraph 0 (everything else unchanged, tensor indices
  /// included).
  Model model;
  /// In file order.
  std::vector<FoldedOperator> folded;
  /// file_index[k]: the file's index of operator k of `model`.
  std::vector<std::size_t> file_index;
};

/// The IEEE binary32 bits of the binary16 value `half` (its low 16 bits):
/// exact, subnormals included; infinities stay, a NaN keeps sign and
/// payload (moved up 13 bits).
[[nodiscard]] std::uint32_t HalfToFloatBits(std::uint32_t half);

/// Folds subgraph 0 of `model` by the rule above (never throws on a model
/// ReadModel accepted: an operator it cannot fold is left alone).
[[nodiscard]] FoldResult FoldConstants(const Model& model);

/// "operator 2 SHAPE -> tensor 15, operator 3 STRIDED_SLICE -> tensor 16":
/// the folded operators, for messages and generated comments.
[[nodiscard]] std::string FoldedText(const std::vector<FoldedOperator>& f);

}  // namespace arenaplan::tflite

#endif  // ARENAPLAN_CODEGEN_TFLITE_CONST_FOLD_HPP_
