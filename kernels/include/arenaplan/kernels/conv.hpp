// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// int8 CONV_2D and DEPTHWISE_CONV_2D, reference (readable) loops. Int8
// activations are asymmetric (real = scale * (q - zero_point)), weights are
// symmetric per output channel (zero point 0), biases int32 with scale
// input_scale * weight_scale[c] and zero point 0 (TFLite quantization
// specification). Dilation factors dh, dw >= 1: window tap (ky, kx) of
// output pixel (oy, ox) reads input row oy * stride_h - pad_h + ky * dh and
// column ox * stride_w - pad_w + kx * dw (skipped when outside the input),
// as TFLite's reference kernels do; the window spans (kh - 1) * dh + 1 rows
// and (kw - 1) * dw + 1 columns.
//
// Loop order (both kernels, followed exactly): batch b, output row oy,
// output column ox (output pixel P = (b * OH + oy) * OW + ox ascending);
// then
//  - Conv2D: output channel oc = 0 .. OC - 1; for each oc the whole window
//    of P (rows, columns, all input channels) is read again, then byte
//    P * OC + oc is written;
//  - DepthwiseConv2D: input channel ic = 0 .. C - 1, multiplier
//    m = 0 .. dm - 1 (oc = ic * dm + m); for each oc the window of P at
//    channel ic only is read, then byte P * OC + oc is written.
//
// Overlap contracts (output below input by d bytes; the notation a(P),
// m(P), g, h, M, batch, the identity (*) and the proof that
// d = max(0, max_j (j - minAfter(j) + 1)) is the exact smallest distance
// from which on every placement is safe are in overlap.hpp):
//
// Conv2D. Output byte P * OC + oc with oc < OC - 1 is followed by the
// reads of windows P, P + 1, ... (the next oc re-reads window P), so
// minAfter = m(P), and j - minAfter + 1 is largest at oc = OC - 2:
// (P + 1) * OC - 1 - m(P). The last byte of P (oc = OC - 1) is followed by
// windows P + 1, ... only: (P + 1) * OC - m(P + 1), which is the same
// expression at P + 1 when OC = 1, and at most it when OC >= 2 (then
// (P + 2) * OC - 1 - m(P + 1) is larger); the very last byte has no read
// after it. (For OC = 1 the expression at P = 0 stands for no byte, but is
// <= 0.) With (*):
//   d = max(0, max_P ((P + 1) * OC - 1 - m(P))) = max(0, M - 1),
//   M = (N - 1) * max(0, OH*OW*OC - H*W*C) + max_oy g(oy) + max_ox h(ox).
// Example, a 1x1 convolution stride 1 of 48x48x8 into 48x48x16: g(oy) =
// 384 oy, h(ox) = 8 ox + 16: d = 18048 + 392 - 1 = 18439 (the last
// pixel's 15th output byte must stay below its own 8 input bytes, which
// the 16th output channel reads again).
//
// DepthwiseConv2D. Output byte j = P * OC + ic * dm + m is followed, within
// P, by the reads of channel ic (when m < dm - 1) or ic + 1 (when
// m = dm - 1), whose smallest index is a(P) + ic or a(P) + ic + 1, and by
// windows P + 1, ... (smallest m(P + 1)). Both within-pixel cases give
// j - (a(P) + ic + [m = dm - 1]) + 1 = P * OC + ic * (dm - 1) + m + 1 -
// [m = dm - 1] - a(P), largest at ic = C - 1, m = dm - 2 (or, dm = 1, at
// ic = C - 2): (P + 1) * OC - C - a(P). The windows after P give, for the
// last byte of P - 1, P * OC - m(P). With (*):
//   d = max(0, max_P ((P + 1) * OC - C - a(P)), max_P (P * OC - m(P)))
//     = max(0, M - C, M - OC) = max(0, M - C)      (C <= OC = C * dm).
// Example, 3x3 stride 1 SAME with dm = 1 over 10x10x4: g largest 40 (rows
// 1 .. 9), h largest 8 (columns 1 .. 9): d = 40 + 8 - 4 = 44 = (W + 1) * C,
// one input row and one pixel.
//
// Both functions return S_out (no overlap) outside the preconditions of
// overlap.hpp (every window holds an in-bounds row and column) or when the
// shapes do not match the kernel (batch, channels).
#ifndef ARENAPLAN_KERNELS_CONV_HPP_
#define ARENAPLAN_KERNELS_CONV_HPP_

#include <cstdint>

#include "arenaplan/kernels/overlap.hpp"
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

