// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// int8 TRANSPOSE_CONV (the gradient of CONV_2D; "deconvolution"). Matches
// TensorFlow Lite Micro's tensorflow/lite/micro/kernels/transpose_conv.cc
// (padding from ComputePaddingHeightWidth on the OUTPUT's size; per-channel
// multipliers from PopulateConvolutionQuantizationParams, in double) with
// tensorflow/lite/kernels/internal/reference/integer_ops/transpose_conv.h:
//
//   acc[b][oy][ox][oc] = sum over (iy, ix, ky, kx, ic) with
//       oy = iy * stride_h - pad_h + ky, ox = ix * stride_w - pad_w + kx
//       of (input[b][iy][ix][ic] - zp_in) * filter[oc][ky][kx][ic]
//   out = clamp(zp_out + MBQM(acc + bias[oc], M[oc], s[oc]), lo, hi).
//
// TFLM scatters every input element into an int32 scratch copy of the
// whole output, then requantizes. Here each output element gathers its
// terms instead: for a filter row ky, the input row is iy = (oy + pad_h -
// ky) / stride_h when that division is exact and iy lies in [0, in_h)
// (columns the same). The terms are the same integers and int32 addition
// is exact here (TFLM's accumulator is int32 as well), so the sums are
// equal; no scratch memory is needed.
//
// Loop order: b, oy, ox, oc; each output element written once after its
// reads. No overlap contract: an output pixel reads input pixels on both
// sides of its own position.
#ifndef ARENAPLAN_KERNELS_TRANSPOSE_CONV_HPP_
#define ARENAPLAN_KERNELS_TRANSPOSE_CONV_HPP_

#include <cstdint>

#include "arenaplan/kernels/conv.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

/// TRANSPOSE_CONV. `p` as for Conv2D (depth_multiplier unused; pad_h and
/// pad_w TFLM's padding of the output); filter: [out_c, kh, kw, in_c];
/// bias: [out_c] or nullptr; input [n, h, w, in_c], output [n, oh, ow,
/// out_c] NHWC. The output must not overlap the input.
inline void TransposeConv(const ConvParams& p, const Shape4& in_shape,
                          const std::int8_t* input, const Shape4& filter_shape,
                          const std::int8_t* filter, const std::int32_t* bias,
                          ChannelQuant quant, const Shape4& out_shape,
                          std::int8_t* output) {
  const std::int32_t kh = filter_shape.h, kw = filter_shape.w;
  const std::int32_t ic_n = in_shape.c;
  for (std::int32_t b = 0; b < out_shape.n; ++b) {
    for (std::int32_t oy = 0; oy < out_shape.h; ++oy) {
      for (std::int32_t ox = 0; ox < out_shape.w; ++ox) {
        for (std::int32_t oc = 0; oc < out_shape.c; ++oc) {
          std::int32_t acc = 0;
          for (std::int32_t ky = 0; ky < kh; ++ky) {
            const std::int32_t ty = oy + p.pad_h - ky;
            if (ty < 0 || ty % p.stride_h != 0) continue;
            const std::int32_t iy = ty / p.stride_h;
            if (iy >= in_shape.h) continue;
            for (std::int32_t kx = 0; kx < kw; ++kx) {
              const std::int32_t tx = ox + p.pad_w - kx;
              if (tx < 0 || tx % p.stride_w != 0) continue;
              const std::int32_t ix = tx / p.stride_w;
              if (ix >= in_shape.w) continue;
              const std::int8_t* in =
                  input + ((b * in_shape.h + iy) * in_shape.w + ix) * ic_n;
              const std::int8_t* f = filter + ((oc * kh + ky) * kw + kx) * ic_n;
              for (std::int32_t ic = 0; ic < ic_n; ++ic) {
                acc += (in[ic] + p.input_offset) * f[ic];
              }
            }
          }
          if (bias != nullptr) acc += bias[oc];
          const std::int32_t v =
              p.output_offset + MultiplyByQuantizedMultiplier(
                                    acc, quant.multiplier[oc], quant.shift[oc]);
          output[((b * out_shape.h + oy) * out_shape.w + ox) * out_shape.c +
                 oc] = ClampToInt8(v, p.act_min, p.act_max);
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_TRANSPOSE_CONV_HPP_
