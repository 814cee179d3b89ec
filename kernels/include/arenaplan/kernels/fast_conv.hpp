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
//   (dsp.hpp VectorGroups). With the DSP extension
//   (SimdMac::kPairs), two consecutive such pixels (raster order, across
//   rows; even out_c <= kPairOut, windows <= kWindow bytes) are done
//   together: both windows widened once (dsp.hpp Widen2), then two output
//   channels at a time for both pixels (PairGroups, Dot2x2: each weight word
//   loaded and widened once for two pixels, 19 instructions per 16
//   multiply-accumulates against Dot4's 26).
// - DepthwiseConv2D: four channels per 32-bit load, one SMLABB/SMLATT per
//   lane (dsp.hpp Taps4), over a table of the window's tap addresses (the
//   same offsets for every unclipped window; for a clipped one, a tap in the
//   padding points at a buffer of the zero point), in passes of
//   kDepthwisePass channels.
// - Requantization through Requantize (dsp.hpp OutputStage): one 64-bit
//   multiply-accumulate and one shift for right shifts, exact for
//   non-negative multipliers (the generator negates a channel with a
//   negative one, or calls the reference kernel of conv.hpp); the output
//   offset and clamp range held in locals, not reloaded after each output
//   store.
//
// Loop order and overlap. Output pixels P in the reference order (b, oy,
// ox ascending). Conv2DFast: a window of at most 256 bytes and more than
// one tap is first copied (read once) into a stack buffer, the padding as
// the zero point; then output channels in groups of four (then one by one),
// each group reading the whole window of P (or the buffer), then writing its
// bytes. A pixel pair (P, P + 1): both windows read (gathered, widened),
// then per pair of channels the tails of both windows (the last in_c & 3
// bytes of a 1x1 window) read and P's two bytes written, P + 1's two bytes
// kept in a stack buffer; P + 1's bytes are written after the last pair.
// DepthwiseConv2DFast: channels in groups of four (then one by one), each
// group reading its channels of the window of P, then writing its bytes.
// Neither reads its output. The reads that follow an output byte j here are
// a subset of those that follow it in the reference order (Conv2D: the
// window of P again for the later groups, or none of it when gathered, then
// the later windows; the reference re-reads the whole window of P after
// every byte but the last of P, then reads P + 1's. In a pair, after P's
// byte j: parts of P's and P + 1's windows if j is not in the last channel
// pair, then windows after P + 1; after P + 1's bytes, only the windows
// after P + 1. Depthwise: channels >= c + 4 of window P, c the
// group's first channel, then later windows; the reference reads channel c' + 1
// and up after byte c'). So minAfter(j) here is at least the reference's, and
// the reference contracts' distances Conv2DOverlapDistance and
// DepthwiseConv2DOverlapDistance (conv.hpp, with their proofs) are safe for
// these kernels too: the generator plans them with those distances, and
// the --overlap arenas do not change. (They may be larger than the fast
// kernels' own smallest distances: by up to four output bytes, or by the
// re-reads of a gathered window.) Conv2DFast's buffers (the gathered
// windows, the widened pair, a pair's second output, the zero points) are
// its scratch: Conv2DFastScratchBytes bytes the caller passes (the
// generator plans them in the arena as the operator's scratch record,
// alive during its step only, sharing no byte with its operands); the
// kernel writes every scratch byte before it reads it. DepthwiseConv2DFast's
// tap tables and zero points are its scratch likewise
// (DepthwiseConv2DFastScratchBytes).
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

/// Copies n >= 0 bytes from src to dst (not overlapping), four at a time
/// while at least four remain; returns dst + n.
ARENAPLAN_KERNELS_INLINE std::int8_t* Copy(std::int8_t* dst,
                                           const std::int8_t* src,
                                           std::int32_t n) {
  for (; n >= 4; n -= 4, dst += 4, src += 4) {
    *reinterpret_cast<dsp_detail::UnalignedWord*>(dst) = dsp_detail::Load4(src);
  }
  for (; n > 0; --n) *dst++ = *src++;
  return dst;
}

