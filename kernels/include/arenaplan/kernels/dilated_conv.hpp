// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Fast int8 CONV_2D with dilation factors dh, dw >= 1 (conv.hpp
// DilatedConvParams):
// the same output bytes as Conv2D of conv.hpp (the oracle the host tests
// compare it with), on the folded bias of fast_conv.hpp (FoldConvBias: the
// filter's taps do not depend on the dilation). The undilated layers keep
// Conv2DFast; the generator emits this kernel for a dilated CONV_2D (and a
// dilated DEPTHWISE_CONV_2D of one input channel, as Conv2DFast takes the
// undilated ones). A dilated DEPTHWISE_CONV_2D with depth multiplier 1 runs
// DepthwiseConv2DDilatedFast (fast_conv.hpp, its tap table dilated).
//
// A dilated window's taps are not contiguous along a row (in_c bytes per
// tap, dw * in_c apart), so the row-wise dot products of Conv2DFast do not
// apply. Instead, per output pixel:
// - a window of at most kWindow bytes is gathered (read once, tap by tap,
//   a tap in the padding as in_c bytes of the zero point) into one
//   [kh, kw, in_c] vector, then every output channel is one dot product of
//   it (dsp.hpp VectorGroups, four channels per input load; Dot1 for the
//   last out_c & 3);
// - a larger window is read tap by tap for each group of four output
//   channels (Dot4 over the tap's in_c bytes; a tap in the padding against
//   the zero points, in runs of at most kZeros bytes), then the group's
//   bytes written; the last out_c & 3 channels one by one (Dot1).
// Both sum modulo 2^32 the same products as the reference plus the folded
// bias's input_offset * w for every tap, which the zero point's products
// cancel on the padded taps (fast_conv.hpp): equal accumulators.
//
// Overlap: output pixels in the reference order; the reads after output
// byte j are those of the rest of P's window (not at all when gathered)
// and of the later windows, a subset of the reference's, so
// Conv2DOverlapDistance (conv.hpp, dilation-aware) is safe for this kernel.
// The stack buffer (window or zero points) is the kernel's own.
#ifndef ARENAPLAN_KERNELS_DILATED_CONV_HPP_
#define ARENAPLAN_KERNELS_DILATED_CONV_HPP_

#include <cstdint>

#include "arenaplan/kernels/conv.hpp"
#include "arenaplan/kernels/dsp.hpp"
#include "arenaplan/kernels/fast_conv.hpp"

