// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// float32 AVERAGE_POOL_2D and MAX_POOL_2D, as TensorFlow Lite's reference
// AveragePool(float) and MaxPool(float) compute them, per output element
// and channel over the window's taps inside the input, in (ky, kx) order:
//
//   AVERAGE: total = 0.0f, total += x per tap; count = taps (as a float);
//            out = Activate(total / count)
//   MAX:     m = lowest float; m = (m < x) ? x : m per tap (std::max: a NaN
//            tap is passed over); out = Activate(m)
//
// Every window has a tap inside the input: SAME padding before is less
// than the window, VALID has none (tflite::CheckPool).
//
// Loop order: pooling.hpp's (output elements (n, y, x, c) ascending, each
// written once after its window's taps of channel c are read). Overlap
// contract: pooling.hpp's PoolOverlapDistance, counted in elements, times
// 4 bytes (overlap.hpp, ScaledOverlapDistance: input and output elements
// are both 4 bytes, read and written whole).
#ifndef ARENAPLAN_KERNELS_FLOAT_POOLING_HPP_
#define ARENAPLAN_KERNELS_FLOAT_POOLING_HPP_

#include <cstdint>

#include "arenaplan/kernels/float/activation.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels::f32 {

struct PoolParams {
  std::int32_t filter_h, filter_w;  ///< Window rows, columns.
  std::int32_t stride_h, stride_w;  ///< Input rows / columns per step.
  std::int32_t pad_h, pad_w;        ///< Padding before row / column 0.
  ActivationRange act;              ///< The fused activation's clamp.
};

template <bool kMax>
inline void Pool(const PoolParams& p, const Shape4& is, const float* input,
                 const Shape4& os, float* output) {
  for (std::int32_t n = 0; n < os.n; ++n) {
    for (std::int32_t y = 0; y < os.h; ++y) {
      const std::int32_t y0 = y * p.stride_h - p.pad_h;
      const std::int32_t ky0 = y0 < 0 ? -y0 : 0;
      const std::int32_t ky1 = is.h - y0 < p.filter_h ? is.h - y0 : p.filter_h;
      for (std::int32_t x = 0; x < os.w; ++x) {
        const std::int32_t x0 = x * p.stride_w - p.pad_w;
        const std::int32_t kx0 = x0 < 0 ? -x0 : 0;
        const std::int32_t kx1 =
            is.w - x0 < p.filter_w ? is.w - x0 : p.filter_w;
        for (std::int32_t c = 0; c < os.c; ++c) {
          float acc = kMax ? -0x1.fffffep+127f : 0.0f;  // lowest float
          float count = 0.0f;
          for (std::int32_t ky = ky0; ky < ky1; ++ky) {
            for (std::int32_t kx = kx0; kx < kx1; ++kx) {
              const float v =
                  input[((n * is.h + y0 + ky) * is.w + x0 + kx) * is.c + c];
              if (kMax) {
                acc = acc < v ? v : acc;
              } else {
                acc += v;
                count += 1.0f;
              }
            }
          }
          output[((n * os.h + y) * os.w + x) * os.c + c] =
              Activate(kMax ? acc : acc / count, p.act);
        }
      }
    }
  }
}

/// AVERAGE_POOL_2D: input [n, h, w, c] -> output [n, oh, ow, c], starting
/// at least the contract's distance (header comment) below the input.
inline void AveragePool(const PoolParams& p, const Shape4& input_shape,
                        const float* input, const Shape4& output_shape,
                        float* output) {
  Pool<false>(p, input_shape, input, output_shape, output);
}

/// MAX_POOL_2D: input [n, h, w, c] -> output [n, oh, ow, c], starting at
/// least the contract's distance (header comment) below the input.
inline void MaxPool(const PoolParams& p, const Shape4& input_shape,
                    const float* input, const Shape4& output_shape,
                    float* output) {
  Pool<true>(p, input_shape, input, output_shape, output);
}

}  // namespace arenaplan::kernels::f32

#endif  // ARENAPLAN_KERNELS_FLOAT_POOLING_HPP_
