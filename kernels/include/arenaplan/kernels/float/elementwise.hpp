// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// float32 ADD and RELU, as TensorFlow Lite Micro runs them:
//
//   ADD (reference Add / BroadcastAdd4DSlow): out = Activate(a + b), the
//   fused activation's float bounds (activation.hpp); NumPy broadcasting
//   over at most 4 dimensions through broadcast.hpp's walk.
//   RELU (activations_common.cc ReluFloat): out = x < 0.0f ? 0.0f : x, no
//   upper bound (+infinity stays, -0.0 stays -0.0, a NaN passes).
//
// Loop order: output elements in row-major order, each written after its
// operands are read; no overlap contract is stated for them yet (their
// tensors are planned apart).
#ifndef ARENAPLAN_KERNELS_FLOAT_ELEMENTWISE_HPP_
#define ARENAPLAN_KERNELS_FLOAT_ELEMENTWISE_HPP_

#include <cstdint>

#include "arenaplan/kernels/broadcast.hpp"
#include "arenaplan/kernels/float/activation.hpp"

namespace arenaplan::kernels::f32 {

/// The parameters of float ADD.
struct AddParams {
  ActivationRange act;                    ///< The fused activation's clamp.
  Shape4 output;                          ///< NHWC.
  std::int32_t a_stride[4], b_stride[4];  ///< Per output dimension.
};

/// output = Activate(input1 + input2), broadcast as the strides say.
inline void Add(const AddParams& p, const float* input1, const float* input2,
                float* output) {
  float* out = output;
  ForEachBroadcast(p.output, p.a_stride, p.b_stride,
                   [&](std::int32_t ai, std::int32_t bi)
                       ARENAPLAN_KERNELS_INLINE_LAMBDA {
                         *out++ = Activate(input1[ai] + input2[bi], p.act);
                       });
}

/// RELU of `count` elements (header comment).
inline void Relu(std::int32_t count, const float* input, float* output) {
  for (std::int32_t i = 0; i < count; ++i) {
    const float v = input[i];
    output[i] = v < 0.0f ? 0.0f : v;
  }
}

}  // namespace arenaplan::kernels::f32

#endif  // ARENAPLAN_KERNELS_FLOAT_ELEMENTWISE_HPP_
