// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Fast int8 CONV_2D and DEPTHWISE_CONV_2D (depth multiplier 1): the same
// output bytes as Conv2D / DepthwiseConv2D of conv.hpp (the oracle the host
// tests compare them with), from fewer instructions:
//
// - The input offset is folded into the bias at generation time
//   (FoldConvBias / FoldDepthwiseBias below): sum (x + off) * w =
//   sum x * w + off * sum w, so the inner loops multiply raw input bytes.
//   A window tap that falls in the padding contributes 0 in the reference
//   (the padding holds the input zero point, x + off = 0) but off * w to the
//   folded bias, so a clipped window adds zero_point * w for each padded tap
//   (-off * w), which cancels it: the same multiply-accumulate loops run
//   over the padded taps with the zero point as input. All sums are modulo 2^32
//   like the reference's int32 sums, so every accumulator is equal.
// - Conv2D: one filter row of a window is contiguous in both the input
//   (the in-bounds columns times C bytes) and the filter, so each row is one
//   dot product of (columns x C) bytes; four output channels share each
//   input load (dsp.hpp Dot4: SXTB16 + SMLAD on the DSP extension).
//   A pixel whose window is one contiguous vector (an unclipped 1x1 window,
//   or a gathered one) has all its channel groups done in one call
//   (dsp.hpp VectorGroups, the dot product inlined: no call and no
//   accumulators through memory per group).
// - DepthwiseConv2D: four channels per 32-bit load, one SMLABB/SMLATT per
//   lane (dsp.hpp Lanes4).
// - Requantization through Requantize (dsp.hpp OutputStage): one 64-bit
//   multiply-accumulate and one shift for right shifts, exact for the
//   non-negative multipliers the generator emits; the output offset and
//   clamp range held in locals, not reloaded after each output store.
//
// Loop order and overlap. Output pixels P in the reference order (b, oy,
// ox ascending). Conv2DFast: a window of at most 256 bytes and more than
// one tap is first copied (read once) into a stack buffer, the padding as
// the zero point; then output channels in groups of four (then one by one),
// each group reading the whole window of P (or the buffer), then writing its
// bytes.
// DepthwiseConv2DFast: channels in groups of four (then one by one), each
// group reading its channels of the window of P, then writing its bytes.
// Neither reads its output. The reads that follow an output byte j here are
// a subset of those that follow it in the reference order (Conv2D: the
// window of P again for the later groups, or none of it when gathered, then
// the later windows; the reference re-reads the whole window of P after
// every byte but the last of P. Depthwise: channels >= c + 4 of window P, c the
// group's first channel, then later windows; the reference reads channel c' + 1
// and up after byte c'). So minAfter(j) here is at least the reference's, and
// the reference contracts' distances Conv2DOverlapDistance and
// DepthwiseConv2DOverlapDistance (conv.hpp, with their proofs) are safe for
// these kernels too: the generator plans them with those distances, and
// the --overlap arenas do not change. (They may be larger than the fast
// kernels' own smallest distances: by up to four output bytes, or by the
// re-reads of a gathered window.) The stack buffers (window, zero points)
// are the kernels' own and never alias the arena.
#ifndef ARENAPLAN_KERNELS_FAST_CONV_HPP_
#define ARENAPLAN_KERNELS_FAST_CONV_HPP_

#include <cstdint>

#include "arenaplan/kernels/conv.hpp"
#include "arenaplan/kernels/dsp.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

/// The bias Conv2DFast takes: folded[oc] = bias[oc] (0 when bias is
/// nullptr) + input_offset * (sum of filter channel oc's kh * kw * in_c
/// weights), modulo 2^32. filter: [out_c, kh, kw, in_c].
constexpr void FoldConvBias(std::int32_t input_offset,
                            const Shape4& filter_shape,
                            const std::int8_t* filter, const std::int32_t* bias,
                            std::int32_t* folded) {
  const std::int32_t per = filter_shape.h * filter_shape.w * filter_shape.c;
  for (std::int32_t oc = 0; oc < filter_shape.n; ++oc) {
    std::int32_t sum = 0;
    for (std::int32_t i = 0; i < per; ++i) sum += filter[oc * per + i];
    folded[oc] = static_cast<std::int32_t>(
        static_cast<std::uint32_t>(bias != nullptr ? bias[oc] : 0) +
        static_cast<std::uint32_t>(input_offset) *
            static_cast<std::uint32_t>(sum));
  }
}

