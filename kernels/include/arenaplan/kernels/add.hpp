// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// int8 ADD of two tensors of the same shape, with TFLite's method for
// operands of different scales: both inputs are shifted left by
// `left_shift` (20) bits for headroom, rescaled to a common scale
// 2 * max(s1, s2) by multipliers < 1, summed, and the sum rescaled to the
// output scale.
//
// Loop order (followed exactly): i = 0 .. count - 1; input1[i] and
// input2[i] are read, then output[i] is written. Overlap contract, with
// either input (the other is a separate tensor): output byte j is written
// after input byte j is read, and every later read is at an index > j, so
// minAfter(j) = j + 1 and d = max(0, max_j (j - (j + 1) + 1)) = 0
// (kElementwiseOverlapDistance, overlap.hpp): the output may be the input
// itself or start any number of bytes below it. Exact: d cannot be
// negative in the relation.
#ifndef ARENAPLAN_KERNELS_ADD_HPP_
#define ARENAPLAN_KERNELS_ADD_HPP_

#include <cstdint>

#include "arenaplan/kernels/broadcast.hpp"
#include "arenaplan/kernels/dsp.hpp"
#include "arenaplan/kernels/overlap.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct AddParams {
  std::int32_t input1_offset, input2_offset;  ///< Minus the zero points.
  std::int32_t output_offset;                 ///< The output zero point.
  std::int32_t left_shift;                    ///< Headroom bits (20).
  /// s1 / (2 max(s1, s2)), s2 / (2 max(s1, s2)) and
  /// 2 max(s1, s2) / (2^left_shift * s_out) as Q0.31 multiplier and shift.
  std::int32_t input1_multiplier, input1_shift;
  std::int32_t input2_multiplier, input2_shift;
  std::int32_t output_multiplier, output_shift;
  std::int32_t act_min, act_max;  ///< Fused activation, both ends included.
  std::int32_t count;             ///< Elements of each tensor.
};

/// output[i] = input1[i] + input2[i] in real terms, requantized. The output
/// may start kElementwiseOverlapDistance (0) or more bytes below either
/// input, e.g. alias it element for element (header comment).
inline void Add(const AddParams& p, const std::int8_t* input1,
                const std::int8_t* input2, std::int8_t* output) {
  for (std::int32_t i = 0; i < p.count; ++i) {
    const std::int32_t a = (input1[i] + p.input1_offset) * (1 << p.left_shift);
    const std::int32_t b = (input2[i] + p.input2_offset) * (1 << p.left_shift);
    const std::int32_t sa =
        MultiplyByQuantizedMultiplier(a, p.input1_multiplier, p.input1_shift);
    const std::int32_t sb =
        MultiplyByQuantizedMultiplier(b, p.input2_multiplier, p.input2_shift);
    const std::int32_t sum = MultiplyByQuantizedMultiplier(
        sa + sb, p.output_multiplier, p.output_shift);
    output[i] = ClampToInt8(sum + p.output_offset, p.act_min, p.act_max);
  }
}

/// ADD with NumPy broadcasting over at most 4 dimensions (TFLite's
/// reference/add.h BroadcastAdd6DSlow: the same function per element as
/// Add): `p.count` unused; each input read through its strides over the
/// output's NHWC coordinates (0 on a broadcast dimension), the walk of
/// broadcast.hpp. Output elements in row-major order. No overlap contract for
/// a broadcast input; the output must not overlap one.
inline void AddBroadcast(const AddParams& p, const Shape4& output_shape,
                         const std::int32_t a_stride[4],
                         const std::int32_t b_stride[4],
                         const std::int8_t* input1, const std::int8_t* input2,
                         std::int8_t* output) {
  std::int8_t* out = output;
  ForEachBroadcast(output_shape, a_stride, b_stride,
                   [&](std::int32_t ai, std::int32_t bi)
                       ARENAPLAN_KERNELS_INLINE_LAMBDA {
                         AddParams one = p;
                         one.count = 1;
                         Add(one, &input1[ai], &input2[bi], out++);
                       });
}

}  // namespace arenaplan::kernels

// The Helium ADD (integer MVE only), which takes AddParams above.
#include "arenaplan/kernels/helium/add.hpp"

namespace arenaplan::kernels {

/// Add with the parameters in locals (the output stores may alias them)
/// and dsp.hpp's Requantize instead of MultiplyByQuantizedMultiplier: the
/// same value for the multipliers in [0, 2^31) and shifts in [-31, 30] the
/// generator emits (proofs in dsp.hpp), so the same bytes as Add. The same
/// loop order (element i read from both inputs, then written), so the same
/// overlap contract: the output may start kElementwiseOverlapDistance (0)
/// or more bytes below either input.
inline void AddFast(const AddParams& p, const std::int8_t* input1,
                    const std::int8_t* input2, std::int8_t* output) {
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
  if (helium::Add(p, input1, input2, output)) return;  // right shifts only
#endif
  const std::int32_t off1 = p.input1_offset, off2 = p.input2_offset;
  const std::int32_t left = p.left_shift;
  const std::int32_t m1 = p.input1_multiplier, s1 = p.input1_shift;
  const std::int32_t m2 = p.input2_multiplier, s2 = p.input2_shift;
  const std::int32_t mo = p.output_multiplier, so = p.output_shift;
  const std::int32_t out_off = p.output_offset, lo = p.act_min, hi = p.act_max;
  const std::int32_t count = p.count;
  for (std::int32_t i = 0; i < count; ++i) {
    // (x + offset) * 2^left as the reference's product, modulo 2^32.
    const auto a = static_cast<std::int32_t>(
        static_cast<std::uint32_t>(input1[i] + off1) << left);
    const auto b = static_cast<std::int32_t>(
        static_cast<std::uint32_t>(input2[i] + off2) << left);
    const std::int32_t sum = Requantize(a, m1, s1) + Requantize(b, m2, s2);
    const std::int32_t v = Requantize(sum, mo, so) + out_off;
    output[i] = static_cast<std::int8_t>(v < lo ? lo : (v > hi ? hi : v));
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_ADD_HPP_
