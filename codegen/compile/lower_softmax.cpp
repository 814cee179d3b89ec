// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// SOFTMAX -> k::Softmax (int8 out, scale 1/256, zero point -128) or
// k::SoftmaxInt16 (int16 out, scale 1/65536, zero point -32768)
// (kernels/include/arenaplan/kernels/softmax.hpp), over the last dimension,
// with TFLite's input scaling computed here. float32 tensors
// (type_rules.cpp): k::f32::Softmax (lower_elementwise_f32.cpp).
#include <cinttypes>
#include <cmath>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::TensorType;

void LowerSoftmax(Lowerer& l, const tflite::Operator& op) {
  if (CheckTypes(l, op)[0] == TensorType::kFloat32) {
    LowerSoftmaxF32(l, op);  // lower_elementwise_f32.cpp
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