/// The bias DepthwiseConv2DFast takes: folded[c] = bias[c] + input_offset *
/// (sum over the kh * kw taps of channel c), modulo 2^32. filter:
/// [1, kh, kw, c].
constexpr void FoldDepthwiseBias(std::int32_t input_offset,
                                 const Shape4& filter_shape,
                                 const std::int8_t* filter,
                                 const std::int32_t* bias,
                                 std::int32_t* folded) {
  const std::int32_t taps = filter_shape.h * filter_shape.w;
  for (std::int32_t c = 0; c < filter_shape.c; ++c) {
    std::int32_t sum = 0;
    for (std::int32_t t = 0; t < taps; ++t)
      sum += filter[t * filter_shape.c + c];
    folded[c] = static_cast<std::int32_t>(
        static_cast<std::uint32_t>(bias != nullptr ? bias[c] : 0) +
        static_cast<std::uint32_t>(input_offset) *
            static_cast<std::uint32_t>(sum));
  }
}

namespace fast_detail {

/// The in-bounds part [begin, end) of a window of `k` taps starting at
/// input index `start` along a dimension of `extent` (empty, end == begin,
/// when the window misses the input; begin <= k always, so the padded taps
/// are [0, begin) and [end, k) even for a window wholly in a padding wider
/// than itself, as a folded PAD gives: codegen/tflite/fold.hpp).
struct Span {
  std::int32_t begin, end;
};
constexpr Span Clip(std::int32_t start, std::int32_t k, std::int32_t extent) {
  const std::int32_t begin = start < 0 ? (-start < k ? -start : k) : 0;
  const std::int32_t end = start + k > extent ? extent - start : k;
  return Span{begin, end < begin ? begin : end};
}

/// sum of w[(ky * kw + kx) * step] over the taps outside rows [r.begin,
/// r.end) x columns [c.begin, c.end) of a kh x kw window: the weights the
/// padding multiplies.
inline std::int32_t PaddedTapSum(const std::int8_t* w, std::int32_t kh,
                                 std::int32_t kw, std::int32_t step, Span r,
                                 Span c) {
  std::int32_t sum = 0;
  for (std::int32_t ky = 0; ky < kh; ++ky) {
    const bool row_in = ky >= r.begin && ky < r.end;
    for (std::int32_t kx = 0; kx < kw; ++kx) {
      if (row_in && kx >= c.begin && kx < c.end) continue;
      sum += w[(ky * kw + kx) * step];
    }
  }
  return sum;
}

/// Bytes of the input zero point the padding corrections multiply.
constexpr std::int32_t kZeros = 64;
/// Bytes of the stack buffer Conv2DFast gathers small windows into.
constexpr std::int32_t kWindow = 256;

/// Calls add(offset, length) for each run of padded taps of a kh x kw
/// window (the rows outside [r.begin, r.end) whole; within the others the
/// columns left of c.begin and from c.end on), offsets and lengths in bytes
/// of one output channel's [kh, kw, in_c] filter.
template <class Add>
inline void ForPaddedRuns(std::int32_t kh, std::int32_t kw, std::int32_t in_c,
                          Span r, Span c, Add add) {
  for (std::int32_t ky = 0; ky < kh; ++ky) {
    const std::int32_t row = ky * kw * in_c;
    if (ky < r.begin || ky >= r.end) {
      add(row, kw * in_c);
      continue;
    }
    if (c.begin > 0) add(row, c.begin * in_c);
    if (c.end < kw) add(row + c.end * in_c, (kw - c.end) * in_c);
  }
}

/// The output stage of a convolution (dsp.hpp OutputStage).
constexpr OutputStage StageOf(const ConvParams& p, ChannelQuant q) {
  return OutputStage{q.multiplier, q.shift, p.output_offset, p.act_min,
                     p.act_max};
}

/// A depthwise convolution's per-call operands (DepthwiseGroups).
struct DepthwiseGeometry {
  std::int32_t c_n, kh, kw;
  const std::int8_t* filter;
  const std::int8_t* zeros;  ///< Four bytes of the input zero point.
  OutputStage stage;
  const std::int32_t* folded_bias;
};
/// One output pixel's window: its first in-bounds input byte and filter
/// tap, row strides, the in-bounds rows and columns.
struct DepthwisePixel {
  const std::int8_t* in0;
  std::int32_t in_row;
  const std::int8_t* f0;
  std::int32_t f_row;
  Span rows, cols;
  std::int32_t taps_w;
};

/// The channel groups of four of one pixel (channels 0 .. c_n & ~3), in
/// ascending order: window sum, padding correction, requantization, the
/// four bytes. Outlined so that its loops keep their operands in registers.
template <class Mac>
ARENAPLAN_KERNELS_OUTLINE void DepthwiseGroups(const DepthwiseGeometry& g,
                                               const DepthwisePixel& px,
                                               std::int8_t* out) {
  const bool clipped = px.rows.begin != 0 || px.rows.end != g.kh ||
                       px.cols.begin != 0 || px.cols.end != g.kw;
  const bool full3x3 = !clipped && g.kh == 3 && g.kw == 3;
  const OutputStage stage = g.stage;           // in registers across the stores
  const std::int32_t groups_end = g.c_n & ~3;  // channels in groups of four
  for (std::int32_t c = 0; c < groups_end; c += 4) {
    std::int32_t acc[4] = {g.folded_bias[c], g.folded_bias[c + 1],
                           g.folded_bias[c + 2], g.folded_bias[c + 3]};
    if (full3x3) {
      Mac::Window4x3x3(px.in0 + c, px.in_row, px.f0 + c, px.f_row, g.c_n, acc);
    } else {
      Mac::Window4(px.in0 + c, px.in_row, px.f0 + c, px.f_row,
                   px.rows.end - px.rows.begin, px.taps_w, g.c_n, acc);
    }
    if (clipped) {  // zero_point * w over the padded taps
      for (std::int32_t ky = 0; ky < g.kh; ++ky) {
        const bool row_in = ky >= px.rows.begin && ky < px.rows.end;
        for (std::int32_t kx = 0; kx < g.kw; ++kx) {
          if (row_in && kx >= px.cols.begin && kx < px.cols.end) continue;
          Mac::Lanes4(g.zeros, g.filter + (ky * g.kw + kx) * g.c_n + c, acc);
        }
      }
    }
    for (std::int32_t k = 0; k < 4; ++k) {
      out[c + k] = stage(acc[k], c + k);
    }
  }
}

}  // namespace fast_detail

