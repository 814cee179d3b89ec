// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Helium CONV_2D and DEPTHWISE_CONV_2D (depth multiplier 1): the bytes of
// Conv2D / DepthwiseConv2D (conv.hpp, the oracles; TFLM's
// reference/integer_ops/conv.h and depthwise_conv.h), taking what
// Conv2DFast / DepthwiseConv2DFast take (fast_conv.hpp: folded bias, the
// same filter layouts), so the generator's choice and flash do not change.
// Included by fast_conv.hpp only (it uses fast_detail's window helpers).
//
// - Conv2D: a pixel's window is one vector when it is an unclipped 1x1
//   window (the input itself) or has at most helium_detail::kWindow bytes
//   and more than one tap (gathered into a stack buffer by vector copies,
//   the padding as the zero point); then each group of four output channels is
//   four VMLADAVA dot products over it (helium/dot.hpp Dot4: 16
//   multiply-accumulates per instruction, the last partial block
//   tail-predicated); a vector of at most 48 bytes, or of 64, in a layer
//   whose channels all shift right is held in registers instead (dot.hpp
//   HeldGroups: read once, then every group in one assembly loop). Otherwise
//   the in-bounds rows (kw * in_c contiguous bytes each) are dot products, and
//   the padded taps add zero_point * w (a vector of the zero point against the
//   padded runs of the filter: fast_conv.hpp's header on why that cancels the
//   folded bias's share). A last group of fewer than four channels is
//   tail-predicated.
// - DepthwiseConv2D: one call per output pixel (DepthwisePixel) over a
//   table of its taps (TapTable: built once per layer for the unclipped
//   windows, once per pixel for a clipped one, not per group of channels):
//   pairs of input and filter offsets for the taps that read the input, the
//   filter offsets of those in the padding (they add zero_point * w).
//   Sixteen channels per group as two halves of eight: sixteen-bit lanes
//   (VLDRB.S16) multiplied into 32-bit lanes by VMULLB / VMULLT (even and
//   odd channels in separate accumulators, whose biases, multipliers and
//   shifts are gathered and bytes scattered); a last group of eight the
//   same, other last groups four int32 lanes per vector (VLDRB.S32, VMUL,
//   VADD), tail-predicated.
// - Requantization: helium/requantize.hpp, four channels per vector
//   (ScatterBytes for the even and odd lanes, in its right-shift form when
//   no channel of the layer shifts left).
//
// Loop order and overlap. Output pixels P in the reference order (b, oy,
// ox ascending). Conv2D: the window of P gathered first (read once) when
// gathered; then output channels in groups of four, each group reading the
// whole window of P (or the buffer) in blocks of at most 16 bytes within
// the window (HeldGroups: the window read once before the first group),
// then writing its (at most four) bytes with one predicated store that
// writes no other byte. DepthwiseConv2D: channels in groups of
// sixteen (then a last group), each group reading only its channels of the
// window of P (a half's eight bytes of a tap per VLDRB.S16; the padded
// taps read no input), then writing its bytes (four scattered bytes per
// store, or a predicated store). Neither reads its output. As for
// Conv2DFast and DepthwiseConv2DFast (fast_conv.hpp's header), the reads
// that follow an output byte here are a subset of those that follow it in
// the reference order (a vector read covers bytes of the window being
// computed only; predicated-off lanes access no memory; depthwise: after
// byte c, channels >= c0 + 16 of window P, c0 <= c the group's first
// channel, then later windows), so the reference contracts' distances
// Conv2DOverlapDistance and
// DepthwiseConv2DOverlapDistance (conv.hpp) hold for these kernels: a plan
// made on the host with them is valid whichever kernel the firmware picks,
// and the overlap finder needs no rule of its own.
//
// Scratch: Conv2D's gathered window (at most helium_detail::kWindow bytes)
// in the caller's scratch, Conv2DScratchBytes bytes (the generator plans it
// in the arena); on the stack a vector of the zero point (16 bytes);
// DepthwiseConv2D's two tap tables (an unclipped window's, a clipped
// one's) in the caller's scratch, DepthwiseScratchBytes bytes (within
// fast_conv.hpp's DepthwiseConv2DFastScratchBytes).
#ifndef ARENAPLAN_KERNELS_HELIUM_CONV_HPP_
#define ARENAPLAN_KERNELS_HELIUM_CONV_HPP_

