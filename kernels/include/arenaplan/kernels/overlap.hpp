// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Overlap contracts: how far below its input a kernel's output may start.
//
// Relation (codegen/records.hpp, OverlapRelation::kOutputBelowBy): the input
// occupies bytes [I, I + S_in), the output [O, O + S_out) with
// O + d <= I. Output byte j (byte O + j) then lies on input byte i = j - d'
// where d' = I - O >= d. A kernel that writes output byte j at some moment
// clobbers input byte i = j - d' when i in [0, S_in) is read again after
// that moment. Let minAfter(j) be the smallest input index the kernel reads
// after it writes output byte j (+infinity when none). The placement is
// safe when, for every output byte j, j - d' < minAfter(j): the byte it
// lands on is below the input, or below every input byte still to be read.
//
// Contract distance:  d = max(0, max_j (j - minAfter(j) + 1)).
//
// Monotonicity (any d' >= d is safe): j - d' <= j - d < minAfter(j) for
// every j. Exactness: d is the smallest distance from which on every
// placement is safe. At d - 1 (d > 0) the maximising j lands exactly on
// minAfter(j), an input byte read after j is written: a clobber. (A few
// single distances below d may happen to be safe, e.g. when a stride skips
// input bytes; the relation "any d' >= d" cannot use them.) d <= S_out - 1
// always, since j <= S_out - 1 and minAfter(j) >= 0; at d' >= S_out the two
// tensors are disjoint anyway.
//
// Every kernel here writes int8 outputs one byte at a time, each byte after
// all the reads it depends on, and never reads its output; the pointers are
// plain (no __restrict), so the compiler keeps the program order of reads
// and writes that may alias.
//
// The sliding-window kernels (CONV_2D, DEPTHWISE_CONV_2D, pooling) share
// one geometry: NHWC input [N, H, W, C], output [N, OH, OW, OC], output
// pixels P = (b * OH + oy) * OW + ox visited in that order (b, oy, ox
// ascending), window of pixel P with taps at rows oy * sh - ph + ky * dh
// (ky < kh) and columns ox * sw - pw + kx * dw (kx < kw), clipped to the
// input; dh = dw = 1 except for dilated convolutions, and pooling's
// windows are undilated. The taps read form a grid (in-bounds rows times
// in-bounds columns), so the smallest input index the window of P reads is
// channel 0 of its first in-bounds row and column:
//   a(P) = ((b * H + Y(oy)) * W + X(ox)) * C,
//   Y(oy) = the smallest oy * sh - ph + ky * dh >= 0 (ky < kh),
//   X(ox) = the smallest ox * sw - pw + kx * dw >= 0 (kx < kw),
// i.e. Y(oy) = oy * sh - ph when that is >= 0, else its least non-negative
// residue modulo dh (0 when dh = 1; in [0, dh - 1] otherwise), provided
// every window holds at least one in-bounds row and column: that first
// tap exists (ky < kh) and lies inside the input (Y(oy) <= H - 1; for the
// rows past the padding the last one, (OH - 1) * sh - ph <= H - 1), and the
// same for columns. TFLite's SAME and VALID padding give this for dh = 1
// (ph <= kh - 1); a dilated SAME window may miss a small input (2 rows,
// kh = 2, dh = 3: output row 0 taps rows -1 and 2), and then the functions
// below give no overlap, d = S_out. The smallest index read by the
// windows P, P + 1, ... is m(P) = min over P' >= P of a(P'). It can be
// below a(P): with top padding, rows 0 and 1 may both start at input row 0
// (or, dilated, row 1 start at input row 0 and row 0 at input row 1), and
// then column 0 of the next row lies below the current window. But
// wherever a term of the form (P + 1) * OC - m(P) appears, the pixel
// P' >= P with a(P') = m(P) gives a term at least as large,
// (P' + 1) * OC - a(P'); so
//   max_P ((P + 1) * OC - m(P)) = max_P ((P + 1) * OC - a(P)),     (*)
// and the maxima below need a(P) only. That term splits into a batch part,
// a row part and a column part:
//   (P + 1) * OC - a(P) = b * (OH*OW*OC - H*W*C) + g(oy) + h(ox),
//   g(oy) = oy * OW * OC - Y(oy) * W * C,  h(ox) = (ox + 1) * OC - X(ox) * C.
// The batch part is largest at b = 0 or b = N - 1. Past the padding
// (oy > floor(ph / sh), where oy * sh - ph > 0) Y(oy) = oy * sh - ph and g
// is linear, so its maximum there is at floor(ph / sh) + 1 or OH - 1. In
// the padding (oy <= floor(ph / sh)) Y(oy) is bounded by dh - 1 but not
// monotone when dh > 1, so every such oy is a candidate (at most
// floor(ph / sh) + 1 <= kh * dh of them, as every window holds an
// in-bounds tap); for dh = 1, Y = 0 there and g is increasing, so only
// floor(ph / sh) (and 0) is evaluated, as without dilation (a pooling
// window from a model may be very large, its padding too).
// Likewise h (columns, pw, sw, dw). So
//   M = max_P ((P + 1) * OC - a(P)) = batch + G + Hc,
//   batch = (N - 1) * max(0, OH*OW*OC - H*W*C), G = max g, Hc = max h,
// each maximum taken exactly over its candidates (WindowDistance below);
// the per-kernel formulas in conv.hpp and pooling.hpp are M - 1 (Conv2D)
// and M - C (DepthwiseConv2D, pooling), clamped to [0, S_out]. Dilation
// changes Y and X only: the reads that follow each output byte, and so the
// per-kernel formulas and their exactness, are as without it.
//
// Example (dilated, exact): DepthwiseConv2D, dm = 1, 1x2 window with
// dw = 2, stride 1, SAME, over 1x5x1 (a dilated Conv1D): span 3, pw = 1,
// OW = 5; X = (1, 0, 1, 2, 3) for ox = 0 .. 4 (ox = 0 taps columns -1 and
// 1), h(ox) = ox + 1 - X(ox) = (0, 2, 2, 2, 2), G = 0: d = 2 - 1 = 1
// (undilated it would be 0, in place). At d' = 0 output byte 0 (written
// after reading column 1 only) lands on input column 0, which output 1
// reads next: a clobber.
//
// All arithmetic in 64 bits; 32-bit divisions only (no 64-bit division
// helper on Cortex-M).
#ifndef ARENAPLAN_KERNELS_OVERLAP_HPP_
#define ARENAPLAN_KERNELS_OVERLAP_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

