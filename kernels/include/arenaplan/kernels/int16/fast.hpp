// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The DSP path of the 16x8 CONV_2D and FULLY_CONNECTED (int16 activations,
// int8 weights) and the dispatch the generated code calls: Conv2D and
// FullyConnected run Conv2DFastWith / FullyConnectedFastWith on AcleIsa
// where the core has the DSP extension (__ARM_FEATURE_DSP: Cortex-M4, M7,
// M33, M55), the reference loops (conv.hpp Conv2DReference,
// fully_connected.hpp FullyConnectedReference, the oracle of the host tests)
// otherwise. The same output elements as the reference, bit for bit; the
// role CMSIS-NN's arm_convolve_s16 / arm_fully_connected_s16 play under
// TFLM's conv.cc and fully_connected.cc. No scratch.
//
// Multiply-accumulate (Dot2): four int16 inputs x0..x3 are two 32-bit
// loads (lanes x0,x1 and x2,x3), repacked into (x0,x2) by PKHBT and (x1,x3)
// by PKHTB; four int8 weights w0..w3 one 32-bit load, widened by SXTB16 to
// (w0,w2) and by SXTB16 of the word rotated by 8 bits to (w1,w3); two SMLAD
// per output then add the four products. Two outputs (two output channels,
// or two units) share each input load.
//
// Exactness: the SMLAD sums are 32-bit partial sums of at most kChunkTerms
// = 508 terms. A product of an int16 and an int8 lies in [-(2^22 - 2^7),
// 2^22], so such a sum lies within int32 and is exact (the bound CMSIS-NN's
// arm_convolve_s16 keeps its 32-bit fast path under: 512 terms); each
// partial sum is then added to the accumulator: exactly into a 64-bit one
// (an INT64 bias or none), modulo 2^32 into a 32-bit one (an INT32 bias:
// TFLM accumulates in int32, the reference's sum modulo 2^32 alike). The
// integers summed are the reference's, in another order: the same result.
// (SMLALD would add into 64 bits directly, but four 64-bit accumulators
// leave too few Thumb registers: GCC spilled them in the inner loop.)
//
// Conv2D loop order: output pixels in row-major order as the reference;
// within a pixel, output channels in pairs (the last of an odd count paired
// with itself), each pair reading the pixel's whole in-bounds window, then
// writing its two elements. Within a window row, the in-bounds taps kx_lo ..
// kx_hi - 1 (dilation 1) are one contiguous run of (kx_hi - kx_lo) * in_c input
// elements and filter bytes, read as one dot product; with dilation each
// tap is a run of in_c. Every output element is still written after all the
// reads of its pixel's window and before any read of a later pixel, so
// conv.hpp's Conv2DOverlapDistance times 2 bytes (overlap.hpp) still holds.
//
// FullyConnected loop order: batch rows ascending, units in pairs (the
// last of an odd count paired with itself), each pair reading the whole
// input row, then writing its two elements; output and input apart, as the
// reference. A non-zero input_offset (TFLM's int16 layers have none; the
// generator passes the input zero point) runs the reference loops.
#ifndef ARENAPLAN_KERNELS_INT16_FAST_HPP_
#define ARENAPLAN_KERNELS_INT16_FAST_HPP_

#include <cstdint>

#include "arenaplan/kernels/dsp.hpp"
#include "arenaplan/kernels/int16/conv.hpp"
#include "arenaplan/kernels/int16/fully_connected.hpp"

