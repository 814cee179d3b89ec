// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// SOFTMAX -> k::Softmax (int8 out, scale 1/256, zero point -128) or
// k::SoftmaxInt16 (int16 out, scale 1/65536, zero point -32768)
// (kernels/include/arenaplan/kernels/softmax.hpp), over the last dimension,
// with TFLite's input scaling computed here. int16 in and out:
// k::int16::Softmax (kernels/int16/softmax.hpp) with TFLite's two int16
// tables computed here (quantize.cpp), emitted once per model: 2 x 513
// int16, 2,052 bytes of flash. float32 tensors (type_rules.cpp):
// k::f32::Softmax (lower_elementwise_f32.cpp).
#include <cinttypes>
#include <cmath>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/quantize.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::TensorType;

namespace {

/// int16 in, int16 out (header comment): TFLM's CalculateSoftmaxParams
/// for int16 (zero points 0, output scale 2^-15 within 0.1%, the input
/// multiplier of input_scale * beta / (10 / 65535) in double).
void LowerSoftmax16(Lowerer& l, const tflite::Operator& op) {
  const auto [in, out] = l.Unary(op);
  const Affine qi = l.PerTensor(in);
  const Affine qo = l.PerTensor(out);
  if (qi.zero_point != 0) l.Fail(l.Describe(in) + " must have zero point 0");
  if (qo.zero_point != 0 ||
      std::abs(static_cast<double>(qo.scale) * 32768.0 - 1.0) > 1e-3) {
    l.Fail(l.Describe(out) +
           " must have scale 2^-15 (within 0.1%) and zero point 0");
  }
  if (in.shape.empty()) l.Fail("input has no dimensions");
  const std::int32_t depth = in.shape.back();
  // The kernel sums a row's exps (each at most 2^15) in int32.
  if (depth <= 0 || depth > 65535)
    l.Fail("the last dimension must be in [1, 65535]");
  if (ElementCount(out) != ElementCount(in))
    l.Fail("output size differs from input");
  const auto& o = l.OptionsOf<tflite::SoftmaxOptions>(op);
  const double real = static_cast<double>(qi.scale) *
                      static_cast<double>(o.beta) / (10.0 / 65535.0);
  if (!std::isfinite(real) || real < 0.0) {
    l.Fail(
        Fmt("beta %.9g x input scale %.9g is not a finite non-negative "
            "number",
            static_cast<double>(o.beta), static_cast<double>(qi.scale)));
  }
  const QuantizedMultiplier m = QuantizeMultiplier(real);
  // A difference of -65535 shifted left by more than 15 overflows int32.
  if (m.shift > 15) {
    l.Fail(
        Fmt("beta %.9g x input scale %.9g is too large (differences "
            "would overflow the int32 rescaling)",
            static_cast<double>(o.beta), static_cast<double>(qi.scale)));
  }
  const std::string exp_table = l.EmitInt16TableOnce(
      "kSoftmax16Exp", "int16 SOFTMAX: exp(x), x in [-10, 0], Q0.15",
      Int16SoftmaxTable(Int16SoftmaxFunction::kExp));
  const std::string reciprocal_table = l.EmitInt16TableOnce(
      "kSoftmax16Reciprocal", "int16 SOFTMAX: 1 / (1 + x), x in [0, 1], Q0.15",
      Int16SoftmaxTable(Int16SoftmaxFunction::kReciprocal));
  l.Emit(Fmt("  k::int16::Softmax(k::int16::SoftmaxParams{%d, %d, %" PRId64
             ", %d, %s, %s},\n",
             m.multiplier, m.shift, ElementCount(in) / depth, depth,
             exp_table.c_str(), reciprocal_table.c_str()));
  l.Emit("      " + l.TypedAddr(in, "std::int16_t") + ", " +
         l.TypedAddr(out, "std::int16_t") + ");\n");
}

}  // namespace

void LowerSoftmax(Lowerer& l, const tflite::Operator& op) {
  const auto types = CheckTypes(l, op);
  if (types[0] == TensorType::kFloat32) {
    LowerSoftmaxF32(l, op);  // lower_elementwise_f32.cpp
    return;
  }
  if (types[0] == TensorType::kInt16) {
    LowerSoftmax16(l, op);
    return;
  }
  const auto [in, out] = l.Unary(op);
  const Affine qi = l.Int8Activation(in);
  const bool int16_out = out.type == TensorType::kInt16;
  if (int16_out) {
    // TFLite accepts an int16 output scale within 0.1% of 1/65536 (the
    // converter writes 1/65535) and computes as if it were 1/65536.
    const Affine qo = l.PerTensor(out);
    if (std::abs(static_cast<double>(qo.scale) * 65536.0 - 1.0) > 1e-3 ||
        qo.zero_point != -32768) {
      l.Fail("int16 output must have scale 1/65536 and zero point -32768");
    }
  } else {
    const Affine qo = l.Int8Activation(out);
    if (qo.scale != 1.0f / 256.0f || qo.zero_point != -128) {
      l.Fail("int8 output must have scale 1/256 and zero point -128");
    }
  }
  const auto& o = l.OptionsOf<tflite::SoftmaxOptions>(op);
  if (in.shape.empty()) l.Fail("input has no dimensions");
  const std::int32_t depth = in.shape.back();
  // The kernel sums a row's exps in Q12.19 (each at most 2^19) in int32.
  if (depth <= 0 || depth > 4095)
    l.Fail("the last dimension must be in [1, 4095]");
  const std::int64_t rows = ElementCount(in) / depth;
  if (ElementCount(out) != ElementCount(in))
    l.Fail("output size differs from input");
  const auto s = Int8SoftmaxScaling(o.beta, qi.scale);
  if (!s) {
    l.Fail(
        Fmt("beta %.9g x input scale %.9g is too small (TFLite needs "
            "beta x scale x 2^26 > 1)",
            static_cast<double>(o.beta), static_cast<double>(qi.scale)));
  }
  l.Emit(Fmt("  k::%s(k::SoftmaxParams{%d, %d, %d, %" PRId64 ", %d},\n",
             int16_out ? "SoftmaxInt16" : "Softmax", s->input_multiplier,
             s->input_left_shift, s->diff_min, rows, depth));
  l.Emit("      " + l.Addr(in) + ", " +
         l.TypedAddr(out, int16_out ? "std::int16_t" : "std::int8_t") + ");\n");
}

}  // namespace arenaplan::compile
