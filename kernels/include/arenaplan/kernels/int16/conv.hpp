// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// CONV_2D and DEPTHWISE_CONV_2D with int16 activations and int8 weights
// ("16x8"), the readable form (the oracle of fast.hpp's DSP path). Matches
// TensorFlow Lite's reference_integer_ops ConvPerChannel and
// DepthwiseConvPerChannel for int16 input as TFLM's conv.cc and
// depthwise_conv.cc call them:
//
//   acc = sum over the in-bounds window of w * q_in     (no input offset:
//         int16 activations are symmetric, zero point 0)
//   acc += bias[oc]                                     (when there is one)
//   out = clamp(Requantize(acc, M[oc], s[oc]), act_min, act_max)
//         (no output offset: zero point 0)
//
// The accumulator has the bias's type `Acc`: int64 for an int64 bias or
// none (requantize.hpp's 64-bit form), int32 for an int32 bias (TFLM then
// accumulates in int32 and takes the two-rounding int32 requantization).
// ConvParams' input_offset and output_offset are not read (the generator
// passes 0). Dilation through DilatedConvParams, as conv.hpp.
//
// Loop order: the int8 reference's (conv.hpp): output pixels in row-major
// order, channels ascending, each output element written after its whole
// window is read (DepthwiseConv2D: input channel ic's taps for output
// channels ic * m .. ic * m + m - 1, ascending, as conv.hpp's). Overlap
// contract: conv.hpp's Conv2DOverlapDistance / DepthwiseConv2DOverlapDistance,
// counted in elements, times 2 bytes (overlap.hpp, ScaledOverlapDistance:
// int16 elements in and out, read and written whole; the int8 filter is a
// constant, outside the arena).
#ifndef ARENAPLAN_KERNELS_INT16_CONV_HPP_
#define ARENAPLAN_KERNELS_INT16_CONV_HPP_

#include <cstdint>

#include "arenaplan/kernels/conv.hpp"
#include "arenaplan/kernels/int16/requantize.hpp"

namespace arenaplan::kernels::int16 {

/// CONV_2D 16x8, the reference loops (fast.hpp's Conv2D dispatches to
/// them or to the DSP path). Filter [out_c, kh, kw, in_c]; `bias` (one per
/// output channel, or nullptr) of the accumulator's type Acc (int32 or
/// int64).
template <class Params, class Acc>
inline void Conv2DReference(const Params& p, const Shape4& in_shape,
                            const std::int16_t* input,
                            const Shape4& filter_shape,
                            const std::int8_t* filter, const Acc* bias,
                            ChannelQuant quant, const Shape4& out_shape,
                            std::int16_t* output) {
  const std::int32_t in_c = in_shape.c;
  for (std::int32_t b = 0; b < out_shape.n; ++b) {
    for (std::int32_t oy = 0; oy < out_shape.h; ++oy) {
      const std::int32_t y0 = oy * p.stride_h - p.pad_h;
      for (std::int32_t ox = 0; ox < out_shape.w; ++ox) {
        const std::int32_t x0 = ox * p.stride_w - p.pad_w;
        std::int16_t* out =
            output + ((b * out_shape.h + oy) * out_shape.w + ox) * out_shape.c;
        for (std::int32_t oc = 0; oc < out_shape.c; ++oc) {
          Acc acc = 0;
          for (std::int32_t ky = 0; ky < filter_shape.h; ++ky) {
            const std::int32_t y = y0 + ky * DilationH(p);
            if (y < 0 || y >= in_shape.h) continue;  // padding: adds 0
            for (std::int32_t kx = 0; kx < filter_shape.w; ++kx) {
              const std::int32_t x = x0 + kx * DilationW(p);
              if (x < 0 || x >= in_shape.w) continue;
              const std::int16_t* in =
                  input + ((b * in_shape.h + y) * in_shape.w + x) * in_c;
              const std::int8_t* w =
                  filter +
                  ((oc * filter_shape.h + ky) * filter_shape.w + kx) * in_c;
              for (std::int32_t ic = 0; ic < in_c; ++ic) {
                acc += static_cast<Acc>(in[ic] * w[ic]);
              }
            }
          }
          out[oc] = ChannelOutput(acc, bias, quant, oc, p.act_min, p.act_max);
        }
      }
    }
  }
}

/// DEPTHWISE_CONV_2D 16x8. Filter [1, kh, kw, out_c], out_c = in_c *
/// depth_multiplier; `bias` as Conv2D's.
template <class Params, class Acc>
inline void DepthwiseConv2D(const Params& p, const Shape4& in_shape,
                            const std::int16_t* input,
                            const Shape4& filter_shape,
                            const std::int8_t* filter, const Acc* bias,
                            ChannelQuant quant, const Shape4& out_shape,
                            std::int16_t* output) {
  for (std::int32_t b = 0; b < out_shape.n; ++b) {
    for (std::int32_t oy = 0; oy < out_shape.h; ++oy) {
      const std::int32_t y0 = oy * p.stride_h - p.pad_h;
      for (std::int32_t ox = 0; ox < out_shape.w; ++ox) {
        const std::int32_t x0 = ox * p.stride_w - p.pad_w;
        std::int16_t* out =
            output + ((b * out_shape.h + oy) * out_shape.w + ox) * out_shape.c;
        for (std::int32_t ic = 0; ic < in_shape.c; ++ic) {
          for (std::int32_t m = 0; m < p.depth_multiplier; ++m) {
            const std::int32_t oc = ic * p.depth_multiplier + m;
            Acc acc = 0;
            for (std::int32_t ky = 0; ky < filter_shape.h; ++ky) {
              const std::int32_t y = y0 + ky * DilationH(p);
              if (y < 0 || y >= in_shape.h) continue;
              for (std::int32_t kx = 0; kx < filter_shape.w; ++kx) {
                const std::int32_t x = x0 + kx * DilationW(p);
                if (x < 0 || x >= in_shape.w) continue;
                const std::int32_t in =
                    input[((b * in_shape.h + y) * in_shape.w + x) * in_shape.c +
                          ic];
                const std::int32_t w =
                    filter[(ky * filter_shape.w + kx) * filter_shape.c + oc];
                acc += static_cast<Acc>(in * w);
              }
            }
            out[oc] = ChannelOutput(acc, bias, quant, oc, p.act_min, p.act_max);
          }
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels::int16

#endif  // ARENAPLAN_KERNELS_INT16_CONV_HPP_
