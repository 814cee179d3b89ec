// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// LEAKY_RELU on int8. Matches TensorFlow Lite Micro's
// tensorflow/lite/micro/kernels/leaky_relu_common.cc (the multipliers) with
// tensorflow/lite/kernels/internal/reference/leaky_relu.h
// (QuantizeLeakyRelu):
//
//   x = q_in - zp_in;
//   out = zp_out + (x >= 0 ? MBQM(x, M_id, s_id) : MBQM(x, M_alpha, s_alpha))
//   saturated to int8,
//
// with (M_id, s_id) = QuantizeMultiplier(double(float(s_in / s_out))) and
// (M_alpha, s_alpha) = QuantizeMultiplier(double(float(float(s_in * alpha)
// / s_out))): TFLM forms both ratios in float before widening them
// (computed on the host). Non-negative alpha only.
//
// Loop order: i = 0 .. count - 1, input[i] read then output[i] written: the
// element-wise overlap contract, d = 0 (kElementwiseOverlapDistance in
// overlap.hpp, with its proof): in place, or the output any distance below.
#ifndef ARENAPLAN_KERNELS_LEAKY_RELU_HPP_
#define ARENAPLAN_KERNELS_LEAKY_RELU_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct LeakyReluParams {
  std::int32_t input_zero_point, output_zero_point;
  std::int32_t identity_multiplier, identity_shift;  ///< x >= 0.
  std::int32_t alpha_multiplier, alpha_shift;        ///< x < 0.
  std::int32_t count;                                ///< Elements.
};

/// The output value of one quantized input value `q` before the clamp to
/// the output type (header comment); the int8 and int16 kernels share it.
inline std::int32_t LeakyReluUnclamped(const LeakyReluParams& p,
                                       std::int32_t q) {
  const std::int32_t x = q - p.input_zero_point;
  const std::int32_t scaled =
      x >= 0
          ? MultiplyByQuantizedMultiplier(x, p.identity_multiplier,
                                          p.identity_shift)
          : MultiplyByQuantizedMultiplier(x, p.alpha_multiplier, p.alpha_shift);
  return p.output_zero_point + scaled;
}

/// output[i] = leaky_relu(input[i]) (header comment). The output must not
/// overlap the input unless it starts kElementwiseOverlapDistance (0) or
/// more bytes below it.
inline void LeakyRelu(const LeakyReluParams& p, const std::int8_t* input,
                      std::int8_t* output) {
  for (std::int32_t i = 0; i < p.count; ++i) {
    output[i] = ClampToInt8(LeakyReluUnclamped(p, input[i]), -128, 127);
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_LEAKY_RELU_HPP_