#ifndef ARENAPLAN_KERNELS_FAST_CONV_HPP_
#error "include arenaplan/kernels/fast_conv.hpp, which includes this header"
#endif

#include <cstdint>

#include "arenaplan/kernels/conv.hpp"

namespace arenaplan::kernels::helium {

namespace helium_detail {
/// Bytes of Conv2D's gathered window at most (a 3x3 window of 64
/// channels, 576 bytes, fits; Conv2DScratchBytes).
constexpr std::int32_t kWindow = 640;
}  // namespace helium_detail

/// Bytes of the scratch Conv2D needs for a filter [out_c, kh, kw, in_c]:
/// its gathered window (kh * kw * in_c bytes when that is at most
/// helium_detail::kWindow and the window has more than one tap), else 0.
/// Defined on every core (the generator sizes the scratch on the host).
constexpr std::int32_t Conv2DScratchBytes(const Shape4& filter_shape) {
  const std::int32_t per_oc = filter_shape.h * filter_shape.w * filter_shape.c;
  return per_oc <= helium_detail::kWindow && filter_shape.h * filter_shape.w > 1
             ? per_oc
             : 0;
}

/// Bytes of the scratch DepthwiseConv2D needs for a filter [1, kh, kw, c]:
/// the tap tables of an unclipped and of a clipped window
/// (helium_detail::TapTable: 2 * kh * kw 32-bit words each). Defined on
/// every core.
constexpr std::int32_t DepthwiseScratchBytes(const Shape4& filter_shape) {
  return 2 * 2 * filter_shape.h * filter_shape.w *
         static_cast<std::int32_t>(sizeof(std::uint32_t));
}

}  // namespace arenaplan::kernels::helium

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)

#include <arm_mve.h>

#include <cstdint>
#include <type_traits>

#include "arenaplan/kernels/conv.hpp"
#include "arenaplan/kernels/dsp.hpp"
#include "arenaplan/kernels/helium/dot.hpp"
#include "arenaplan/kernels/helium/requantize.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels::helium {

namespace helium_detail {

/// Copies n >= 0 bytes from src to dst (not overlapping), 16 per vector,
/// the last ones tail-predicated; returns dst + n.
ARENAPLAN_KERNELS_INLINE std::int8_t* Copy(std::int8_t* dst,
                                           const std::int8_t* src,
                                           std::int32_t n) {
  if (n > 0) {
    std::int8_t* d = dst;
    __asm__ volatile(
        "dlstp.8 lr, %[n]\n"
        "1:\n\t"
        "vldrb.8 q0, [%[s]], #16\n\t"
        "vstrb.8 q0, [%[d]], #16\n\t"
        "letp lr, 1b\n"
        : [s] "+r"(src), [d] "+r"(d)
        : [n] "r"(n)
        : "q0", "lr", "memory");
  }
  return dst + (n > 0 ? n : 0);
}

/// Writes n >= 0 bytes of value v at dst, 16 per vector, the last ones
/// tail-predicated; returns dst + n.
ARENAPLAN_KERNELS_INLINE std::int8_t* Fill(std::int8_t* dst, std::int8_t v,
                                           std::int32_t n) {
  if (n > 0) {
    std::int8_t* d = dst;
    __asm__ volatile(
        "vdup.8 q0, %[v]\n\t"
        "dlstp.8 lr, %[n]\n"
        "1:\n\t"
        "vstrb.8 q0, [%[d]], #16\n\t"
        "letp lr, 1b\n"
        : [d] "+r"(d)
        : [n] "r"(n), [v] "r"(static_cast<std::int32_t>(v))
        : "q0", "lr", "memory");
  }
  return dst + (n > 0 ? n : 0);
}

}  // namespace helium_detail

