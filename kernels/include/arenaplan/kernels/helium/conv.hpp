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
//   tail-predicated). Otherwise the in-bounds rows (kw * in_c contiguous bytes
//   each) are dot products, and the padded taps add zero_point * w (a vector of
//   the zero point against the padded runs of the filter: fast_conv.hpp's
//   header on why that cancels the folded bias's share). A last group of fewer
//   than four channels is tail-predicated.
// - DepthwiseConv2D: sixteen channels per group, four int32 lanes per
//   vector (VLDRB.S32 of input and filter, VMUL, VADD), tap by tap over a
//   table of tap addresses (the input, or a vector of the zero point for a
//   tap in the padding); a last group of fewer than sixteen channels is
//   tail-predicated.
// - Requantization: helium/requantize.hpp, four channels per vector.
//
// Loop order and overlap. Output pixels P in the reference order (b, oy,
// ox ascending). Conv2D: the window of P gathered first (read once) when
// gathered; then output channels in groups of four, each group reading the
// whole window of P (or the buffer) in blocks of at most 16 bytes within
// the window, then writing its (at most four) bytes with one predicated
// store that writes no other byte. DepthwiseConv2D: channels in groups of
// sixteen, each group reading only its channels of the window of P, then
// writing its bytes. Neither reads its output. As for Conv2DFast and
// DepthwiseConv2DFast (fast_conv.hpp's header), the reads that follow an
// output byte here are a subset of those that follow it in the reference
// order (a vector read covers bytes of the window being computed only;
// predicated-off lanes access no memory; depthwise: after byte c, channels
// >= c0 + 16 of window P, c0 <= c the group's first channel, then later
// windows), so the reference contracts' distances Conv2DOverlapDistance and
// DepthwiseConv2DOverlapDistance (conv.hpp) hold for these kernels: a plan
// made on the host with them is valid whichever kernel the firmware picks,
// and the overlap finder needs no rule of its own.
//
// Scratch: Conv2D's gathered window (at most helium_detail::kWindow bytes)
// in the caller's scratch, Conv2DScratchBytes bytes (the generator plans it
// in the arena); on the stack a vector of the zero point (16 bytes);
// DepthwiseConv2D's two tables of tap addresses and 16 zero points in the
// caller's scratch (fast_conv.hpp's DepthwiseConv2DFastScratchBytes).
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

}  // namespace arenaplan::kernels::helium

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)

#include <arm_mve.h>

#include <cstdint>

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
          VectorChannels(vec, filter, per_oc, out_c, folded_bias, stage, out);
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

/// Channels of one depthwise group.
constexpr std::int32_t kGroup = 16;

