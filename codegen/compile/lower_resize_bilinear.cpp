// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RESIZE_BILINEAR on 4-D int8 tensors -> k::ResizeBilinear
// (kernels/.../resize_bilinear.hpp). The source rows and columns and their
// weights are computed here in TFLite's integer arithmetic
// (ComputeInterpolationValuesInteger of reference/resize_bilinear.h).
#include <algorithm>
#include <cinttypes>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

namespace {

/// {lo, hi, f} of every output index along one axis (resize_bilinear.hpp),
/// or fails when a source index would leave [0, in).
std::vector<std::int32_t> Triples(const Lowerer& l, std::int32_t in,
                                  std::int32_t out, bool align_corners,
                                  bool half_pixel_centers) {
  const std::int32_t scale =
      (align_corners && out > 1)
          ? ((1 << 10) * (in - 1) + (out - 1) / 2) / (out - 1)
          : ((1 << 10) * in + out / 2) / out;
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

}  // namespace

void LowerResizeBilinear(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 2) l.Fail("expected 2 inputs");
  const Tensor& in = l.Input(op, 0);
  const Tensor& out = l.Output(op);
  const auto& o = l.OptionsOf<tflite::ResizeBilinearOptions>(op);
  if (in.type != TensorType::kInt8) {
    l.Fail(l.Describe(in) + " is " + tflite::TensorTypeName(in.type) +
           "; RESIZE_BILINEAR takes INT8");
  }
  (void)MovedElementType(l, in, out);  // one type, one quantization
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
