// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RESIZE_NEAREST_NEIGHBOR on NHWC tensors, any element type. Matches
// TensorFlow Lite Micro's tensorflow/lite/micro/kernels/
// resize_nearest_neighbor.cc with tensorflow/lite/kernels/internal/
// reference/resize_nearest_neighbor.h: output pixel (b, y, x) copies the C
// elements of input pixel (b, rows[y], cols[x]). The source row and column
// of every output row and column (GetNearestNeighbor: the float scale
// in / out, or (in - 1) / (out - 1) with align_corners; the + 0.5 offset
// with half_pixel_centers; floor, or round with align_corners; clamped to
// the input) depend only on the sizes, so the generator computes them on
// the host in the same float arithmetic and passes them as tables.
//
// Loop order: b, y, x ascending, then c; each element read then written.
// No overlap contract: an upscaling output outruns its input (rows are
// re-read after later output rows are written).
#ifndef ARENAPLAN_KERNELS_RESIZE_NEAREST_NEIGHBOR_HPP_
#define ARENAPLAN_KERNELS_RESIZE_NEAREST_NEIGHBOR_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct ResizeNearestParams {
  Shape4 input;               ///< NHWC.
  std::int32_t out_h, out_w;  ///< Output rows and columns.
  const std::int32_t* rows;   ///< out_h source rows, in [0, input.h).
  const std::int32_t* cols;   ///< out_w source columns, in [0, input.w).
};

/// output[b][y][x][c] = input[b][rows[y]][cols[x]][c]. The output must not
/// overlap the input.
template <class T>
inline void ResizeNearestNeighbor(const ResizeNearestParams& p, const T* input,
                                  T* output) {
  const Shape4& s = p.input;
  T* out = output;
  for (std::int32_t b = 0; b < s.n; ++b) {
    for (std::int32_t y = 0; y < p.out_h; ++y) {
      for (std::int32_t x = 0; x < p.out_w; ++x) {
        const T* in = input + ((b * s.h + p.rows[y]) * s.w + p.cols[x]) * s.c;
        for (std::int32_t c = 0; c < s.c; ++c) *out++ = in[c];
      }
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_RESIZE_NEAREST_NEIGHBOR_HPP_
