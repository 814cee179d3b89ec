// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// float32 RESIZE_BILINEAR, as TensorFlow Lite's reference
// ResizeBilinear<float> computes each output element (b, y, x, c):
//
//   v = in[b][y0][x0][c] * (1 - dy) * (1 - dx)
//     + in[b][y1][x0][c] * dy * (1 - dx)
//     + in[b][y0][x1][c] * (1 - dy) * dx
//     + in[b][y1][x1][c] * dy * dx
//     + 0.0f
//
// left to right, every product and sum rounded to float (so -0.0 becomes
// +0.0 in the last sum). y0, y1 and dy = input_y - y0 of each output row
// (x0, x1, dx of each column) are ComputeInterpolationValues' results,
// computed by the generator in the same float arithmetic
// (codegen/compile/lower_resize_bilinear.cpp) and passed as tables.
//
// No overlap contract: the output gets its own bytes.
#ifndef ARENAPLAN_KERNELS_FLOAT_RESIZE_BILINEAR_HPP_
#define ARENAPLAN_KERNELS_FLOAT_RESIZE_BILINEAR_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels::f32 {

struct ResizeBilinearParams {
  Shape4 input;               ///< NHWC.
  std::int32_t out_h, out_w;  ///< Output rows, columns.
  const std::int32_t* rows;   ///< {y0, y1} per output row.
  const std::int32_t* cols;   ///< {x0, x1} per output column.
  const float* row_frac;      ///< dy per output row.
  const float* col_frac;      ///< dx per output column.
};

/// input [n, h, w, c] -> output [n, out_h, out_w, c] (header comment),
/// not overlapping the input.
inline void ResizeBilinear(const ResizeBilinearParams& p, const float* input,
                           float* output) {
  const Shape4& s = p.input;
  float* out = output;
  for (std::int32_t b = 0; b < s.n; ++b) {
    for (std::int32_t y = 0; y < p.out_h; ++y) {
      const float dy = p.row_frac[y];
      const float* r0 = input + (b * s.h + p.rows[2 * y]) * s.w * s.c;
      const float* r1 = input + (b * s.h + p.rows[2 * y + 1]) * s.w * s.c;
      for (std::int32_t x = 0; x < p.out_w; ++x) {
        const float dx = p.col_frac[x];
        const std::int32_t x0 = p.cols[2 * x] * s.c;
        const std::int32_t x1 = p.cols[2 * x + 1] * s.c;
        for (std::int32_t c = 0; c < s.c; ++c) {
          *out++ = r0[x0 + c] * (1.0f - dy) * (1.0f - dx) +
                   r1[x0 + c] * dy * (1.0f - dx) +
                   r0[x1 + c] * (1.0f - dy) * dx + r1[x1 + c] * dy * dx + 0.0f;
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels::f32

#endif  // ARENAPLAN_KERNELS_FLOAT_RESIZE_BILINEAR_HPP_
