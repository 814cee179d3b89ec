// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// float32 CONV_2D and DEPTHWISE_CONV_2D (TRANSPOSE_CONV: below), as
// TensorFlow Lite's reference Conv(float) and DepthwiseConv(float) compute
// them, for each output element (n, y, x, oc):
//
//   total = 0.0f
//   for ky, kx (window taps in order), skipping taps outside the input:
//     CONV_2D:   for ic in order: total += in[n][iy][ix][ic] *
//     f[oc][ky][kx][ic] DEPTHWISE: total += in[n][iy][ix][oc / m] *
//     f[0][ky][kx][oc]
//   out = Activate(total + (bias ? bias[oc] : 0.0f))
//
// with iy = y * stride_h - pad_h + ky * dilation_h (ix likewise) and m the
// depth multiplier; each product and sum rounded to float (float.hpp). A
// tap outside the input adds nothing (not a product with 0, which would
// turn a -0.0 total into +0.0 or an infinity times 0 into NaN).
//
// Loop order (CONV_2D, DEPTHWISE_CONV_2D): output elements (n, y, x, oc)
// ascending, each written once after all its window's reads, as conv.hpp's
// int8 kernels. Overlap contract: conv.hpp's Conv2DOverlapDistance /
// DepthwiseConv2DOverlapDistance, counted in elements, times 4 bytes
// (overlap.hpp, ScaledOverlapDistance: float elements in and out, read and
// written whole). TRANSPOSE_CONV: no contract (the output gets its own
// bytes).
#ifndef ARENAPLAN_KERNELS_FLOAT_CONV_HPP_
#define ARENAPLAN_KERNELS_FLOAT_CONV_HPP_

#include <cstdint>

#include "arenaplan/kernels/float/activation.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels::f32 {

struct ConvParams {
  ActivationRange act;                  ///< The fused activation's clamp.
  std::int32_t stride_h, stride_w;      ///< Input rows / columns per step.
  std::int32_t pad_h, pad_w;            ///< Padding before row / column 0.
  std::int32_t dilation_h, dilation_w;  ///< Input rows / columns per tap.
  std::int32_t depth_multiplier;        ///< DEPTHWISE_CONV_2D; 1 otherwise.
};

/// The sum over one output element's window (header comment); `depthwise`
/// reads input channel oc / depth_multiplier and filter [1, kh, kw, oc].
template <bool kDepthwise>
[[nodiscard]] inline float WindowSum(const ConvParams& p, const Shape4& is,
                                     const float* input, const Shape4& fs,
                                     const float* filter, std::int32_t n,
                                     std::int32_t y, std::int32_t x,
                                     std::int32_t oc) {
  const std::int32_t y0 = y * p.stride_h - p.pad_h;
  const std::int32_t x0 = x * p.stride_w - p.pad_w;
  float total = 0.0f;
  for (std::int32_t ky = 0; ky < fs.h; ++ky) {
    const std::int32_t iy = y0 + ky * p.dilation_h;
    for (std::int32_t kx = 0; kx < fs.w; ++kx) {
      const std::int32_t ix = x0 + kx * p.dilation_w;
      if (iy < 0 || iy >= is.h || ix < 0 || ix >= is.w) continue;
      const float* in = input + ((n * is.h + iy) * is.w + ix) * is.c;
      if (kDepthwise) {
        total +=
            in[oc / p.depth_multiplier] * filter[(ky * fs.w + kx) * fs.c + oc];
      } else {
        const float* f = filter + ((oc * fs.h + ky) * fs.w + kx) * fs.c;
        for (std::int32_t ic = 0; ic < fs.c; ++ic) total += in[ic] * f[ic];
      }
    }
  }
  return total;
}

template <bool kDepthwise>
inline void Convolve(const ConvParams& p, const Shape4& is, const float* input,
                     const Shape4& fs, const float* filter, const float* bias,
                     const Shape4& os, float* output) {
  for (std::int32_t n = 0; n < os.n; ++n) {
    for (std::int32_t y = 0; y < os.h; ++y) {
      for (std::int32_t x = 0; x < os.w; ++x) {
        for (std::int32_t oc = 0; oc < os.c; ++oc) {
          const float total =
              WindowSum<kDepthwise>(p, is, input, fs, filter, n, y, x, oc);
          const float bias_value = bias != nullptr ? bias[oc] : 0.0f;
          output[((n * os.h + y) * os.w + x) * os.c + oc] =
              Activate(total + bias_value, p.act);
        }
      }
    }
  }
}