namespace arenaplan::kernels {

namespace dilated_detail {

/// acc[0 .. lanes) += sum over the n bytes of the zero point (`zeros`,
/// kZeros bytes of it) times the weights at w (lanes 4: Dot4 with channel
/// stride `w_stride`; else one channel, Dot1), in runs of kZeros bytes.
template <class Mac>
inline void PaddedTap(const std::int8_t* zeros, const std::int8_t* w,
                      std::int32_t w_stride, std::int32_t n, bool four,
                      std::int32_t* acc) {
  for (std::int32_t i = 0; i < n; i += fast_detail::kZeros) {
    const std::int32_t len =
        n - i < fast_detail::kZeros ? n - i : fast_detail::kZeros;
    if (four) {
      Mac::Dot4(zeros, w + i, w_stride, len, acc);
    } else {
      acc[0] = Mac::Dot1(zeros, w + i, len, acc[0]);
    }
  }
}

}  // namespace dilated_detail

/// CONV_2D with p.dilation_h, p.dilation_w >= 1 as Conv2D (conv.hpp), with
/// `folded_bias` from FoldConvBias (never nullptr) instead of the bias.
/// Mac: dsp.hpp's SimdMac<Isa> or ScalarMac. The output may start
/// Conv2DOverlapDistance() or more bytes below the input (header comment).
template <class Mac>
inline void Conv2DDilatedFastWith(
    const DilatedConvParams& p, const Shape4& in_shape,
    const std::int8_t* input, const Shape4& filter_shape,
    const std::int8_t* filter, const std::int32_t* folded_bias,
    ChannelQuant quant, const Shape4& out_shape, std::int8_t* output) {
  const OutputStage stage = fast_detail::StageOf(p, quant);
  const bool full = stage.FullRange();
  // Geometry as locals (the output stores may alias the parameters).
  const std::int32_t stride_h = p.stride_h, stride_w = p.stride_w,
                     pad_h = p.pad_h, pad_w = p.pad_w, dh = p.dilation_h,
                     dw = p.dilation_w;
  const std::int32_t in_h = in_shape.h, in_w = in_shape.w, in_c = in_shape.c;
  const std::int32_t out_n = out_shape.n, out_h = out_shape.h,
                     out_w = out_shape.w, out_c = out_shape.c;
  const std::int32_t kh = filter_shape.h, kw = filter_shape.w;
  const std::int32_t per_oc = kh * kw * in_c;  // one output channel's filter
  const std::int32_t groups_end = out_c & ~3;
  const auto zp8 = static_cast<std::int8_t>(-p.input_offset);
  const bool gather = per_oc <= fast_detail::kWindow;
  // The gathered window, or (not gathering) kZeros bytes of the zero point.
  std::int8_t buffer[fast_detail::kWindow];
  static_assert(fast_detail::kZeros <= fast_detail::kWindow);
  if (!gather) fast_detail::Fill(buffer, zp8, fast_detail::kZeros);
  std::int8_t* out = output;
  for (std::int32_t b = 0; b < out_n; ++b) {
    const std::int8_t* batch = input + b * in_h * in_w * in_c;
    for (std::int32_t oy = 0; oy < out_h; ++oy) {
      const std::int32_t y0 = oy * stride_h - pad_h;
      for (std::int32_t ox = 0; ox < out_w; ++ox, out += out_c) {
        const std::int32_t x0 = ox * stride_w - pad_w;
        // The address of tap (ky, kx), nullptr in the padding.
        const auto tap = [&](std::int32_t ky,
                             std::int32_t kx) -> const std::int8_t* {
          const std::int32_t y = y0 + ky * dh, x = x0 + kx * dw;
          if (y < 0 || y >= in_h || x < 0 || x >= in_w) return nullptr;
          return batch + (y * in_w + x) * in_c;
        };
        if (gather) {
          std::int8_t* dst = buffer;
          for (std::int32_t ky = 0; ky < kh; ++ky) {
            for (std::int32_t kx = 0; kx < kw; ++kx) {
              const std::int8_t* src = tap(ky, kx);
              dst = src != nullptr ? fast_detail::Copy(dst, src, in_c)
                                   : fast_detail::Fill(dst, zp8, in_c);
            }
          }
          VectorGroups<Mac>(buffer, filter, per_oc, groups_end, folded_bias,
                            stage, out);
          for (std::int32_t c = groups_end; c < out_c; ++c) {
            out[c] = stage.Leftover(
                Mac::Dot1(buffer, filter + c * per_oc, per_oc, folded_bias[c]),
                c);
          }
          continue;
        }
        for (std::int32_t oc = 0; oc < out_c;) {
          const bool four = oc < groups_end;
          std::int32_t acc[4] = {folded_bias[oc], 0, 0, 0};
          if (four) {
            acc[1] = folded_bias[oc + 1], acc[2] = folded_bias[oc + 2],
            acc[3] = folded_bias[oc + 3];
          }
          const std::int8_t* w = filter + oc * per_oc;
          for (std::int32_t ky = 0; ky < kh; ++ky) {
            for (std::int32_t kx = 0; kx < kw; ++kx, w += in_c) {
              const std::int8_t* src = tap(ky, kx);
              if (src == nullptr) {
                dilated_detail::PaddedTap<Mac>(buffer, w, per_oc, in_c, four,
                                               acc);
              } else if (four) {
                Mac::Dot4(src, w, per_oc, in_c, acc);
              } else {
                acc[0] = Mac::Dot1(src, w, in_c, acc[0]);
              }
            }
          }
          if (four) {
            stage.Store4(acc, oc, out + oc, full);
            oc += 4;
          } else {
            out[oc] = stage.Leftover(acc[0], oc);
            ++oc;
          }
        }
      }
    }
  }
}

/// Conv2DDilatedFastWith on this core's fastest multiply-accumulate.
inline void Conv2DDilatedFast(const DilatedConvParams& p,
                              const Shape4& in_shape, const std::int8_t* input,
                              const Shape4& filter_shape,
                              const std::int8_t* filter,
                              const std::int32_t* folded_bias,
                              ChannelQuant quant, const Shape4& out_shape,
                              std::int8_t* output) {
  Conv2DDilatedFastWith<DefaultMac>(p, in_shape, input, filter_shape, filter,
                                    folded_bias, quant, out_shape, output);
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_DILATED_CONV_HPP_
