// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Host-side arithmetic of TFLite's int8 quantization specification, done
// once at generation time so the firmware only runs integer kernels:
// real multipliers as Q0.31 + shift, fused-activation ranges, SAME/VALID
// padding, and the softmax exp table.
#ifndef ARENAPLAN_CODEGEN_COMPILE_QUANTIZE_HPP_
#define ARENAPLAN_CODEGEN_COMPILE_QUANTIZE_HPP_

#include <array>
#include <cstdint>
#include <optional>

#include "codegen/tflite/model.hpp"

namespace arenaplan::compile {

/// real = multiplier * 2^(shift - 31), multiplier in [2^30, 2^31) (or 0).
struct QuantizedMultiplier {
  std::int32_t multiplier = 0;
  std::int32_t shift = 0;
};

/// TFLite's QuantizeMultiplier: frexp(real) = q * 2^shift with q in
/// [0.5, 1); multiplier = round(q * 2^31) (ties away from zero); when that
/// rounds up to 2^31 it is halved and shift incremented; a shift below -31
/// (real < 2^-32) gives 0. `real` must be >= 0.
[[nodiscard]] QuantizedMultiplier QuantizeMultiplier(double real);

/// The int8 range [min, max] (both included) an int8 output with `scale`
/// and `zero_point` is clamped to after `activation`, as TFLite computes it
/// (bounds quantized in float: zero_point + round(bound / scale), then
/// intersected with [-128, 127]). nullopt for activations a clamp cannot
/// express (TANH, SIGN_BIT) or unknown codes.
struct ActivationRange {
  std::int32_t min = -128;
  std::int32_t max = 127;
};
[[nodiscard]] std::optional<ActivationRange> Int8ActivationRange(
    tflite::Activation activation, float scale, std::int32_t zero_point);

/// Output extent and leading padding of one spatial dimension for a window
/// of `filter` elements moved by `stride` (dilation 1). SAME: out =
/// ceil(in / stride), total padding max((out - 1) * stride + filter - in, 0)
/// of which floor(total / 2) goes before. VALID: out = ceil((in - filter +
/// 1) / stride), no padding.
struct PaddedDim {
  std::int32_t out = 0;
  std::int32_t pad_before = 0;
};
[[nodiscard]] PaddedDim ComputePadding(tflite::Padding padding, std::int32_t in,
                                       std::int32_t filter,
                                       std::int32_t stride);

/// table[d] = round(2^bits * exp(-beta * input_scale * d)) for d in
/// [0, 255]: the exp table of arenaplan::kernels::Softmax (bits = 16) and
/// SoftmaxInt16 (bits = SoftmaxInt16TableBits(depth)). bits in [0, 31].
[[nodiscard]] std::array<std::uint32_t, 256> SoftmaxExpTable(double beta,
                                                             double input_scale,
                                                             int bits = 16);

/// The largest table precision, at most 30 bits, for which a row of
/// `depth` (>= 1) entries sums below 2^32: depth * 2^bits <= 2^32 - 1.
[[nodiscard]] int SoftmaxInt16TableBits(std::int64_t depth);

}  // namespace arenaplan::compile

#endif  // ARENAPLAN_CODEGEN_COMPILE_QUANTIZE_HPP_
