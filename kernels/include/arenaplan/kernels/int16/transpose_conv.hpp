// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TRANSPOSE_CONV with int16 activations and int8 weights ("16x8"), the
// readable form. Matches TensorFlow Lite's reference_integer_ops
// TransposeConv for int16 input as TFLM's transpose_conv.cc calls it: every
// input element times every filter tap it reaches, summed per output
// element in 64 bits (no input offset: zero point 0), plus the int64 bias
// (TFLM widens an int16 bias to int64; the generator does that on the host),
// requantized by requantize.hpp's 64-bit form and clamped (no output offset).
//
// TFLM scatters the products into an int64 scratch buffer of the whole
// output; this kernel gathers, for each output element, the products that
// land on it. Both sum the same integers exactly (|sum| stays far below
// 2^63: each product is below 2^22 in magnitude), so the order does not
// change the value, and no scratch buffer is needed.
//
// Filter [out_c, kh, kw, in_c]. Output elements in row-major order; no
// overlap contract (the generator plans the tensors apart).
#ifndef ARENAPLAN_KERNELS_INT16_TRANSPOSE_CONV_HPP_
#define ARENAPLAN_KERNELS_INT16_TRANSPOSE_CONV_HPP_

#include <cstdint>

#include "arenaplan/kernels/conv.hpp"
#include "arenaplan/kernels/int16/requantize.hpp"

namespace arenaplan::kernels::int16 {

/// TRANSPOSE_CONV 16x8 (header comment); `bias` one int64 per output
/// channel, or nullptr. ConvParams' offsets and depth_multiplier are not
/// read.
inline void TransposeConv(const ConvParams& p, const Shape4& in_shape,
                          const std::int16_t* input, const Shape4& filter_shape,
                          const std::int8_t* filter, const std::int64_t* bias,
                          ChannelQuant quant, const Shape4& out_shape,
                          std::int16_t* output) {
  const std::int32_t kh = filter_shape.h, kw = filter_shape.w;
  const std::int32_t ic_n = in_shape.c;
  for (std::int32_t b = 0; b < out_shape.n; ++b) {
    for (std::int32_t oy = 0; oy < out_shape.h; ++oy) {
      for (std::int32_t ox = 0; ox < out_shape.w; ++ox) {
        for (std::int32_t oc = 0; oc < out_shape.c; ++oc) {
          std::int64_t acc = 0;
          for (std::int32_t ky = 0; ky < kh; ++ky) {
            // Input row iy reaches output row iy * stride - pad + ky.
            const std::int32_t ty = oy + p.pad_h - ky;
            if (ty < 0 || ty % p.stride_h != 0) continue;
            const std::int32_t iy = ty / p.stride_h;
            if (iy >= in_shape.h) continue;
            for (std::int32_t kx = 0; kx < kw; ++kx) {
              const std::int32_t tx = ox + p.pad_w - kx;
              if (tx < 0 || tx % p.stride_w != 0) continue;
              const std::int32_t ix = tx / p.stride_w;
              if (ix >= in_shape.w) continue;
              const std::int16_t* in =
                  input + ((b * in_shape.h + iy) * in_shape.w + ix) * ic_n;
              const std::int8_t* f = filter + ((oc * kh + ky) * kw + kx) * ic_n;
              for (std::int32_t ic = 0; ic < ic_n; ++ic) {
                acc += static_cast<std::int32_t>(in[ic]) * f[ic];
              }
            }
          }
          output[((b * out_shape.h + oy) * out_shape.w + ox) * out_shape.c +
                 oc] =
              ChannelOutput(acc, bias, quant, oc, p.act_min, p.act_max);
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels::int16

#endif  // ARENAPLAN_KERNELS_INT16_TRANSPOSE_CONV_HPP_
