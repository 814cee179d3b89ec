// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// ADD -> k::AddFast (kernels/include/arenaplan/kernels/add.hpp; the same
// bytes as k::Add): int8 inputs of
// the same shape (no broadcasting), TFLite's int8 ADD rescaling.
#include <algorithm>
#include <cinttypes>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

void LowerAdd(Lowerer& l, const tflite::Operator& op) {
  const Tensor& a = l.Input(op, 0);
  const Tensor& b = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  const Affine qa = l.Int8Activation(a), qb = l.Int8Activation(b),
               qo = l.Int8Activation(out);
  if (a.shape != b.shape || a.shape != out.shape) {
    l.Fail("inputs of different shapes (broadcasting) are not supported");
  }
  const auto& o = l.OptionsOf<tflite::ElementwiseOptions>(op);
  const ActivationRange ar = l.Activation(o.activation, qo, out);
  // TFLite's int8 ADD preparation: 20 bits of headroom, both inputs
  // rescaled to twice the larger input scale.
  constexpr int kLeftShift = 20;
  const double twice_max = 2.0 * std::max(static_cast<double>(qa.scale),
                                          static_cast<double>(qb.scale));
  const auto m1 = l.Multiplier(static_cast<double>(qa.scale) / twice_max,
                               "input 0 multiplier");
  const auto m2 = l.Multiplier(static_cast<double>(qb.scale) / twice_max,
                               "input 1 multiplier");
  const auto mo = l.Multiplier(
      twice_max / ((1 << kLeftShift) * static_cast<double>(qo.scale)),
      "output multiplier");
  l.Emit(Fmt(
      "  k::AddFast(k::AddParams{%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, "
      "%d, %" PRId64 "},\n",
      -qa.zero_point, -qb.zero_point, qo.zero_point, kLeftShift, m1.multiplier,
      m1.shift, m2.multiplier, m2.shift, mo.multiplier, mo.shift, ar.min,
      ar.max, ElementCount(a)));
  l.Emit("      " + l.Addr(a) + ", " + l.Addr(b) + ", " + l.Addr(out) + ");\n");
}

}  // namespace arenaplan::compile
