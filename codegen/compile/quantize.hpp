// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Host-side arithmetic of TFLite's int8 quantization specification, done
// once at generation time so the firmware only runs integer kernels:
// real multipliers as Q0.31 + shift, fused-activation ranges, SAME/VALID
// padding, and the softmax input scaling.
#ifndef ARENAPLAN_CODEGEN_COMPILE_QUANTIZE_HPP_
#define ARENAPLAN_CODEGEN_COMPILE_QUANTIZE_HPP_

#include <cstdint>
#include <optional>
#include <vector>

#include "codegen/tflite/geometry.hpp"
#include "codegen/tflite/model.hpp"

namespace arenaplan::compile {

/// real = multiplier * 2^(shift - 31), multiplier in [2^30, 2^31) for a
/// positive real, in [-2^31, -2^30] for a negative one (or 0).
struct QuantizedMultiplier {
  std::int32_t multiplier = 0;
  std::int32_t shift = 0;
};

/// TFLite's QuantizeMultiplier: frexp(real) = q * 2^shift with |q| in
/// [0.5, 1) and q of real's sign (shift is the exponent of |real|);
/// multiplier = round(q * 2^31) (ties away from zero); when that rounds up
/// to 2^31 it is halved and shift incremented (a negative q that rounds to
/// -2^31 stays INT32_MIN, as in TFLite); a shift below -31 (|real| <
/// 2^-32) gives 0. `real` must be finite (NaN and infinities give 0, 0;
/// callers check); -0.0 gives 0, 0.
[[nodiscard]] QuantizedMultiplier QuantizeMultiplier(double real);

/// TFLite's CheckedLog2: log2(x) computed in float (log(x) times 1 / log(2)),
/// rounded to the nearest integer (ties away from zero) into `log2`; true
/// when the rounding moved it by less than 1e-3 (x is a power of two).
[[nodiscard]] bool CheckedLog2(float x, std::int32_t* log2);

/// Makes the negative multipliers of a layer's channels non-negative for
/// the fast kernels, whose output stage assumes them (dsp.hpp): channel c
/// with m[c].multiplier < 0 gets its weights, its bias and its multiplier
/// negated. Every output byte stays TFLite's: the accumulator (bias + sum
/// (x - zero point) * w) is negated, and MultiplyByQuantizedMultiplier(-acc,
/// -M, s) = MultiplyByQuantizedMultiplier(acc, M, s), as both roundings see
/// the same product (acc * 2^max(s, 0)) * M, provided the negated values
/// exist: M > INT32_MIN, no weight of the channel is -128, and |bias| + 255
/// * sum |w| < 2^(31 - max(s, 0)) (|x - zero point| <= 255: the shifted
/// accumulator stays within int32, so it is never INT32_MIN, and neither
/// wraps). Returns false, changing nothing, when a channel with a negative
/// multiplier fails one of these (the layer then runs the reference kernel,
/// which takes negative multipliers). `weights` holds m.size() channels:
/// element i belongs to channel i / (weights.size() / m.size()) when
/// `channel_major` (CONV_2D, FULLY_CONNECTED), else i % m.size()
/// (DEPTHWISE_CONV_2D). `bias`: one per channel, or empty (none).
[[nodiscard]] bool NegateNegativeChannels(std::vector<std::int8_t>& weights,
                                          bool channel_major,
                                          std::vector<std::int32_t>& bias,
                                          std::vector<QuantizedMultiplier>& m);

/// The int8 range [min, max] (both included) an int8 output with `scale`
/// and `zero_point` is clamped to after `activation`, as TFLite computes it
/// (CalculateActivationRangeQuantized: each bound quantized by
/// QuantizeBound, then intersected with [-128, 127]). nullopt for
/// activations a clamp cannot express (TANH, SIGN_BIT) or unknown codes
/// (IsClampActivation false), and when a bound does not quantize.
struct ActivationRange {
  std::int32_t min = -128;
  std::int32_t max = 127;
};
[[nodiscard]] std::optional<ActivationRange> Int8ActivationRange(
    tflite::Activation activation, float scale, std::int32_t zero_point);
/// The same for an output of the integer type [qmin, qmax] (both included;
/// e.g. int16's [-32768, 32767]): each bound intersected with it.
[[nodiscard]] std::optional<ActivationRange> QuantizedActivationRange(
    tflite::Activation activation, float scale, std::int32_t zero_point,
    std::int32_t qmin, std::int32_t qmax);

/// True for NONE, RELU, RELU6 and RELU_N1_TO_1: the activations
/// Int8ActivationRange expresses as a clamp.
[[nodiscard]] bool IsClampActivation(tflite::Activation activation);

/// TFLite's Quantize of a real activation bound: zero_point + round(bound /
/// scale), the quotient divided and rounded in float. nullopt where TFLite
/// refuses the model (the rounded quotient outside int32) or its int32
/// arithmetic would overflow (the quotient equal to 2^31, or the sum with
/// the zero point outside int32); the sum is formed in 64 bits.
[[nodiscard]] std::optional<std::int32_t> QuantizeBound(
    float bound, float scale, std::int32_t zero_point);

/// SAME/VALID padding: the shared geometry of codegen/tflite/geometry.hpp.
using tflite::ComputePadding;
using tflite::PaddedDim;

/// The input scaling of TFLite's int8 softmax (PreprocessSoftmaxScaling
/// and CalculateInputRadius with 5 integer bits): the real multiplier
/// min(beta * input_scale * 2^26, 2^31 - 1) as QuantizeMultiplier's Q0.31
/// multiplier and left shift, and diff_min = -floor(31 * 2^26 /
/// 2^left_shift), the most negative input difference whose shifted value
/// fits in int32. nullopt when the real multiplier is not above 1 (TFLite
/// refuses it) or not finite.
struct SoftmaxScaling {
  std::int32_t input_multiplier = 0;
  std::int32_t input_left_shift = 0;
  std::int32_t diff_min = 0;
};
[[nodiscard]] std::optional<SoftmaxScaling> Int8SoftmaxScaling(
    double beta, double input_scale);

/// The two tables of TFLite's int16 softmax (kernels/int16/softmax.hpp).
enum class Int16SoftmaxFunction {
  kExp,         ///< exp(x), x in [-10, 0] (index -32768 .. 32767).
  kReciprocal,  ///< 1 / (1 + x), x in [0, 1].
};
/// The 513-entry interpolation table of `f` as TFLM's Prepare fills it
/// (LUTPopulate<int16_t>, all in float): 512 steps over the input range
/// mapped from int16; entry i is round(f(x_i) * k) less half the rounded
/// error of the chord at the step's midpoint (k = 65536 / (65535 * 2 /
/// 65535), output Q0.15), clamped to int16; the last is round(f(max) * k).
/// Computed with this host's float exp, as TFLM computes it with its
/// target's.
[[nodiscard]] std::vector<std::int16_t> Int16SoftmaxTable(
    Int16SoftmaxFunction f);

}  // namespace arenaplan::compile

#endif  // ARENAPLAN_CODEGEN_COMPILE_QUANTIZE_HPP_