/// Conv2D (conv.hpp) with `folded_bias` from FoldConvBias (never nullptr).
/// The output may start Conv2DOverlapDistance() or more bytes below the
/// input (header comment). `scratch` (borrowed for the call, sharing no
/// byte with the operands) holds Conv2DScratchBytes(filter_shape) bytes.
inline void Conv2D(const ConvParams& p, const Shape4& in_shape,
                   const std::int8_t* input, const Shape4& filter_shape,
                   const std::int8_t* filter, const std::int32_t* folded_bias,
                   ChannelQuant quant, const Shape4& out_shape,
                   std::int8_t* output, std::int8_t* __restrict scratch) {
  using fast_detail::Clip;
  const Stage4 stage = Stage4Of(fast_detail::StageOf(p, quant));
  // Geometry as locals (the output stores may alias the parameters).
  const std::int32_t stride_h = p.stride_h, stride_w = p.stride_w,
                     pad_h = p.pad_h, pad_w = p.pad_w;
  const std::int32_t in_h = in_shape.h, in_w = in_shape.w;
  const std::int32_t out_n = out_shape.n, out_h = out_shape.h,
                     out_w = out_shape.w;
  const std::int32_t in_c = in_shape.c, kh = filter_shape.h,
                     kw = filter_shape.w, out_c = out_shape.c;
  const auto zp8 = static_cast<std::int8_t>(-p.input_offset);
  const std::int32_t per_oc = kh * kw * in_c;  // one output channel's filter
  const std::int32_t in_row = in_w * in_c, f_row = kw * in_c;
  const bool gather = per_oc <= helium_detail::kWindow && kh * kw > 1;
  const bool pointwise = kh == 1 && kw == 1;
  // HeldGroups for the one-vector windows (VectorChannels).
  const bool held = HeldTakes(per_oc) && !AnyLeftShift(quant.shift, out_c);
  std::int8_t* const window = scratch;
  std::int8_t zeros[16];  // the padding's value, one vector
  helium_detail::Fill(zeros, zp8, 16);
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
        const std::int8_t* vec = nullptr;  // the window as one vector
        if (gather) {
          const std::int32_t left = (cols.begin < kw ? cols.begin : kw) * in_c,
                             right = f_row - left - run;
          std::int8_t* dst = window;
          const std::int8_t* src = in0;  // the first in-bounds row
          for (std::int32_t ky = 0; ky < kh; ++ky) {
            if (ky < rows.begin || ky >= rows.end) {
              dst = helium_detail::Fill(dst, zp8, f_row);
              continue;
            }
            dst = helium_detail::Fill(dst, zp8, left);
            dst = helium_detail::Copy(dst, src, run);
            dst = helium_detail::Fill(dst, zp8, right);
            src += in_row;
          }
          vec = window;
        } else if (pointwise && !clipped) {
          vec = in0;
        }
        if (vec != nullptr) {
          VectorChannels(vec, filter, per_oc, out_c, folded_bias, stage, out,
                         held);
          continue;
        }
        for (std::int32_t oc = 0; oc < out_c; oc += 4) {
          const Rows4 r = RowsOf(filter, per_oc, oc, out_c - oc);
          int32x4_t sum = vdupq_n_s32(0);
          const std::int8_t* in = in0;
          for (std::int32_t ky = rows.begin; ky < rows.end; ++ky) {
            sum = vaddq_s32(
                sum, Dot4(in, false, r, f0 + (ky - rows.begin) * f_row, run));
            in += in_row;
          }
          if (clipped) {  // zero_point * w over the padded taps
            fast_detail::ForPaddedRuns(
                kh, kw, in_c, rows, cols,
                [&](std::int32_t off, std::int32_t len) {
                  sum = vaddq_s32(sum, Dot4(zeros, true, r, off, len));
                });
          }
          Finish4(sum, folded_bias, oc, out_c - oc, stage, out + oc);
        }
      }
    }
  }
}

