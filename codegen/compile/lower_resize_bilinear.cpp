// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RESIZE_BILINEAR on 4-D int8 tensors -> k::ResizeBilinear
// (kernels/.../resize_bilinear.hpp). The source rows and columns and their
// weights are computed here in TFLite's integer arithmetic
// (ComputeInterpolationValuesInteger of reference/resize_bilinear.h).
// float32 tensors (type_rules.cpp) -> k::f32::ResizeBilinear
// (kernels/.../float/resize_bilinear.hpp), with ComputeInterpolationValues'
// float rows, columns and fractions computed here.
#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cmath>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

namespace {

/// {lo, hi, f} of every output index along one axis (resize_bilinear.hpp),
/// or fails when a source index would leave [0, in).
std::vector<std::int32_t> Triples(const Lowerer& l, std::int32_t in,
                                  std::int32_t out, bool align_corners,
                                  bool half_pixel_centers) {
  // TFLite computes the scale and the source positions in int32: sizes for
  // which the scale's numerator, or the last position plus 1023, leave
  // int32 are refused (there TFLite's own arithmetic overflows). Checked in
  // int64.
  const bool align = align_corners && out > 1;
  const std::int64_t in64 = in, out64 = out;
  const std::int64_t numerator = align
                                     ? (1 << 10) * (in64 - 1) + (out64 - 1) / 2
                                     : (1 << 10) * in64 + out64 / 2;
  const std::int64_t scale64 = numerator / (align ? out64 - 1 : out64);
  const std::int64_t last = (out64 - 1) * scale64 + scale64 / 2 + 1023;
  if (numerator > INT32_MAX || last > INT32_MAX) {
    l.Fail(
        Fmt("%d input and %d output positions overflow TFLite's 32-bit "
            "integer scale (1024 x %d)",
            in, out, in));
  }
  const auto scale = static_cast<std::int32_t>(scale64);
  std::vector<std::int32_t> v;
  for (std::int32_t i = 0; i < out; ++i) {
    const std::int32_t s =
        half_pixel_centers ? i * scale + scale / 2 - (1 << 9) : i * scale;
    const std::int32_t lo = std::max(s / (1 << 10), 0);
    const std::int32_t hi = std::min((s + (1 << 10) - 1) / (1 << 10), in - 1);
    if (lo > in - 1 || hi < 0) {
      l.Fail(
          Fmt("output index %d reads input index %d of %d (TFLite's "
              "integer scale %d / 1024 overshoots)",
              i, lo, in, scale));
    }
    v.insert(v.end(), {lo, hi, s - (1 << 10) * lo});
  }
  return v;
}

/// float a op b rounded once (the double result of two floats' product,
/// sum or difference rounded to float is the float operation's result).
float RoundToFloat(double v) { return static_cast<float>(v); }

/// ComputeInterpolationValues (reference/resize_bilinear.h) of every output
/// index along one axis, in float: {lo, hi} pairs into `bounds`, the
/// fraction scaled - lo into `frac`.
void FloatInterpolation(std::int32_t in, std::int32_t out, bool align_corners,
                        bool half_pixel_centers,
                        std::vector<std::int32_t>& bounds,
                        std::vector<float>& frac) {
  float scale = RoundToFloat(static_cast<double>(static_cast<float>(in)) /
                             static_cast<double>(static_cast<float>(out)));
  if (align_corners && out > 1) {
    scale = RoundToFloat(static_cast<double>(static_cast<float>(in - 1)) /
                         static_cast<double>(static_cast<float>(out - 1)));
  }
  for (std::int32_t i = 0; i < out; ++i) {
    const auto value = static_cast<double>(static_cast<float>(i));
    const float scaled =
        half_pixel_centers
            ? RoundToFloat(static_cast<double>(RoundToFloat(
                               static_cast<double>(RoundToFloat(value + 0.5)) *
                               static_cast<double>(scale))) -
                           0.5)
            : RoundToFloat(value * static_cast<double>(scale));
    const std::int32_t lo =
        std::max(static_cast<std::int32_t>(std::floor(scaled)), 0);
    const std::int32_t hi =
        std::min(static_cast<std::int32_t>(std::ceil(scaled)), in - 1);
    bounds.insert(bounds.end(), {lo, hi});
    frac.push_back(RoundToFloat(static_cast<double>(scaled) -
                                static_cast<double>(static_cast<float>(lo))));
  }
}

/// RESIZE_BILINEAR of float32 tensors of shapes `is` -> `os`.
void LowerResizeBilinearF32(Lowerer& l, const tflite::Operator& op,
                            const Dims4& is, const Dims4& os,
                            const tflite::ResizeBilinearOptions& o) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& out = l.Output(op);
  std::vector<std::int32_t> rows, cols;
  std::vector<float> dy, dx;
  FloatInterpolation(is.h, os.h, o.align_corners, o.half_pixel_centers, rows,
                     dy);
  FloatInterpolation(is.w, os.w, o.align_corners, o.half_pixel_centers, cols,
                     dx);
  const std::size_t k = l.OperatorIndex();
  const std::string r =
      l.EmitInt32Array(Fmt("kOp%zuRows", k),
                       Fmt("operator %zu: {y0, y1} per output row", k), rows);
  const std::string c = l.EmitInt32Array(
      Fmt("kOp%zuCols", k), Fmt("operator %zu: {x0, x1} per output column", k),
      cols);
  const std::string fr = l.EmitFloatArray(
      Fmt("kOp%zuRowFrac", k), Fmt("operator %zu: dy per output row", k), dy);
  const std::string fc =
      l.EmitFloatArray(Fmt("kOp%zuColFrac", k),
                       Fmt("operator %zu: dx per output column", k), dx);
  l.Emit(Fmt("  k::f32::ResizeBilinear(k::f32::ResizeBilinearParams{%s, %d, "
             "%d, %s, %s, %s, %s},\n      ",
             is.Code().c_str(), os.h, os.w, r.c_str(), c.c_str(), fr.c_str(),
             fc.c_str()) +
         l.TypedAddr(in, "float") + ", " + l.TypedAddr(out, "float") + ");\n");
}

}  // namespace

