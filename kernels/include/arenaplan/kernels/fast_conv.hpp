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
// one tap is first copied (read once) into a scratch buffer, the padding as
// the zero point; then output channels in groups of four (then one by one),
// each group reading the whole window of P (or the buffer), then writing its
// bytes. A pixel pair (P, P + 1): both windows read (gathered, widened),
// then per pair of channels the tails of both windows (the last in_c & 3
// bytes of a 1x1 window) read and P's two bytes written, P + 1's two bytes
// kept in a scratch buffer (or, without tails, written in place: no window
// byte is read after the two are widened); P + 1's bytes are written after
// the last pair. A pointwise layer's pixels go in triples (P, P + 1, P +
// 2), done as a pair with P + 2's bytes kept (or, without tails, written in
// place with the others); a run ends in a triple, a pair or two pairs.
// Small gathered windows (kGatheredTriple) go in triples too, the call's
// pixels one run. An unclipped pointwise layer without tails is one run in
// groups of five or four (PixelRun: the windows widened, WidenN, then one
// output channel at a time for all of them, DotNx1, each weight word
// loaded and widened once for the group; the group's bytes written in
// place), its last six to nine pixels as 3 + 3, 4 + 3, 4 + 4 or 4 + 5
// (RunSink::GroupOf).
// DepthwiseConv2DFast: channels in groups of four (then one by one), each
// group reading its channels of the window of P, then writing its bytes.
// Neither reads its output. The reads that follow an output byte j here are
// a subset of those that follow it in the reference order (Conv2D: the
// window of P again for the later groups, or none of it when gathered, then
// the later windows; the reference re-reads the whole window of P after
// every byte but the last of P, then reads P + 1's. In a pair, after P's
// byte j: parts of P's and P + 1's windows if j is not in the last channel
// pair, then windows after P + 1; after P + 1's bytes, only the windows
// after P + 1; a triple likewise, P + 2's bytes as P + 1's; a group of
// five or four reads no window of its own after its first byte. Depthwise:
// channels >= c + 4 of window P, c the group's first channel, then later
// windows; the reference reads channel c' + 1 and up after byte c'). So
// minAfter(j) here is at least the reference's, and the reference contracts'
// distances Conv2DOverlapDistance and DepthwiseConv2DOverlapDistance (conv.hpp,
// with their proofs) are safe for these kernels too: the generator plans them
// with those distances, and the --overlap arenas do not change. (They may be
// larger than the fast kernels' own smallest distances: by up to four output
// bytes, or by the re-reads of a gathered window.) Conv2DFast's buffers (the
// gathered windows, the widened pair, a pair's second output, the zero points)
// are its scratch: Conv2DFastScratchBytes bytes the caller passes (the
// generator plans them in the arena as the operator's scratch record,
// alive during its step only, sharing no byte with its operands); the
// kernel writes every scratch byte before it reads it. DepthwiseConv2DFast's
// tap tables and zero points are its scratch likewise
// (DepthwiseConv2DFastScratchBytes).
#ifndef ARENAPLAN_KERNELS_FAST_CONV_HPP_
#define ARENAPLAN_KERNELS_FAST_CONV_HPP_

#include <cstdint>
#include <type_traits>

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
ARENAPLAN_KERNELS_INLINE constexpr Span Clip(std::int32_t start, std::int32_t k,
                                             std::int32_t extent) {
  const std::int32_t begin = start < 0 ? (-start < k ? -start : k) : 0;
  const std::int32_t end = start + k > extent ? extent - start : k;
  return Span{begin, end < begin ? begin : end};
}

/// Bytes of the input zero point the padding corrections multiply.
constexpr std::int32_t kZeros = 64;
/// Bytes of the scratch buffer Conv2DFast gathers small windows into.
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

/// Writes n >= 0 bytes of value v at dst, four at a time while at least
/// four remain (a fused segment's row calls fill their zero points at each
/// call); returns dst + n.
ARENAPLAN_KERNELS_INLINE std::int8_t* Fill(std::int8_t* dst, std::int8_t v,
                                           std::int32_t n) {
  const std::uint32_t word =
      static_cast<std::uint32_t>(static_cast<std::uint8_t>(v)) * 0x01010101u;
  for (; n >= 4; n -= 4, dst += 4) {
    *reinterpret_cast<dsp_detail::UnalignedWord*>(dst) = word;
  }
  for (; n > 0; --n) *dst++ = v;
  return dst;
}

/// Bytes of the largest gathered window that goes in triples (ConvScratchOf):
/// kws_ref_model's first layer (10x4, 40 bytes) and the 3x3 first layers of
/// the image models (9 and 27 bytes) do; pretrainedResnet_quant's 3x3x16
/// windows (144 bytes) would add 432 bytes to its fused arena, past its
/// peak-RAM goal, and stay in pairs.
constexpr std::int32_t kGatheredTriple = 64;

/// Output channels of a pixel pair's second pixel held back (PairGroups).
constexpr std::int32_t kPairOut = 256;

ARENAPLAN_KERNELS_INLINE constexpr std::int32_t RoundUp4(std::int32_t n) {
  return (n + 3) & ~3;
}

