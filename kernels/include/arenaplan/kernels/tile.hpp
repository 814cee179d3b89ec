// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TILE of NHWC tensors (at most 4 dimensions), any element type. TensorFlow
// Lite Micro has no TILE kernel; this follows TensorFlow Lite's
// tensorflow/lite/kernels/tile.cc (the operator's definition, numpy.tile):
// output dimension i is input dimension i times multiples[i], and
//
//   output[n][h][w][c] = input[n % N][h % H][w % W][c % C].
//
// Loop order: output elements in row-major order, each read then written.
// No overlap contract (the input is read again for every repetition).
#ifndef ARENAPLAN_KERNELS_TILE_HPP_
#define ARENAPLAN_KERNELS_TILE_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct TileParams {
  Shape4 input;   ///< NHWC.
  Shape4 output;  ///< Each dimension a multiple of the input's.
};

/// output = input repeated along every dimension (header comment). The
/// output must not overlap the input.
template <class T>
inline void Tile(const TileParams& p, const T* input, T* output) {
  const Shape4& s = p.input;
  T* out = output;
  for (std::int32_t n = 0; n < p.output.n; ++n) {
    for (std::int32_t h = 0; h < p.output.h; ++h) {
      for (std::int32_t w = 0; w < p.output.w; ++w) {
        const T* row =
            input + (((n % s.n) * s.h + h % s.h) * s.w + w % s.w) * s.c;
        for (std::int32_t c = 0; c < p.output.c; ++c) *out++ = row[c % s.c];
      }
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_TILE_HPP_
