// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RELU on int8 (with a requantization). Matches TensorFlow Lite Micro's
// tensorflow/lite/micro/kernels/activations.h (ReluQuantized) and
// activations_common.cc (CalculateReluOpData):
//
//   out = clamp(zp_out + MBQM(q_in - zp_in, M, s), lo, 127),
//   (M, s) = QuantizeMultiplier(double(float(s_in / s_out))),
//   lo = max(-128, zp_out + roundf(0 / s_out)) = max(-128, zp_out).
//
// RELU6 on int8 (activations.h Relu6Quantized, Relu6Prepare): no
// requantization, the raw input clamped to [zp_in, six] with six =
// clamp(round(6.0f / s_in) + zp_in, -128, 127) (FloatToQuantizedType in
// micro_utils.h), computed on the host.
//
// Loop order (both): i = 0 .. count - 1, input[i] read then output[i]
// written: the element-wise overlap contract, d = 0
// (kElementwiseOverlapDistance in overlap.hpp, with its proof).
#ifndef ARENAPLAN_KERNELS_RELU_HPP_
#define ARENAPLAN_KERNELS_RELU_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct ReluParams {
  std::int32_t input_zero_point, output_zero_point;
  std::int32_t multiplier, shift;  ///< s_in / s_out.
  std::int32_t min, max;           ///< Clamp range (included).
  std::int32_t count;              ///< Elements.
};

/// output[i] = relu(input[i]) (header comment). The output must not overlap
/// the input unless it starts kElementwiseOverlapDistance (0) or more bytes
/// below it.
inline void Relu(const ReluParams& p, const std::int8_t* input,
                 std::int8_t* output) {
  for (std::int32_t i = 0; i < p.count; ++i) {
    const std::int32_t v =
        p.output_zero_point +
        MultiplyByQuantizedMultiplier(
            static_cast<std::int32_t>(input[i]) - p.input_zero_point,
            p.multiplier, p.shift);
    output[i] = ClampToInt8(v, p.min, p.max);
  }
}

struct Relu6Params {
  std::int32_t lower, upper;  ///< zp_in and six (header comment), included.
  std::int32_t count;         ///< Elements.
};

/// output[i] = clamp(input[i], lower, upper). The output must not overlap
/// the input unless it starts kElementwiseOverlapDistance (0) or more bytes
/// below it.
inline void Relu6(const Relu6Params& p, const std::int8_t* input,
                  std::int8_t* output) {
  for (std::int32_t i = 0; i < p.count; ++i) {
    output[i] = ClampToInt8(input[i], p.lower, p.upper);
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_RELU_HPP_
