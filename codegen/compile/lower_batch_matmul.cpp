// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// BATCH_MATMUL of int8 tensors (rank 2 to 5; either operand may be a
// constant; adj_x / adj_y as strides; batch dimensions broadcast) ->
// k::BatchMatMul (kernels/include/arenaplan/kernels/batch_matmul.hpp), with
// TFLM's multiplier double(float(s_x * s_y)) / double(s_out).
#include <algorithm>
#include <cinttypes>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

void LowerBatchMatmul(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 2) l.Fail("expected 2 inputs");
  const Tensor& x = l.Input(op, 0);
  const Tensor& y = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  const auto& o = l.OptionsOf<tflite::BatchMatMulOptions>(op);
  const Affine qx = l.Int8Activation(x), qy = l.Int8Activation(y),
               qo = l.Int8Activation(out);
  const std::size_t xr = x.shape.size(), yr = y.shape.size();
  if (xr < 2 || xr > 5 || yr < 2 || yr > 5) {
    l.Fail(Fmt("operand ranks %zu and %zu: BATCH_MATMUL takes 2 to 5", xr, yr));
  }
  const std::size_t rank = std::max(xr, yr);
  // Both shapes extended to `rank` with leading 1s.
  auto dim = [&](const Tensor& t, std::size_t i) -> std::int32_t {
    const std::size_t pad = rank - t.shape.size();
    return i < pad ? 1 : t.shape[i - pad];
  };
  for (const Tensor* t : {&x, &y}) {
    for (std::int32_t d : t->shape) {
      if (d <= 0) l.Fail(l.Describe(*t) + " has a dynamic or empty dimension");
    }
  }
  const std::int32_t x_rows = dim(x, rank - 2), x_cols = dim(x, rank - 1);
  const std::int32_t y_rows = dim(y, rank - 2), y_cols = dim(y, rank - 1);
  const std::int32_t rows = o.adj_x ? x_cols : x_rows;
  const std::int32_t depth = o.adj_x ? x_rows : x_cols;
  const std::int32_t y_depth = o.adj_y ? y_cols : y_rows;
  const std::int32_t cols = o.adj_y ? y_rows : y_cols;
  if (depth != y_depth) {
    l.Fail(Fmt("the operands' inner dimensions differ (%d and %d)", depth,
               y_depth));
  }
  // Batch dimensions: output, and each operand's element strides (0 where
  // it is broadcast).
  std::vector<std::int32_t> expect;
  std::int32_t batch[3] = {1, 1, 1}, xs[3] = {0, 0, 0}, ys[3] = {0, 0, 0};
  std::int32_t x_step = x_rows * x_cols, y_step = y_rows * y_cols;
  const std::size_t nb = rank - 2;
  for (std::size_t i = nb; i-- > 0;) {
    const std::int32_t a = dim(x, i), b = dim(y, i);
    if (a != b && a != 1 && b != 1) {
      l.Fail(
          Fmt("batch dimension %zu does not broadcast (%d and %d)", i, a, b));
    }
    const std::size_t slot = 3 - nb + i;
    batch[slot] = std::max(a, b);
    xs[slot] = a == 1 ? 0 : x_step;
    ys[slot] = b == 1 ? 0 : y_step;
    x_step *= a;
    y_step *= b;
  }
  for (std::size_t i = 0; i < nb; ++i) expect.push_back(batch[3 - nb + i]);
  expect.push_back(rows);
  expect.push_back(cols);
  if (out.shape != expect) {
    l.Fail("output shape " + tflite::ShapeText(out.shape) + " is not " +
           tflite::ShapeText(expect));
  }
  if (depth > 33024) {
    l.Fail(Fmt("inner dimension %d could overflow the int32 sum", depth));
  }
  const float product = qx.scale * qy.scale;
  const QuantizedMultiplier m =
      l.Multiplier(static_cast<double>(product) / static_cast<double>(qo.scale),
                   "output multiplier");
  const std::string xa = l.model().IsConstant(x) ? l.ConstInt8(x) : l.Addr(x);
  const std::string ya = l.model().IsConstant(y) ? l.ConstInt8(y) : l.Addr(y);
  l.Emit(
      Fmt("  k::BatchMatMul(k::BatchMatMulParams{%d, %d, %d, %d, %d, "
          "{%d, %d, %d}, {%d, %d, %d}, {%d, %d, %d}, %d, %d, %d, %d, %d, "
          "%d, %d},\n",
          qx.zero_point, qy.zero_point, qo.zero_point, m.multiplier, m.shift,
          batch[0], batch[1], batch[2], xs[0], xs[1], xs[2], ys[0], ys[1],
          ys[2], rows, depth, cols, o.adj_x ? 1 : x_cols, o.adj_x ? x_cols : 1,
          o.adj_y ? 1 : y_cols, o.adj_y ? y_cols : 1));
  l.Emit("      " + xa + ", " + ya + ", " + l.Addr(out) + ");\n");
}

}  // namespace arenaplan::compile
