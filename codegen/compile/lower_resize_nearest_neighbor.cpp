// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RESIZE_NEAREST_NEIGHBOR on 4-D int8 / int16 / int32 / float32 tensors
// (type_rules.cpp) ->
// k::ResizeNearestNeighbor (kernels/.../resize_nearest_neighbor.hpp). The
// source rows and columns are computed here as TFLite's reference
// GetNearestNeighbor computes them (float scale, floor or round, clamp).
#include <algorithm>
#include <cinttypes>
#include <cmath>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

namespace {

/// TFLite's GetNearestNeighbor (reference/resize_nearest_neighbor.h), in
/// the same float arithmetic.
std::int32_t NearestSource(std::int32_t out_index, std::int32_t in_size,
                           std::int32_t out_size, bool align_corners,
                           bool half_pixel_centers) {
  const float scale =
      (align_corners && out_size > 1)
          ? static_cast<float>(in_size - 1) / static_cast<float>(out_size - 1)
          : static_cast<float>(in_size) / static_cast<float>(out_size);
  const float offset = half_pixel_centers ? 0.5f : 0.0f;
  const float at = (static_cast<float>(out_index) + offset) * scale;
  std::int32_t v =
      std::min(align_corners ? static_cast<std::int32_t>(std::round(at))
                             : static_cast<std::int32_t>(std::floor(at)),
               in_size - 1);
  if (half_pixel_centers) v = std::max(0, v);
  return v;
}

}  // namespace

void LowerResizeNearestNeighbor(Lowerer& l, const tflite::Operator& op) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& out = l.Output(op);
  const auto& o = l.OptionsOf<tflite::ResizeNearestNeighborOptions>(op);
  const char* ctype = RuledMovedType(l, op, in, out);
  if (in.shape.size() != 4 || out.shape.size() != 4) {
    l.Fail("input and output must have 4 dimensions");
  }
  const Dims4 is = l.Shape(in), os = l.Shape(out);
  if (os.n != is.n || os.c != is.c) {
    l.Fail("output batch or channels differ from the input's");
  }
  // The size input, when constant, must agree with the output's shape.
  if (op.inputs.size() >= 2 && op.inputs[1] >= 0 &&
      l.model().IsConstant(l.Input(op, 1))) {
    const auto size = l.Int32Values(l.Input(op, 1));
    if (size.size() != 2 || size[0] != os.h || size[1] != os.w) {
      l.Fail("the size input does not match the output's shape");
    }
  }
  std::vector<std::int32_t> rows, cols;
  for (std::int32_t y = 0; y < os.h; ++y) {
    rows.push_back(
        NearestSource(y, is.h, os.h, o.align_corners, o.half_pixel_centers));
  }
  for (std::int32_t x = 0; x < os.w; ++x) {
    cols.push_back(
        NearestSource(x, is.w, os.w, o.align_corners, o.half_pixel_centers));
  }
  const std::size_t k = l.OperatorIndex();
  const std::string r =
      l.EmitInt32Array(Fmt("kOp%zuRows", k),
                       Fmt("operator %zu: source row per output row", k), rows);
  const std::string c = l.EmitInt32Array(
      Fmt("kOp%zuCols", k),
      Fmt("operator %zu: source column per output column", k), cols);
  l.Emit(Fmt("  k::ResizeNearestNeighbor<%s>(k::ResizeNearestParams{%s, %d, "
             "%d, %s, %s},\n      ",
             ctype, is.Code().c_str(), os.h, os.w, r.c_str(), c.c_str()) +
         l.TypedAddr(in, ctype) + ", " + l.TypedAddr(out, ctype) + ");\n");
}

}  // namespace arenaplan::compile
