// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// ADD, SUB, MUL and LEAKY_RELU on int16 activations, the readable form.
//
// ADD and SUB match TensorFlow Lite's reference add.h (AddElementwise,
// BroadcastAdd6DSlow) and sub.h (SubElementwise, BroadcastQuantSubSlow)
// for int16 as TFLM's add.cc and sub.cc call them (AddGeneralParamScale:
// not the power-of-two path): the int8 method of add.hpp / sub.hpp with 15
// bits of headroom instead of 20 (an int16 operand plus its offset, at most
// 2^16 in magnitude, shifted left by 15 stays in int32),
//
//   a = (q1 + off1) * 2^left_shift, b = (q2 + off2) * 2^left_shift
//   out = clamp(MBQM(MBQM(a, M1, s1) +- MBQM(b, M2, s2), Mo, so) + zp_out)
//
// with MBQM quantization.hpp's MultiplyByQuantizedMultiplier (TFLite's
// MultiplyByQuantizedMultiplierSmallerThanOneExp for shifts <= 0).
// Broadcasting over at most 4 dimensions through broadcast.hpp's walk.
//
// MUL matches reference integer_ops/mul.h (MulElementwise,
// BroadcastMul6DSlow) for int16 as TFLM's mul_common.cc calls them: the
// int8 formula of mul.hpp (MulUnclamped; the product of two int16 values
// fits int32) clamped to int16; TFLM requires zero points 0, so the
// offsets the generator passes are 0.
//
// LEAKY_RELU matches reference leaky_relu.h QuantizeLeakyRelu for int16:
// x = q_in - zp_in; out = zp_out + MBQM(x, x >= 0 ? identity : alpha),
// saturated to int16 (multipliers as leaky_relu.hpp's, non-negative).
//
// Loop order: output elements in row-major order, each written after its
// operands are read (LEAKY_RELU: element i of the input, then element i of
// the output). Overlap contract (overlap.hpp, ElementwiseOverlapDistance
// with 2-byte elements in and out): d = 0, in place, for LEAKY_RELU's input
// and for an ADD, SUB or MUL input of the output's shape (its element i is
// read for output element i: the walk's index is the output's); none for
// a broadcast input, which is re-read after later writes.
#ifndef ARENAPLAN_KERNELS_INT16_ELEMENTWISE_HPP_
#define ARENAPLAN_KERNELS_INT16_ELEMENTWISE_HPP_

#include <cstdint>

#include "arenaplan/kernels/broadcast.hpp"
#include "arenaplan/kernels/int16/requantize.hpp"
#include "arenaplan/kernels/leaky_relu.hpp"
#include "arenaplan/kernels/mul.hpp"
#include "arenaplan/kernels/quantization.hpp"
#include "arenaplan/kernels/sub.hpp"

namespace arenaplan::kernels::int16 {

/// The parameters of int16 ADD and SUB (header comment).
struct BinaryParams {
  std::int32_t input1_offset, input2_offset;  ///< Minus the zero points.
  std::int32_t output_offset;                 ///< The output zero point.
  std::int32_t left_shift;                    ///< Headroom bits (15).
  /// s1 / (2 max(s1, s2)), s2 / (2 max(s1, s2)) and
  /// 2 max(s1, s2) / (2^left_shift * s_out) as Q0.31 multiplier and shift.
  std::int32_t input1_multiplier, input1_shift;
  std::int32_t input2_multiplier, input2_shift;
  std::int32_t output_multiplier, output_shift;
  std::int32_t act_min, act_max;          ///< Both ends included.
  Shape4 output;                          ///< NHWC.
  std::int32_t a_stride[4], b_stride[4];  ///< Per output dimension.
};

/// ADD (sign +1) or SUB (sign -1) of one pair of operands.
template <int kSign>
[[nodiscard]] constexpr std::int16_t AddOrSubOne(const BinaryParams& p,
                                                 std::int16_t x1,
                                                 std::int16_t x2) {
  return ClampToInt16(AddOrSubUnclamped<kSign>(p, x1, x2), p.act_min,
                      p.act_max);
}

template <int kSign>
inline void AddOrSub(const BinaryParams& p, const std::int16_t* input1,
                     const std::int16_t* input2, std::int16_t* output) {
  std::int16_t* out = output;
  ForEachBroadcast(p.output, p.a_stride, p.b_stride,
                   [&](std::int32_t ai, std::int32_t bi)
                       ARENAPLAN_KERNELS_INLINE_LAMBDA {
                         *out++ = AddOrSubOne<kSign>(p, input1[ai], input2[bi]);
                       });
}

/// output = input1 + input2 (real terms), broadcast as the strides say.
inline void Add(const BinaryParams& p, const std::int16_t* input1,
                const std::int16_t* input2, std::int16_t* output) {
  AddOrSub<1>(p, input1, input2, output);
}

/// output = input1 - input2 (real terms), broadcast as the strides say.
inline void Sub(const BinaryParams& p, const std::int16_t* input1,
                const std::int16_t* input2, std::int16_t* output) {
  AddOrSub<-1>(p, input1, input2, output);
}

/// output = a * b (real terms) on int16, broadcast as mul.hpp's strides
/// say (header comment).
inline void Mul(const MulParams& p, const std::int16_t* a,
                const std::int16_t* b, std::int16_t* output) {
  std::int16_t* out = output;
  ForEachBroadcast(
      p.output, p.a_stride, p.b_stride,
      [&](std::int32_t ai, std::int32_t bi) ARENAPLAN_KERNELS_INLINE_LAMBDA {
        *out++ =
            ClampToInt16(MulUnclamped(p, a[ai], b[bi]), p.act_min, p.act_max);
      });
}

/// LEAKY_RELU on int16 (header comment); leaky_relu.hpp's parameters.
inline void LeakyRelu(const LeakyReluParams& p, const std::int16_t* input,
                      std::int16_t* output) {
  for (std::int32_t i = 0; i < p.count; ++i) {
    output[i] = ClampToInt16(LeakyReluUnclamped(p, input[i]), -32768, 32767);
  }
}

}  // namespace arenaplan::kernels::int16

#endif  // ARENAPLAN_KERNELS_INT16_ELEMENTWISE_HPP_