/// ConvParams with the dilation factors: input rows / columns between two
/// window taps (>= 1). A dilated call passes these (the generator spells
/// `k::DilatedConvParams{{the nine ConvParams fields}, dh, dw}`); an
/// undilated one passes ConvParams, whose factors the kernels read as the
/// constant 1 (DilationH / DilationW), so its code and its parameter block
/// are as without dilation.
struct DilatedConvParams : ConvParams {
  std::int32_t dilation_h = 1, dilation_w = 1;
};
constexpr std::int32_t DilationH(const ConvParams&) { return 1; }
constexpr std::int32_t DilationW(const ConvParams&) { return 1; }
constexpr std::int32_t DilationH(const DilatedConvParams& p) {
  return p.dilation_h;
}
constexpr std::int32_t DilationW(const DilatedConvParams& p) {
  return p.dilation_w;
}

/// CONV_2D. filter: [out_c, kh, kw, in_c]; bias: [out_c] or nullptr;
/// input [n, h, w, in_c] and output [n, oh, ow, out_c] NHWC. The output may
/// start Conv2DOverlapDistance() or more bytes below the input (and not
/// otherwise overlap it). Params: ConvParams or DilatedConvParams.
template <class Params>
inline void Conv2D(const Params& p, const Shape4& in_shape,
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
            const std::int32_t y = y0 + ky * DilationH(p);
            if (y < 0 || y >= in_shape.h) continue;  // padding: adds 0
            for (std::int32_t kx = 0; kx < filter_shape.w; ++kx) {
              const std::int32_t x = x0 + kx * DilationW(p);
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
/// reads input channel ic. The output may start
/// DepthwiseConv2DOverlapDistance() or more bytes below the input (and not
/// otherwise overlap it). Params: ConvParams or DilatedConvParams.
template <class Params>
inline void DepthwiseConv2D(const Params& p, const Shape4& in_shape,
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

/// The smallest distance in bytes (int8 elements) by which Conv2D's output
/// may start below its input (header comment); S_out when the geometry is
/// outside the contract's preconditions or the shapes do not match.
/// Params: ConvParams or DilatedConvParams.
template <class Params>
[[nodiscard]] constexpr std::int64_t Conv2DOverlapDistance(
    const Params& p, const Shape4& in_shape, const Shape4& filter_shape,
    const Shape4& out_shape) {
  const std::int64_t d = overlap_detail::WindowDistance(
      overlap_detail::Window{in_shape.n, in_shape.h, in_shape.w, in_shape.c,
                             out_shape.h, out_shape.w, out_shape.c, p.stride_h,
                             p.stride_w, p.pad_h, p.pad_w, filter_shape.h,
                             filter_shape.w, DilationH(p), DilationW(p)},
      overlap_detail::WindowOrder::kRereadWindowPerOutputByte);
  if (d < 0 || out_shape.n != in_shape.n || filter_shape.c != in_shape.c ||
      filter_shape.n != out_shape.c) {
    return overlap_detail::Bytes(out_shape);
  }
  return d;
}

/// The same for DepthwiseConv2D (header comment).
template <class Params>
[[nodiscard]] constexpr std::int64_t DepthwiseConv2DOverlapDistance(
    const Params& p, const Shape4& in_shape, const Shape4& filter_shape,
    const Shape4& out_shape) {
  const std::int64_t d = overlap_detail::WindowDistance(
      overlap_detail::Window{in_shape.n, in_shape.h, in_shape.w, in_shape.c,
                             out_shape.h, out_shape.w, out_shape.c, p.stride_h,
                             p.stride_w, p.pad_h, p.pad_w, filter_shape.h,
                             filter_shape.w, DilationH(p), DilationW(p)},
      overlap_detail::WindowOrder::kChannelByChannel);
  if (d < 0 || out_shape.n != in_shape.n || p.depth_multiplier < 1 ||
      std::int64_t{in_shape.c} * p.depth_multiplier != out_shape.c ||
      filter_shape.c != out_shape.c) {
    return overlap_detail::Bytes(out_shape);
  }
  return d;
}

/// The two distances for ConvParams, also spelled as a braced list.
[[nodiscard]] constexpr std::int64_t Conv2DOverlapDistance(
    const ConvParams& p, const Shape4& in_shape, const Shape4& filter_shape,
    const Shape4& out_shape) {
  return Conv2DOverlapDistance<ConvParams>(p, in_shape, filter_shape,
                                           out_shape);
}
[[nodiscard]] constexpr std::int64_t DepthwiseConv2DOverlapDistance(
    const ConvParams& p, const Shape4& in_shape, const Shape4& filter_shape,
    const Shape4& out_shape) {
  return DepthwiseConv2DOverlapDistance<ConvParams>(p, in_shape, filter_shape,
                                                    out_shape);
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_CONV_HPP_