void LowerResizeBilinear(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 2) l.Fail("expected 2 inputs");
  const Tensor& in = l.Input(op, 0);
  const Tensor& out = l.Output(op);
  const auto& o = l.OptionsOf<tflite::ResizeBilinearOptions>(op);
  const bool is_float = CheckTypes(l, op)[0] == TensorType::kFloat32;
  if (!is_float) (void)MovedElementType(l, in, out);  // one quantization
  if (o.align_corners && o.half_pixel_centers) {
    l.Fail("align_corners and half_pixel_centers are both set");
  }
  if (in.shape.size() != 4 || out.shape.size() != 4) {
    l.Fail("input and output must have 4 dimensions");
  }
  const Dims4 is = l.Shape(in), os = l.Shape(out);
  if (os.n != is.n || os.c != is.c) {
    l.Fail("output batch or channels differ from the input's");
  }
  const Tensor& size = l.Input(op, 1);
  if (!l.model().IsConstant(size)) {
    l.Fail("the size input is not constant (TFLM requires a constant)");
  }
  const auto sz = l.Int32Values(size);
  if (sz.size() != 2 || sz[0] != os.h || sz[1] != os.w) {
    l.Fail("the size input does not match the output's shape");
  }
  if (is_float) {
    LowerResizeBilinearF32(l, op, is, os, o);
    return;
  }
  const std::size_t k = l.OperatorIndex();
  const std::string r = l.EmitInt32Array(
      Fmt("kOp%zuRows", k),
      Fmt("operator %zu: {lo, hi, weight / 1024} per output row", k),
      Triples(l, is.h, os.h, o.align_corners, o.half_pixel_centers));
  const std::string c = l.EmitInt32Array(
      Fmt("kOp%zuCols", k),
      Fmt("operator %zu: {lo, hi, weight / 1024} per output column", k),
      Triples(l, is.w, os.w, o.align_corners, o.half_pixel_centers));
  l.Emit(Fmt("  k::ResizeBilinear(k::ResizeBilinearParams{%s, %d, %d, %s, "
             "%s},\n      ",
             is.Code().c_str(), os.h, os.w, r.c_str(), c.c_str()) +
         l.Addr(in) + ", " + l.Addr(out) + ");\n");
}

}  // namespace arenaplan::compile
