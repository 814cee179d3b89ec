// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// What one operator costs, from the shapes of its tensors alone (no
// kernel, no plan): multiply-accumulates and the bytes of its constant
// inputs. `arenaplan report` shows them per operator. The MAC counts are
// the arithmetic of the layer, not of a kernel: one MAC per product term
// of each output element, padding taps included (as the usual counts of
// published networks do):
//  - CONV_2D: output elements x filter height x filter width x input
//    channels (filter shape [OC, KH, KW, IC]);
//  - DEPTHWISE_CONV_2D: output elements x KH x KW (filter [1, KH, KW, OC]);
//  - FULLY_CONNECTED: output elements x input features (weights
//    [units, features]);
//  - TRANSPOSE_CONV: input elements (the convolution's input, input 2) x
//    KH x KW x output channels (filter [OC, KH, KW, IC]);
//  - BATCH_MATMUL: output elements x the shared dimension (the last of
//    input 0, or its second last with adj_x);
//  - every other operator: 0 (element-wise and data-movement work is not
//    multiply-accumulate).
#ifndef ARENAPLAN_CODEGEN_TFLITE_OP_COST_HPP_
#define ARENAPLAN_CODEGEN_TFLITE_OP_COST_HPP_

#include <cstdint>

#include "codegen/tflite/model.hpp"

namespace arenaplan::tflite {

/// The cost of one operator.
struct OperatorCost {
  /// Multiply-accumulates of one inference (see above); saturates at
  /// 2^64 - 1.
  std::uint64_t macs = 0;
  /// Bytes of the operator's constant inputs (weights, biases, tables) as
  /// stored in the model, each distinct tensor once.
  std::uint64_t constant_bytes = 0;
};

/// The cost of `op` of subgraph 0 of `model`. A tensor index out of range
/// or a shape the formula does not fit (wrong rank, a negative dimension)
/// gives 0 MACs; never throws.
[[nodiscard]] OperatorCost CostOf(const Model& model, const Operator& op);

}  // namespace arenaplan::tflite

#endif  // ARENAPLAN_CODEGEN_TFLITE_OP_COST_HPP_