namespace arenaplan::kernels::int16 {

namespace fast_detail {

/// Two int16 at `p` (any 2-byte alignment) as one little-endian word:
/// p[0] in the low halfword.
ARENAPLAN_KERNELS_INLINE std::uint32_t Load2x16(const std::int16_t* p) {
  return *reinterpret_cast<const dsp_detail::UnalignedWord*>(p);
}

/// Terms per 32-bit partial sum (a multiple of 4): a product of an int16
/// and an int8 lies in [-(2^22 - 2^7), 2^22], so a sum of at most 511 of
/// them lies within [-2^31, 2^31 - 2^22] and SMLAD forms it exactly.
inline constexpr std::int32_t kChunkTerms = 508;

/// acc + s in the accumulator's arithmetic (int32: modulo 2^32).
ARENAPLAN_KERNELS_INLINE std::int64_t Add(std::int64_t acc, std::int32_t s) {
  return acc + s;
}
ARENAPLAN_KERNELS_INLINE std::int32_t Add(std::int32_t acc, std::int32_t s) {
  return dsp_detail::Wrap(static_cast<std::uint32_t>(acc) +
                          static_cast<std::uint32_t>(s));
}

/// a0 += sum_{i < n} x[i] * w0[i]; a1 += sum_{i < n} x[i] * w1[i] (header
/// comment: four terms per step in 32-bit partial sums of at most
/// kChunkTerms terms, then the last n % 4 one by one).
template <class Isa, class Acc>
ARENAPLAN_KERNELS_INLINE void Dot2(const std::int16_t* x, const std::int8_t* w0,
                                   const std::int8_t* w1, std::int32_t n,
                                   Acc& a0, Acc& a1) {
  for (std::int32_t left = n & ~3; left > 0;) {
    const std::int32_t len = left < kChunkTerms ? left : kChunkTerms;
    left -= len;
    std::int32_t s0 = 0, s1 = 0;
    const std::int16_t* const end = x + len;
#if ARENAPLAN_KERNELS_ASM_LOOPS
    if constexpr (Isa::kAsm) {
      // The loop below in 16 instructions per four terms (GCC at -Os kept
      // a weight pointer on the stack): 11 registers.
      std::uint32_t x01, x23, v, t;
      __asm__ volatile(
          "1:\n\t"
          "ldr %[x01], [%[x]], #4\n\t"
          "ldr %[x23], [%[x]], #4\n\t"
          "ldr %[v], [%[w0]], #4\n\t"
          "pkhtb %[t], %[x23], %[x01], asr #16\n\t"
          "pkhbt %[x01], %[x01], %[x23], lsl #16\n\t"
          "sxtb16 %[x23], %[v]\n\t"
          "smlad %[s0], %[x01], %[x23], %[s0]\n\t"
          "sxtb16 %[v], %[v], ror #8\n\t"
          "smlad %[s0], %[t], %[v], %[s0]\n\t"
          "ldr %[v], [%[w1]], #4\n\t"
          "sxtb16 %[x23], %[v]\n\t"
          "smlad %[s1], %[x01], %[x23], %[s1]\n\t"
          "sxtb16 %[v], %[v], ror #8\n\t"
          "smlad %[s1], %[t], %[v], %[s1]\n\t"
          "cmp %[x], %[end]\n\t"
          "bne 1b\n\t"
          : [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1), [s0] "+r"(s0),
            [s1] "+r"(s1), [x01] "=&r"(x01), [x23] "=&r"(x23), [v] "=&r"(v),
            [t] "=&r"(t)
          : [end] "r"(end)
          : "cc", "memory");
    } else  // NOLINT: the C++ loop only without the assembly
#endif
    {
      for (; x != end;) {
        const std::uint32_t x01 = Load2x16(x), x23 = Load2x16(x + 2);
        x += 4;
        const std::uint32_t x02 = Isa::PackLo(x01, x23);
        const std::uint32_t x13 = Isa::PackHi(x01, x23);
        const std::uint32_t v0 = dsp_detail::Load4(w0);
        w0 += 4;
        s0 = Isa::Smlad(x02, Isa::Sxtb16(v0), s0);
        s0 = Isa::Smlad(x13, Isa::Sxtb16Ror8(v0), s0);
        const std::uint32_t v1 = dsp_detail::Load4(w1);
        w1 += 4;
        s1 = Isa::Smlad(x02, Isa::Sxtb16(v1), s1);
        s1 = Isa::Smlad(x13, Isa::Sxtb16Ror8(v1), s1);
      }
    }
    a0 = Add(a0, s0), a1 = Add(a1, s1);
  }
  std::int32_t t0 = 0, t1 = 0;  // at most 3 terms
  for (std::int32_t i = 0; i < (n & 3); ++i) {
    t0 += x[i] * w0[i];
    t1 += x[i] * w1[i];
  }
  a0 = Add(a0, t0), a1 = Add(a1, t1);
}

/// The kernel taps [lo, hi) whose input coordinate origin + k * dilation
/// lies in [0, extent) (lo == hi when there is none).
struct TapRange {
  std::int32_t lo, hi;
};
constexpr TapRange InBoundsTaps(std::int32_t origin, std::int32_t dilation,
                                std::int32_t extent, std::int32_t kernel) {
  const std::int32_t lo = origin < 0 ? (-origin + dilation - 1) / dilation : 0;
  const std::int32_t room = extent - origin;  // taps need k * dilation < room
  std::int32_t hi = room <= 0 ? 0 : (room + dilation - 1) / dilation;
  if (hi > kernel) hi = kernel;
  return {lo, hi < lo ? lo : hi};
}

}  // namespace fast_detail

/// Conv2DReference's output (conv.hpp) through Isa's dual multiply-
/// accumulates (header comment). Isa: dsp.hpp's AcleIsa or PortableIsa.
template <class Isa, class Params, class Acc>
inline void Conv2DFastWith(const Params& p, const Shape4& in_shape,
                           const std::int16_t* input,
                           const Shape4& filter_shape,
                           const std::int8_t* filter, const Acc* bias,
                           ChannelQuant quant, const Shape4& out_shape,
                           std::int16_t* output) {
  using fast_detail::InBoundsTaps;
  const std::int32_t in_c = in_shape.c, out_c = out_shape.c;
  const std::int32_t dil_h = DilationH(p), dil_w = DilationW(p);
  const std::int32_t oc_stride = filter_shape.h * filter_shape.w * in_c;
  // Element steps between window rows and between runs of a row.
  const std::int32_t in_row = dil_h * in_shape.w * in_c, in_run = dil_w * in_c;
  const std::int32_t w_row = filter_shape.w * in_c;
  for (std::int32_t b = 0; b < out_shape.n; ++b) {
    for (std::int32_t oy = 0; oy < out_shape.h; ++oy) {
      const std::int32_t y0 = oy * p.stride_h - p.pad_h;
      const auto ky = InBoundsTaps(y0, dil_h, in_shape.h, filter_shape.h);
      for (std::int32_t ox = 0; ox < out_shape.w; ++ox) {
        const std::int32_t x0 = ox * p.stride_w - p.pad_w;
        const auto kx = InBoundsTaps(x0, dil_w, in_shape.w, filter_shape.w);
        // Runs per window row: one of all in-bounds taps at dilation 1.
        const std::int32_t taps = kx.hi - kx.lo, rows = ky.hi - ky.lo;
        const std::int32_t runs = dil_w == 1 ? (taps > 0 ? 1 : 0) : taps;
        const std::int32_t run_len = dil_w == 1 ? taps * in_c : in_c;
        // The window's first in-bounds element (read only when there is
        // one) and its filter offset.
        const std::int16_t* in_first =
            rows > 0 && runs > 0
                ? input + ((b * in_shape.h + y0 + ky.lo * dil_h) * in_shape.w +
                           x0 + kx.lo * dil_w) *
                              in_c
                : input;
        const std::int32_t w_first = (ky.lo * filter_shape.w + kx.lo) * in_c;
        std::int16_t* out =
            output + ((b * out_shape.h + oy) * out_shape.w + ox) * out_c;
        for (std::int32_t oc = 0; oc < out_c; oc += 2) {
          const bool pair = oc + 1 < out_c;
          const std::int8_t* w0 = filter + oc * oc_stride + w_first;
          // The last of an odd count: its own filter twice.
          const std::int8_t* w1 = pair ? w0 + oc_stride : w0;
          Acc a0 = 0, a1 = 0;
          for (std::int32_t y = 0; y < rows; ++y) {
            for (std::int32_t r = 0; r < runs; ++r) {
              const std::int32_t wo = y * w_row + r * in_c;
              fast_detail::Dot2<Isa>(in_first + y * in_row + r * in_run,
                                     w0 + wo, w1 + wo, run_len, a0, a1);
            }
          }
          out[oc] = ChannelOutput(a0, bias, quant, oc, p.act_min, p.act_max);
          if (pair) {
            out[oc + 1] =
                ChannelOutput(a1, bias, quant, oc + 1, p.act_min, p.act_max);
          }
        }
      }
    }
  }
}

/// FullyConnectedReference's output (fully_connected.hpp) through Isa's
/// dual multiply-accumulates; input_offset must be 0 (header comment).
template <class Isa, class Acc>
inline void FullyConnectedFastWith(const FullyConnectedParams& p,
                                   const std::int16_t* input,
                                   const std::int8_t* weights, const Acc* bias,
                                   ChannelQuant quant, std::int16_t* output) {
  const std::int32_t depth = p.depth, units = p.units;
  for (std::int32_t b = 0; b < p.batches; ++b) {
    const std::int16_t* in = input + b * depth;
    std::int16_t* out = output + b * units;
    for (std::int32_t u = 0; u < units; u += 2) {
      const bool pair = u + 1 < units;
      const std::int8_t* w0 = weights + u * depth;
      // The last of an odd count: its own weights twice (as Conv2DFastWith).
      const std::int8_t* w1 = pair ? w0 + depth : w0;
      Acc a0 = 0, a1 = 0;
      fast_detail::Dot2<Isa>(in, w0, w1, depth, a0, a1);
      out[u] = UnitOutput(p, a0, bias, quant, u);
      if (pair) out[u + 1] = UnitOutput(p, a1, bias, quant, u + 1);
    }
  }
}

/// CONV_2D 16x8 as the generated code calls it: the DSP path with the DSP
/// extension, Conv2DReference otherwise (header comment).
template <class Params, class Acc>
inline void Conv2D(const Params& p, const Shape4& in_shape,
                   const std::int16_t* input, const Shape4& filter_shape,
                   const std::int8_t* filter, const Acc* bias,
                   ChannelQuant quant, const Shape4& out_shape,
                   std::int16_t* output) {
#if defined(__ARM_FEATURE_DSP)
  Conv2DFastWith<AcleIsa>(p, in_shape, input, filter_shape, filter, bias, quant,
                          out_shape, output);
#else
  Conv2DReference(p, in_shape, input, filter_shape, filter, bias, quant,
                  out_shape, output);
#endif
}

/// FULLY_CONNECTED 16x8 as the generated code calls it: the DSP path with
/// the DSP extension and input_offset 0, FullyConnectedReference otherwise.
template <class Acc>
inline void FullyConnected(const FullyConnectedParams& p,
                           const std::int16_t* input,
                           const std::int8_t* weights, const Acc* bias,
                           ChannelQuant quant, std::int16_t* output) {
#if defined(__ARM_FEATURE_DSP)
  if (p.input_offset == 0) {
    FullyConnectedFastWith<AcleIsa>(p, input, weights, bias, quant, output);
    return;
  }
#endif
  FullyConnectedReference(p, input, weights, bias, quant, output);
}

}  // namespace arenaplan::kernels::int16

#endif  // ARENAPLAN_KERNELS_INT16_FAST_HPP_
