// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/compile/quantize.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace arenaplan::compile {

bool CheckedLog2(float x, std::int32_t* log2) {
  const float l2 = std::log(x) * (1.0f / std::log(2.0f));
  const float rounded = std::round(l2);
  *log2 = static_cast<std::int32_t>(rounded);
  return std::fabs(l2 - rounded) < 1e-3f;
}

QuantizedMultiplier QuantizeMultiplier(double real) {
  QuantizedMultiplier r;
  // 0 (and -0.0), and (defensively) what no caller may pass: NaN, infinite.
  if (real == 0.0 || !std::isfinite(real)) return r;
  int shift = 0;
  // |q| in [0.5, 1), of real's sign: fixed in [2^30, 2^31] or [-2^31,
  // -2^30]; only the positive end is folded back into int32.
  const double q = std::frexp(real, &shift);
  auto fixed = static_cast<std::int64_t>(std::round(q * 2147483648.0));
  if (fixed == (std::int64_t{1} << 31)) {
    fixed /= 2;
    ++shift;
  }
  if (shift < -31) {
    shift = 0;
    fixed = 0;
  }
  r.multiplier = static_cast<std::int32_t>(fixed);
  r.shift = shift;
  return r;
}

bool NegateNegativeChannels(std::vector<std::int8_t>& weights,
                            bool channel_major, std::vector<std::int32_t>& bias,
                            std::vector<QuantizedMultiplier>& m) {
  const std::size_t channels = m.size();
  if (channels == 0) return true;
  const std::size_t per = weights.size() / channels;
  const auto channel = [&](std::size_t i) {
    return channel_major ? i / per : i % channels;
  };
  // |bias| + 255 * sum |w| per channel, and whether a weight is -128.
  std::vector<std::int64_t> bound(channels, 0);
  std::vector<bool> has_min(channels, false);
  for (std::size_t c = 0; c < bias.size() && c < channels; ++c) {
    bound[c] = bias[c] < 0 ? -std::int64_t{bias[c]} : bias[c];
  }
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const std::int32_t v = weights[i];
    bound[channel(i)] += 255 * (v < 0 ? -v : v);
    if (v == -128) has_min[channel(i)] = true;
  }
  for (std::size_t c = 0; c < channels; ++c) {
    if (m[c].multiplier >= 0) continue;
    const int left = m[c].shift > 0 ? m[c].shift : 0;
    if (m[c].multiplier == std::numeric_limits<std::int32_t>::min() ||
        has_min[c] || bound[c] >= (std::int64_t{1} << (31 - left))) {
      return false;
    }
  }
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (m[channel(i)].multiplier < 0) {
      weights[i] = static_cast<std::int8_t>(-weights[i]);
    }
  }
  for (std::size_t c = 0; c < bias.size() && c < channels; ++c) {
    if (m[c].multiplier < 0) bias[c] = -bias[c];
  }
  for (QuantizedMultiplier& q : m) {
    if (q.multiplier < 0) q.multiplier = -q.multiplier;
  }
  return true;
}

bool IsClampActivation(tflite::Activation activation) {
  return activation == tflite::Activation::kNone ||
         activation == tflite::Activation::kRelu ||
         activation == tflite::Activation::kRelu6 ||
         activation == tflite::Activation::kReluN1To1;
}

std::optional<std::int32_t> QuantizeBound(float bound, float scale,
                                          std::int32_t zero_point) {
  // TFLite's Quantize: the quotient is divided and rounded in float.
  const float q = std::round(bound / scale);
  // Checked in double: [-2^31, 2^31) is exactly the int32 range (TFLite's
  // own test compares with float(INT32_MAX) = 2^31, whose cast is undefined;
  // it is refused here). NaN fails both comparisons.
  if (!(static_cast<double>(q) >= -2147483648.0 &&
        static_cast<double>(q) < 2147483648.0)) {
    return std::nullopt;
  }
  const std::int64_t sum =
      std::int64_t{zero_point} + static_cast<std::int64_t>(q);
  if (sum < std::numeric_limits<std::int32_t>::min() ||
      sum > std::numeric_limits<std::int32_t>::max()) {
    return std::nullopt;
  }
  return static_cast<std::int32_t>(sum);
}

