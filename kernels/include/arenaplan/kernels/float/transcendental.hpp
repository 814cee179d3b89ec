// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// float32 LOGISTIC, TANH and SOFTMAX, in the order of operations of
// TensorFlow Lite's reference float kernels, with math.hpp's Exp and Tanh
// in place of libm's expf and tanhf (so within math.hpp's stated ULP of
// TFLM's results, not bit-exact with them; every other operation here is
// TFLite's, rounded as it rounds):
//
//   LOGISTIC (reference Logistic): x > 16.619047164916992188f ? 1.0f :
//            x < -9.0f ? exp(x) : 1.0f / (1.0f + exp(-x))
//   TANH     (reference Tanh): tanh(x)
//   SOFTMAX  (reference Softmax(float)), per row of `depth` elements:
//            m = lowest float, m = std::max(m, x) in order; e_c =
//            exp((x_c - m) * beta), sum = 0.0f + e_0 + e_1 + ... in order;
//            out_c = e_c / sum (e_c held in the output in between)
//
// LOGISTIC, TANH: i = 0 .. count - 1, input element i read (once), then
// output element i written. Overlap contract (overlap.hpp,
// ElementwiseOverlapDistance with 4-byte elements in and out): d = 0, in
// place. SOFTMAX reads a row's inputs again after writing earlier outputs
// of the row: no overlap contract is stated (the tensors are planned
// apart).
#ifndef ARENAPLAN_KERNELS_FLOAT_TRANSCENDENTAL_HPP_
#define ARENAPLAN_KERNELS_FLOAT_TRANSCENDENTAL_HPP_

#include <cstdint>

#include "arenaplan/kernels/float/math.hpp"

namespace arenaplan::kernels::f32 {

/// LOGISTIC of `count` elements (header comment).
/// The logistic of one float with TFLite's cut-offs (header comment);
/// also the float LSTM's gate activation (lstm.hpp).
[[nodiscard]] inline float LogisticOf(float v) {
  return v > 16.619047164916992188f ? 1.0f
         : v < -9.0f                ? Exp(v)
                                    : 1.0f / (1.0f + Exp(-v));
}

inline void Logistic(std::int32_t count, const float* input, float* output) {
  for (std::int32_t i = 0; i < count; ++i) output[i] = LogisticOf(input[i]);
}

/// TANH of `count` elements.
inline void Tanh(std::int32_t count, const float* input, float* output) {
  for (std::int32_t i = 0; i < count; ++i) output[i] = Tanh(input[i]);
}

struct SoftmaxParams {
  std::int32_t outer;  ///< Rows.
  std::int32_t depth;  ///< Elements per row (the last dimension).
  float beta;          ///< The options' beta.
};

/// SOFTMAX over the last dimension (header comment); the output must not
/// overlap the input.
inline void Softmax(const SoftmaxParams& p, const float* input, float* output) {
  for (std::int32_t i = 0; i < p.outer; ++i) {
    const float* in = input + i * p.depth;
    float* out = output + i * p.depth;
    float max = -0x1.fffffep+127f;  // lowest float
    for (std::int32_t c = 0; c < p.depth; ++c) {
      max = max < in[c] ? in[c] : max;
    }
    float sum = 0.0f;
    for (std::int32_t c = 0; c < p.depth; ++c) {
      const float e = Exp((in[c] - max) * p.beta);
      out[c] = e;
      sum += e;
    }
    for (std::int32_t c = 0; c < p.depth; ++c) out[c] = out[c] / sum;
  }
}

}  // namespace arenaplan::kernels::f32

#endif  // ARENAPLAN_KERNELS_FLOAT_TRANSCENDENTAL_HPP_