/// Where Conv2DFastWith keeps its buffers in its scratch (byte offsets
/// from the scratch's start, which is 4-byte aligned; sizes in bytes) for
/// a filter [out_c, kh, kw, in_c]: `wide` (the two windows of a pixel pair
/// widened, Widen2: four words per four bytes; with `triples`, a triple's
/// three, Widen3: six words per four bytes; with `quints`, a pointwise
/// run's five, WidenN: ten words per four bytes), `window` (the gathered
/// window, or the zero points of the padded runs when windows are not
/// gathered), `pair_window` (a pair's second gathered window; with
/// `triples`, the third follows it) and `pair_out` (a pair's second
/// pixel's output bytes; a triple's second and third pixels' when per_oc
/// is not a multiple of 4). The pair buffers exist when `pairs` (the DSP
/// path, SimdMac::kPairs: ScalarMac never uses them, so one layout serves
/// both). Gathered windows go in triples up to kGatheredTriple bytes (the
/// third window and the wider `wide` cost 3 per_oc bytes more); pointwise
/// ones in fives and fours when per_oc is a multiple of 4 (4 per_oc bytes
/// more than triples: 256 for 64 channels).
struct ConvScratchLayout {
  bool gather, pointwise, pairs, triples, quints;
  std::int32_t wide, window, pair_window, pair_out, bytes;
};
ARENAPLAN_KERNELS_INLINE constexpr ConvScratchLayout ConvScratchOf(
    const Shape4& filter_shape) {
  ConvScratchLayout l{};
  const std::int32_t kh = filter_shape.h, kw = filter_shape.w,
                     out_c = filter_shape.n;
  const std::int32_t per_oc = kh * kw * filter_shape.c;
  l.gather = per_oc <= kWindow && kh * kw > 1;
  l.pointwise = kh == 1 && kw == 1;
  l.pairs = per_oc <= kWindow && out_c <= kPairOut && (out_c & 1) == 0 &&
            (l.gather || l.pointwise);
  l.triples = l.pairs && (l.pointwise || per_oc <= kGatheredTriple);
  l.quints = l.pairs && l.pointwise && (per_oc & 3) == 0;
  const std::int32_t words = l.quints ? 10 : (l.triples ? 6 : 4);
  const std::int32_t wide = l.pairs ? words * (per_oc & ~3) : 0;
  const std::int32_t window = RoundUp4(l.gather ? per_oc : kZeros);
  l.wide = 0;
  l.window = wide;
  l.pair_window = l.window + window;
  // A gathered triple's three windows, one after the other.
  l.pair_out =
      l.pair_window + (l.pairs && l.gather ? (l.triples ? 2 : 1) * window : 0);
  const bool tails = (per_oc & 3) != 0;  // a triple holds two pixels back
  l.bytes = l.pair_out + (l.pairs ? (l.triples && tails ? 2 : 1) * out_c : 0);
  return l;
}

