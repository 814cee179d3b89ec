// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The float32 edges of an integer network: QUANTIZE from float32 (a graph
// input) and DEQUANTIZE to float32 (a graph output). Matches TensorFlow
// Lite Micro's reference kernels, tensorflow/lite/micro/kernels/
// quantize_common.cc and dequantize_common.cc, which call
// tensorflow/lite/kernels/internal/reference/quantize.h (AffineQuantize)
// and reference/dequantize.h (Dequantize):
//
//   quantize:   q = clamp(round(x / s) + zp, qmin, qmax)   in float32:
//               the quotient is one IEEE single division by the scale s
//               (TFLM stores s as a double and casts it back to float, which
//               gives s again), round() rounds halves away from zero.
//   dequantize: x = float(double(s) * (q - zp)).
//
// Dequantize in float: TFLM multiplies in double and rounds once to float.
// s has a 24-bit significand and q - zp fits 17 bits (int8, uint8, int16),
// so the double product is exact, and rounding it to float is the
// correctly rounded product, which is what one IEEE single multiplication
// s * float(q - zp) gives (q - zp converts to float exactly). The two are
// equal for every input; no double arithmetic is needed on the target.
//
// Quantize: quotients beyond the output range saturate (TFLM converts the
// rounded float to int32 first, undefined in C++ beyond int32; here every
// quotient above 2^16 or below -2^16 saturates, which is where any in-range
// conversion would have saturated too). A NaN input gives qmin, which is
// what TFLM's conversion produces on x86-64 (cvttss2si returns INT32_MIN).
//
// Loop order (followed exactly): i = 0 .. count - 1; input element i is
// read, then output element i written (one store). Overlap contract
// (overlap.hpp, ElementwiseOverlapDistance; bytes): QUANTIZE narrows 4
// bytes to 1 or 2, d = 0 (in place: output element i lies at or below
// input element i's first byte, every later read above it); DEQUANTIZE
// widens 1 or 2 bytes to 4, d = (4 - in_size) * (count - 1) (output
// element count - 2's last byte, 4 * count - 5, written before input
// element count - 1, from in_size * (count - 1), is read).
#ifndef ARENAPLAN_KERNELS_FLOAT_QUANTIZE_HPP_
#define ARENAPLAN_KERNELS_FLOAT_QUANTIZE_HPP_

#include <cstdint>
#include <limits>

namespace arenaplan::kernels {

struct FloatQuantizeParams {
  float scale;              ///< s: real = s * (q - zero_point).
  std::int32_t zero_point;  ///< zp, within the integer type's range.
  std::int32_t count;       ///< Elements.
};

/// round(v) with halves away from zero, for |v| <= 2^16 (std::round
/// without libm): v - trunc(v) is exact in float.
[[nodiscard]] inline std::int32_t RoundHalfAwayFromZero(float v) {
  const std::int32_t t = static_cast<std::int32_t>(v);  // toward zero
  const float frac = v - static_cast<float>(t);
  if (frac >= 0.5f) return t + 1;
  if (frac <= -0.5f) return t - 1;
  return t;
}

/// out[i] = clamp(round(in[i] / scale) + zero_point) for Out = int8_t,
/// int16_t (or uint8_t). The output may start ElementwiseOverlapDistance
/// (0) or more bytes below the input (header comment).
template <class Out>
inline void QuantizeFromFloat(const FloatQuantizeParams& p, const float* input,
                              Out* output) {
  constexpr std::int32_t kMin = std::numeric_limits<Out>::min();
  constexpr std::int32_t kMax = std::numeric_limits<Out>::max();
  constexpr float kBound = 65536.0f;
  for (std::int32_t i = 0; i < p.count; ++i) {
    const float q = input[i] / p.scale;
    std::int32_t v;
    if (q >= kBound) {
      v = kMax;
    } else if (q <= -kBound || q != q) {  // q != q: NaN
      v = kMin;
    } else {
      v = RoundHalfAwayFromZero(q) + p.zero_point;
    }
    output[i] = static_cast<Out>(v < kMin ? kMin : (v > kMax ? kMax : v));
  }
}

/// out[i] = scale * float(in[i] - zero_point) for In = int8_t, uint8_t,
/// int16_t. The output may start ElementwiseOverlapDistance(count,
/// sizeof(In), 4) or more bytes below the input (header comment).
template <class In>
inline void DequantizeToFloat(const FloatQuantizeParams& p, const In* input,
                              float* output) {
  for (std::int32_t i = 0; i < p.count; ++i) {
    const std::int32_t centred =
        static_cast<std::int32_t>(input[i]) - p.zero_point;
    output[i] = p.scale * static_cast<float>(centred);
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_FLOAT_QUANTIZE_HPP_