/// Channels [c, c + 16) of one depthwise output pixel: acc lane k of vector
/// j = folded_bias + sum over taps t < taps of x_t[4j + k] * w[t * w_step +
/// 4j + k], x_t the bytes at address base + off[t]; then the bytes out[c +
/// i], i < 16.
ARENAPLAN_KERNELS_OUTLINE void DepthwiseFull(
    std::uintptr_t base, const std::uintptr_t* off, std::int32_t taps,
    const std::int8_t* w, std::int32_t w_step, std::int32_t c,
    const std::int32_t* folded_bias, const Stage4& stage, std::int8_t* out) {
  int32x4_t a0 = vdupq_n_s32(0), a1 = a0, a2 = a0, a3 = a0;
  // Per tap: the tap's address, four times (VLDRB.S32 of four input and
  // four filter bytes, VMUL, VADD), the filter's next tap; a low-overhead
  // loop (20 instructions per 16 multiply-accumulates; GCC 12 at -Os took
  // more, moving the address between registers). The widening loads take a
  // low register (r0-r7) as their base: constraint "l".
  if (taps > 0) {
    int32x4_t t0, t1;
    const std::int8_t* x;
    __asm__ volatile(
        "dls lr, %[taps]\n"
        "1:\n\t"
        "ldr %[x], [%[off]], #4\n\t"
        "add %[x], %[x], %[base]\n\t"
        "vldrb.s32 %q[t0], [%[x]]\n\t"
        "vldrb.s32 %q[t1], [%[w]]\n\t"
        "vmul.i32 %q[t0], %q[t0], %q[t1]\n\t"
        "vadd.i32 %q[a0], %q[a0], %q[t0]\n\t"
        "vldrb.s32 %q[t0], [%[x], #4]\n\t"
        "vldrb.s32 %q[t1], [%[w], #4]\n\t"
        "vmul.i32 %q[t0], %q[t0], %q[t1]\n\t"
        "vadd.i32 %q[a1], %q[a1], %q[t0]\n\t"
        "vldrb.s32 %q[t0], [%[x], #8]\n\t"
        "vldrb.s32 %q[t1], [%[w], #8]\n\t"
        "vmul.i32 %q[t0], %q[t0], %q[t1]\n\t"
        "vadd.i32 %q[a2], %q[a2], %q[t0]\n\t"
        "vldrb.s32 %q[t0], [%[x], #12]\n\t"
        "vldrb.s32 %q[t1], [%[w], #12]\n\t"
        "vmul.i32 %q[t0], %q[t0], %q[t1]\n\t"
        "vadd.i32 %q[a3], %q[a3], %q[t0]\n\t"
        "add %[w], %[w], %[step]\n\t"
        "le lr, 1b\n"
        : [off] "+r"(off), [w] "+l"(w), [x] "=&l"(x), [a0] "+w"(a0),
          [a1] "+w"(a1), [a2] "+w"(a2), [a3] "+w"(a3), [t0] "=&w"(t0),
          [t1] "=&w"(t1)
        : [taps] "r"(taps), [base] "r"(base), [step] "r"(w_step)
        : "lr", "memory");
  }
  const int32x4_t acc[4] = {a0, a1, a2, a3};
  const int32x4_t lo = vdupq_n_s32(stage.lo), hi = vdupq_n_s32(stage.hi);
  for (std::int32_t j = 0; j < 4; ++j) {
    const std::int32_t cj = c + 4 * j;
    vstrbq_s32(out + cj,
               stage.Bytes(vaddq_s32(acc[j], vldrwq_s32(folded_bias + cj)),
                           vldrwq_s32(stage.multiplier + cj),
                           vldrbq_s32(stage.shift + cj), lo, hi));
  }
}

/// DepthwiseFull for channels [c, c + 8) (a group of exactly eight, as
/// the first depthwise layers of the small MobileNets): the same loop on
/// two accumulators (12 instructions per tap and 8 multiply-accumulates;
/// DepthwiseTail<2> took about four times as many).
ARENAPLAN_KERNELS_OUTLINE void DepthwiseEight(
    std::uintptr_t base, const std::uintptr_t* off, std::int32_t taps,
    const std::int8_t* w, std::int32_t w_step, std::int32_t c,
    const std::int32_t* folded_bias, const Stage4& stage, std::int8_t* out) {
  int32x4_t a0 = vdupq_n_s32(0), a1 = a0;
  if (taps > 0) {
    int32x4_t t0, t1;
    const std::int8_t* x;
    __asm__ volatile(
        "dls lr, %[taps]\n"
        "1:\n\t"
        "ldr %[x], [%[off]], #4\n\t"
        "add %[x], %[x], %[base]\n\t"
        "vldrb.s32 %q[t0], [%[x]]\n\t"
        "vldrb.s32 %q[t1], [%[w]]\n\t"
        "vmul.i32 %q[t0], %q[t0], %q[t1]\n\t"
        "vadd.i32 %q[a0], %q[a0], %q[t0]\n\t"
        "vldrb.s32 %q[t0], [%[x], #4]\n\t"
        "vldrb.s32 %q[t1], [%[w], #4]\n\t"
        "vmul.i32 %q[t0], %q[t0], %q[t1]\n\t"
        "vadd.i32 %q[a1], %q[a1], %q[t0]\n\t"
        "add %[w], %[w], %[step]\n\t"
        "le lr, 1b\n"
        : [off] "+r"(off), [w] "+l"(w), [x] "=&l"(x), [a0] "+w"(a0),
          [a1] "+w"(a1), [t0] "=&w"(t0), [t1] "=&w"(t1)
        : [taps] "r"(taps), [base] "r"(base), [step] "r"(w_step)
        : "lr", "memory");
  }
  const int32x4_t acc[2] = {a0, a1};
  const int32x4_t lo = vdupq_n_s32(stage.lo), hi = vdupq_n_s32(stage.hi);
  for (std::int32_t j = 0; j < 2; ++j) {
    const std::int32_t cj = c + 4 * j;
    vstrbq_s32(out + cj,
               stage.Bytes(vaddq_s32(acc[j], vldrwq_s32(folded_bias + cj)),
                           vldrwq_s32(stage.multiplier + cj),
                           vldrbq_s32(stage.shift + cj), lo, hi));
  }
}

