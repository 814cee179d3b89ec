// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// LOGISTIC and TANH on int8 (on int16: lower_sigmoid16.cpp) -> k::Logistic
// (kernels/.../logistic.hpp) and k::Tanh (tanh.hpp), with TFLM's preparation
// (logistic_common.cc, and tanh.cc's CalculateArithmeticOpData, the same): the
// input multiplier from frexp(s_in * 2^27) rounded to Q0.31 (without
// QuantizeMultiplier's carry into the shift, which TFLM does not apply), and
// the input radius floor(15 * 2^27 / 2^shift). float32 tensors
// (type_rules.cpp): k::f32::Logistic / Tanh (lower_elementwise_f32.cpp).
#include <algorithm>
#include <cinttypes>
#include <cmath>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

namespace {

/// Both operators: "Logistic" or "Tanh"; the int8 output zero point TFLM's
/// kernel assumes is -128 or 0.
void LowerSigmoidLike(Lowerer& l, const tflite::Operator& op,
                      const char* kernel, std::int32_t output_zero_point) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& out = l.Output(op);
  const Affine qi = l.Int8Activation(in), qo = l.Int8Activation(out);
  if (qo.zero_point != output_zero_point) {
    l.Fail(l.Describe(out) + Fmt(" has zero point %d; the int8 output must "
                                 "have %d",
                                 qo.zero_point, output_zero_point));
  }
  if (ElementCount(in) != ElementCount(out))
    l.Fail("input and output sizes differ");
  constexpr int kInputIntegerBits = 4;
  const double real = static_cast<double>(qi.scale) *
                      static_cast<double>(1 << (31 - kInputIntegerBits));
  int shift = 0;
  const double q = std::frexp(real, &shift);
  const double rounded = std::round(q * 2147483648.0);
  if (rounded >= 2147483648.0 || shift > 30 || shift < -31) {
    l.Fail(
        Fmt("input scale %.9g: the Q4.27 input multiplier is out of the "
            "kernel's range",
            static_cast<double>(qi.scale)));
  }
  const auto multiplier = static_cast<std::int32_t>(rounded);
  const double radius_real =
      1.0 * ((1 << kInputIntegerBits) - 1) *
      static_cast<double>(std::int64_t{1} << (31 - kInputIntegerBits)) /
      std::ldexp(1.0, shift);
  const auto radius = static_cast<std::int32_t>(
      std::min(std::floor(radius_real), 2147483647.0));
  l.Emit(Fmt("  k::%s(k::%sParams{%d, %d, %d, %d, %" PRId64 "},\n", kernel,
             kernel, qi.zero_point, radius, multiplier, shift,
             ElementCount(in)));
  l.Emit("      " + l.Addr(in) + ", " + l.Addr(out) + ");\n");
  l.StateElementwise(in, out);  // logistic.hpp, tanh.hpp
}

}  // namespace

void LowerLogistic(Lowerer& l, const tflite::Operator& op) {
  const tflite::TensorType type = CheckTypes(l, op)[0];
  if (type == tflite::TensorType::kInt16) {
    LowerSigmoid16(l, op, /*tanh=*/false);  // lower_sigmoid16.cpp
    return;
  }
  if (type == tflite::TensorType::kFloat32) {
    LowerUnaryF32(l, op, "Logistic");  // lower_elementwise_f32.cpp
    return;
  }
  LowerSigmoidLike(l, op, "Logistic", -128);
}

void LowerTanh(Lowerer& l, const tflite::Operator& op) {
  const tflite::TensorType type = CheckTypes(l, op)[0];
  if (type == tflite::TensorType::kInt16) {
    LowerSigmoid16(l, op, /*tanh=*/true);  // lower_sigmoid16.cpp
    return;
  }
  if (type == tflite::TensorType::kFloat32) {
    LowerUnaryF32(l, op, "Tanh");  // lower_elementwise_f32.cpp
    return;
  }
  LowerSigmoidLike(l, op, "Tanh", 0);
}

}  // namespace arenaplan::compile
