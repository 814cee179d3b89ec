// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// float32 element-wise operators, as TensorFlow Lite Micro runs them:
//
//   ADD, SUB, MUL, DIV (reference Add / Sub / Mul / Div and their
//   Broadcast*Slow forms): out = Activate(a OP b), one IEEE operation
//   rounded to float (a division by zero gives an infinity or a NaN),
//   then the fused activation's float bounds (activation.hpp).
//   MAXIMUM, MINIMUM (maximum_minimum.h's MaximumOp / MinimumOp): out =
//   a > b ? a : b, a < b ? a : b; no activation. A NaN in b is the result
//   unless a wins the comparison; a NaN in a loses every comparison, so
//   b is the result. max(-0.0, 0.0) is b (they compare equal).
//   The five broadcast NumPy-style over at most 4 dimensions through
//   broadcast.hpp's walk.
//   RELU (activations_common.cc ReluFloat): out = x < 0.0f ? 0.0f : x, no
//   upper bound (+infinity stays, -0.0 stays -0.0, a NaN passes).
//   RELU6 (activations_common.cc Relu6Float): out = x > 6.0f ? 6.0f :
//   x < 0.0f ? 0.0f : x (+infinity becomes 6, -0.0 stays, a NaN passes).
//
// Loop order: output elements in row-major order, each written after its
// operands are read (RELU, RELU6: element i of the input, then element i
// of the output). Overlap contract (overlap.hpp, ElementwiseOverlapDistance
// with 4-byte elements in and out): d = 0, in place, for RELU's and
// RELU6's input and for an input of the five broadcasting operators that
// has the output's shape (its element i is read for output element i);
// none for a broadcast input, which is re-read after later writes.
#ifndef ARENAPLAN_KERNELS_FLOAT_ELEMENTWISE_HPP_
#define ARENAPLAN_KERNELS_FLOAT_ELEMENTWISE_HPP_

#include <cstdint>

#include "arenaplan/kernels/broadcast.hpp"
#include "arenaplan/kernels/float/activation.hpp"

namespace arenaplan::kernels::f32 {

/// The shape walk of a broadcasting two-input operator (MAXIMUM, MINIMUM).
struct BroadcastParams {
  Shape4 output;                          ///< NHWC.
  std::int32_t a_stride[4], b_stride[4];  ///< Elements, per output dim.
};

/// ADD, SUB, MUL, DIV: the fused activation's clamp and the walk.
struct ArithmeticParams {
  ActivationRange act;                    ///< The fused activation's clamp.
  Shape4 output;                          ///< NHWC.
  std::int32_t a_stride[4], b_stride[4];  ///< Elements, per output dim.
};
using AddParams = ArithmeticParams;
using SubParams = ArithmeticParams;
using MulParams = ArithmeticParams;
using DivParams = ArithmeticParams;

/// output[k] = op(input1[ai], input2[bi]) over the walk of `output` and
/// the strides.
template <typename Op>
ARENAPLAN_KERNELS_INLINE void BroadcastBinary(const Shape4& output_shape,
                                              const std::int32_t a_stride[4],
                                              const std::int32_t b_stride[4],
                                              const float* input1,
                                              const float* input2,
                                              float* output, Op&& op) {
  float* out = output;
  ForEachBroadcast(output_shape, a_stride, b_stride,
                   [&](std::int32_t ai, std::int32_t bi)
                       ARENAPLAN_KERNELS_INLINE_LAMBDA {
                         *out++ = op(input1[ai], input2[bi]);
                       });
}

/// output = Activate(input1 + input2), broadcast as the strides say.
inline void Add(const ArithmeticParams& p, const float* input1,
                const float* input2, float* output) {
  BroadcastBinary(p.output, p.a_stride, p.b_stride, input1, input2, output,
                  [&](float a, float b) ARENAPLAN_KERNELS_INLINE_LAMBDA {
                    return Activate(a + b, p.act);
                  });
}

/// output = Activate(input1 - input2), broadcast as the strides say.
inline void Sub(const ArithmeticParams& p, const float* input1,
                const float* input2, float* output) {
  BroadcastBinary(p.output, p.a_stride, p.b_stride, input1, input2, output,
                  [&](float a, float b) ARENAPLAN_KERNELS_INLINE_LAMBDA {
                    return Activate(a - b, p.act);
                  });
}

/// output = Activate(input1 * input2), broadcast as the strides say.
inline void Mul(const ArithmeticParams& p, const float* input1,
                const float* input2, float* output) {
  BroadcastBinary(p.output, p.a_stride, p.b_stride, input1, input2, output,
                  [&](float a, float b) ARENAPLAN_KERNELS_INLINE_LAMBDA {
                    return Activate(a * b, p.act);
                  });
}

/// output = Activate(input1 / input2), broadcast as the strides say.
inline void Div(const ArithmeticParams& p, const float* input1,
                const float* input2, float* output) {
  BroadcastBinary(p.output, p.a_stride, p.b_stride, input1, input2, output,
                  [&](float a, float b) ARENAPLAN_KERNELS_INLINE_LAMBDA {
                    return Activate(a / b, p.act);
                  });
}

/// output = input1 > input2 ? input1 : input2 (header comment).
inline void Maximum(const BroadcastParams& p, const float* input1,
                    const float* input2, float* output) {
  BroadcastBinary(p.output, p.a_stride, p.b_stride, input1, input2, output,
                  [](float a, float b) ARENAPLAN_KERNELS_INLINE_LAMBDA {
                    return a > b ? a : b;
                  });
}

/// output = input1 < input2 ? input1 : input2 (header comment).
inline void Minimum(const BroadcastParams& p, const float* input1,
                    const float* input2, float* output) {
  BroadcastBinary(p.output, p.a_stride, p.b_stride, input1, input2, output,
                  [](float a, float b) ARENAPLAN_KERNELS_INLINE_LAMBDA {
                    return a < b ? a : b;
                  });
}

/// RELU of `count` elements (header comment).
inline void Relu(std::int32_t count, const float* input, float* output) {
  for (std::int32_t i = 0; i < count; ++i) {
    const float v = input[i];
    output[i] = v < 0.0f ? 0.0f : v;
  }
}

/// RELU6 of `count` elements (header comment).
inline void Relu6(std::int32_t count, const float* input, float* output) {
  for (std::int32_t i = 0; i < count; ++i) {
    const float v = input[i];
    output[i] = v > 6.0f ? 6.0f : v < 0.0f ? 0.0f : v;
  }
}

}  // namespace arenaplan::kernels::f32

#endif  // ARENAPLAN_KERNELS_FLOAT_ELEMENTWISE_HPP_
