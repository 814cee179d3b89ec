// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The allowed-overlap list of a model (UsageProblem::overlaps): for every
// operator of subgraph 0 that `arenaplan compile` lowers to a kernel with an
// overlap contract (kernels/include/arenaplan/kernels/: CONV_2D,
// DEPTHWISE_CONV_2D, AVERAGE_POOL_2D, MAX_POOL_2D, PAD on int8, int16 and
// float32; ADD, SUB, MUL, LEAKY_RELU, LOGISTIC, TANH on the three; DIV,
// MAXIMUM, MINIMUM, RELU, RELU6 on int8 and float32; HARD_SWISH on int8;
// QUANTIZE and DEQUANTIZE between int8, int16 and float32; RESHAPE on
// int8), the pairs (input record, output record) the kernel tolerates
// overlapping, with the contract's relation and distance, in bytes (an
// int16 or float32 kernel's element distance times its element size).
//
// A pair is listed only when
//  - the input is read for the last time by that operator (its record's
//    last_op is the operator) and its bytes hold no graph output under any
//    name (tflite::HoldsGraphOutput: a folded RESHAPE of it may be one),
//    and the output is
//    created there (its record's first_op is the operator); both are planned
//    records (not constant, not variable, not scratch), distinct tensors;
//  - the operator passes the checks of its lowering in codegen/compile/
//    that decide which kernel runs and on what geometry: int8 per-tensor
//    activations (or int16 / float32 tensors where listed above), at most 4 positive dimensions, 4-D NHWC for the 2-D
//    operators, positive strides, filter sizes and dilations, a constant
//    int8 filter of the right shape, the output shape the padding gives
//    (for the 2-D operators tflite::CheckConv / CheckPool of
//    codegen/tflite/geometry.hpp, the very check the lowering uses),
//    equal shapes for ADD, equal element counts for QUANTIZE and RESHAPE,
//    equal quantization in and out for pooling, a clamp activation. The
//    value checks the lowering adds (requantization multipliers in range,
//    biases of the right length, activation bounds that quantize) are not
//    repeated: a model failing them is not compiled at all;
//  - for kOutputBelowBy, the distance is below the output's size (at the
//    output's size the two are simply disjoint: no pair).
// `distance` is in raw bytes, NOT rounded to any alignment: like the
// records' sizes (see InputOptions), the planner rounds it up to the plan's
// alignment (any larger distance is also safe, kernels/overlap.hpp).
// RESHAPE gives kAlias (distance 0); the element-wise ADD and QUANTIZE give
// kOutputBelowBy with distance 0 (in place or further below).
#ifndef ARENAPLAN_CODEGEN_OVERLAP_OVERLAP_PAIRS_HPP_
#define ARENAPLAN_CODEGEN_OVERLAP_OVERLAP_PAIRS_HPP_

#include <vector>

#include "codegen/records.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan::overlap {

/// The allowed-overlap list of `problem` (BuildProblem of `model`), in
/// operator order, then input order (ADD: input 0 before input 1). Record
/// indices refer to problem.problem.records. Never throws for a model
/// BuildProblem accepted: an operator the kernels cannot run simply gives
/// no pair.
[[nodiscard]] std::vector<OverlapPair> FindOverlapPairs(
    const tflite::Model& model, const tflite::TfliteProblem& problem);

}  // namespace arenaplan::overlap

#endif  // ARENAPLAN_CODEGEN_OVERLAP_OVERLAP_PAIRS_HPP_