/// Writes n >= 0 bytes of value v at dst; returns dst + n.
ARENAPLAN_KERNELS_INLINE std::int8_t* Fill(std::int8_t* dst, std::int8_t v,
                                           std::int32_t n) {
  for (; n > 0; --n) *dst++ = v;
  return dst;
}

/// Output channels of a pixel pair's second pixel held back (PairGroups).
constexpr std::int32_t kPairOut = 256;

constexpr std::int32_t RoundUp4(std::int32_t n) { return (n + 3) & ~3; }

/// Where Conv2DFastWith keeps its buffers in its scratch (byte offsets
/// from the scratch's start, which is 4-byte aligned; sizes in bytes) for
/// a filter [out_c, kh, kw, in_c]: `wide` (the two windows of a pixel pair
/// widened, Widen2: four words per four bytes), `window` (the gathered
/// window, or the zero points of the padded runs when windows are not
/// gathered), `pair_window` (a pair's second gathered window) and
/// `pair_out` (a pair's second pixel's output bytes). The pair buffers
/// exist when `pairs` (the DSP path, SimdMac::kPairs: ScalarMac never
/// uses them, so one layout serves both).
struct ConvScratchLayout {
  bool gather, pointwise, pairs;
  std::int32_t wide, window, pair_window, pair_out, bytes;
};
constexpr ConvScratchLayout ConvScratchOf(const Shape4& filter_shape) {
  ConvScratchLayout l{};
  const std::int32_t kh = filter_shape.h, kw = filter_shape.w,
                     out_c = filter_shape.n;
  const std::int32_t per_oc = kh * kw * filter_shape.c;
  l.gather = per_oc <= kWindow && kh * kw > 1;
  l.pointwise = kh == 1 && kw == 1;
  l.pairs = per_oc <= kWindow && out_c <= kPairOut && (out_c & 1) == 0 &&
            (l.gather || l.pointwise);
  const std::int32_t wide = l.pairs ? 4 * (per_oc & ~3) : 0;
  const std::int32_t window = RoundUp4(l.gather ? per_oc : kZeros);
  l.wide = 0;
  l.window = wide;
  l.pair_window = l.window + window;
  l.pair_out = l.pair_window + (l.pairs && l.gather ? window : 0);
  l.bytes = l.pair_out + (l.pairs ? out_c : 0);
  return l;
}

/// The output stage of a convolution (dsp.hpp OutputStage).
constexpr OutputStage StageOf(const ConvParams& p, ChannelQuant q) {
  return OutputStage{q.multiplier, q.shift, p.output_offset, p.act_min,
                     p.act_max};
}

/// Channels of one depthwise pass (DepthwiseConv2DFastWith): the bytes of
/// its zero-point buffer, a multiple of 4.
constexpr std::int32_t kDepthwisePass = 64;

/// Channels [c0, c_end) of one depthwise output pixel, c_end - c0 a
/// multiple of 4 and at most kDepthwisePass, in groups of four in ascending
/// order: each group reads its four channels at every tap t < taps (address
/// base + off[t] + c - c0: the input, or the zero points for a tap in the
/// padding, whose product cancels that tap's share of the folded bias),
/// then writes its four bytes. Outlined so that its loop keeps its operands
/// in registers.
template <class Mac>
ARENAPLAN_KERNELS_OUTLINE void DepthwisePassGroups(
    std::uintptr_t base, const std::uintptr_t* off, std::int32_t taps,
    const std::int8_t* filter, std::int32_t c_n, std::int32_t c0,
    std::int32_t c_end, const std::int32_t* folded_bias,
    const OutputStage& stage_in, std::int8_t* out) {
  const OutputStage stage = stage_in;  // in registers across the stores
  const bool full = stage.FullRange();
  for (std::int32_t c = c0; c < c_end; c += 4) {
    std::int32_t acc[4] = {folded_bias[c], folded_bias[c + 1],
                           folded_bias[c + 2], folded_bias[c + 3]};
    const std::uintptr_t at = base + static_cast<std::uintptr_t>(c - c0);
    Mac::Taps4(at, off, filter + c, c_n, taps, acc);
    stage.Store4(acc, c, out + c, full);
  }
}

}  // namespace fast_detail

