// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RESIZE_BILINEAR on NHWC int8 tensors. Matches TensorFlow Lite Micro's
// tensorflow/lite/micro/kernels/resize_bilinear.cc, whose int8 path is
// ResizeBilinearInteger of tensorflow/lite/kernels/internal/reference/
// resize_bilinear.h (built without TFLITE_SINGLE_ROUNDING): positions in
// units of 1/1024 of an input pixel,
//
//   scale = (1024 * in + out / 2) / out (integer division), or
//           (1024 * (in - 1) + (out - 1) / 2) / (out - 1) with align_corners
//           and out > 1;
//   s(i) = i * scale, or i * scale + scale / 2 - 512 with half_pixel_centers;
//   lo(i) = max(s / 1024, 0), hi(i) = min((s + 1023) / 1024, in - 1) (C
//   division, truncating toward zero); f(i) = s(i) - 1024 * lo(i);
//
//   acc = v(y_lo, x_lo) (1024 - f_y)(1024 - f_x) + v(y_hi, x_lo) f_y
//         (1024 - f_x) + v(y_lo, x_hi) (1024 - f_y) f_x + v(y_hi, x_hi) f_y f_x
//   out = (acc + (acc > 0 ? 2^19 : -2^19)) / 2^20, truncating toward zero
//         (round half away from zero), stored as int8.
//
// The generator evaluates lo, hi and f of every output row and column on
// the host (they depend only on the sizes) and passes them as tables of
// triples {lo, hi, f}; it refuses sizes for which lo or hi would leave the
// input (TFLM would read outside it). f lies in [-512, 1023], so every
// weight is at most 1536^2 in magnitude and |acc| <= 4 * 128 * 1536^2 <
// 2^31 - 2^19: int32 holds it (TFLM uses int64; the values are equal).
//
// Loop order: b, y, x ascending, then c; each element read then written.
// No overlap contract: an upscaling output outruns its input.
#ifndef ARENAPLAN_KERNELS_RESIZE_BILINEAR_HPP_
#define ARENAPLAN_KERNELS_RESIZE_BILINEAR_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct ResizeBilinearParams {
  Shape4 input;               ///< NHWC.
  std::int32_t out_h, out_w;  ///< Output rows and columns.
  /// out_h triples {lo, hi, f}: source rows in [0, input.h) and the
  /// weight of the upper one in 1/1024.
  const std::int32_t* rows;
  const std::int32_t* cols;  ///< out_w triples, the same for columns.
};

/// Bilinear resize (header comment). The output must not overlap the
/// input.
inline void ResizeBilinear(const ResizeBilinearParams& p,
                           const std::int8_t* input, std::int8_t* output) {
  const Shape4& s = p.input;
  std::int8_t* out = output;
  for (std::int32_t b = 0; b < s.n; ++b) {
    for (std::int32_t y = 0; y < p.out_h; ++y) {
      const std::int32_t* r = p.rows + 3 * y;
      const std::int8_t* lo_row = input + (b * s.h + r[0]) * s.w * s.c;
      const std::int8_t* hi_row = input + (b * s.h + r[1]) * s.w * s.c;
      const std::int32_t fy = r[2];
      for (std::int32_t x = 0; x < p.out_w; ++x) {
        const std::int32_t* q = p.cols + 3 * x;
        const std::int32_t fx = q[2];
        const std::int32_t w_ll = (1024 - fy) * (1024 - fx);
        const std::int32_t w_hl = fy * (1024 - fx);
        const std::int32_t w_lh = (1024 - fy) * fx;
        const std::int32_t w_hh = fy * fx;
        for (std::int32_t c = 0; c < s.c; ++c) {
          const std::int32_t acc =
              lo_row[q[0] * s.c + c] * w_ll + hi_row[q[0] * s.c + c] * w_hl +
              lo_row[q[1] * s.c + c] * w_lh + hi_row[q[1] * s.c + c] * w_hh;
          const std::int32_t half = acc > 0 ? (1 << 19) : -(1 << 19);
          *out++ = static_cast<std::int8_t>((acc + half) / (1 << 20));
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_RESIZE_BILINEAR_HPP_