/// The overlap distance of element-wise kernels that read element i and
/// then write element i of the same type, in order i = 0, 1, ... (ADD with
/// either input, Requantize with In == Out): minAfter(j) = j + 1 byte-wise
/// (the bytes of element i are read before any byte of element i is
/// written, and later reads are above them), so d = 0, in place. Exact.
inline constexpr std::int64_t kElementwiseOverlapDistance = 0;

/// The overlap distance (bytes) of an element-wise kernel over `count`
/// elements that reads input element i (`in_size` bytes, at byte
/// in_size * i) and then writes output element i (`out_size` bytes, at byte
/// out_size * i), i = 0, 1, ... ascending, each element's bytes read
/// before any of its output bytes is written (int16 and float32 ADD, SUB,
/// MUL with an input of the output's shape; LEAKY_RELU, LOGISTIC, TANH,
/// RELU; QUANTIZE, DEQUANTIZE and requantization between int8, int16,
/// int32 and float32). Output byte j of element i = j / out_size is
/// followed by reads from input byte in_size * (i + 1) on (element i + 1;
/// none after the last element), so with the file comment's relation
///   j - minAfter(j) + 1 <= out_size * (i + 1) - in_size * (i + 1)
///                        = (out_size - in_size) * (i + 1),
/// equal at the element's last byte, for i <= count - 2. Same sizes: d = 0,
/// in place (kElementwiseOverlapDistance). Narrower output (float32 ->
/// int8 QUANTIZE, int16 -> int8): every term is negative, d = 0. Wider
/// output (int8 -> int16, int16 -> float32 DEQUANTIZE): the largest term
/// is the next-to-last element's, d = (out_size - in_size) * (count - 1),
/// i.e. the output may start that many bytes below the input and so ends
/// out_size - in_size bytes past the input's end. Exact: at d - 1 output
/// element count - 2's last byte lands on the first byte of input element
/// count - 1, read after it. count <= 1 or sizes below 1: 0.
[[nodiscard]] constexpr std::int64_t ElementwiseOverlapDistance(
    std::int64_t count, std::int64_t in_size, std::int64_t out_size) {
  if (count <= 1 || in_size < 1 || out_size <= in_size) return 0;
  return (out_size - in_size) * (count - 1);
}