/// The output stage of a convolution (dsp.hpp OutputStage).
ARENAPLAN_KERNELS_INLINE constexpr OutputStage StageOf(const ConvParams& p,
                                                       ChannelQuant q) {
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

/// One Conv2DFastWith call as its outlined parts read it, through one
/// reference (so that the pixel loops keep few values in registers):
/// operands, geometry (elements; per_oc, in_row and f_row in bytes), the
/// interior columns and the scratch buffers (ConvScratchOf's layout).
struct ConvJob {
  const std::int8_t* input;         ///< [out_n, in_h, in_w, in_c]
  const std::int8_t* filter;        ///< [out_c, kh, kw, in_c]
  const std::int32_t* folded_bias;  ///< out_c sums (FoldConvBias)
  OutputStage stage;                ///< Requantization and clamp.
  std::int32_t in_h, in_w, in_c, kh, kw, out_c;
  std::int32_t out_n, out_h, out_w;  ///< Output pixels.
  std::int32_t stride_h, stride_w, pad_h, pad_w;
  std::int32_t per_oc;         ///< kh * kw * in_c: one channel's filter.
  std::int32_t in_row, f_row;  ///< in_w * in_c and kw * in_c.
  /// Output columns [ox_lo, ox_hi) whose windows lie within the input's
  /// columns (0 <= ox_lo <= ox_hi <= out_w).
  std::int32_t ox_lo, ox_hi;
  std::int8_t zero_point;  ///< The padding's value (the input's zero).
  /// The gathered window, or kZeros zero points; a pair's second gathered
  /// window follows it, RoundUp4(per_oc) bytes on (ConvScratchOf).
  std::int8_t* window;
  std::uint32_t* wide;  ///< A pair's two windows, Widen2's words.
  /// A pair's second pixel's out_c bytes (a triple's second and third
  /// pixels': 2 out_c bytes).
  std::int8_t* pair_out;
};

/// How Conv2DFastWith reads a pixel's window: gathered into a buffer
/// (windows of at most kWindow bytes and more than one tap), in place (an
/// unclipped 1x1 window; a clipped one row-wise), or row by row
/// (RowWisePixel, the other layers).
enum class ConvWindows { kGathered, kPointwise, kRowWise };

/// The window at input row y0 and column x0 (either may be negative) of
/// `image` (one batch's [in_h, in_w, in_c] input) copied into dst as one
/// [kh, kw, in_c] vector, the padded taps holding the zero point; returns
/// dst. Reads each in-bounds byte of the window once, in ascending order.
ARENAPLAN_KERNELS_OUTLINE const std::int8_t* GatherWindow(
    const ConvJob& j, const std::int8_t* image, std::int32_t y0,
    std::int32_t x0, std::int8_t* dst) {
  const std::int32_t kh = j.kh, in_c = j.in_c, f_row = j.f_row,
                     in_row = j.in_row;
  const std::int8_t zp = j.zero_point;
  const Span rows = Clip(y0, kh, j.in_h), cols = Clip(x0, j.kw, j.in_w);
  // Clip's begin <= k: the left padding is within the row.
  const std::int32_t left = cols.begin * in_c,
                     mid = (cols.end - cols.begin) * in_c,
                     right = f_row - left - mid;
  const std::int8_t* src =  // the first in-bounds row's first in-bounds tap
      image + (y0 + rows.begin) * in_row + (x0 + cols.begin) * in_c;
  std::int8_t* d = dst;
  for (std::int32_t ky = 0; ky < kh; ++ky) {
    if (ky < rows.begin || ky >= rows.end) {
      d = Fill(d, zp, f_row);
      continue;
    }
    d = Fill(d, zp, left);
    d = Copy(d, src, mid);
    d = Fill(d, zp, right);
    src += in_row;
  }
  return dst;
}

/// GatherWindow for a window within the input, whose first byte is at
/// src: its kh rows of f_row bytes, in_row bytes apart. Returns dst.
ARENAPLAN_KERNELS_OUTLINE const std::int8_t* GatherRows(const ConvJob& j,
                                                        const std::int8_t* src,
                                                        std::int8_t* dst) {
  const std::int32_t f_row = j.f_row, in_row = j.in_row;
  std::int8_t* d = dst;
  for (std::int32_t ky = j.kh; ky > 0; --ky, src += in_row) {
    d = Copy(d, src, f_row);
  }
  return dst;
}

/// The out_c bytes of one pixel whose window is the vector v (per_oc
/// bytes): the channels in groups of four (dsp.hpp VectorGroups), then one
/// by one; each reads all of v, then writes its bytes.
template <class Mac>
ARENAPLAN_KERNELS_OUTLINE void VectorPixel(const ConvJob& j,
                                           const std::int8_t* v,
                                           std::int8_t* out) {
  const std::int32_t per_oc = j.per_oc, groups_end = j.out_c & ~3;
  VectorGroups<Mac>(v, j.filter, per_oc, groups_end, j.folded_bias, j.stage,
                    out);
  for (std::int32_t c = groups_end; c < j.out_c; ++c) {
    out[c] = j.stage.Leftover(
        Mac::Dot1(v, j.filter + c * per_oc, per_oc, j.folded_bias[c]), c);
  }
}

/// Two consecutive pixels (raster order) whose windows are the vectors a
/// and b, out_c even: their bytes at out_a and out_a + out_c. Both windows
/// are read (widened, Widen2), then per pair of channels the tails of both
/// (the last per_oc & 3 bytes) read and a's two bytes written, b's kept in
/// pair_out; b's bytes are written after the last pair (PairGroups).
/// Without tails (per_oc a multiple of 4) no window byte is read after
/// Widen2, and b's bytes are written in place with a's.
template <class Mac>
ARENAPLAN_KERNELS_OUTLINE void PixelPair(const ConvJob& j, const std::int8_t* a,
                                         const std::int8_t* b,
                                         std::int8_t* out_a) {
  const std::int32_t per_oc = j.per_oc, out_c = j.out_c, n4 = per_oc & ~3;
  const bool tails = n4 != per_oc;
  std::int8_t* const out_b = tails ? j.pair_out : out_a + out_c;
  Mac::Widen2(a, b, n4, j.wide);
  PairGroups<Mac>(j.wide, a, b, per_oc, j.filter, out_c, j.folded_bias, j.stage,
                  out_a, out_b);
  if (tails) Copy(out_a + out_c, out_b, out_c);
}

/// Three consecutive pixels (raster order) whose windows are the vectors
/// a, b and c, out_c even: their bytes at out_a, out_a + out_c and out_a +
/// 2 out_c. The three windows are read (widened, Widen3), then the output
/// channels in pairs, in ascending order, each pair reading all of `wide`
/// and the tails of the three (the last per_oc & 3 bytes), then writing
/// a's two bytes, b's and c's kept in pair_out; b's and c's bytes are
/// written after the last pair. Without tails (per_oc a multiple of 4) no
/// window byte is read after Widen3, and b's and c's bytes are written in
/// place with a's. One outlined frame (Dot3x2, the tails and Store2x3
/// inlined): the triple adds no call depth to the pairs' path.
template <class Mac>
ARENAPLAN_KERNELS_OUTLINE void PixelTriple(const ConvJob& j,
                                           const std::int8_t* a,
                                           const std::int8_t* b,
                                           const std::int8_t* c,
                                           std::int8_t* out_a) {
  const std::int32_t n = j.per_oc, out_c = j.out_c, n4 = n & ~3;
  const std::uint32_t* const wide = j.wide;
  Mac::Widen3(a, b, c, n4, j.wide);
  const bool tails = n4 != n;
  std::int8_t* const out_b = tails ? j.pair_out : out_a + out_c;
  const OutputStage stage = j.stage;  // in registers across the stores
  const bool full = stage.FullRange();
  for (std::int32_t oc = 0; oc < out_c; oc += 2) {
    const std::int8_t* w = j.filter + oc * n;
    const std::int32_t b0 = j.folded_bias[oc], b1 = j.folded_bias[oc + 1];
    std::int32_t acc[6] = {b0, b1, b0, b1, b0, b1};
    Mac::Dot3x2(wide, w, n, n4, acc);
    for (std::int32_t i = n4; i < n; ++i) {
      const std::int32_t w0 = w[i], w1 = w[n + i];
      const std::int32_t x[3] = {a[i], b[i], c[i]};
      for (int p = 0; p < 3; ++p) {
        acc[2 * p] = dsp_detail::Wrap(static_cast<std::uint32_t>(acc[2 * p]) +
                                      static_cast<std::uint32_t>(x[p] * w0));
        acc[2 * p + 1] =
            dsp_detail::Wrap(static_cast<std::uint32_t>(acc[2 * p + 1]) +
                             static_cast<std::uint32_t>(x[p] * w1));
      }
    }
    stage.Store2x3(acc, oc, out_a + oc, out_b + oc, out_b + out_c + oc, full);
  }
  if (tails) Copy(out_a + out_c, out_b, 2 * out_c);
}

/// kN (4 or 5) consecutive pixels (raster order) of a pointwise layer
/// whose windows are the vectors x[0 .. kN) in place, per_oc a multiple of
/// 4: their bytes at out_a + p out_c, p < kN. The windows are read
/// (widened, WidenN), then the output channels one by one in ascending
/// order, each reading all of `wide` and writing its kN bytes: no window
/// byte is read after WidenN, so the bytes are written in place.
template <class Mac, int kN>
ARENAPLAN_KERNELS_OUTLINE void PixelRun(const ConvJob& j,
                                        const std::int8_t* const* x,
                                        std::int8_t* out_a) {
  const std::int32_t n = j.per_oc, out_c = j.out_c;
  Mac::template WidenN<kN>(x, n, j.wide);
  const OutputStage stage = j.stage;  // in registers across the stores
  const bool full = stage.FullRange();
  for (std::int32_t oc = 0; oc < out_c; ++oc) {
    const std::int32_t b = j.folded_bias[oc];
    std::int32_t acc[kN];
#pragma GCC unroll 5
    for (int p = 0; p < kN; ++p) acc[p] = b;
    Mac::template DotNx1<kN>(j.wide, j.filter + oc * n, n, acc);
    stage.template StoreColumn<kN>(acc, oc, out_a + oc, out_c, full);
  }
}

/// A window's in-bounds rows and columns (Clip).
struct ClipBox {
  Span rows, cols;
};

/// acc[k] += zero_point * (the weights of output channel oc + k at the
/// padded taps of `box`), k < kLanes (4: Dot4, 1: Dot1), the zero points
/// read from `window` (kZeros of them): the padding corrections.
template <class Mac, int kLanes>
ARENAPLAN_KERNELS_INLINE void PaddedTaps(const ConvJob& j, const ClipBox& box,
                                         std::int32_t oc, std::int32_t* acc) {
  const std::int32_t per_oc = j.per_oc;
  const std::int8_t* const zeros = j.window;
  const std::int8_t* const wk = j.filter + oc * per_oc;
  ForPaddedRuns(
      j.kh, j.kw, j.in_c, box.rows, box.cols,
      [&](std::int32_t off, std::int32_t len) ARENAPLAN_KERNELS_INLINE_LAMBDA {
        for (std::int32_t i = 0; i < len; i += kZeros) {
          const std::int32_t n = len - i < kZeros ? len - i : kZeros;
          if constexpr (kLanes == 4) {
            Mac::Dot4(zeros, wk + off + i, per_oc, n, acc);
          } else {
            acc[0] = Mac::Dot1(zeros, wk + off + i, n, acc[0]);
          }
        }
      });
}

/// One pixel row by row: per group of four channels (then per channel),
/// one dot product per in-bounds filter row (dsp.hpp Dot4, Dot1: the
/// in-bounds columns times in_c bytes, contiguous in the input and the
/// filter), then the padding corrections (PaddedTaps), then its bytes.
/// image, y0, x0: as GatherWindow's.
template <class Mac>
ARENAPLAN_KERNELS_OUTLINE void RowWisePixel(const ConvJob& j,
                                            const std::int8_t* image,
                                            std::int32_t y0, std::int32_t x0,
                                            std::int8_t* out) {
  const ClipBox box{Clip(y0, j.kh, j.in_h), Clip(x0, j.kw, j.in_w)};
  const bool clipped = box.rows.begin != 0 || box.rows.end != j.kh ||
                       box.cols.begin != 0 || box.cols.end != j.kw;
  const std::int32_t in_c = j.in_c, per_oc = j.per_oc;
  const std::int32_t run = (box.cols.end - box.cols.begin) * in_c,
                     rows = box.rows.end - box.rows.begin;
  const std::int8_t* const in0 =
      image + (y0 + box.rows.begin) * j.in_row + (x0 + box.cols.begin) * in_c;
  const std::int32_t f0 = (box.rows.begin * j.kw + box.cols.begin) * in_c;
  const bool full = j.stage.FullRange();
  std::int32_t oc = 0;
  for (; oc < (j.out_c & ~3); oc += 4) {
    std::int32_t acc[4] = {j.folded_bias[oc], j.folded_bias[oc + 1],
                           j.folded_bias[oc + 2], j.folded_bias[oc + 3]};
    const std::int8_t* in = in0;
    const std::int8_t* w = j.filter + oc * per_oc + f0;
    for (std::int32_t r = rows; r > 0; --r, in += j.in_row, w += j.f_row) {
      Mac::Dot4(in, w, per_oc, run, acc);
    }
    if (clipped) PaddedTaps<Mac, 4>(j, box, oc, acc);
    j.stage.Store4(acc, oc, out + oc, full);
  }
  for (; oc < j.out_c; ++oc) {
    std::int32_t acc[1] = {j.folded_bias[oc]};
    const std::int8_t* in = in0;
    const std::int8_t* w = j.filter + oc * per_oc + f0;
    for (std::int32_t r = rows; r > 0; --r, in += j.in_row, w += j.f_row) {
      acc[0] = Mac::Dot1(in, w, run, acc[0]);
    }
    if (clipped) PaddedTaps<Mac, 1>(j, box, oc, acc);
    out[oc] = j.stage.Leftover(acc[0], oc);
  }
}

/// The vector pixels of a ConvPixels loop: with kPairs two consecutive
/// ones (raster order) go together (PixelPair), `pending` the first of a
/// pair, not yet computed, its bytes at the next pixel's out - out_c. With
/// kTriples (windows in place: no buffer to keep) three go together
/// (PixelTriple: fewer instructions per multiply-accumulate than a pair):
/// up to four wait in `held` (`count` of them, at the next pixel's out -
/// count out_c, ...), a fifth sends the first three as a triple, and a run
/// of consecutive vector pixels ends in a triple, a pair or two pairs (a
/// single pixel only when the run is one pixel).
template <class Mac, bool kPairs, bool kTriples>
struct VectorSink {
  /// A constructor, not aggregate initialization, which would zero `held`.
  ARENAPLAN_KERNELS_INLINE explicit VectorSink(const ConvJob& job) : j(job) {}

  const ConvJob& j;
  const std::int8_t* pending = nullptr;
  /// kTriples only; held[0 .. count) are set (not zeroed first: a fused
  /// segment makes one call a row, and zeroing was a memset call).
  const std::int8_t* held[4];
  std::int32_t count = 0;  ///< kTriples only.

  /// Where the next pixel's window is gathered.
  ARENAPLAN_KERNELS_INLINE std::int8_t* Buffer() const {
    return kPairs && pending != nullptr ? j.window + RoundUp4(j.per_oc)
                                        : j.window;
  }
  /// The pixel whose bytes are at out, its window the vector v.
  ARENAPLAN_KERNELS_INLINE void Take(const std::int8_t* v, std::int8_t* out) {
    if constexpr (kTriples) {
      if (count < 4) {
        held[count++] = v;
        return;
      }
      PixelTriple<Mac>(j, held[0], held[1], held[2], out - 4 * j.out_c);
      held[0] = held[3], held[1] = v, count = 2;
    } else if constexpr (kPairs) {
      if (pending == nullptr) {  // wait for the next pixel
        pending = v;
        return;
      }
      PixelPair<Mac>(j, pending, v, out - j.out_c);
      pending = nullptr;
    } else {
      VectorPixel<Mac>(j, v, out);
    }
  }
  /// The pixels waiting (the pixel at out is not a vector, or there is
  /// none).
  ARENAPLAN_KERNELS_INLINE void Flush(std::int8_t* out) {
    if constexpr (kTriples) {
      std::int8_t* const first = out - count * j.out_c;
      if (count == 1) {
        VectorPixel<Mac>(j, held[0], first);
      } else if (count == 3) {
        PixelTriple<Mac>(j, held[0], held[1], held[2], first);
      } else if (count != 0) {  // two or four: pairs
        PixelPair<Mac>(j, held[0], held[1], first);
        if (count == 4) PixelPair<Mac>(j, held[2], held[3], out - 2 * j.out_c);
      }
      count = 0;
    } else if (kPairs && pending != nullptr) {
      VectorPixel<Mac>(j, pending, out - j.out_c);
      pending = nullptr;
    }
  }
};

/// The pixels of a ConvPixels loop that are one run of known length
/// (`left` pixels): every window gathered (kMax 3), or every window a
/// pointwise one in place without tails (kMax 5). Taken in groups
/// (GroupOf). kMax 5: fives (PixelRun), the last six to nine pixels as 3 +
/// 3, 4 + 3, 4 + 4 or 4 + 5, a run of one to four one group (PixelRun of
/// four, PixelTriple, PixelPair, VectorPixel). kMax 3: threes
/// (PixelTriple), the last four as two pairs (PixelPair). One pixel alone
/// only when the run is one pixel. A group of gathered windows is gathered
/// one window after the other into the scratch's three window buffers
/// (ConvScratchOf).
template <class Mac, int kMax>
struct RunSink {
  ARENAPLAN_KERNELS_INLINE RunSink(const ConvJob& job, std::int32_t pixels)
      : j(job), left(pixels), group(GroupOf(pixels)) {}

  /// Pixels in the group that starts with n pixels left.
  ARENAPLAN_KERNELS_INLINE static constexpr std::int32_t GroupOf(
      std::int32_t n) {
    if (kMax == 3) return n == 1 ? 1 : (n == 2 || n == 4) ? 2 : 3;
    if (n < 5) return n;                                    // one group
    if (n == 6 || n == 7 || n == 8) return n == 6 ? 3 : 4;  // 3+3, 4+3, 4+4
    return n == 9 ? 4 : 5;                                  // 4+5, then fives
  }

  const ConvJob& j;
  std::int32_t left, group, count = 0;
  const std::int8_t* held[kMax];  ///< held[0 .. count) are set.

  /// Where the next pixel's window is gathered.
  ARENAPLAN_KERNELS_INLINE std::int8_t* Buffer() const {
    return j.window + count * RoundUp4(j.per_oc);
  }
  /// The pixel whose bytes are at out, its window the vector v.
  ARENAPLAN_KERNELS_INLINE void Take(const std::int8_t* v, std::int8_t* out) {
    held[count++] = v;
    if (count != group) return;
    std::int8_t* const first = out - (count - 1) * j.out_c;
    if (kMax == 5 && group == 5) {
      PixelRun<Mac, 5>(j, held, first);
    } else if (kMax == 5 && group == 4) {
      PixelRun<Mac, 4>(j, held, first);
    } else if (group == 3) {
      PixelTriple<Mac>(j, held[0], held[1], held[2], first);
    } else if (group == 2) {
      PixelPair<Mac>(j, held[0], held[1], first);
    } else {
      VectorPixel<Mac>(j, held[0], first);
    }
    left -= group, group = GroupOf(left), count = 0;
  }
  /// Every group is complete when the last pixel is taken.
  ARENAPLAN_KERNELS_INLINE void Flush(std::int8_t*) {}
};

/// All output pixels of a Conv2DFastWith call in raster order (b, oy, ox
/// ascending), their windows read as kWindows says; the columns [ox_lo,
/// ox_hi) of an output row whose windows lie within the input's rows take
/// the short path (GatherRows, the window in place, no clipping).
template <class Mac, ConvWindows kWindows, bool kPairs, bool kTriples = false,
          bool kQuints = false>
ARENAPLAN_KERNELS_INLINE void ConvPixelsInline(const ConvJob& j,
                                               std::int8_t* out) {
  // One run of known length: gathered windows in groups of up to three,
  // or, with kQuints, unclipped pointwise ones of up to five.
  constexpr bool kRun =
      (kWindows == ConvWindows::kGathered && kTriples) || kQuints;
  using Sink = std::conditional_t<kRun, RunSink<Mac, kQuints ? 5 : 3>,
                                  VectorSink<Mac, kPairs, kTriples>>;
  Sink sink = [&]() ARENAPLAN_KERNELS_INLINE_LAMBDA {
    if constexpr (kRun) {
      return Sink(j, j.out_n * j.out_h * j.out_w);
    } else {
      return Sink(j);
    }
  }();
  const std::int32_t out_c = j.out_c, stride_w = j.stride_w;
  const std::int32_t step = stride_w * j.in_c;  // input bytes per column
  // A pixel whose window may be clipped.
  const auto edge = [&](const std::int8_t* image, std::int32_t y0,
                        std::int32_t x0,
                        std::int8_t* o) ARENAPLAN_KERNELS_INLINE_LAMBDA {
    if constexpr (kWindows == ConvWindows::kGathered) {
      sink.Take(GatherWindow(j, image, y0, x0, sink.Buffer()), o);
    } else {  // clipped (pointwise), or row-wise
      sink.Flush(o);
      RowWisePixel<Mac>(j, image, y0, x0, o);
    }
  };
  for (std::int32_t b = 0; b < j.out_n; ++b) {
    const std::int8_t* const image = j.input + b * j.in_h * j.in_row;
    for (std::int32_t oy = 0; oy < j.out_h; ++oy) {
      const std::int32_t y0 = oy * j.stride_h - j.pad_h;
      const bool rows_in =
          kWindows != ConvWindows::kRowWise && y0 >= 0 && y0 + j.kh <= j.in_h;
      // Columns counted, not pointers compared: with a call's constants
      // inlined, GCC then sees each loop's trip count.
      const std::int32_t out_w = j.out_w, lo = rows_in ? j.ox_lo : out_w;
      std::int32_t ox = 0;
      for (; ox < lo; ++ox, out += out_c) {
        edge(image, y0, ox * stride_w - j.pad_w, out);
      }
      if (ox == out_w) continue;
      // The interior: windows within the input, src their first bytes.
      const std::int8_t* src =
          image + y0 * j.in_row + (ox * stride_w - j.pad_w) * j.in_c;
      for (; ox < j.ox_hi; ++ox, out += out_c, src += step) {
        if constexpr (kWindows == ConvWindows::kGathered) {
          sink.Take(GatherRows(j, src, sink.Buffer()), out);
        } else {
          sink.Take(src, out);
        }
      }
      for (; ox < out_w; ++ox, out += out_c) {
        edge(image, y0, ox * stride_w - j.pad_w, out);
      }
    }
  }
  sink.Flush(out);
}

/// ConvPixelsInline outlined: one copy for a layer's whole-tensor call.
template <class Mac, ConvWindows kWindows, bool kPairs, bool kTriples = false,
          bool kQuints = false>
ARENAPLAN_KERNELS_OUTLINE void ConvPixelsOutlined(const ConvJob& j,
                                                  std::int8_t* out) {
  ConvPixelsInline<Mac, kWindows, kPairs, kTriples, kQuints>(j, out);
}

/// ConvPixelsInline, inlined into a call of one output row (a fused
/// segment's row calls, whose shapes are mostly constants there), else
/// outlined.
template <class Mac, ConvWindows kWindows, bool kPairs, bool kTriples = false,
          bool kQuints = false>
ARENAPLAN_KERNELS_INLINE void ConvPixels(const ConvJob& j, std::int8_t* out) {
  if (j.out_n * j.out_h == 1) {
    ConvPixelsInline<Mac, kWindows, kPairs, kTriples, kQuints>(j, out);
  } else {
    ConvPixelsOutlined<Mac, kWindows, kPairs, kTriples, kQuints>(j, out);
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
ARENAPLAN_KERNELS_INLINE void Conv2DFastWith(
    const ConvParams& p, const Shape4& in_shape, const std::int8_t* input,
    const Shape4& filter_shape, const std::int8_t* filter,
    const std::int32_t* folded_bias, ChannelQuant quant,
    const Shape4& out_shape, std::int8_t* output,
    std::int8_t* __restrict scratch) {
  using fast_detail::ConvPixels;
  using fast_detail::ConvWindows;
  const std::int32_t kh = filter_shape.h, kw = filter_shape.w,
                     in_c = in_shape.c, out_c = out_shape.c;
  const fast_detail::ConvScratchLayout layout =
      fast_detail::ConvScratchOf(Shape4{out_c, kh, kw, in_c});
  fast_detail::ConvJob j{};
  j.input = input, j.filter = filter, j.folded_bias = folded_bias;
  j.stage = fast_detail::StageOf(p, quant);
  j.in_h = in_shape.h, j.in_w = in_shape.w, j.in_c = in_c;
  j.kh = kh, j.kw = kw, j.out_c = out_c;
  j.out_n = out_shape.n, j.out_h = out_shape.h, j.out_w = out_shape.w;
  j.stride_h = p.stride_h, j.stride_w = p.stride_w;
  j.pad_h = p.pad_h, j.pad_w = p.pad_w;
  j.per_oc = kh * kw * in_c;
  j.in_row = j.in_w * in_c, j.f_row = kw * in_c;
  // Interior columns: x0 = ox * stride_w - pad_w >= 0 and x0 + kw <= in_w.
  const std::int32_t sw = j.stride_w, last = j.in_w - kw + j.pad_w;
  std::int32_t lo = j.pad_w > 0 ? (j.pad_w + sw - 1) / sw : 0;
  std::int32_t hi = last >= 0 ? last / sw + 1 : 0;
  lo = lo < j.out_w ? lo : j.out_w;
  hi = hi < j.out_w ? hi : j.out_w;
  j.ox_lo = lo, j.ox_hi = hi > lo ? hi : lo;
  j.zero_point = static_cast<std::int8_t>(-p.input_offset);
  j.window = scratch + layout.window;
  j.wide = reinterpret_cast<std::uint32_t*>(
      __builtin_assume_aligned(scratch + layout.wide, 4));
  j.pair_out = scratch + layout.pair_out;
  // The padding's value for the padded runs of the windows that are not
  // gathered: in `window`, which only gathering uses (a gathered window
  // never reaches the padded runs), so the scratch holds one buffer, not
  // two. Only a clipped window reads them: not written when every window
  // lies within the input (an unpadded pointwise layer, or a fused
  // segment's row call of an interior row).
  const bool clips = j.pad_h > 0 || lo > 0 || hi < j.out_w ||
                     (j.out_h - 1) * j.stride_h - j.pad_h + kh > j.in_h;
  if (!layout.gather && clips)
    fast_detail::Fill(j.window, j.zero_point, fast_detail::kZeros);
  constexpr bool kPairs = Mac::kPairs;
  const bool pairs = kPairs && layout.pairs;
  if (layout.gather) {
    if (!pairs) {
      ConvPixels<Mac, ConvWindows::kGathered, false>(j, output);
    } else if (layout.triples) {
      ConvPixels<Mac, ConvWindows::kGathered, kPairs, kPairs>(j, output);
    } else {
      ConvPixels<Mac, ConvWindows::kGathered, kPairs>(j, output);
    }
  } else if (layout.pointwise) {
    if (!pairs) {
      ConvPixels<Mac, ConvWindows::kPointwise, false>(j, output);
    } else if (layout.quints && !clips) {  // every window in place
      ConvPixels<Mac, ConvWindows::kPointwise, kPairs, kPairs, kPairs>(j,
                                                                       output);
    } else {
      ConvPixels<Mac, ConvWindows::kPointwise, kPairs, kPairs>(j, output);
    }
  } else {
    ConvPixels<Mac, ConvWindows::kRowWise, false>(j, output);
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
ARENAPLAN_KERNELS_INLINE void DepthwiseConv2DFastWith(
    const Params& p, const Shape4& in_shape, const std::int8_t* input,
    const Shape4& filter_shape, const std::int8_t* filter,
    const std::int32_t* folded_bias, ChannelQuant quant,
    const Shape4& out_shape, std::int8_t* output,
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
  // A clipped tap reads channels [c0, c_end) of them, at most kPass
  // (c_n a constant where the call is inlined: the fill unrolled).
  fast_detail::Fill(zeros, static_cast<std::int8_t>(-p.input_offset),
                    c_n < kPass ? c_n : kPass);
  // Tap (ky, kx) is entry ky * kw + kx (no division: a fused segment's
  // row calls build the table at each call).
  for (std::int32_t ky = 0, t = 0; ky < kh; ++ky) {
    for (std::int32_t kx = 0; kx < kw; ++kx, ++t) {
      inner[t] = static_cast<std::uintptr_t>((ky * dh * in_w + kx * dw) * c_n);
    }
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
///
/// Inlined into the generated call, as are DepthwiseConv2DFast and the
/// two *With functions: the call's constants (filter shape, strides,
/// quantization) reach the set-up, so the scratch layout, the interior
/// columns and the depthwise tap loops are worked out when compiling, not
/// at each call (a fused segment makes one call a row), and the set-up's
/// frame is the caller's. The pixel loops stay outlined (ConvPixels,
/// DepthwisePassGroups). On mps2-an386 person_detect took 18,501,559 ->
/// 18,309,363 instructions, FUSE=1 18,614,677 -> 18,402,601, its peak
/// stack 656 -> 560 bytes, for 2.4 KB more flash.
ARENAPLAN_KERNELS_INLINE void Conv2DFast(
    const ConvParams& p, const Shape4& in_shape, const std::int8_t* input,
    const Shape4& filter_shape, const std::int8_t* filter,
    const std::int32_t* folded_bias, ChannelQuant quant,
    const Shape4& out_shape, std::int8_t* output, std::int8_t* scratch) {
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
  helium::Conv2D(p, in_shape, input, filter_shape, filter, folded_bias, quant,
                 out_shape, output, scratch);
#else
  Conv2DFastWith<DefaultMac>(p, in_shape, input, filter_shape, filter,
                             folded_bias, quant, out_shape, output, scratch);
#endif
}

/// True where Conv2DFast and DepthwiseConv2DFast run the *With kernels,
/// whose clipping and window arithmetic fold when the input's rows and top
/// padding are constants: a fused segment's generated row calls give an
/// interior row (the whole window inside the input) a call with those as
/// constants (codegen/compile/fused_body.cpp). mps2-an386 FUSE=1:
/// person_detect -26,600 instructions for 864 bytes of flash, kws_ref_model
/// -10,160 for 1,008. False with integer MVE: the Helium kernels gained
/// nothing from it (mps3-an547 kws_ref_model -1,438 instructions for 56
/// more bytes of stack, person_detect +875).
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
inline constexpr bool kInteriorRowCalls = false;
#else
inline constexpr bool kInteriorRowCalls = true;
#endif

/// DepthwiseConv2DFastWith on this core's fastest multiply-accumulate;
/// helium::DepthwiseConv2D where the core has integer MVE. `scratch`:
/// DepthwiseConv2DFastScratchBytes(filter_shape) bytes.
ARENAPLAN_KERNELS_INLINE void DepthwiseConv2DFast(
    const ConvParams& p, const Shape4& in_shape, const std::int8_t* input,
    const Shape4& filter_shape, const std::int8_t* filter,
    const std::int32_t* folded_bias, ChannelQuant quant,
    const Shape4& out_shape, std::int8_t* output, std::int8_t* scratch) {
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
