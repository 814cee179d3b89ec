// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// int8 SUB of two tensors with NumPy broadcasting over at most 4
// dimensions. Matches TensorFlow Lite Micro's
// tensorflow/lite/micro/kernels/sub.cc and sub_common.cc
// (CalculateOpDataSub) with tensorflow/lite/kernels/internal/reference/
// sub.h (SubElementwise and BroadcastQuantSubSlow, which compute the same
// function per element): ADD's rescaling (add.hpp) with a difference,
//
//   a' = MBQM((a - zp_a) * 2^20, M1, s1),  b' = MBQM((b - zp_b) * 2^20, M2,
//   s2), out = clamp(zp_out + MBQM(a' - b', Mo, so), lo, hi), M1 = s_a / (2
//   max(s_a, s_b)), M2 = s_b / (2 max(s_a, s_b)), Mo = 2 max(s_a, s_b) / (2^20
//   s_out), each ratio formed in float.
//
// Broadcasting as in mul.hpp: each input's strides over the output's NHWC
// coordinates, 0 where the input's dimension is 1 and the output's is not.
//
// Loop order: output elements in row-major order; each reads its two input
// elements, then writes. Overlap contract for an input with the output's
// shape (strides the output's own): element-wise, d = 0
// (kElementwiseOverlapDistance, overlap.hpp; the proof in add.hpp); a
// broadcast input has none.
#ifndef ARENAPLAN_KERNELS_SUB_HPP_
#define ARENAPLAN_KERNELS_SUB_HPP_

#include <cstdint>

#include "arenaplan/kernels/broadcast.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct SubParams {
  std::int32_t input1_offset, input2_offset;  ///< Minus the zero points.
  std::int32_t output_offset;                 ///< The output zero point.
  std::int32_t left_shift;                    ///< Headroom bits (20).
  /// M1, M2, Mo (header comment) as Q0.31 multiplier and shift.
  std::int32_t input1_multiplier, input1_shift;
  std::int32_t input2_multiplier, input2_shift;
  std::int32_t output_multiplier, output_shift;
  std::int32_t act_min, act_max;          ///< Both ends included.
  Shape4 output;                          ///< NHWC.
  std::int32_t a_stride[4], b_stride[4];  ///< Per output dimension.
};

/// The offset, shifted, rescaled sum (kSign +1) or difference (kSign -1)
/// of one pair of inputs x1, x2, requantized to the output's scale plus
/// its offset, before the activation clamp: TFLite's per-element formula of
/// ADD and SUB with two input multipliers (int8 SUB, int16 ADD and SUB;
/// Params: SubParams or int16::BinaryParams, the same fields).
template <int kSign, class Params>
[[nodiscard]] constexpr std::int32_t AddOrSubUnclamped(const Params& p,
                                                       std::int32_t x1,
                                                       std::int32_t x2) {
  const std::int32_t a = (x1 + p.input1_offset) * (1 << p.left_shift);
  const std::int32_t b = (x2 + p.input2_offset) * (1 << p.left_shift);
  const std::int32_t sa =
      MultiplyByQuantizedMultiplier(a, p.input1_multiplier, p.input1_shift);
  const std::int32_t sb =
      MultiplyByQuantizedMultiplier(b, p.input2_multiplier, p.input2_shift);
  return MultiplyByQuantizedMultiplier(kSign > 0 ? sa + sb : sa - sb,
                                       p.output_multiplier, p.output_shift) +
         p.output_offset;
}

/// output = input1 - input2 in real terms, requantized (header comment).
/// The output must not overlap an input unless that input has the output's
/// shape and the output starts kElementwiseOverlapDistance (0) or more
/// bytes below it.
inline void Sub(const SubParams& p, const std::int8_t* input1,
                const std::int8_t* input2, std::int8_t* output) {
  std::int8_t* out = output;
  ForEachBroadcast(
      p.output, p.a_stride, p.b_stride,
      [&](std::int32_t ai, std::int32_t bi) ARENAPLAN_KERNELS_INLINE_LAMBDA {
        const std::int32_t v = AddOrSubUnclamped<-1>(p, input1[ai], input2[bi]);
        *out++ = ClampToInt8(v, p.act_min, p.act_max);
      });
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_SUB_HPP_