/// CONV_2D: input [n, h, w, c], filter [oc, kh, kw, c], bias [oc] or
/// nullptr, output [n, oh, ow, oc] (overlap: header comment).
inline void Conv2D(const ConvParams& p, const Shape4& input_shape,
                   const float* input, const Shape4& filter_shape,
                   const float* filter, const float* bias,
                   const Shape4& output_shape, float* output) {
  Convolve<false>(p, input_shape, input, filter_shape, filter, bias,
                  output_shape, output);
}

/// DEPTHWISE_CONV_2D: input [n, h, w, c], filter [1, kh, kw, c * m], bias
/// [c * m] or nullptr, output [n, oh, ow, c * m] (overlap: header comment).
inline void DepthwiseConv2D(const ConvParams& p, const Shape4& input_shape,
                            const float* input, const Shape4& filter_shape,
                            const float* filter, const float* bias,
                            const Shape4& output_shape, float* output) {
  Convolve<true>(p, input_shape, input, filter_shape, filter, bias,
                 output_shape, output);
}

/// TRANSPOSE_CONV: input [n, h, w, ic], filter [oc, kh, kw, ic], bias [oc]
/// or nullptr, output [n, oh, ow, oc], not overlapping the input. TFLite's
/// reference TransposeConv(float) scatters: the output set to 0.0f, then
/// for each input element (n, iy, ix, ic) in order, each tap (ky, kx)
/// landing inside the output and each oc, out[n][iy * stride_h - pad_h +
/// ky][ix * stride_w - pad_w + kx][oc] += in * f[oc][ky][kx][ic]; then
/// Activate(out + bias[oc]) (no bias: the sum alone). Each output element
/// so receives its products in (iy, ix, ic) order, one tap per input
/// pixel; this kernel gathers them in that order: the same float sums.
inline void TransposeConv(const ConvParams& p, const Shape4& is,
                          const float* input, const Shape4& fs,
                          const float* filter, const float* bias,
                          const Shape4& os, float* output) {
  for (std::int32_t n = 0; n < os.n; ++n) {
    for (std::int32_t y = 0; y < os.h; ++y) {
      // Input rows iy with 0 <= ky = y + pad_h - iy * stride_h < kh.
      const std::int32_t ty = y + p.pad_h;  // >= 0
      const std::int32_t y_lo =
          ty - fs.h + 1 <= 0 ? 0 : (ty - fs.h + p.stride_h) / p.stride_h;
      const std::int32_t y_last = ty / p.stride_h;
      const std::int32_t y_hi = y_last < is.h - 1 ? y_last : is.h - 1;
      for (std::int32_t x = 0; x < os.w; ++x) {
        const std::int32_t tx = x + p.pad_w;
        const std::int32_t x_lo =
            tx - fs.w + 1 <= 0 ? 0 : (tx - fs.w + p.stride_w) / p.stride_w;
        const std::int32_t x_last = tx / p.stride_w;
        const std::int32_t x_hi = x_last < is.w - 1 ? x_last : is.w - 1;
        for (std::int32_t oc = 0; oc < os.c; ++oc) {
          float total = 0.0f;
          for (std::int32_t iy = y_lo; iy <= y_hi; ++iy) {
            const std::int32_t ky = ty - iy * p.stride_h;
            for (std::int32_t ix = x_lo; ix <= x_hi; ++ix) {
              const std::int32_t kx = tx - ix * p.stride_w;
              const float* in = input + ((n * is.h + iy) * is.w + ix) * is.c;
              const float* f = filter + ((oc * fs.h + ky) * fs.w + kx) * fs.c;
              for (std::int32_t ic = 0; ic < is.c; ++ic) {
                total += in[ic] * f[ic];
              }
            }
          }
          if (bias != nullptr) total += bias[oc];
          output[((n * os.h + y) * os.w + x) * os.c + oc] =
              Activate(total, p.act);
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels::f32

#endif  // ARENAPLAN_KERNELS_FLOAT_CONV_HPP_
