// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// LOGISTIC and TANH on int16 (the (INT16, INT16) lines of type_rules.cpp)
// -> k::int16::Logistic / k::int16::Tanh
// (kernels/include/arenaplan/kernels/int16/sigmoid.hpp), with TFLM's
// preparation (logistic_common.cc, tanh.cc): zero points 0; the input
// rescaled to the table's 1 / (3 * 4096) per step, by 3 << s when the input
// scale is a power of two 2^(s - 12) with s = 0 (LOGISTIC) or s in {0, 1}
// (TANH), else by the double s_in * 4096 * 3 doubled (shift + 1) while it is
// at most 32767 / 2 (and the shift at most 30), truncated to int32; the
// output scale must be 2^-15 (CheckedLog2). The kernels interpolate in
// int16/sigmoid.hpp's table (512 bytes of flash, shared with the LSTM).
#include <cinttypes>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

void LowerSigmoid16(Lowerer& l, const tflite::Operator& op, bool tanh) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& out = l.Output(op);
  const Affine qi = SymmetricInt16(l, in), qo = SymmetricInt16(l, out);
  if (ElementCount(in) != ElementCount(out))
    l.Fail("input and output sizes differ");
  std::int32_t out_log2 = 0;
  if (!CheckedLog2(qo.scale, &out_log2) || out_log2 != -15) {
    l.Fail(l.Describe(out) +
           Fmt(" has scale %.9g; the int16 output must have scale 2^-15",
               static_cast<double>(qo.scale)));
  }
  constexpr int kInputIntegerBits = 3;
  std::int32_t in_log2 = 0;
  bool pot = CheckedLog2(qi.scale, &in_log2);
  std::int32_t shift = (15 - kInputIntegerBits) + in_log2;
  pot = pot && (shift == 0 || (tanh && shift == 1));
  std::int32_t multiplier = 0;
  if (pot) {  // TFLM passes multiplier 0; its kernel uses 3 << shift
    multiplier = 3 << shift;
    shift = 0;
  } else {
    double m = static_cast<double>(qi.scale) * 4096.0 * 3.0;
    shift = 0;
    while (m <= 32767.0 / 2.0 && shift <= 30) {
      ++shift;
      m *= 2.0;
    }
    if (!(m <= 32767.0)) {
      l.Fail(l.Describe(in) +
             Fmt(" has scale %.9g; the int16 input multiplier exceeds 32767",
                 static_cast<double>(qi.scale)));
    }
    multiplier = static_cast<std::int32_t>(m);
  }
  l.Emit(Fmt("  k::int16::%s(k::int16::SigmoidParams{%d, %d, %" PRId64 "},\n",
             tanh ? "Tanh" : "Logistic", multiplier, shift, ElementCount(in)));
  l.Emit("      " + l.TypedAddr(in, "std::int16_t") + ", " +
         l.TypedAddr(out, "std::int16_t") + ");\n");
  l.StateElementwise(in, out);  // int16/sigmoid.hpp
}

}  // namespace arenaplan::compile