std::optional<ActivationRange> Int8ActivationRange(
    tflite::Activation activation, float scale, std::int32_t zero_point) {
  return QuantizedActivationRange(activation, scale, zero_point, -128, 127);
}

std::optional<ActivationRange> QuantizedActivationRange(
    tflite::Activation activation, float scale, std::int32_t zero_point,
    std::int32_t qmin, std::int32_t qmax) {
  if (!IsClampActivation(activation)) return std::nullopt;
  ActivationRange r{qmin, qmax};
  // Each bound is clamped into [qmin, qmax] (TFLite's), so the range is a
  // sub-range of the type's; min <= max because scale > 0.
  auto lower = [&](float bound) {
    const auto q = QuantizeBound(bound, scale, zero_point);
    if (q) r.min = std::max(r.min, *q);
    return q.has_value();
  };
  auto upper = [&](float bound) {
    const auto q = QuantizeBound(bound, scale, zero_point);
    if (q) r.max = std::min(r.max, *q);
    return q.has_value();
  };
  bool ok = true;
  switch (activation) {
    case tflite::Activation::kRelu:
      ok = lower(0.0f);
      break;
    case tflite::Activation::kRelu6:
      ok = lower(0.0f) && upper(6.0f);
      break;
    case tflite::Activation::kReluN1To1:
      ok = lower(-1.0f) && upper(1.0f);
      break;
    default:
      break;
  }
  if (!ok || r.min > r.max) return std::nullopt;
  return r;
}

std::optional<SoftmaxScaling> Int8SoftmaxScaling(double beta,
                                                 double input_scale) {
  constexpr int kIntegerBits = 5;
  const double real = std::min(
      beta * input_scale * static_cast<double>(1 << (31 - kIntegerBits)),
      2147483647.0);
  if (!(real > 1.0) || !std::isfinite(real)) return std::nullopt;
  const QuantizedMultiplier m = QuantizeMultiplier(real);
  SoftmaxScaling s;
  s.input_multiplier = m.multiplier;
  s.input_left_shift = m.shift;  // >= 1 since real > 1
  const double radius =
      1.0 * ((1 << kIntegerBits) - 1) *
      static_cast<double>(std::int64_t{1} << (31 - kIntegerBits)) /
      static_cast<double>(std::int64_t{1} << m.shift);
  s.diff_min = -static_cast<std::int32_t>(std::floor(radius));
  return s;
}

std::vector<std::int16_t> Int16SoftmaxTable(Int16SoftmaxFunction f) {
  // Every step in float, in TFLM's order, so that each rounding is its.
  const bool exp = f == Int16SoftmaxFunction::kExp;
  const auto apply = [exp](float x) {
    return exp ? std::exp(x) : 1.0f / (1.0f + x);
  };
  const float range = 65535.0f;  // int16 max - min
  const float in_scale = (exp ? 10.0f : 1.0f) / range;
  const std::int32_t in_zero = exp ? 32767 : -32768;
  const float in_min = in_scale * static_cast<float>(-32768 - in_zero);
  const float in_max = in_scale * static_cast<float>(32767 - in_zero);
  const float out_scale = 2.0f / range;
  const float out_span =
      out_scale * 32767.0f - out_scale * -32768.0f;  // output max - min
  const float k = 65536.0f / out_span;
  constexpr int kSteps = 512;
  const float step = (in_max - in_min) / static_cast<float>(kSteps);
  const float half = step / 2.0f;
  const auto saturate = [](float v) {
    return static_cast<std::int16_t>(std::clamp(v, -32768.0f, 32767.0f));
  };
  std::vector<std::int16_t> t(kSteps + 1);
  for (int i = 0; i < kSteps; ++i) {
    const float x = in_min + static_cast<float>(i) * step;
    const float at = apply(x);
    const float next = apply(in_min + static_cast<float>(i + 1) * step);
    const float mid = apply(x + half);
    const float sample = std::round(at * k);
    // The chord's midpoint against the curve's, both rounded; half the
    // error (rounded) is taken off the sample.
    const float chord = std::round((next * k + sample) / 2.0f);
    const float error = chord - std::round(mid * k);
    t[static_cast<std::size_t>(i)] =
        saturate(sample - std::round(error / 2.0f));
  }
  t[kSteps] = saturate(std::round(apply(in_max) * k));
  return t;
}

}  // namespace arenaplan::compile
