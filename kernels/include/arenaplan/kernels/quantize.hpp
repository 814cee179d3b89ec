// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// QUANTIZE between integer types (int8, int16, int32): a requantization,
// real = s_in * (q_in - zp_in) = s_out * (q_out - zp_out), so
// q_out = zp_out + (q_in - zp_in) * s_in / s_out, with the ratio as a Q0.31
// multiplier and shift applied by MultiplyByQuantizedMultiplier (TFLite's
// quantization specification; the same roundings as every other kernel),
// then saturated to the output type.
//
// Loop order (followed exactly): i = 0 .. count - 1; input[i] is read, then
// output[i] is written. Overlap contract, In == Out only (same element
// size s): the s bytes of output element i are written after the s bytes
// of input element i are read, and every later read is above them, so
// byte-wise minAfter(j) >= j + 1 and d = 0 (kElementwiseOverlapDistance,
// overlap.hpp): in place, or the output any number of bytes below. Exact.
// With different element sizes (one store per element still, after the
// element's read) the contract is ElementwiseOverlapDistance(count,
// sizeof(In), sizeof(Out)) (overlap.hpp): 0 when the output is narrower
// (int16 -> int8, int32 -> int16); (sizeof(Out) - sizeof(In)) * (count -
// 1) when wider (int8 -> int16: count - 1 bytes), as a wider output
// outruns its input by that much at the last element but one.
#ifndef ARENAPLAN_KERNELS_QUANTIZE_HPP_
#define ARENAPLAN_KERNELS_QUANTIZE_HPP_

#include <cstdint>
#include <limits>

#include "arenaplan/kernels/overlap.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct RequantizeParams {
  std::int32_t input_offset;   ///< Minus the input zero point.
  std::int32_t output_offset;  ///< The output zero point.
  /// s_in / s_out as multiplier * 2^(shift - 31), shift in [-31, 30].
  std::int32_t multiplier, shift;
  std::int32_t count;  ///< Elements.
};

/// out[i] = saturate<Out>(output_offset + MBQM(in[i] + input_offset)).
/// `In` and `Out` are int8_t, int16_t or int32_t. The output must not
/// overlap the input unless both are the same element type and the output
/// starts kElementwiseOverlapDistance (0) or more bytes below the input
/// (header comment).
template <class In, class Out>
inline void Requantize(const RequantizeParams& p, const In* input,
                       Out* output) {
  constexpr std::int32_t kMin = std::numeric_limits<Out>::min();
  constexpr std::int32_t kMax = std::numeric_limits<Out>::max();
  for (std::int32_t i = 0; i < p.count; ++i) {
    const std::int32_t x = static_cast<std::int32_t>(input[i]) + p.input_offset;
    const std::int32_t scaled =
        MultiplyByQuantizedMultiplier(x, p.multiplier, p.shift);
    // Add the zero point in 64 bits: for an int32 output the sum may leave
    // the int32 range, and is then saturated like the narrower types.
    const std::int64_t v = static_cast<std::int64_t>(scaled) + p.output_offset;
    output[i] = static_cast<Out>(v < kMin ? kMin : (v > kMax ? kMax : v));
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_QUANTIZE_HPP_