/// CONV_2D as Conv2D (conv.hpp), with `folded_bias` from FoldConvBias
/// (never nullptr) instead of the bias. Mac: dsp.hpp's SimdMac<Isa> or
/// ScalarMac. The output may start Conv2DOverlapDistance() or more bytes
/// below the input (header comment).
template <class Mac>
inline void Conv2DFastWith(const ConvParams& p, const Shape4& in_shape,
                           const std::int8_t* input, const Shape4& filter_shape,
                           const std::int8_t* filter,
                           const std::int32_t* folded_bias, ChannelQuant quant,
                           const Shape4& out_shape, std::int8_t* output) {
  using fast_detail::Clip;
  const OutputStage stage = fast_detail::StageOf(p, quant);
  // Geometry as locals too (the output stores may alias the parameters).
  const std::int32_t stride_h = p.stride_h, stride_w = p.stride_w,
                     pad_h = p.pad_h, pad_w = p.pad_w;
  const std::int32_t in_h = in_shape.h, in_w = in_shape.w;
  const std::int32_t out_n = out_shape.n, out_h = out_shape.h,
                     out_w = out_shape.w;
  const std::int32_t in_c = in_shape.c, kh = filter_shape.h,
                     kw = filter_shape.w, out_c = out_shape.c;
  const std::int32_t zero_point = -p.input_offset;
  const std::int32_t per_oc = kh * kw * in_c;  // one output channel's filter
  const std::int32_t groups_end = out_c & ~3;  // channels in groups of four
  // Windows of at most kWindow bytes with more than one tap are gathered
  // first (fewer, longer dot products; no padding corrections).
  std::int8_t window[fast_detail::kWindow];
  const bool gather = per_oc <= fast_detail::kWindow && kh * kw > 1;
  const bool pointwise = kh == 1 && kw == 1;  // VectorGroups
  std::int8_t zeros[fast_detail::kZeros];     // the padding's value
  for (auto& z : zeros) z = static_cast<std::int8_t>(zero_point);
  const std::int32_t in_row = in_w * in_c, f_row = kw * in_c;
  std::int8_t* out = output;
  for (std::int32_t b = 0; b < out_n; ++b) {
    for (std::int32_t oy = 0; oy < out_h; ++oy) {
      const std::int32_t y0 = oy * stride_h - pad_h;
      const auto rows = Clip(y0, kh, in_h);
      for (std::int32_t ox = 0; ox < out_w; ++ox, out += out_c) {
        const std::int32_t x0 = ox * stride_w - pad_w;
        const auto cols = Clip(x0, kw, in_w);
        const bool clipped = rows.begin != 0 || rows.end != kh ||
                             cols.begin != 0 || cols.end != kw;
        const std::int32_t run = (cols.end - cols.begin) * in_c;
        const std::int8_t* in0 =
            input +
            ((b * in_h + y0 + rows.begin) * in_w + x0 + cols.begin) * in_c;
        const std::int32_t f0 = (rows.begin * kw + cols.begin) * in_c;
        std::int32_t oc = 0;
        if (gather) {
          // The window as one [kh, kw, in_c] vector, the padding holding the
          // zero point, so each group is one dot product of per_oc bytes.
          std::int32_t i = 0;
          for (std::int32_t ky = 0; ky < kh; ++ky) {
            const bool row_in = ky >= rows.begin && ky < rows.end;
            const std::int8_t* src =
                input + ((b * in_h + y0 + ky) * in_w + x0) * in_c;
            for (std::int32_t kx = 0; kx < kw; ++kx) {
              const bool in_bounds =
                  row_in && kx >= cols.begin && kx < cols.end;
              for (std::int32_t c = 0; c < in_c; ++c, ++i) {
                window[i] = in_bounds ? src[kx * in_c + c]
                                      : static_cast<std::int8_t>(zero_point);
              }
            }
          }
          VectorGroups<Mac>(window, filter, per_oc, groups_end, folded_bias,
                            stage, out);
          for (oc = groups_end; oc < out_c; ++oc) {
            out[oc] = stage.Leftover(Mac::Dot1(window, filter + oc * per_oc,
                                               per_oc, folded_bias[oc]),
                                     oc);
          }
          continue;
        }
        if (pointwise && !clipped) {
          VectorGroups<Mac>(in0, filter, in_c, groups_end, folded_bias, stage,
                            out);
          oc = groups_end;
        }
        for (; oc < groups_end; oc += 4) {
          std::int32_t acc[4] = {folded_bias[oc], folded_bias[oc + 1],
                                 folded_bias[oc + 2], folded_bias[oc + 3]};
          const std::int8_t* in = in0;
          const std::int8_t* w = filter + oc * per_oc + f0;
          for (std::int32_t ky = rows.begin; ky < rows.end; ++ky) {
            Mac::Dot4(in, w, per_oc, run, acc);
            in += in_row;
            w += f_row;
          }
          if (clipped) {  // zero_point * w over the padded taps
            const std::int8_t* wg = filter + oc * per_oc;
            fast_detail::ForPaddedRuns(
                kh, kw, in_c, rows, cols,
                [&](std::int32_t off, std::int32_t len) {
                  for (std::int32_t i = 0; i < len; i += fast_detail::kZeros) {
                    Mac::Dot4(zeros, wg + off + i, per_oc,
                              len - i < fast_detail::kZeros
                                  ? len - i
                                  : fast_detail::kZeros,
                              acc);
                  }
                });
          }
          for (std::int32_t k = 0; k < 4; ++k) {
            out[oc + k] = stage(acc[k], oc + k);
          }
        }
        for (oc = groups_end; oc < out_c; ++oc) {
          std::int32_t acc = folded_bias[oc];
          const std::int8_t* in = in0;
          const std::int8_t* w = filter + oc * per_oc + f0;
          for (std::int32_t ky = rows.begin; ky < rows.end; ++ky) {
            acc = Mac::Dot1(in, w, run, acc);
            in += in_row;
            w += f_row;
          }
          if (clipped) {
            const std::int8_t* wk = filter + oc * per_oc;
            fast_detail::ForPaddedRuns(
                kh, kw, in_c, rows, cols,
                [&](std::int32_t off, std::int32_t len) {
                  for (std::int32_t i = 0; i < len; i += fast_detail::kZeros) {
                    acc = Mac::Dot1(zeros, wk + off + i,
                                    len - i < fast_detail::kZeros
                                        ? len - i
                                        : fast_detail::kZeros,
                                    acc);
                  }
                });
          }
          out[oc] = stage.Leftover(acc, oc);
        }
      }
    }
  }
}