/// DepthwiseFull's sums and bytes for channels [c, c + n), n in [4J - 3,
/// 4J] (a last group of fewer than 16): J vectors, the last one
/// tail-predicated (its inactive lanes read and write nothing).
template <int J>
ARENAPLAN_KERNELS_OUTLINE void DepthwiseTail(
    std::uintptr_t base, const std::uintptr_t* off, std::int32_t taps,
    const std::int8_t* w, std::int32_t w_step, std::int32_t c, std::int32_t n,
    const std::int32_t* folded_bias, const Stage4& stage, std::int8_t* out) {
  const std::int32_t last = n - 4 * (J - 1);  // lanes of the last vector
  const mve_pred16_t p = vctp32q(static_cast<std::uint32_t>(last));
  int32x4_t acc[J];
  for (int j = 0; j < J; ++j) acc[j] = vdupq_n_s32(0);
  for (const std::uintptr_t* const end = off + taps; off != end;
       ++off, w += w_step) {
    const auto* x = reinterpret_cast<const std::int8_t*>(base + *off);
    for (int j = 0; j < J - 1; ++j) {
      acc[j] = vaddq_s32(
          acc[j], vmulq_s32(vldrbq_s32(x + 4 * j), vldrbq_s32(w + 4 * j)));
    }
    acc[J - 1] =
        vaddq_s32(acc[J - 1], vmulq_s32(vldrbq_z_s32(x + 4 * (J - 1), p),
                                        vldrbq_z_s32(w + 4 * (J - 1), p)));
  }
  for (int j = 0; j < J; ++j) {
    const std::int32_t cj = c + 4 * j, lanes = j < J - 1 ? 4 : last;
    const mve_pred16_t pj = vctp32q(static_cast<std::uint32_t>(lanes));
    stage.Store(vaddq_s32(acc[j], vldrwq_z_s32(folded_bias + cj, pj)), cj,
                lanes, out + cj);
  }
}

}  // namespace helium_detail

