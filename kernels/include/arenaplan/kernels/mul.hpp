// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// MUL of two int8 tensors with NumPy broadcasting over at most 4
// dimensions. Matches TensorFlow Lite Micro's tensorflow/lite/micro/kernels/
// mul.cc and mul_common.cc with tensorflow/lite/kernels/internal/reference/
// integer_ops/mul.h (MulElementwise, BroadcastMul6DSlow, which compute the
// same function):
//
//   out = clamp(zp_out + MBQM((a - zp_a) * (b - zp_b), M, s), lo, hi),
//   (M, s) = QuantizeMultiplier(double(s_a) * double(s_b) / double(s_out)),
//   [lo, hi] the fused activation's int8 range.
//
// Broadcasting: the generator passes each input's strides over the output's
// NHWC coordinates (0 where the input's dimension is 1 and the output's is
// not), so element (n, h, w, c) reads a[n * sa[0] + ... + c * sa[3]]
// (broadcast.hpp, ForEachBroadcast).
//
// Loop order: output elements in row-major order; each reads its two input
// elements, then writes. Overlap contract for an input with the output's
// shape (strides the output's own): element-wise, d = 0
// (kElementwiseOverlapDistance, overlap.hpp); a broadcast input has none.
#ifndef ARENAPLAN_KERNELS_MUL_HPP_
#define ARENAPLAN_KERNELS_MUL_HPP_

#include <cstdint>

#include "arenaplan/kernels/broadcast.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct MulParams {
  std::int32_t a_zero_point, b_zero_point, output_zero_point;
  std::int32_t multiplier, shift;         ///< s_a * s_b / s_out.
  std::int32_t act_min, act_max;          ///< Both included.
  Shape4 output;                          ///< NHWC.
  std::int32_t a_stride[4], b_stride[4];  ///< Per output dimension.
};

/// One output element before the clamp: zp_out + MBQM((a - zp_a) *
/// (b - zp_b), M, s) (header comment); a and b int8 or int16 values (their
/// product fits int32).
[[nodiscard]] constexpr std::int32_t MulUnclamped(const MulParams& p,
                                                  std::int32_t a,
                                                  std::int32_t b) {
  return p.output_zero_point + MultiplyByQuantizedMultiplier(
                                   (a - p.a_zero_point) * (b - p.b_zero_point),
                                   p.multiplier, p.shift);
}

/// output = a * b (header comment). The output must not overlap an input
/// unless that input has the output's shape and the output starts
/// kElementwiseOverlapDistance (0) or more bytes below it.
inline void Mul(const MulParams& p, const std::int8_t* a, const std::int8_t* b,
                std::int8_t* output) {
  std::int8_t* out = output;
  ForEachBroadcast(
      p.output, p.a_stride, p.b_stride,
      [&](std::int32_t ai, std::int32_t bi) ARENAPLAN_KERNELS_INLINE_LAMBDA {
        *out++ =
            ClampToInt8(MulUnclamped(p, a[ai], b[bi]), p.act_min, p.act_max);
      });
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_MUL_HPP_
