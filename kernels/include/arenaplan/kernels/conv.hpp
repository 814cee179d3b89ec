// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// int8 CONV_2D and DEPTHWISE_CONV_2D, reference (readable) loops. Int8
// activations are asymmetric (real = scale * (q - zero_point)), weights are
// symmetric per output channel (zero point 0), biases int32 with scale
// input_scale * weight_scale[c] and zero point 0 (TFLite quantization
// specification). Dilation factor 1 only: the generator rejects others.
#ifndef ARENAPLAN_KERNELS_CONV_HPP_
#define ARENAPLAN_KERNELS_CONV_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

/// Geometry and quantization of one convolution.
struct ConvParams {
  std::int32_t input_offset;   ///< Minus the input zero point.
  std::int32_t output_offset;  ///< The output zero point.
  std::int32_t act_min;        ///< Fused activation as an int8 range,
  std::int32_t act_max;        ///< both ends included.
  std::int32_t stride_h, stride_w;
  /// Rows above / columns left of the input that are implicit padding
  /// (padding holds the input zero point, i.e. real 0).
  std::int32_t pad_h, pad_w;
  std::int32_t depth_multiplier;  ///< Depthwise only: out_c = in_c * this.
};

/// CONV_2D. filter: [out_c, kh, kw, in_c]; bias: [out_c] or nullptr;
/// input [n, h, w, in_c] and output [n, oh, ow, out_c] NHWC. The output must
/// not overlap the input.
inline void Conv2D(const ConvParams& p, const Shape4& in_shape,
                   const std::int8_t* input, const Shape4& filter_shape,
                   const std::int8_t* filter, const std::int32_t* bias,
                   ChannelQuant quant, const Shape4& out_shape,
                   std::int8_t* output) {
  const std::int32_t in_c = in_shape.c;
  for (std::int32_t b = 0; b < out_shape.n; ++b) {
    for (std::int32_t oy = 0; oy < out_shape.h; ++oy) {
      const std::int32_t y0 = oy * p.stride_h - p.pad_h;
      for (std::int32_t ox = 0; ox < out_shape.w; ++ox) {
        const std::int32_t x0 = ox * p.stride_w - p.pad_w;
        std::int8_t* out =
            output + ((b * out_shape.h + oy) * out_shape.w + ox) * out_shape.c;
        for (std::int32_t oc = 0; oc < out_shape.c; ++oc) {
          std::int32_t acc = 0;
          for (std::int32_t ky = 0; ky < filter_shape.h; ++ky) {
            const std::int32_t y = y0 + ky;
            if (y < 0 || y >= in_shape.h) continue;  // padding: adds 0
            for (std::int32_t kx = 0; kx < filter_shape.w; ++kx) {
              const std::int32_t x = x0 + kx;
              if (x < 0 || x >= in_shape.w) continue;
              const std::int8_t* in =
                  input + ((b * in_shape.h + y) * in_shape.w + x) * in_c;
              const std::int8_t* w =
                  filter +
                  ((oc * filter_shape.h + ky) * filter_shape.w + kx) * in_c;
              for (std::int32_t ic = 0; ic < in_c; ++ic) {
                acc += (in[ic] + p.input_offset) * w[ic];
              }
            }
          }
          if (bias != nullptr) acc += bias[oc];
          acc = MultiplyByQuantizedMultiplier(acc, quant.multiplier[oc],
                                              quant.shift[oc]);
          out[oc] = ClampToInt8(acc + p.output_offset, p.act_min, p.act_max);
        }
      }
    }
  }
}

/// DEPTHWISE_CONV_2D. filter: [1, kh, kw, out_c] with
/// out_c = in_c * depth_multiplier; output channel ic * depth_multiplier + m
/// reads input channel ic. The output must not overlap the input.
inline void DepthwiseConv2D(const ConvParams& p, const Shape4& in_shape,
                            const std::int8_t* input,
                            const Shape4& filter_shape,
                            const std::int8_t* filter, const std::int32_t* bias,
                            ChannelQuant quant, const Shape4& out_shape,
                            std::int8_t* output) {
  for (std::int32_t b = 0; b < out_shape.n; ++b) {
    for (std::int32_t oy = 0; oy < out_shape.h; ++oy) {
      const std::int32_t y0 = oy * p.stride_h - p.pad_h;
      for (std::int32_t ox = 0; ox < out_shape.w; ++ox) {
        const std::int32_t x0 = ox * p.stride_w - p.pad_w;
        std::int8_t* out =
            output + ((b * out_shape.h + oy) * out_shape.w + ox) * out_shape.c;
        for (std::int32_t ic = 0; ic < in_shape.c; ++ic) {
          for (std::int32_t m = 0; m < p.depth_multiplier; ++m) {
            const std::int32_t oc = ic * p.depth_multiplier + m;
            std::int32_t acc = 0;
            for (std::int32_t ky = 0; ky < filter_shape.h; ++ky) {
              const std::int32_t y = y0 + ky;
              if (y < 0 || y >= in_shape.h) continue;
              for (std::int32_t kx = 0; kx < filter_shape.w; ++kx) {
                const std::int32_t x = x0 + kx;
                if (x < 0 || x >= in_shape.w) continue;
                const std::int32_t in =
                    input[((b * in_shape.h + y) * in_shape.w + x) * in_shape.c +
                          ic];
                const std::int32_t w =
                    filter[(ky * filter_shape.w + kx) * filter_shape.c + oc];
                acc += (in + p.input_offset) * w;
              }
            }
            if (bias != nullptr) acc += bias[oc];
            acc = MultiplyByQuantizedMultiplier(acc, quant.multiplier[oc],
                                                quant.shift[oc]);
            out[oc] = ClampToInt8(acc + p.output_offset, p.act_min, p.act_max);
          }
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_CONV_HPP_
