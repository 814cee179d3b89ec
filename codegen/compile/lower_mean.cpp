// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// MEAN on int8 over constant axes -> k::Mean (kernels/.../mean.hpp), on
// int16 (type_rules.cpp) -> k::int16::Mean (kernels/.../int16/mean.hpp:
// the same method, fewer than 2^15 elements per mean). The host folds 1/num into the multiplier exactly as TFLM's reference
// QuantizedMeanOrSum does at run time (reduce.h): k = floor(log2 num),
// k = min(k, 32, 31 + shift), M' = (M << k) / num, shift' = shift - k.
// float32 MEAN (type_rules.cpp) -> k::f32::Mean (kernels/.../float/
// mean.hpp): the sum in the input's order divided by the count.
#include <cinttypes>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

namespace {

/// MEAN's reduction: the reduced dimensions of the NHWC input (bit 3 n,
/// 2 h, 1 w, 0 c), the elements per mean and the kept elements.
struct Reduction {
  Dims4 in;
  std::int32_t reduced = 0;
  std::int64_t num = 1, kept = 1;
};

/// The reduction of MEAN over its constant axes (input 1); fails on an
/// axis outside the input's rank or an output of another size.
Reduction CheckMean(Lowerer& l, const tflite::Operator& op, const Tensor& in,
                    const Tensor& out) {
  (void)l.OptionsOf<tflite::ReducerOptions>(op);  // keep_dims: same bytes
  Reduction r{l.Shape(in)};
  const auto rank = static_cast<std::int32_t>(in.shape.size());
  for (std::int32_t a : l.Int32Values(l.Input(op, 1))) {
    if (a < -rank || a >= rank) {
      l.Fail(Fmt("axis %d is outside the input's rank %d", a, rank));
    }
    const std::int32_t axis = (a < 0 ? a + rank : a) + (4 - rank);
    r.reduced |= 1 << (3 - axis);  // bit 3 n, 2 h, 1 w, 0 c
  }
  const std::int32_t dims[4] = {r.in.n, r.in.h, r.in.w, r.in.c};
  for (int d = 0; d < 4; ++d) {
    ((r.reduced >> (3 - d)) & 1 ? r.num : r.kept) *= dims[d];
  }
  if (ElementCount(out) != r.kept) {
    l.Fail(Fmt("output has %" PRId64 " elements; the kept dimensions %" PRId64,
               ElementCount(out), r.kept));
  }
  return r;
}

/// float32 MEAN -> k::f32::Mean (float/mean.hpp): the count as a float,
/// exact below 2^24.
void LowerMeanF32(Lowerer& l, const Reduction& r, const Tensor& in,
                  const Tensor& out) {
  if (r.num >= (std::int64_t{1} << 24)) {
    l.Fail(Fmt("%" PRId64 " elements per mean (at most 2^24 - 1, exact as a "
               "float)",
               r.num));
  }
  l.Emit(Fmt("  k::f32::Mean(k::f32::MeanParams{%s, %d, %" PRId64 ".0f},\n",
             r.in.Code().c_str(), r.reduced, r.num));
  l.Emit("      " + l.TypedAddr(in, "float") + ", " +
         l.TypedAddr(out, "float") + ");\n");
}

}  // namespace

void LowerMean(Lowerer& l, const tflite::Operator& op) {
  const bool is_float = CheckTypes(l, op)[0] == tflite::TensorType::kFloat32;
  const auto [in, out] = l.Unary(op);
  if (is_float) {
    LowerMeanF32(l, CheckMean(l, op, in, out), in, out);
    return;
  }
  const bool wide = CheckTypes(l, op)[0] == tflite::TensorType::kInt16;
  const Affine qi = wide ? l.PerTensor(in) : l.Int8Activation(in);
  const Affine qo = wide ? l.PerTensor(out) : l.Int8Activation(out);
  const Reduction r = CheckMean(l, op, in, out);
  const Dims4 is = r.in;
  const std::int32_t reduced = r.reduced;
  const std::int64_t num = r.num;
  // |sum - zp_in * num| < num * 2^8 (int8) or num * 2^16 (int16).
  if (num >= (std::int64_t{1} << (wide ? 15 : 23))) {
    l.Fail(Fmt("%" PRId64 " elements per mean: the int32 sum could overflow",
               num));
  }
  const QuantizedMultiplier m = l.Multiplier(
      static_cast<double>(qi.scale) / static_cast<double>(qo.scale),
      "scale ratio");
  std::int32_t k = 63 - __builtin_clzll(static_cast<std::uint64_t>(num));
  if (k > 32) k = 32;
  if (k > 31 + m.shift) k = 31 + m.shift;
  const auto multiplier = static_cast<std::int32_t>(
      (static_cast<std::int64_t>(m.multiplier) << k) / num);
  const std::int32_t shift = m.shift - k;
  if (shift < -31 || shift > 30) l.Fail(Fmt("shift %d out of range", shift));
  l.Emit(Fmt("  k::%sMean(k::MeanParams{%s, %d, %" PRId64 ", %d, %d, %d},\n",
             wide ? "int16::" : "", is.Code().c_str(), reduced,
             qi.zero_point * num, multiplier, shift, qo.zero_point));
  if (wide) {
    l.Emit("      " + l.TypedAddr(in, "std::int16_t") + ", " +
           l.TypedAddr(out, "std::int16_t") + ");\n");
  } else {
    l.Emit("      " + l.Addr(in) + ", " + l.Addr(out) + ");\n");
  }
}

}  // namespace arenaplan::compile
