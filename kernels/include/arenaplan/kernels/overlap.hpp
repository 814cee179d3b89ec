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
// ascending), window of pixel P starting at row oy * sh - ph, column
// ox * sw - pw, clipped to the input. The smallest input index the window
// of P reads (channel 0 of its first in-bounds row and column) is
//   a(P) = ((b * H + Y(oy)) * W + X(ox)) * C,
//   Y(oy) = max(0, oy * sh - ph),  X(ox) = max(0, ox * sw - pw),
// provided every window holds at least one in-bounds row and column
// (ph <= kh - 1, (OH - 1) * sh - ph <= H - 1, and the same for columns:
// true for TFLite's SAME and VALID padding; otherwise the functions below
// give no overlap, d = S_out). The smallest index read by the windows P,
// P + 1, ... is m(P) = min over P' >= P of a(P'). It can be below a(P):
// with top padding, rows 0 and 1 may both start at input row 0, and then
// column 0 of the next row lies below the current window. But wherever a
// term of the form (P + 1) * OC - m(P) appears, the pixel P' >= P with
// a(P') = m(P) gives a term at least as large, (P' + 1) * OC - a(P'); so
//   max_P ((P + 1) * OC - m(P)) = max_P ((P + 1) * OC - a(P)),     (*)
// and the maxima below need a(P) only. That term splits into a batch part,
// a row part and a column part:
//   (P + 1) * OC - a(P) = b * (OH*OW*OC - H*W*C) + g(oy) + h(ox),
//   g(oy) = oy * OW * OC - Y(oy) * W * C,  h(ox) = (ox + 1) * OC - X(ox) * C.
// The batch part is largest at b = 0 or b = N - 1. g is increasing while
// Y(oy) = 0 (oy <= floor(ph / sh)) and linear afterwards, so its maximum is
// at floor(ph / sh), floor(ph / sh) + 1 or OH - 1 (those in range, and 0);
// likewise h (kink at floor(pw / sw)). So
//   M = max_P ((P + 1) * OC - a(P)) = batch + G + Hc,
//   batch = (N - 1) * max(0, OH*OW*OC - H*W*C), G = max g, Hc = max h,
// evaluated at a handful of candidates (WindowDistance below); the
// per-kernel formulas in conv.hpp and pooling.hpp are M - 1 (Conv2D) and
// M - C (DepthwiseConv2D, pooling), clamped to [0, S_out].
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

namespace overlap_detail {

[[nodiscard]] constexpr std::int64_t Max64(std::int64_t a, std::int64_t b) {
  return a > b ? a : b;
}

/// The sliding-window geometry of one kernel call (elements; int8).
struct Window {
  std::int64_t n, h, w, c;      ///< Input.
  std::int64_t oh, ow, oc;      ///< Output (batch n too).
  std::int32_t sh, sw, ph, pw;  ///< Strides, leading padding.
  std::int32_t kh, kw;          ///< Window size.
};

/// Which per-kernel formula of conv.hpp / pooling.hpp to apply.
enum class WindowOrder {
  /// Conv2D: every output channel re-reads the whole window.
  kRereadWindowPerOutputByte,
  /// DepthwiseConv2D, pooling: output channel oc reads input channel
  /// oc / dm only, channels in ascending order.
  kChannelByChannel,
};

[[nodiscard]] constexpr std::int64_t RowStart(const Window& v,
                                              std::int64_t oy) {
  const std::int64_t y = oy * v.sh - v.ph;
  return y > 0 ? y : 0;
}

[[nodiscard]] constexpr std::int64_t ColStart(const Window& v,
                                              std::int64_t ox) {
  const std::int64_t x = ox * v.sw - v.pw;
  return x > 0 ? x : 0;
}

/// g(oy) = oy * OW * OC - Y(oy) * W * C.
[[nodiscard]] constexpr std::int64_t G(const Window& v, std::int64_t oy) {
  return oy * v.ow * v.oc - RowStart(v, oy) * v.w * v.c;
}

/// h(ox) = (ox + 1) * OC - X(ox) * C.
[[nodiscard]] constexpr std::int64_t H(const Window& v, std::int64_t ox) {
  return (ox + 1) * v.oc - ColStart(v, ox) * v.c;
}

/// The maximum of g (rows) or h (columns) over [lo, hi]: increasing up to
/// `kink`, linear from kink + 1 on, so the largest value is at one of lo,
/// kink, kink + 1, hi (those within range).
[[nodiscard]] constexpr std::int64_t MaxPiecewise(const Window& v, bool rows,
                                                  std::int64_t lo,
                                                  std::int64_t hi,
                                                  std::int64_t kink) {
  std::int64_t best = rows ? G(v, lo) : H(v, lo);
  const std::int64_t cand[3] = {kink, kink + 1, hi};
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
      v.kw < 1) {
    return -1;
  }
  // Every window holds an in-bounds row and column.
  if (v.ph > v.kh - 1 || v.pw > v.kw - 1 ||
      (v.oh - 1) * v.sh - v.ph > v.h - 1 ||
      (v.ow - 1) * v.sw - v.pw > v.w - 1) {
    return -1;
  }
  const std::int64_t out_bytes = v.n * v.oh * v.ow * v.oc;
  const std::int64_t per_batch = v.oh * v.ow * v.oc - v.h * v.w * v.c;
  const std::int64_t batch = per_batch > 0 ? (v.n - 1) * per_batch : 0;
  const std::int64_t ky = v.ph / v.sh;  // Y(oy) == 0 for oy <= ky.
  const std::int64_t kx = v.pw / v.sw;  // X(ox) == 0 for ox <= kx.
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
