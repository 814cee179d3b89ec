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
// output scale must be 2^-15 (CheckedLog2). The table is computed here once
// per model (512 bytes of flash): entry i < 255 is 2^16 (s - h^2 s'' / 16)
// rounded to nearest, s = sigmoid(i h), h = 1 / 24, s'' = s (1 - s)
// (1 - 2 s) its second derivative: the sample raised by half the largest
// gap between the concave curve and its chord over one step (h^2 |s''| / 8),
// which halves the interpolation's worst error; entry 255 is 0xFFFF, the
// value TANH's kernel saturates to. These are the entries of TFLM's
// sigmoid_table_uint16 (every int16 input of LOGISTIC and TANH gives TFLM's
// output, lower_int16_ops_test's models run through TFLM).
#include <cinttypes>
#include <cmath>
#include <vector>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

namespace {

/// The sigmoid table's identifier, emitted on first use.
std::string SigmoidTable(Lowerer& l) {
  constexpr double kStep = 1.0 / 24;
  std::vector<std::int64_t> t(256, 0xFFFF);
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    const double s = 1.0 / (1.0 + std::exp(-static_cast<double>(i) * kStep));
    const double s2 = s * (1.0 - s) * (1.0 - 2.0 * s);
    const double v = std::round(65536.0 * (s - kStep * kStep * s2 / 16.0));
    t[i] = v > 65535.0 ? 65535 : static_cast<std::int64_t>(v);
  }
  return l.EmitUint16Table(
      "kSigmoidTable16",
      "sigmoid(i / 24) in unsigned 0.16 fixed point, for interpolation", t);
}

}  // namespace

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
  const std::string table = SigmoidTable(l);
  l.Emit(Fmt("  k::int16::%s(k::int16::SigmoidParams{%d, %d, %" PRId64
             ", %s},\n",
             tanh ? "Tanh" : "Logistic", multiplier, shift, ElementCount(in),
             table.c_str()));
  l.Emit("      " + l.TypedAddr(in, "std::int16_t") + ", " +
         l.TypedAddr(out, "std::int16_t") + ");\n");
}

}  // namespace arenaplan::compile