/// DepthwiseConv2D (conv.hpp) with depth multiplier 1, at most
/// kMaxDepthwiseTaps taps and `folded_bias` from FoldDepthwiseBias (never
/// nullptr). The output may start DepthwiseConv2DOverlapDistance() or more
/// bytes below the input (header comment). `scratch` (borrowed for the
/// call, aligned to std::uintptr_t, sharing no byte with the operands)
/// holds DepthwiseConv2DFastScratchBytes(filter_shape) bytes (fast_conv.hpp;
/// this kernel uses the two tables and 16 zero points of them).
inline void DepthwiseConv2D(const ConvParams& p, const Shape4& in_shape,
                            const std::int8_t* input,
                            const Shape4& filter_shape,
                            const std::int8_t* filter,
                            const std::int32_t* folded_bias, ChannelQuant quant,
                            const Shape4& out_shape, std::int8_t* output,
                            std::int8_t* __restrict scratch) {
  constexpr std::int32_t kGroup = helium_detail::kGroup;
  const Stage4 stage = Stage4Of(fast_detail::StageOf(p, quant));
  const std::int32_t stride_h = p.stride_h, stride_w = p.stride_w,
                     pad_h = p.pad_h, pad_w = p.pad_w;
  const std::int32_t in_h = in_shape.h, in_w = in_shape.w;
  const std::int32_t out_n = out_shape.n, out_h = out_shape.h,
                     out_w = out_shape.w;
  const std::int32_t c_n = in_shape.c, kh = filter_shape.h, kw = filter_shape.w;
  const std::int32_t taps = kh * kw;
  // Tap addresses: relative to the window's first byte for an unclipped
  // window (the same for every pixel), absolute (the input or the zero
  // points, for one group of channels) for a clipped one; then the zero
  // points (the padding's value). All in the scratch.
  auto* const inner = static_cast<std::uintptr_t*>(
      __builtin_assume_aligned(scratch, sizeof(std::uintptr_t)));
  std::uintptr_t* const clipped = inner + taps;
  std::int8_t* const zeros = reinterpret_cast<std::int8_t*>(clipped + taps);
  static_assert(kGroup <= fast_detail::kDepthwisePass);
  fast_detail::Fill(zeros, static_cast<std::int8_t>(-p.input_offset), kGroup);
  for (std::int32_t t = 0; t < taps; ++t) {
    inner[t] = static_cast<std::uintptr_t>(((t / kw) * in_w + t % kw) * c_n);
  }
  std::int8_t* out = output;
  for (std::int32_t b = 0; b < out_n; ++b) {
    for (std::int32_t oy = 0; oy < out_h; ++oy) {
      const std::int32_t y0 = oy * stride_h - pad_h;
      const bool rows_in = y0 >= 0 && y0 + kh <= in_h;
      for (std::int32_t ox = 0; ox < out_w; ++ox, out += c_n) {
        const std::int32_t x0 = ox * stride_w - pad_w;
        const bool in = rows_in && x0 >= 0 && x0 + kw <= in_w;
        for (std::int32_t c0 = 0; c0 < c_n; c0 += kGroup) {
          std::uintptr_t base = 0;
          const std::uintptr_t* off = inner;
          if (in) {
            base = reinterpret_cast<std::uintptr_t>(
                input + ((b * in_h + y0) * in_w + x0) * c_n + c0);
          } else {
            std::int32_t t = 0;
            for (std::int32_t iy = y0; iy < y0 + kh; ++iy) {
              const bool row_in = iy >= 0 && iy < in_h;
              for (std::int32_t ix = x0; ix < x0 + kw; ++ix, ++t) {
                clipped[t] = reinterpret_cast<std::uintptr_t>(
                    row_in && ix >= 0 && ix < in_w
                        ? input + ((b * in_h + iy) * in_w + ix) * c_n + c0
                        : zeros);
              }
            }
            off = clipped;
          }
          const std::int32_t n = c_n - c0 < kGroup ? c_n - c0 : kGroup;
          using helium_detail::DepthwiseTail;
          const auto args = [&](auto group) ARENAPLAN_KERNELS_INLINE_LAMBDA {
            group(base, off, taps, filter + c0, c_n, c0, n, folded_bias, stage,
                  out);
          };
          switch ((n + 3) / 4) {
            case 1:
              args(DepthwiseTail<1>);
              break;
            case 2:
              if (n == 8) {
                helium_detail::DepthwiseEight(base, off, taps, filter + c0, c_n,
                                              c0, folded_bias, stage, out);
              } else {
                args(DepthwiseTail<2>);
              }
              break;
            case 3:
              args(DepthwiseTail<3>);
              break;
            default:
              if (n == kGroup) {
                helium_detail::DepthwiseFull(base, off, taps, filter + c0, c_n,
                                             c0, folded_bias, stage, out);
              } else {
                args(DepthwiseTail<4>);
              }
          }
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels::helium

#endif  // __ARM_FEATURE_MVE & 1

#endif  // ARENAPLAN_KERNELS_HELIUM_CONV_HPP_
