// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/compile/quantize.hpp"

#include <algorithm>
#include <cmath>

namespace arenaplan::compile {

QuantizedMultiplier QuantizeMultiplier(double real) {
  QuantizedMultiplier r;
  if (real == 0.0) return r;
  int shift = 0;
  const double q = std::frexp(real, &shift);  // q in [0.5, 1)
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

std::optional<ActivationRange> Int8ActivationRange(
    tflite::Activation activation, float scale, std::int32_t zero_point) {
  auto quantize = [&](float v) {
    return zero_point + static_cast<std::int32_t>(std::round(v / scale));
  };
  ActivationRange r;
  switch (activation) {
    case tflite::Activation::kNone:
      break;
    case tflite::Activation::kRelu:
      r.min = std::max(r.min, quantize(0.0f));
      break;
    case tflite::Activation::kRelu6:
      r.min = std::max(r.min, quantize(0.0f));
      r.max = std::min(r.max, quantize(6.0f));
      break;
    case tflite::Activation::kReluN1To1:
      r.min = std::max(r.min, quantize(-1.0f));
      r.max = std::min(r.max, quantize(1.0f));
      break;
    default:
      return std::nullopt;
  }
  return r;
}

PaddedDim ComputePadding(tflite::Padding padding, std::int32_t in,
                         std::int32_t filter, std::int32_t stride) {
  PaddedDim d;
  if (padding == tflite::Padding::kSame) {
    d.out = (in + stride - 1) / stride;
    const std::int32_t total = std::max((d.out - 1) * stride + filter - in, 0);
    d.pad_before = total / 2;
  } else {
    d.out = (in - filter + stride) / stride;
    d.pad_before = 0;
  }
  return d;
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

}  // namespace arenaplan::compile
