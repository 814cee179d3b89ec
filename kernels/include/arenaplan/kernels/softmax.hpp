// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// int8 SOFTMAX with output scale 1/256 and zero point -128 (the only int8
// output quantization TFLite allows for it). For int8 input the difference
// d = max - x of a row lies in [0, 255], so exp(-beta * input_scale * d) is
// tabulated on the host as Q16 integers (table[0] = 65536); the firmware
// then only adds and divides integers. This is a different fixed-point
// method from TFLite's reference (gemmlowp exp), so a score may differ from
// TFLite's by one step of 1/256; it is exact and identical on every target.
#ifndef ARENAPLAN_KERNELS_SOFTMAX_HPP_
#define ARENAPLAN_KERNELS_SOFTMAX_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct SoftmaxParams {
  /// table[d] = round(65536 * exp(-beta * input_scale * d)), d in [0, 255].
  const std::uint32_t* exp_table;
  std::int32_t rows;   ///< Number of independent rows.
  std::int32_t depth;  ///< Elements per row (the last dimension), <= 65535.
};

/// output = round(256 * p) - 128 with p the row's softmax; saturates at 127.
/// The output must not overlap the input.
inline void Softmax(const SoftmaxParams& p, const std::int8_t* input,
                    std::int8_t* output) {
  for (std::int32_t r = 0; r < p.rows; ++r) {
    const std::int8_t* in = input + r * p.depth;
    std::int8_t* out = output + r * p.depth;
    std::int32_t max = -128;
    for (std::int32_t i = 0; i < p.depth; ++i) max = in[i] > max ? in[i] : max;
    // sum >= table[0] = 65536, and <= depth * 65536 < 2^32.
    std::uint32_t sum = 0;
    for (std::int32_t i = 0; i < p.depth; ++i) sum += p.exp_table[max - in[i]];
    for (std::int32_t i = 0; i < p.depth; ++i) {
      const std::uint32_t e = p.exp_table[max - in[i]];  // <= 2^16
      // round(256 * e / sum), ties up; 256 * e <= 2^24 does not overflow.
      const std::uint32_t q = (256u * e + sum / 2u) / sum;
      out[i] = ClampToInt8(static_cast<std::int32_t>(q) - 128, -128, 127);
    }
  }
}

/// round(num * 2^bits / den), ties up, for num <= den (den > 0, bits <=
/// 31): long division one bit at a time, so no 64-bit divide is needed on
/// cores without one.
[[nodiscard]] constexpr std::uint32_t RoundedFraction(std::uint32_t num,
                                                      std::uint32_t den,
                                                      int bits) {
  std::uint32_t q = num / den;  // 0 or 1
  std::uint64_t r = num % den;  // < den, kept in 64 bits for r << 1
  for (int i = 0; i < bits; ++i) {
    r <<= 1;
    q <<= 1;
    if (r >= den) {
      r -= den;
      q |= 1u;
    }
  }
  return 2 * r >= den ? q + 1 : q;  // remainder >= den / 2: round up
}

/// int8 in, int16 out with scale 1/65536 and zero point -32768 (TFLite's
/// quantization of an int16 softmax output fed by int8):
/// output = round(65536 * p) - 32768 with p the row's softmax, saturated at
/// 32767 (p > 65535.5 / 65536). The exp table has the same form as
/// Softmax's at a finer scale: table[d] = round(2^B * exp(-beta * s_in * d))
/// with depth * 2^B < 2^32 (the generator picks B <= 30), so p's only error
/// is the table's rounding, half of 2^-B per term. The output must not
/// overlap the input.
inline void SoftmaxInt16(const SoftmaxParams& p, const std::int8_t* input,
                         std::int16_t* output) {
  for (std::int32_t r = 0; r < p.rows; ++r) {
    const std::int8_t* in = input + r * p.depth;
    std::int16_t* out = output + r * p.depth;
    std::int32_t max = -128;
    for (std::int32_t i = 0; i < p.depth; ++i) max = in[i] > max ? in[i] : max;
    std::uint32_t sum = 0;  // in [65536, depth * 65536]
    for (std::int32_t i = 0; i < p.depth; ++i) sum += p.exp_table[max - in[i]];
    for (std::int32_t i = 0; i < p.depth; ++i) {
      const std::uint32_t q =
          RoundedFraction(p.exp_table[max - in[i]], sum, 16);  // <= 65536
      const std::int32_t v = static_cast<std::int32_t>(q) - 32768;
      out[i] = static_cast<std::int16_t>(v > 32767 ? 32767 : v);
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_SOFTMAX_HPP_