/// A distance counted in elements (the window, PAD and element-wise
/// functions count int8 elements, i.e. bytes) for a kernel that walks the
/// same loop order on elements of `size` bytes, input and output alike,
/// reading and writing whole elements (int16 and float32 CONV_2D,
/// DEPTHWISE_CONV_2D, pooling and PAD): size * elements bytes, -1 kept.
/// The bytes of output element e are written together after every read
/// that element e's int8 counterpart makes, and the next read of input
/// element m starts at byte size * m, so with the file comment's relation
/// the largest term over element e's bytes is its last byte's,
///   size * e + size - 1 - size * m + 1 = size * (e - m + 1),
/// and d scales by size. Exact as the element distance is: at
/// size * d - 1 the maximising element's last byte lands on the first byte
/// of the input element read after it.
[[nodiscard]] constexpr std::int64_t ScaledOverlapDistance(
    std::int64_t elements, std::int64_t size) {
  return elements < 0 ? -1 : elements * size;
}

namespace overlap_detail {

[[nodiscard]] constexpr std::int64_t Max64(std::int64_t a, std::int64_t b) {
  return a > b ? a : b;
}

/// The sliding-window geometry of one kernel call (elements; int8).
struct Window {
  std::int64_t n, h, w, c;      ///< Input.
  std::int64_t oh, ow, oc;      ///< Output (batch n too).
  std::int32_t sh, sw, ph, pw;  ///< Strides, leading padding.
  std::int32_t kh, kw;          ///< Window size (taps).
  std::int32_t dh = 1, dw = 1;  ///< Dilation: rows / columns between taps.
};

/// Which per-kernel formula of conv.hpp / pooling.hpp to apply.
enum class WindowOrder {
  /// Conv2D: every output channel re-reads the whole window.
  kRereadWindowPerOutputByte,
  /// DepthwiseConv2D, pooling: output channel oc reads input channel
  /// oc / dm only, channels in ascending order.
  kChannelByChannel,
};

/// The first tap k >= 0 of a window starting at `start` with taps every
/// `d` >= 1 elements that is at or past element 0: 0 when start >= 0, else
/// ceil(-start / d) (a 32-bit division; |start| <= the padding).
[[nodiscard]] constexpr std::int64_t FirstTap(std::int64_t start,
                                              std::int32_t d) {
  if (start >= 0) return 0;
  const auto neg = static_cast<std::int32_t>(-start);
  return (neg + d - 1) / d;
}

/// Y(oy): the first in-bounds tap row of output row oy (row 0 or past it).
[[nodiscard]] constexpr std::int64_t RowStart(const Window& v,
                                              std::int64_t oy) {
  const std::int64_t y = oy * v.sh - v.ph;
  return y + FirstTap(y, v.dh) * v.dh;
}

/// X(ox): the same for output column ox.
[[nodiscard]] constexpr std::int64_t ColStart(const Window& v,
                                              std::int64_t ox) {
  const std::int64_t x = ox * v.sw - v.pw;
  return x + FirstTap(x, v.dw) * v.dw;
}

/// g(oy) = oy * OW * OC - Y(oy) * W * C.
[[nodiscard]] constexpr std::int64_t G(const Window& v, std::int64_t oy) {
  return oy * v.ow * v.oc - RowStart(v, oy) * v.w * v.c;
}

/// h(ox) = (ox + 1) * OC - X(ox) * C.
[[nodiscard]] constexpr std::int64_t H(const Window& v, std::int64_t ox) {
  return (ox + 1) * v.oc - ColStart(v, ox) * v.c;
}

/// Whether every window of the output rows (`rows`) or columns holds an
/// in-bounds tap (file comment): in the padding, up to `kink` =
/// floor(pad / stride), the first tap at or past 0 exists and lies inside
/// the input; past it, the last window starts inside the input. Undilated,
/// the padding's first tap is element 0 at tap index -start <= pad, so
/// output 0 alone decides (pad <= k - 1); dilated, each output up to the
/// kink is checked, at most (k - 1) * d / stride + 1 of them before one
/// fails (its first tap index is at least -start / d).
[[nodiscard]] constexpr bool EveryWindowHits(const Window& v, bool rows,
                                             std::int64_t kink) {
  const std::int64_t outs = rows ? v.oh : v.ow, extent = rows ? v.h : v.w;
  const std::int32_t s = rows ? v.sh : v.sw, pad = rows ? v.ph : v.pw;
  const std::int32_t k = rows ? v.kh : v.kw, d = rows ? v.dh : v.dw;
  if ((outs - 1) * s - pad > extent - 1) return false;
  const std::int64_t last = d == 1 ? 0 : kink;
  for (std::int64_t o = 0; o <= last && o < outs; ++o) {
    const std::int64_t start = o * s - pad;
    const std::int64_t first = FirstTap(start, d);
    if (first > k - 1 || start + first * d > extent - 1) return false;
  }
  return true;
}

/// The maximum of g (rows) or h (columns) over [lo, hi]: every candidate
/// in the padding, [lo, kink] (undilated, where g and h increase there:
/// lo and kink), then kink + 1 and hi, where it is linear (those within
/// range).
[[nodiscard]] constexpr std::int64_t MaxPiecewise(const Window& v, bool rows,
                                                  std::int64_t lo,
                                                  std::int64_t hi,
                                                  std::int64_t kink) {
  std::int64_t best = rows ? G(v, lo) : H(v, lo);
  const std::int32_t dil = rows ? v.dh : v.dw;
  for (std::int64_t x = dil == 1 ? kink : lo + 1; x <= kink && x <= hi; ++x) {
    best = Max64(best, rows ? G(v, x) : H(v, x));
  }
  const std::int64_t cand[2] = {kink + 1, hi};
  for (std::int64_t x : cand) {
    if (x >= lo && x <= hi) best = Max64(best, rows ? G(v, x) : H(v, x));
  }
  return best;
}

/// The contract distance of a sliding-window kernel (file comment and
/// conv.hpp), or -1 outside the preconditions.
[[nodiscard]] constexpr std::int64_t WindowDistance(const Window& v,
                                                    WindowOrder order) {
  if (v.n < 1 || v.h < 1 || v.w < 1 || v.c < 1 || v.oh < 1 || v.ow < 1 ||
      v.oc < 1 || v.sh < 1 || v.sw < 1 || v.ph < 0 || v.pw < 0 || v.kh < 1 ||
      v.kw < 1 || v.dh < 1 || v.dw < 1) {
    return -1;
  }
  const std::int64_t ky = v.ph / v.sh;  // oy * sh - ph <= 0 for oy <= ky.
  const std::int64_t kx = v.pw / v.sw;  // ox * sw - pw <= 0 for ox <= kx.
  if (!EveryWindowHits(v, true, ky) || !EveryWindowHits(v, false, kx)) {
    return -1;
  }
  const std::int64_t out_bytes = v.n * v.oh * v.ow * v.oc;
  const std::int64_t per_batch = v.oh * v.ow * v.oc - v.h * v.w * v.c;
  const std::int64_t batch = per_batch > 0 ? (v.n - 1) * per_batch : 0;
  const std::int64_t m = batch + MaxPiecewise(v, true, 0, v.oh - 1, ky) +
                         MaxPiecewise(v, false, 0, v.ow - 1, kx);
  const std::int64_t best =
      order == WindowOrder::kRereadWindowPerOutputByte ? m - 1 : m - v.c;
  const std::int64_t d = best;
  return d < 0 ? 0 : (d > out_bytes ? out_bytes : d);
}

/// Bytes of an NHWC int8 tensor (0 for a negative count).
[[nodiscard]] constexpr std::int64_t Bytes(const Shape4& s) {
  const std::int64_t n = std::int64_t{s.n} * s.h * s.w * s.c;
  return n < 0 ? 0 : n;
}

}  // namespace overlap_detail

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_OVERLAP_HPP_
