// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// SOFTMAX on int16 activations (int16 in, int16 out), the readable form.
// Matches TensorFlow Lite's reference SoftmaxInt16 as TFLM's softmax.cc
// calls it. Two interpolated tables of 513 entries (LookupInt16), computed
// by the generator as TFLM computes them at Prepare (quantize.cpp,
// Int16SoftmaxTable): exp(x) for x in [-10, 0] and 1 / (1 + x) for x in
// [0, 1], both in Q0.15 over an index recentred to [-32768, 32767].
// For each row (the last dimension):
//   m = max(row); d = MultiplyByQuantizedMultiplier(x - m, multiplier,
//   shift) maps [-65535, 0] to [-10, 0]; e = exp_lut(clamp(d + 32767))
//   (Q0.15), written to the output row and summed in int32;
//   h = CountLeadingZeros(sum); s = (sum << (h - 1) + 2^13) >> 14 (int64);
//   r = recip_lut(clamp(s - 3 * 2^15)) (1 / sum normalised, Q0.15);
//   out = clamp((e * r + 2^(30 - h)) >> (31 - h), 0, 32767).
// Input and output zero point 0, output scale 2^-15 (the generator checks).
//
// Loop order: rows ascending; a row's input is read twice (max, exps)
// before its output is written, and the output row is read back (the exps
// kept there). The generator plans input and output apart.
#ifndef ARENAPLAN_KERNELS_INT16_SOFTMAX_HPP_
#define ARENAPLAN_KERNELS_INT16_SOFTMAX_HPP_

#include <cstdint>

#include "arenaplan/kernels/fixed_point.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels::int16 {

/// Entries of an int16 interpolation table: 512 bases and one more for the
/// last slope.
inline constexpr std::int32_t kLookupTableSize = 513;

/// TFLite's int16 table lookup with linear interpolation: the high 9 bits
/// of v (offset by 256) pick a base, the low 7 bits interpolate to the next
/// entry, rounding half up. `table` has kLookupTableSize entries.
[[nodiscard]] constexpr std::int16_t LookupInt16(std::int16_t v,
                                                 const std::int16_t* table) {
  const std::int32_t index = 256 + (v >> 7);
  const std::int32_t offset = v & 0x7F;
  const std::int32_t base = table[index];
  const std::int32_t slope = table[index + 1] - base;
  return static_cast<std::int16_t>(base + ((slope * offset + 64) >> 7));
}

/// Clamps v to int16.
[[nodiscard]] constexpr std::int16_t SaturateToInt16(std::int32_t v) {
  return static_cast<std::int16_t>(v < -32768 ? -32768
                                              : (v > 32767 ? 32767 : v));
}

struct SoftmaxParams {
  /// beta * input_scale * 65535 / 10 = multiplier * 2^(shift - 31)
  /// (QuantizeMultiplier); shift in [-31, 15].
  std::int32_t input_multiplier;
  std::int32_t input_shift;
  std::int32_t rows;   ///< Number of independent rows.
  std::int32_t depth;  ///< Elements per row, in [1, 65535].
  /// kLookupTableSize entries each: exp over [-10, 0], 1 / (1 + x) over
  /// [0, 1] (header comment). Not owned (constants in flash).
  const std::int16_t* exp_table;
  const std::int16_t* reciprocal_table;
};

/// SOFTMAX on int16 (header comment). `input` and `output` must not
/// overlap.
inline void Softmax(const SoftmaxParams& p, const std::int16_t* input,
                    std::int16_t* output) {
  for (std::int32_t r = 0; r < p.rows; ++r) {
    const std::int16_t* in = input + r * p.depth;
    std::int16_t* out = output + r * p.depth;
    std::int32_t max = -32768;
    for (std::int32_t i = 0; i < p.depth; ++i) max = in[i] > max ? in[i] : max;
    std::int32_t sum = 0;  // Q16.15
    for (std::int32_t i = 0; i < p.depth; ++i) {
      const std::int32_t d = MultiplyByQuantizedMultiplier(
          in[i] - max, p.input_multiplier, p.input_shift);
      out[i] = LookupInt16(SaturateToInt16(d + 32767), p.exp_table);
      sum += out[i];
    }
    // sum >= exp(0) > 0: h in [1, 31].
    const int h = CountLeadingZeros(static_cast<std::uint32_t>(sum));
    const auto shifted = static_cast<std::int32_t>(
        ((static_cast<std::int64_t>(sum) << (h - 1)) + (1 << 13)) >> 14);
    const std::int32_t reciprocal = LookupInt16(
        SaturateToInt16(shifted - ((1 << 15) + (1 << 16))), p.reciprocal_table);
    const int right = 31 - h;
    const std::int64_t round = std::int64_t{1} << (right - 1);
    for (std::int32_t i = 0; i < p.depth; ++i) {
      const auto v = static_cast<std::int32_t>(
          (std::int64_t{out[i]} * reciprocal + round) >> right);
      out[i] = static_cast<std::int16_t>(v < 0 ? 0 : (v > 32767 ? 32767 : v));
    }
  }
}

}  // namespace arenaplan::kernels::int16

#endif  // ARENAPLAN_KERNELS_INT16_SOFTMAX_HPP_