/// CONV_2D as Conv2D (conv.hpp), with `folded_bias` from FoldConvBias
/// (never nullptr) instead of the bias. Mac: dsp.hpp's SimdMac<Isa> or
/// ScalarMac. The output may start Conv2DOverlapDistance() or more bytes
/// below the input (header comment).
/// `scratch` (borrowed for the call, 4-byte aligned, sharing no byte with
/// the operands) holds Conv2DFastScratchBytes(filter_shape) bytes.
template <class Mac>
inline void Conv2DFastWith(const ConvParams& p, const Shape4& in_shape,
                           const std::int8_t* input, const Shape4& filter_shape,
                           const std::int8_t* filter,
                           const std::int32_t* folded_bias, ChannelQuant quant,
                           const Shape4& out_shape, std::int8_t* output,
                           std::int8_t* __restrict scratch) {
  using fast_detail::Clip;
  const OutputStage stage = fast_detail::StageOf(p, quant);
  const bool full = stage.FullRange();
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
  const fast_detail::ConvScratchLayout layout =
      fast_detail::ConvScratchOf(Shape4{out_c, kh, kw, in_c});
  std::int8_t* const window = scratch + layout.window;
  const bool gather = layout.gather;
  const bool pointwise = layout.pointwise;  // VectorGroups
  const auto zp8 = static_cast<std::int8_t>(zero_point);
  // The padding's value for the padded runs of the windows that are not
  // gathered: in `window`, which only gathering uses (a gathered window
  // never reaches the padded runs), so the scratch holds one buffer, not
  // two.
  std::int8_t* const zeros = window;
  if (!gather) fast_detail::Fill(zeros, zp8, fast_detail::kZeros);
  const std::int32_t in_row = in_w * in_c, f_row = kw * in_c;
  // The channel groups of one pixel whose window is one vector.
  const auto vector_pixel = [&](const std::int8_t* v, std::int8_t* o) {
    VectorGroups<Mac>(v, filter, per_oc, groups_end, folded_bias, stage, o);
    for (std::int32_t c = groups_end; c < out_c; ++c) {
      o[c] = stage.Leftover(
          Mac::Dot1(v, filter + c * per_oc, per_oc, folded_bias[c]), c);
    }
  };
  // Two consecutive pixels (raster order) whose windows are vectors of at
  // most kWindow bytes are done together (PairGroups) where the Mac has
  // Dot2x2; `pending` is the first of a pair, not yet computed.
  const bool pairs = layout.pairs;
  std::int8_t* const pair_window = scratch + layout.pair_window;
  std::int8_t* const pair_out = scratch + layout.pair_out;
  auto* const pair_wide = reinterpret_cast<std::uint32_t*>(
      __builtin_assume_aligned(scratch + layout.wide, 4));
  const std::int8_t* pending = nullptr;
  std::int8_t* pending_out = nullptr;
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
        const std::int8_t* vec = nullptr;  // the window as one vector
        if (gather) {
          // The window as one [kh, kw, in_c] vector, the padding holding the
          // zero point, so each group is one dot product of per_oc bytes.
          const std::int32_t left = (cols.begin < kw ? cols.begin : kw) * in_c,
                             mid = run, right = f_row - left - mid;
          std::int8_t* const buffer = pending != nullptr ? pair_window : window;
          std::int8_t* dst = buffer;
          const std::int8_t* src = in0;  // the first in-bounds row
          for (std::int32_t ky = 0; ky < kh; ++ky) {
            if (ky < rows.begin || ky >= rows.end) {
              dst = fast_detail::Fill(dst, zp8, f_row);
              continue;
            }
            dst = fast_detail::Fill(dst, zp8, left);
            dst = fast_detail::Copy(dst, src, mid);
            dst = fast_detail::Fill(dst, zp8, right);
            src += in_row;
          }
          vec = buffer;
        } else if (pointwise && !clipped) {
          vec = in0;
        }
        if constexpr (Mac::kPairs) {
          if (vec != nullptr && pairs) {
            if (pending == nullptr) {  // wait for the next pixel
              pending = vec;
              pending_out = out;
              continue;
            }
            // pending (the previous pixel, output at out - out_c) and vec:
            // both read by every pair of channels; the previous pixel's
            // bytes written as they come, this pixel's kept in pair_out
            // until all reads of the two windows are done.
            Mac::Widen2(pending, vec, per_oc & ~3, pair_wide);
            PairGroups<Mac>(pair_wide, pending, vec, per_oc, filter, out_c & ~1,
                            folded_bias, stage, pending_out, pair_out);
            fast_detail::Copy(out, pair_out, out_c);
            pending = nullptr;
            continue;
          }
          if (pending != nullptr) {  // alone: its next pixel is not a vector
            vector_pixel(pending, pending_out);
            pending = nullptr;
          }
        }
        if (vec != nullptr) {
          vector_pixel(vec, out);
          continue;
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
          stage.Store4(acc, oc, out + oc, full);
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
  if constexpr (Mac::kPairs) {
    if (pending != nullptr) vector_pixel(pending, pending_out);  // the last
  }
}

/// Bytes of the scratch Conv2DFast (and Conv2DFastWith on any Mac) needs
/// for a filter [out_c, kh, kw, in_c]: the most of its paths. DSP
/// (SimdMac) and scalar (ScalarMac): ConvScratchOf's layout (the scalar
/// path uses its first part only). Helium (helium::Conv2D):
/// helium::Conv2DScratchBytes. Never 0 bytes.
constexpr std::int32_t Conv2DFastScratchBytes(const Shape4& filter_shape);

/// Taps (kh * kw) of the windows DepthwiseConv2DFast takes at most; the
/// generator emits the reference DepthwiseConv2D for larger ones.
inline constexpr std::int32_t kMaxDepthwiseTaps = 25;

/// Whether DepthwiseConv2DFast runs a DEPTHWISE_CONV_2D of depth
/// multiplier `depth_multiplier` and a kh x kw filter (the generator's
/// choice; a layer of one input channel runs as Conv2DFast instead).
constexpr bool DepthwiseConv2DFastTakes(std::int32_t depth_multiplier,
                                        std::int32_t kh, std::int32_t kw) {
  return depth_multiplier == 1 && kh * kw <= kMaxDepthwiseTaps;
}

/// Bytes of the scratch DepthwiseConv2DFast and DepthwiseConv2DDilatedFast
/// (DepthwiseConv2DFastWith on any Mac, and helium::DepthwiseConv2D) need
/// for a filter [1, kh, kw, c]: the most of their paths. DSP and scalar:
/// two tables of kh * kw tap addresses (std::uintptr_t of the machine
/// evaluating it: the generator's 8-byte ones cover a 32-bit core's 4-byte
/// ones) and kDepthwisePass zero points; Helium:
/// helium::DepthwiseScratchBytes.
constexpr std::int32_t DepthwiseConv2DFastScratchBytes(
    const Shape4& filter_shape);

/// DEPTHWISE_CONV_2D with depth multiplier 1 and at most kMaxDepthwiseTaps
/// taps as DepthwiseConv2D (conv.hpp), with `folded_bias` from
/// FoldDepthwiseBias (never nullptr). Params DilatedConvParams: its
/// factors apply (the tap table holds the dilated offsets, tap (ky, kx) at
/// row ky * dh and column kx * dw of the window's span); ConvParams: they
/// are the constant 1, and the undilated layers' code is as before. The
/// output may
/// start DepthwiseConv2DOverlapDistance() or more bytes below the input
/// (header comment; dilation changes which bytes a window reads, not the
/// order). `scratch` (borrowed for the call, aligned to std::uintptr_t,
/// sharing no byte with the operands) holds
/// DepthwiseConv2DFastScratchBytes(filter_shape) bytes.
template <class Mac, class Params = ConvParams>
inline void DepthwiseConv2DFastWith(const Params& p, const Shape4& in_shape,
                                    const std::int8_t* input,
                                    const Shape4& filter_shape,
                                    const std::int8_t* filter,
                                    const std::int32_t* folded_bias,
                                    ChannelQuant quant, const Shape4& out_shape,
                                    std::int8_t* output,
                                    std::int8_t* __restrict scratch) {
  constexpr std::int32_t kPass = fast_detail::kDepthwisePass;
  const OutputStage stage = fast_detail::StageOf(p, quant);
  // Geometry as locals too (the output stores may alias the parameters).
  const std::int32_t stride_h = p.stride_h, stride_w = p.stride_w,
                     pad_h = p.pad_h, pad_w = p.pad_w;
  const std::int32_t in_h = in_shape.h, in_w = in_shape.w;
  const std::int32_t out_n = out_shape.n, out_h = out_shape.h,
                     out_w = out_shape.w;
  const std::int32_t c_n = in_shape.c, kh = filter_shape.h, kw = filter_shape.w;
  const std::int32_t taps = kh * kw;
  const std::int32_t dh = DilationH(p), dw = DilationW(p);
  // The window's span in input rows and columns.
  const std::int32_t span_h = (kh - 1) * dh + 1, span_w = (kw - 1) * dw + 1;
  // Tap addresses: relative to the window's first byte for an unclipped
  // window (the same for every pixel), absolute (the input or the zero
  // points, for one pass of channels) for a clipped one; then the zero
  // points (the padding's value). All in the scratch.
  auto* const inner = static_cast<std::uintptr_t*>(
      __builtin_assume_aligned(scratch, sizeof(std::uintptr_t)));
  std::uintptr_t* const clipped = inner + taps;
  std::int8_t* const zeros = reinterpret_cast<std::int8_t*>(clipped + taps);
  for (std::int32_t z = 0; z < kPass; ++z) {
    zeros[z] = static_cast<std::int8_t>(-p.input_offset);
  }
  for (std::int32_t t = 0; t < taps; ++t) {
    inner[t] = static_cast<std::uintptr_t>(
        ((t / kw) * dh * in_w + (t % kw) * dw) * c_n);
  }
  std::int8_t* out = output;
  for (std::int32_t b = 0; b < out_n; ++b) {
    for (std::int32_t oy = 0; oy < out_h; ++oy) {
      const std::int32_t y0 = oy * stride_h - pad_h;
      const bool rows_in = y0 >= 0 && y0 + span_h <= in_h;
      for (std::int32_t ox = 0; ox < out_w; ++ox, out += c_n) {
        const std::int32_t x0 = ox * stride_w - pad_w;
        const bool in = rows_in && x0 >= 0 && x0 + span_w <= in_w;
        const std::int8_t* window =
            in ? input + ((b * in_h + y0) * in_w + x0) * c_n : nullptr;
        for (std::int32_t c0 = 0; c0 < c_n; c0 += kPass) {
          const std::int32_t c_end = c_n - c0 < kPass ? c_n : c0 + kPass;
          std::uintptr_t base = 0;
          const std::uintptr_t* off = inner;
          if (in) {
            base = reinterpret_cast<std::uintptr_t>(window + c0);
          } else {
            std::int32_t t = 0;
            for (std::int32_t iy = y0; iy < y0 + span_h; iy += dh) {
              const bool row_in = iy >= 0 && iy < in_h;
              for (std::int32_t ix = x0; ix < x0 + span_w; ix += dw, ++t) {
                clipped[t] = reinterpret_cast<std::uintptr_t>(
                    row_in && ix >= 0 && ix < in_w
                        ? input + ((b * in_h + iy) * in_w + ix) * c_n + c0
                        : zeros);
              }
            }
            off = clipped;
          }
          const std::int32_t groups_end = c0 + ((c_end - c0) & ~3);
          fast_detail::DepthwisePassGroups<Mac>(base, off, taps, filter, c_n,
                                                c0, groups_end, folded_bias,
                                                stage, out);
          for (std::int32_t c = groups_end; c < c_end; ++c) {
            std::uint32_t acc = static_cast<std::uint32_t>(folded_bias[c]);
            for (std::int32_t t = 0; t < taps; ++t) {
              const auto* xt =
                  reinterpret_cast<const std::int8_t*>(base + off[t]);
              acc +=
                  static_cast<std::uint32_t>(xt[c - c0] * filter[t * c_n + c]);
            }
            out[c] = stage.Leftover(static_cast<std::int32_t>(acc), c);
          }
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels

// The Helium kernels (integer MVE only), which use fast_detail above.
#include "arenaplan/kernels/helium/conv.hpp"

namespace arenaplan::kernels {

constexpr std::int32_t Conv2DFastScratchBytes(const Shape4& filter_shape) {
  const std::int32_t dsp = fast_detail::ConvScratchOf(filter_shape).bytes;
  const std::int32_t mve = helium::Conv2DScratchBytes(filter_shape);
  return dsp > mve ? dsp : mve;
}

constexpr std::int32_t DepthwiseConv2DFastScratchBytes(
    const Shape4& filter_shape) {
  const std::int32_t dsp =
      2 * filter_shape.h * filter_shape.w *
          static_cast<std::int32_t>(sizeof(std::uintptr_t)) +
      fast_detail::kDepthwisePass;
  const std::int32_t mve = helium::DepthwiseScratchBytes(filter_shape);
  return dsp > mve ? dsp : mve;
}

/// Conv2DFastWith on this core's fastest multiply-accumulate (dsp.hpp);
/// helium::Conv2D where the core has integer MVE. `scratch`: as
/// Conv2DFastWith's, Conv2DFastScratchBytes(filter_shape) bytes.
inline void Conv2DFast(const ConvParams& p, const Shape4& in_shape,
                       const std::int8_t* input, const Shape4& filter_shape,
                       const std::int8_t* filter,
                       const std::int32_t* folded_bias, ChannelQuant quant,
                       const Shape4& out_shape, std::int8_t* output,
                       std::int8_t* scratch) {
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
  helium::Conv2D(p, in_shape, input, filter_shape, filter, folded_bias, quant,
                 out_shape, output, scratch);
#else
  Conv2DFastWith<DefaultMac>(p, in_shape, input, filter_shape, filter,
                             folded_bias, quant, out_shape, output, scratch);
#endif
}

/// DepthwiseConv2DFastWith on this core's fastest multiply-accumulate;
/// helium::DepthwiseConv2D where the core has integer MVE. `scratch`:
/// DepthwiseConv2DFastScratchBytes(filter_shape) bytes.
inline void DepthwiseConv2DFast(const ConvParams& p, const Shape4& in_shape,
                                const std::int8_t* input,
                                const Shape4& filter_shape,
                                const std::int8_t* filter,
                                const std::int32_t* folded_bias,
                                ChannelQuant quant, const Shape4& out_shape,
                                std::int8_t* output, std::int8_t* scratch) {
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
  helium::DepthwiseConv2D(p, in_shape, input, filter_shape, filter, folded_bias,
                          quant, out_shape, output, scratch);
#else
  DepthwiseConv2DFastWith<DefaultMac>(p, in_shape, input, filter_shape, filter,
                                      folded_bias, quant, out_shape, output,
                                      scratch);
#endif
}

/// DepthwiseConv2DFastWith on DilatedConvParams: a dilated
/// DEPTHWISE_CONV_2D (depth multiplier 1, at most kMaxDepthwiseTaps taps).
/// `scratch`: DepthwiseConv2DFastScratchBytes(filter_shape) bytes.
inline void DepthwiseConv2DDilatedFast(
    const DilatedConvParams& p, const Shape4& in_shape,
    const std::int8_t* input, const Shape4& filter_shape,
    const std::int8_t* filter, const std::int32_t* folded_bias,
    ChannelQuant quant, const Shape4& out_shape, std::int8_t* output,
    std::int8_t* scratch) {
  DepthwiseConv2DFastWith<DefaultMac, DilatedConvParams>(
      p, in_shape, input, filter_shape, filter, folded_bias, quant, out_shape,
      output, scratch);
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_FAST_CONV_HPP_