namespace helium_detail {

/// A depthwise window's taps as the vector loops read them, in the kernel's
/// scratch (byte offsets as 32-bit words): `in` holds n_in pairs (the tap's
/// input offset from the pixel's base address, its filter offset t * c for
/// tap t) for the taps that read the input, `pad` the filter offsets of the
/// n_pad taps in the padding (they add zero_point * w: fast_conv.hpp's
/// header on why that cancels their share of the folded bias).
struct DepthwiseTaps {
  const std::uint32_t* in;
  std::int32_t n_in;
  const std::uint32_t* pad;
  std::int32_t n_pad;
};

/// The taps of the kh x kw window whose first tap is row y0, column x0 of
/// an image of in_h x in_w pixels (negative or past the end in the padding)
/// of c channels, row_w pixels per row: input offsets (y * row_w + x) * c
/// from the image's first byte; written to table[0, 2 * kh * kw), pairs
/// from the front, padded taps from the back.
ARENAPLAN_KERNELS_INLINE DepthwiseTaps
TapTable(std::int32_t y0, std::int32_t x0, std::int32_t kh, std::int32_t kw,
         std::int32_t in_h, std::int32_t in_w, std::int32_t row_w,
         std::int32_t c, std::uint32_t* table) {
  std::uint32_t* pair = table;
  std::uint32_t* pad = table + 2 * kh * kw;
  std::uint32_t w_off = 0;
  for (std::int32_t y = y0; y < y0 + kh; ++y) {
    const bool row_in = y >= 0 && y < in_h;
    for (std::int32_t x = x0; x < x0 + kw; ++x, w_off += c) {
      if (row_in && x >= 0 && x < in_w) {
        pair[0] = static_cast<std::uint32_t>((y * row_w + x) * c);
        pair[1] = w_off;
        pair += 2;
      } else {
        *--pad = w_off;
      }
    }
  }
  return DepthwiseTaps{table, static_cast<std::int32_t>(pair - table) / 2, pad,
                       static_cast<std::int32_t>(table + 2 * kh * kw - pad)};
}

/// Channels [0, 8 * H) (H = 1 or 2 halves of eight) of one depthwise output
/// pixel: base and w the pixel's input (TapTable offsets from it) and filter
/// at the first channel; bias, mult, shift and out at the same channel.
/// Each half's bytes are loaded as sixteen-bit lanes (VLDRB.S16) and
/// multiplied by VMULLB (even lanes) and VMULLT (odd lanes) into 32-bit
/// products, so accumulator 2h + e holds channels 8h + e + {0, 2, 4, 6}
/// (`even` = {0, 2, 4, 6}); the sums start at the biases, gathered in that
/// order, and the bytes are scattered in it (ScatterBytes<kLeft>: kLeft
/// when a channel of the layer shifts left; 14 instructions per tap and 16
/// multiply-accumulates, 16 with the tap's address; the four-lane
/// VLDRB.S32 / VMUL / VADD loop took 20).
template <int H, bool kLeft>
ARENAPLAN_KERNELS_INLINE void DepthwiseHalves(
    DepthwiseTaps taps, std::uintptr_t base, const std::int8_t* w,
    const std::int32_t* bias, const std::int32_t* mult,
    const std::int8_t* shift, std::int32_t offset, std::int32_t lo,
    std::int32_t hi, uint32x4_t even, std::int32_t zp, std::int8_t* out) {
  static_assert(H == 1 || H == 2);
  // Four named accumulators (an array went through the stack at -Os).
  int32x4_t a0 = vldrwq_gather_shifted_offset_s32(bias, even),
            a1 = vldrwq_gather_shifted_offset_s32(bias + 1, even), a2 = a0,
            a3 = a1;
  if constexpr (H == 2) {
    a2 = vldrwq_gather_shifted_offset_s32(bias + 8, even);
    a3 = vldrwq_gather_shifted_offset_s32(bias + 9, even);
  }
  // The widening loads take a low register (r0-r7) as their base:
  // constraint "l". VMULL's 32-bit result is a third register (it may not
  // be a source). One text for both H (the second half's lines under
  // ".if"; for H = 1, a2 and a3 are copies left unused).
  int16x8_t vx, vw;
  int32x4_t vp;
  const std::int8_t *x, *wt;
  // One instruction per line:
  // clang-format off
  if (taps.n_in > 0) {
    const std::uint32_t* t = taps.in;
    __asm__ volatile(
        "dls lr, %[n]\n"
        "1:\n\t"
        "ldrd %[x], %[wt], [%[t]], #8\n\t"
        "add %[x], %[x], %[base]\n\t"
        "add %[wt], %[wt], %[w]\n\t"
        "vldrb.s16 %q[vx], [%[x]]\n\t"
        "vldrb.s16 %q[vw], [%[wt]]\n\t"
        "vmullb.s16 %q[vp], %q[vx], %q[vw]\n\t"
        "vadd.i32 %q[a0], %q[a0], %q[vp]\n\t"
        "vmullt.s16 %q[vp], %q[vx], %q[vw]\n\t"
        "vadd.i32 %q[a1], %q[a1], %q[vp]\n\t"
        ".if %c[h] > 1\n\t"
        "vldrb.s16 %q[vx], [%[x], #8]\n\t"
        "vldrb.s16 %q[vw], [%[wt], #8]\n\t"
        "vmullb.s16 %q[vp], %q[vx], %q[vw]\n\t"
        "vadd.i32 %q[a2], %q[a2], %q[vp]\n\t"
        "vmullt.s16 %q[vp], %q[vx], %q[vw]\n\t"
        "vadd.i32 %q[a3], %q[a3], %q[vp]\n\t"
        ".endif\n\t"
        "le lr, 1b\n"
        : [t] "+r"(t), [x] "=&l"(x), [wt] "=&l"(wt), [a0] "+w"(a0),
          [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3), [vx] "=&w"(vx),
          [vw] "=&w"(vw), [vp] "=&w"(vp)
        : [n] "r"(taps.n_in), [base] "r"(base), [w] "r"(w), [h] "i"(H)
        : "lr", "memory");
  }
  if (taps.n_pad > 0) {  // zero_point * w, the zero point in vx
    const std::uint32_t* t = taps.pad;
    __asm__ volatile(
        "vdup.16 %q[vx], %[zp]\n\t"
        "dls lr, %[n]\n"
        "1:\n\t"
        "ldr %[wt], [%[t]], #4\n\t"
        "add %[wt], %[wt], %[w]\n\t"
        "vldrb.s16 %q[vw], [%[wt]]\n\t"
        "vmullb.s16 %q[vp], %q[vx], %q[vw]\n\t"
        "vadd.i32 %q[a0], %q[a0], %q[vp]\n\t"
        "vmullt.s16 %q[vp], %q[vx], %q[vw]\n\t"
        "vadd.i32 %q[a1], %q[a1], %q[vp]\n\t"
        ".if %c[h] > 1\n\t"
        "vldrb.s16 %q[vw], [%[wt], #8]\n\t"
        "vmullb.s16 %q[vp], %q[vx], %q[vw]\n\t"
        "vadd.i32 %q[a2], %q[a2], %q[vp]\n\t"
        "vmullt.s16 %q[vp], %q[vx], %q[vw]\n\t"
        "vadd.i32 %q[a3], %q[a3], %q[vp]\n\t"
        ".endif\n\t"
        "le lr, 1b\n"
        : [t] "+r"(t), [wt] "=&l"(wt), [a0] "+w"(a0), [a1] "+w"(a1),
          [a2] "+w"(a2), [a3] "+w"(a3), [vx] "=&w"(vx), [vw] "=&w"(vw),
          [vp] "=&w"(vp)
        : [n] "r"(taps.n_pad), [zp] "r"(zp), [w] "r"(w), [h] "i"(H)
        : "lr", "memory");
  }
  // clang-format on
  ScatterBytes<kLeft>(a0, even, mult, shift, offset, lo, hi, out);
  ScatterBytes<kLeft>(a1, even, mult + 1, shift + 1, offset, lo, hi, out + 1);
  if constexpr (H == 2) {
    ScatterBytes<kLeft>(a2, even, mult + 8, shift + 8, offset, lo, hi, out + 8);
    ScatterBytes<kLeft>(a3, even, mult + 9, shift + 9, offset, lo, hi, out + 9);
  }
}

/// Channels [c, c + n), n >= 1 (a last group that is not a half of
/// eight), of one depthwise output pixel, four at a time in ascending order
/// (VLDRB.S32, VMUL, VADD per tap; the padded taps' VMLA by the zero point;
/// the last four tail-predicated, its inactive lanes reading and writing
/// nothing): each four read their channels of the window, then write their
/// bytes. base and w at channel c; folded_bias, stage and out at channel 0.
/// One function for every tail (no per-size copies: flash).
ARENAPLAN_KERNELS_OUTLINE void DepthwiseQuads(
    DepthwiseTaps taps, std::uintptr_t base, const std::int8_t* w,
    std::int32_t c, std::int32_t n, const std::int32_t* folded_bias,
    const Stage4& stage, std::int32_t zp, std::int8_t* out) {
  for (std::int32_t j = 0; j < n; j += 4) {
    const std::int32_t lanes = n - j < 4 ? n - j : 4;
    const mve_pred16_t p = vctp32q(static_cast<std::uint32_t>(lanes));
    int32x4_t acc = vldrwq_z_s32(folded_bias + c + j, p);
    for (std::int32_t i = 0; i < taps.n_in; ++i) {
      const auto* x =
          reinterpret_cast<const std::int8_t*>(base + taps.in[2 * i]) + j;
      acc = vaddq_s32(acc,
                      vmulq_s32(vldrbq_z_s32(x, p),
                                vldrbq_z_s32(w + taps.in[2 * i + 1] + j, p)));
    }
    for (std::int32_t i = 0; i < taps.n_pad; ++i) {
      acc = vmlaq_n_s32(acc, vldrbq_z_s32(w + taps.pad[i] + j, p), zp);
    }
    stage.Store(acc, c + j, lanes, out + c + j);
  }
}

/// All c_n channels of one depthwise output pixel, in ascending groups
/// (sixteen channels, then a last one of eight or DepthwiseQuads'), each
/// reading its channels of the window (taps, base: TapTable) and then
/// writing its bytes. kLeft: some channel of the layer shifts left
/// (ScatterBytes). Outlined, the stage's constants in registers across the
/// groups.
template <bool kLeft>
ARENAPLAN_KERNELS_OUTLINE void DepthwisePixel(
    DepthwiseTaps taps, std::uintptr_t base, const std::int8_t* filter,
    std::int32_t c_n, const std::int32_t* folded_bias, const Stage4& stage,
    std::int32_t zp, std::int8_t* out) {
  const std::int32_t* const mult = stage.multiplier;
  const std::int8_t* const shift = stage.shift;
  const std::int32_t offset = stage.offset, lo = stage.lo, hi = stage.hi;
  const uint32x4_t even = vidupq_n_u32(0, 2);
  const std::int32_t full = c_n & ~15;
  std::int32_t c = 0;
  for (; c < full; c += 16) {
    DepthwiseHalves<2, kLeft>(taps, base + static_cast<std::uintptr_t>(c),
                              filter + c, folded_bias + c, mult + c, shift + c,
                              offset, lo, hi, even, zp, out + c);
  }
  const std::int32_t n = c_n - c;
  const std::uintptr_t at = base + static_cast<std::uintptr_t>(c);
  if (n == 8) {
    DepthwiseHalves<1, kLeft>(taps, at, filter + c, folded_bias + c, mult + c,
                              shift + c, offset, lo, hi, even, zp, out + c);
  } else if (n > 0) {
    DepthwiseQuads(taps, at, filter + c, c, n, folded_bias, stage, zp, out);
  }
}

}  // namespace helium_detail