/// DEPTHWISE_CONV_2D with depth multiplier 1 as DepthwiseConv2D (conv.hpp),
/// with `folded_bias` from FoldDepthwiseBias (never nullptr). The output may
/// start DepthwiseConv2DOverlapDistance() or more bytes below the input
/// (header comment).
template <class Mac>
inline void DepthwiseConv2DFastWith(const ConvParams& p, const Shape4& in_shape,
                                    const std::int8_t* input,
                                    const Shape4& filter_shape,
                                    const std::int8_t* filter,
                                    const std::int32_t* folded_bias,
                                    ChannelQuant quant, const Shape4& out_shape,
                                    std::int8_t* output) {
  using fast_detail::Clip;
  using fast_detail::PaddedTapSum;
  const OutputStage stage = fast_detail::StageOf(p, quant);
  // Geometry as locals too (the output stores may alias the parameters).
  const std::int32_t stride_h = p.stride_h, stride_w = p.stride_w,
                     pad_h = p.pad_h, pad_w = p.pad_w;
  const std::int32_t in_h = in_shape.h, in_w = in_shape.w;
  const std::int32_t out_n = out_shape.n, out_h = out_shape.h,
                     out_w = out_shape.w;
  const std::int32_t c_n = in_shape.c, kh = filter_shape.h, kw = filter_shape.w;
  const std::int32_t zero_point = -p.input_offset;
  const std::int32_t in_row = in_w * c_n, f_row = kw * c_n;
  const auto z = static_cast<std::int8_t>(zero_point);
  const std::int8_t zeros[4] = {z, z, z, z};  // the padding's value
  const fast_detail::DepthwiseGeometry g{c_n,   kh,    kw,         filter,
                                         zeros, stage, folded_bias};
  std::int8_t* out = output;
  for (std::int32_t b = 0; b < out_n; ++b) {
    for (std::int32_t oy = 0; oy < out_h; ++oy) {
      const std::int32_t y0 = oy * stride_h - pad_h;
      const auto rows = Clip(y0, kh, in_h);
      for (std::int32_t ox = 0; ox < out_w; ++ox, out += c_n) {
        const std::int32_t x0 = ox * stride_w - pad_w;
        const auto cols = Clip(x0, kw, in_w);
        const bool clipped = rows.begin != 0 || rows.end != kh ||
                             cols.begin != 0 || cols.end != kw;
        const std::int8_t* in0 =
            input +
            ((b * in_h + y0 + rows.begin) * in_w + x0 + cols.begin) * c_n;
        const std::int8_t* f0 = filter + (rows.begin * kw + cols.begin) * c_n;
        const std::int32_t taps_w = cols.end - cols.begin;
        const fast_detail::DepthwisePixel px{in0,  in_row, f0,    f_row,
                                             rows, cols,   taps_w};
        fast_detail::DepthwiseGroups<Mac>(g, px, out);
        std::int32_t c = c_n & ~3;
        for (; c < c_n; ++c) {
          std::int32_t acc = folded_bias[c];
          const std::int8_t* in_r = in0 + c;
          const std::int8_t* w_r = f0 + c;
          for (std::int32_t ky = rows.begin; ky < rows.end; ++ky) {
            for (std::int32_t t = 0; t < taps_w; ++t) {
              acc += in_r[t * c_n] * w_r[t * c_n];
            }
            in_r += in_row;
            w_r += f_row;
          }
          if (clipped) {
            acc +=
                zero_point * PaddedTapSum(filter + c, kh, kw, c_n, rows, cols);
          }
          out[c] = stage.Leftover(acc, c);
        }
      }
    }
  }
}

/// Conv2DFastWith on this core's fastest multiply-accumulate (dsp.hpp).
inline void Conv2DFast(const ConvParams& p, const Shape4& in_shape,
                       const std::int8_t* input, const Shape4& filter_shape,
                       const std::int8_t* filter,
                       const std::int32_t* folded_bias, ChannelQuant quant,
                       const Shape4& out_shape, std::int8_t* output) {
  Conv2DFastWith<DefaultMac>(p, in_shape, input, filter_shape, filter,
                             folded_bias, quant, out_shape, output);
}

/// DepthwiseConv2DFastWith on this core's fastest multiply-accumulate.
inline void DepthwiseConv2DFast(const ConvParams& p, const Shape4& in_shape,
                                const std::int8_t* input,
                                const Shape4& filter_shape,
                                const std::int8_t* filter,
                                const std::int32_t* folded_bias,
                                ChannelQuant quant, const Shape4& out_shape,
                                std::int8_t* output) {
  DepthwiseConv2DFastWith<DefaultMac>(p, in_shape, input, filter_shape, filter,
                                      folded_bias, quant, out_shape, output);
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_FAST_CONV_HPP_