/// DepthwiseConv2D (conv.hpp) with depth multiplier 1, at most
/// kMaxDepthwiseTaps taps and `folded_bias` from FoldDepthwiseBias (never
/// nullptr). The output may start DepthwiseConv2DOverlapDistance() or more
/// bytes below the input (header comment). `scratch` (borrowed for the
/// call, 4-byte aligned, sharing no byte with the operands) holds
/// DepthwiseConv2DFastScratchBytes(filter_shape) bytes (fast_conv.hpp; this
/// kernel uses DepthwiseScratchBytes of them: the tap tables).
inline void DepthwiseConv2D(const ConvParams& p, const Shape4& in_shape,
                            const std::int8_t* input,
                            const Shape4& filter_shape,
                            const std::int8_t* filter,
                            const std::int32_t* folded_bias, ChannelQuant quant,
                            const Shape4& out_shape, std::int8_t* output,
                            std::int8_t* __restrict scratch) {
  const Stage4 stage = Stage4Of(fast_detail::StageOf(p, quant));
  const std::int32_t stride_h = p.stride_h, stride_w = p.stride_w,
                     pad_h = p.pad_h, pad_w = p.pad_w;
  const std::int32_t in_h = in_shape.h, in_w = in_shape.w;
  const std::int32_t out_n = out_shape.n, out_h = out_shape.h,
                     out_w = out_shape.w;
  const std::int32_t c_n = in_shape.c, kh = filter_shape.h, kw = filter_shape.w;
  const std::int32_t zp = static_cast<std::int8_t>(-p.input_offset);
  // The tap table of an unclipped window (offsets from its first byte, the
  // same for every pixel), then room for a clipped one's (offsets from the
  // image's first byte), both in the scratch.
  auto* const inner = static_cast<std::uint32_t*>(
      __builtin_assume_aligned(scratch, sizeof(std::uint32_t)));
  std::uint32_t* const clipped = inner + 2 * kh * kw;
  const helium_detail::DepthwiseTaps unclipped =
      helium_detail::TapTable(0, 0, kh, kw, kh, kw, in_w, c_n, inner);
  // ScatterBytes's form: the right shifts' unless a channel shifts left.
  const bool left = AnyLeftShift(stage.shift, c_n);
  std::int8_t* out = output;
  for (std::int32_t b = 0; b < out_n; ++b) {
    const std::int8_t* const image = input + b * in_h * in_w * c_n;
    for (std::int32_t oy = 0; oy < out_h; ++oy) {
      const std::int32_t y0 = oy * stride_h - pad_h;
      const bool rows_in = y0 >= 0 && y0 + kh <= in_h;
      for (std::int32_t ox = 0; ox < out_w; ++ox, out += c_n) {
        const std::int32_t x0 = ox * stride_w - pad_w;
        const bool in = rows_in && x0 >= 0 && x0 + kw <= in_w;
        const helium_detail::DepthwiseTaps taps =
            in ? unclipped
               : helium_detail::TapTable(y0, x0, kh, kw, in_h, in_w, in_w, c_n,
                                         clipped);
        const auto at = reinterpret_cast<std::uintptr_t>(
            in ? image + (y0 * in_w + x0) * c_n : image);
        if (left) {
          helium_detail::DepthwisePixel<true>(taps, at, filter, c_n,
                                              folded_bias, stage, zp, out);
        } else {
          helium_detail::DepthwisePixel<false>(taps, at, filter, c_n,
                                               folded_bias, stage, zp, out);
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels::helium

#endif  // __ARM_FEATURE_MVE & 1

#endif  // ARENAPLAN_KERNELS_HELIUM_CONV_HPP_
