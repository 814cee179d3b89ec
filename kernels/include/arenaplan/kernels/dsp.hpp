// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Building blocks of the fast int8 kernels (fast_conv.hpp,
// fast_fully_connected.hpp): the multiply-accumulate loops they share, in
// two flavours that give the same int32 sums, and an exact shortcut of the
// requantization.
//
// - SimdMac<Isa>: four int8 lanes per 32-bit load, widened to two pairs of
//   int16 lanes (SXTB16 of the word and of the word rotated by 8 bits), then
//   dual 16-bit multiply-accumulates (SMLAD: acc + lo*lo + hi*hi; SMLABB /
//   SMLATT: one lane). Isa is AcleIsa (the Cortex-M DSP instructions of
//   arm_acle.h, only where __ARM_FEATURE_DSP is defined: Cortex-M4, M7, M33,
//   M55) or PortableIsa (the same instructions' semantics in C++, for the
//   host tests of the SIMD loops).
// - ScalarMac: one multiply-accumulate per byte, for cores without the DSP
//   extension (Cortex-M0+, M3).
//
// DefaultMac is SimdMac<AcleIsa> with the DSP extension, ScalarMac
// otherwise. Every sum is formed modulo 2^32 (SMLAD wraps, and so do the
// C++ loops, through uint32_t), so both flavours and the reference kernels
// agree on every int32 accumulator whatever the order of the terms.
//
// Loads of four int8 are unaligned 32-bit loads (allowed on ARMv7-M and
// ARMv8-M Mainline; only SimdMac uses them). Nothing here writes memory
// except through the `acc` arrays the callers own.
#ifndef ARENAPLAN_KERNELS_DSP_HPP_
#define ARENAPLAN_KERNELS_DSP_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

#if defined(__ARM_FEATURE_DSP) || defined(__ARM_FEATURE_SAT)
#include <arm_acle.h>
#endif

/// Whether SimdMac<AcleIsa>'s Dot4, Dot2x2, Dot3x2, DotNx1 and Taps4 loops
/// are inline assembly (12 or 13 registers): with the DSP extension when
/// optimising. Dot2x2, Dot3x2 and DotNx1 take two four-byte steps a pass
/// (the loop's compare and branch once per two), Taps4 three taps a pass
/// when the taps are a multiple of three. Measured on mps2-an386 (unfused,
/// instructions per inference): the two-step passes -157 k on
/// kws_ref_model; Taps4's loop (GCC's reloaded three spilled values a tap)
/// -831 k on person_detect. At -O0 every
/// value lives on the stack behind a frame pointer and GCC finds no 13
/// registers for an asm statement; the C++ loops on the same instructions
/// give the same sums.
#if defined(__ARM_FEATURE_DSP) && defined(__OPTIMIZE__)
#define ARENAPLAN_KERNELS_ASM_LOOPS 1
#else
#define ARENAPLAN_KERNELS_ASM_LOOPS 0
#endif

namespace arenaplan::kernels {

namespace dsp_detail {

#if defined(__GNUC__)
#define ARENAPLAN_KERNELS_INLINE inline __attribute__((always_inline))
#define ARENAPLAN_KERNELS_OUTLINE inline __attribute__((noinline))
/// After a lambda's parameter list (broadcast.hpp's visitors).
#define ARENAPLAN_KERNELS_INLINE_LAMBDA __attribute__((always_inline))
typedef std::uint32_t UnalignedWord __attribute__((aligned(1), may_alias));
#else
#define ARENAPLAN_KERNELS_INLINE inline
#define ARENAPLAN_KERNELS_OUTLINE inline
#define ARENAPLAN_KERNELS_INLINE_LAMBDA
typedef std::uint32_t UnalignedWord;
#endif

/// Four bytes at `p` (any alignment) as one little-endian word.
ARENAPLAN_KERNELS_INLINE std::uint32_t Load4(const std::int8_t* p) {
  return *reinterpret_cast<const UnalignedWord*>(p);
}

constexpr std::int32_t Wrap(std::uint32_t v) {
  return static_cast<std::int32_t>(v);
}

/// v saturated to [-128, 127]: one SSAT where the core has it (ARMv7-M and
/// later), the same comparisons otherwise.
ARENAPLAN_KERNELS_INLINE std::int32_t Sat8(std::int32_t v) {
#if defined(__ARM_FEATURE_SAT)
  return __ssat(v, 8);
#else
  return v < -128 ? -128 : (v > 127 ? 127 : v);
#endif
}

}  // namespace dsp_detail

/// The DSP instructions' semantics in portable C++ (two's complement
/// lanes, sums modulo 2^32).
struct PortableIsa {
  static constexpr bool kAsm = false;  ///< SimdMac's loops in C++.
  /// SXTB16: bytes 0 and 2 sign-extended into the low and high halfwords.
  static constexpr std::uint32_t Sxtb16(std::uint32_t x) {
    const auto lo = static_cast<std::uint32_t>(
        static_cast<std::int32_t>(static_cast<std::int8_t>(x & 0xFF)));
    const auto hi = static_cast<std::uint32_t>(
        static_cast<std::int32_t>(static_cast<std::int8_t>((x >> 16) & 0xFF)));
    return (lo & 0xFFFFu) | (hi << 16);
  }
  /// SXTB16 of x rotated right by 8: bytes 1 and 3.
  static constexpr std::uint32_t Sxtb16Ror8(std::uint32_t x) {
    return Sxtb16((x >> 8) | (x << 24));
  }
  /// SXTAB16: Sxtb16(x) added to a's halfwords, each modulo 2^16.
  static constexpr std::uint32_t Sxtab16(std::uint32_t a, std::uint32_t x) {
    const std::uint32_t b = Sxtb16(x);
    return ((a + b) & 0xFFFFu) | (((a >> 16) + (b >> 16)) << 16);
  }
  /// SXTAB16 of x rotated right by 8: bytes 1 and 3 added.
  static constexpr std::uint32_t Sxtab16Ror8(std::uint32_t a, std::uint32_t x) {
    return Sxtab16(a, (x >> 8) | (x << 24));
  }
  static constexpr std::int32_t Lo(std::uint32_t x) {
    return static_cast<std::int16_t>(x & 0xFFFF);
  }
  static constexpr std::int32_t Hi(std::uint32_t x) {
    return static_cast<std::int16_t>(x >> 16);
  }
  /// SMLAD: acc + lo(a) * lo(b) + hi(a) * hi(b), modulo 2^32.
  static constexpr std::int32_t Smlad(std::uint32_t a, std::uint32_t b,
                                      std::int32_t acc) {
    return dsp_detail::Wrap(static_cast<std::uint32_t>(acc) +
                            static_cast<std::uint32_t>(Lo(a) * Lo(b)) +
                            static_cast<std::uint32_t>(Hi(a) * Hi(b)));
  }
  /// PKHBT a, b, LSL #16: lo(a) in the low halfword, lo(b) in the high.
  static constexpr std::uint32_t PackLo(std::uint32_t a, std::uint32_t b) {
    return (a & 0xFFFFu) | (b << 16);
  }
  /// PKHTB b, a, ASR #16: hi(a) in the low halfword, hi(b) in the high.
  static constexpr std::uint32_t PackHi(std::uint32_t a, std::uint32_t b) {
    return (a >> 16) | (b & 0xFFFF0000u);
  }
  /// SMLABB: acc + lo(a) * lo(b).
  static constexpr std::int32_t Smlabb(std::uint32_t a, std::uint32_t b,
                                       std::int32_t acc) {
    return dsp_detail::Wrap(static_cast<std::uint32_t>(acc) +
                            static_cast<std::uint32_t>(Lo(a) * Lo(b)));
  }
  /// SMLATT: acc + hi(a) * hi(b).
  static constexpr std::int32_t Smlatt(std::uint32_t a, std::uint32_t b,
                                       std::int32_t acc) {
    return dsp_detail::Wrap(static_cast<std::uint32_t>(acc) +
                            static_cast<std::uint32_t>(Hi(a) * Hi(b)));
  }
};

#if defined(__ARM_FEATURE_DSP)
/// The same operations as single DSP instructions.
struct AcleIsa {
  static constexpr bool kAsm = true;  ///< SimdMac's hot loop in assembly.
  static ARENAPLAN_KERNELS_INLINE std::uint32_t Sxtb16(std::uint32_t x) {
    return static_cast<std::uint32_t>(__sxtb16(static_cast<std::int32_t>(x)));
  }
  static ARENAPLAN_KERNELS_INLINE std::uint32_t Sxtb16Ror8(std::uint32_t x) {
    std::uint32_t r;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(x));
    return r;
  }
  static ARENAPLAN_KERNELS_INLINE std::uint32_t Sxtab16(std::uint32_t a,
                                                        std::uint32_t x) {
    return static_cast<std::uint32_t>(
        __sxtab16(static_cast<std::int32_t>(a), static_cast<std::int32_t>(x)));
  }
  static ARENAPLAN_KERNELS_INLINE std::uint32_t Sxtab16Ror8(std::uint32_t a,
                                                            std::uint32_t x) {
    std::uint32_t r;
    __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(x));
    return r;
  }
  static ARENAPLAN_KERNELS_INLINE std::int32_t Smlad(std::uint32_t a,
                                                     std::uint32_t b,
                                                     std::int32_t acc) {
    return __smlad(static_cast<std::int32_t>(a), static_cast<std::int32_t>(b),
                   acc);
  }
  static ARENAPLAN_KERNELS_INLINE std::uint32_t PackLo(std::uint32_t a,
                                                       std::uint32_t b) {
    std::uint32_t r;
    __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  static ARENAPLAN_KERNELS_INLINE std::uint32_t PackHi(std::uint32_t a,
                                                       std::uint32_t b) {
    std::uint32_t r;
    __asm__("pkhtb %0, %2, %1, asr #16" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  static ARENAPLAN_KERNELS_INLINE std::int32_t Smlabb(std::uint32_t a,
                                                      std::uint32_t b,
                                                      std::int32_t acc) {
    return __smlabb(static_cast<std::int32_t>(a), static_cast<std::int32_t>(b),
                    acc);
  }
  static ARENAPLAN_KERNELS_INLINE std::int32_t Smlatt(std::uint32_t a,
                                                      std::uint32_t b,
                                                      std::int32_t acc) {
    return __smlatt(static_cast<std::int32_t>(a), static_cast<std::int32_t>(b),
                    acc);
  }
};
#endif

/// acc[k] += sum_{i < n} x[i] * w[k * w_stride + i] for k = 0 .. 3
/// (Dot4), or for k = 0 only (Dot1); Taps4 for four channels of a depthwise
/// window. Dot4 and Dot1 read x[0, n) in ascending
/// order, once per call.
template <class Isa>
struct SimdMac {
  /// Outlined: one copy for VectorGroups and Conv2DFast's row-wise path
  /// (flash; the call costs a few instructions per group of four channels).
  static ARENAPLAN_KERNELS_OUTLINE void Dot4(const std::int8_t* x,
                                             const std::int8_t* w,
                                             std::int32_t w_stride,
                                             std::int32_t n,
                                             std::int32_t* acc) {
    // Two weight pointers and the stride as a register offset keep the
    // loop's operands in registers (four pointers spill on Thumb-2).
    const std::int8_t* wa = w;                 // channels 0 and 1
    const std::int8_t* wb = w + 2 * w_stride;  // channels 2 and 3
    std::int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    const std::int8_t* const end = x + (n & ~3);
#if ARENAPLAN_KERNELS_ASM_LOOPS
    if constexpr (Isa::kAsm) {
      // The loop below, as the compiler cannot schedule it without spills:
      // per 4 input bytes 1 + 4 loads, 10 SXTB16, 8 SMLAD, the end's load,
      // cmp, bne (26 instructions). The weight pointers advance by the
      // post-increment of channel 0's and 2's loads (after channel 1's and
      // 3's, at the stride from them), and `end` is read from memory into
      // the spent `t`: 12 registers, so that the loop builds wherever the
      // compiler keeps a frame pointer or other values in registers (with
      // `end` in a register and two adds it took 13 and 27 instructions,
      // too many for -O2 on Cortex-M4).
      if (x != end) {
        std::uint32_t t, xa, xb, wv;
        __asm__ volatile(
            "1:\n\t"
            "ldr %[t], [%[x]], #4\n\t"
            "sxtb16 %[xa], %[t]\n\t"
            "sxtb16 %[xb], %[t], ror #8\n\t"
            "ldr %[wv], [%[wa], %[s]]\n\t"
            "sxtb16 %[t], %[wv]\n\t"
            "smlad %[a1], %[xa], %[t], %[a1]\n\t"
            "sxtb16 %[wv], %[wv], ror #8\n\t"
            "smlad %[a1], %[xb], %[wv], %[a1]\n\t"
            "ldr %[wv], [%[wa]], #4\n\t"
            "sxtb16 %[t], %[wv]\n\t"
            "smlad %[a0], %[xa], %[t], %[a0]\n\t"
            "sxtb16 %[wv], %[wv], ror #8\n\t"
            "smlad %[a0], %[xb], %[wv], %[a0]\n\t"
            "ldr %[wv], [%[wb], %[s]]\n\t"
            "sxtb16 %[t], %[wv]\n\t"
            "smlad %[a3], %[xa], %[t], %[a3]\n\t"
            "sxtb16 %[wv], %[wv], ror #8\n\t"
            "smlad %[a3], %[xb], %[wv], %[a3]\n\t"
            "ldr %[wv], [%[wb]], #4\n\t"
            "sxtb16 %[t], %[wv]\n\t"
            "smlad %[a2], %[xa], %[t], %[a2]\n\t"
            "sxtb16 %[wv], %[wv], ror #8\n\t"
            "smlad %[a2], %[xb], %[wv], %[a2]\n\t"
            "ldr %[t], %[end]\n\t"
            "cmp %[x], %[t]\n\t"
            "bne 1b\n\t"
            : [x] "+r"(x), [wa] "+r"(wa), [wb] "+r"(wb), [a0] "+r"(a0),
              [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [t] "=&r"(t),
              [xa] "=&r"(xa), [xb] "=&r"(xb), [wv] "=&r"(wv)
            : [s] "r"(w_stride), [end] "m"(end)
            : "cc", "memory");
      }
    } else  // NOLINT: the C++ loop only without the assembly
#endif
    {
      for (; x != end;) {
        const std::uint32_t xv = dsp_detail::Load4(x);
        x += 4;
        const std::uint32_t x02 = Isa::Sxtb16(xv), x13 = Isa::Sxtb16Ror8(xv);
        std::uint32_t wv = dsp_detail::Load4(wa);
        a0 = Isa::Smlad(x02, Isa::Sxtb16(wv), a0);
        a0 = Isa::Smlad(x13, Isa::Sxtb16Ror8(wv), a0);
        wv = dsp_detail::Load4(wa + w_stride);
        wa += 4;
        a1 = Isa::Smlad(x02, Isa::Sxtb16(wv), a1);
        a1 = Isa::Smlad(x13, Isa::Sxtb16Ror8(wv), a1);
        wv = dsp_detail::Load4(wb);
        a2 = Isa::Smlad(x02, Isa::Sxtb16(wv), a2);
        a2 = Isa::Smlad(x13, Isa::Sxtb16Ror8(wv), a2);
        wv = dsp_detail::Load4(wb + w_stride);
        wb += 4;
        a3 = Isa::Smlad(x02, Isa::Sxtb16(wv), a3);
        a3 = Isa::Smlad(x13, Isa::Sxtb16Ror8(wv), a3);
      }
    }
    const std::int8_t* w0 = wa;
    const std::int8_t* w1 = wa + w_stride;
    const std::int8_t* w2 = wb;
    const std::int8_t* w3 = wb + w_stride;
    for (std::int32_t i = n & 3; i > 0; --i) {
      const std::int32_t xi = *x++;
      a0 = dsp_detail::Wrap(static_cast<std::uint32_t>(a0) +
                            static_cast<std::uint32_t>(xi * *w0++));
      a1 = dsp_detail::Wrap(static_cast<std::uint32_t>(a1) +
                            static_cast<std::uint32_t>(xi * *w1++));
      a2 = dsp_detail::Wrap(static_cast<std::uint32_t>(a2) +
                            static_cast<std::uint32_t>(xi * *w2++));
      a3 = dsp_detail::Wrap(static_cast<std::uint32_t>(a3) +
                            static_cast<std::uint32_t>(xi * *w3++));
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
  }

  /// Whether Widen2, Dot2x2, Widen3 and Dot3x2 exist (the two- and
  /// three-pixel paths of Conv2DFast).
  static constexpr bool kPairs = true;

  /// Two vectors a and b of n bytes (n a multiple of 4) as Dot2x2 reads
  /// them: per four bytes, SXTB16 of a's word and of that word rotated by
  /// 8, then the same two of b's (four words in `wide`).
  static ARENAPLAN_KERNELS_INLINE void Widen2(const std::int8_t* a,
                                              const std::int8_t* b,
                                              std::int32_t n,
                                              std::uint32_t* wide) {
    for (const std::int8_t* const end = a + n; a != end;
         a += 4, b += 4, wide += 4) {
      const std::uint32_t va = dsp_detail::Load4(a), vb = dsp_detail::Load4(b);
      wide[0] = Isa::Sxtb16(va), wide[1] = Isa::Sxtb16Ror8(va);
      wide[2] = Isa::Sxtb16(vb), wide[3] = Isa::Sxtb16Ror8(vb);
    }
  }

  /// One four-byte step of Dot2x2 (the C++ loop's body, and the first
  /// step of the assembly loop when the steps are odd).
  static ARENAPLAN_KERNELS_INLINE void Step2x2(
      const std::uint32_t* wide, const std::int8_t* w, std::int32_t w_stride,
      std::int32_t& a0, std::int32_t& a1, std::int32_t& a2, std::int32_t& a3) {
    std::uint32_t wv = dsp_detail::Load4(w);
    a0 = Isa::Smlad(wide[0], Isa::Sxtb16(wv), a0);
    a2 = Isa::Smlad(wide[2], Isa::Sxtb16(wv), a2);
    a0 = Isa::Smlad(wide[1], Isa::Sxtb16Ror8(wv), a0);
    a2 = Isa::Smlad(wide[3], Isa::Sxtb16Ror8(wv), a2);
    wv = dsp_detail::Load4(w + w_stride);
    a1 = Isa::Smlad(wide[0], Isa::Sxtb16(wv), a1);
    a3 = Isa::Smlad(wide[2], Isa::Sxtb16(wv), a3);
    a1 = Isa::Smlad(wide[1], Isa::Sxtb16Ror8(wv), a1);
    a3 = Isa::Smlad(wide[3], Isa::Sxtb16Ror8(wv), a3);
  }

  /// acc[0] += a . w0, acc[1] += a . w1, acc[2] += b . w0, acc[3] += b . w1
  /// over n bytes (n a multiple of 4), a and b from Widen2's `wide`, w0 = w
  /// and w1 = w + w_stride: two pixels times two output channels, each
  /// weight word loaded and widened once for both pixels.
  static ARENAPLAN_KERNELS_INLINE void Dot2x2(const std::uint32_t* wide,
                                              const std::int8_t* w,
                                              std::int32_t w_stride,
                                              std::int32_t n,
                                              std::int32_t* acc) {
    std::int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    const std::uint32_t* const end = wide + n;  // four words per four bytes
#if ARENAPLAN_KERNELS_ASM_LOOPS
    if constexpr (Isa::kAsm) {
      // An odd number of steps: one before the loop. (After it, as in
      // Dot3x2, here and in DotNx1 cost 265 k instructions on
      // vww_96_int8, mps2-an386: the loops' registers went otherwise.)
      if ((n & 4) != 0) {
        Step2x2(wide, w, w_stride, a0, a1, a2, a3);
        wide += 4, w += 4;
      }
      // Two steps a pass. Per step (four bytes of each pixel): 2 LDRD, 2
      // LDR (the second post-increments w), 4 SXTB16, 8 SMLAD; per pass
      // the end's load, cmp, bne (35 instructions for 32
      // multiply-accumulates; 19 for 16 one step a pass); `end` is read
      // from memory into the spent `t`: 13 registers, not 14 (which no
      // frame pointer may take).
#define ARENAPLAN_KERNELS_DOT2X2_STEP    \
  "ldrd %[xa], %[xb], [%[x]], #16\n\t"   \
  "ldrd %[ya], %[yb], [%[x], #-8]\n\t"   \
  "ldr %[wv], [%[w], %[s]]\n\t"          \
  "sxtb16 %[t], %[wv]\n\t"               \
  "smlad %[a1], %[xa], %[t], %[a1]\n\t"  \
  "smlad %[a3], %[ya], %[t], %[a3]\n\t"  \
  "sxtb16 %[wv], %[wv], ror #8\n\t"      \
  "smlad %[a1], %[xb], %[wv], %[a1]\n\t" \
  "smlad %[a3], %[yb], %[wv], %[a3]\n\t" \
  "ldr %[wv], [%[w]], #4\n\t"            \
  "sxtb16 %[t], %[wv]\n\t"               \
  "smlad %[a0], %[xa], %[t], %[a0]\n\t"  \
  "smlad %[a2], %[ya], %[t], %[a2]\n\t"  \
  "sxtb16 %[wv], %[wv], ror #8\n\t"      \
  "smlad %[a0], %[xb], %[wv], %[a0]\n\t" \
  "smlad %[a2], %[yb], %[wv], %[a2]\n\t"
      if (wide != end) {
        std::uint32_t xa, xb, ya, yb, t, wv;
        __asm__ volatile(
            "1:\n\t" ARENAPLAN_KERNELS_DOT2X2_STEP ARENAPLAN_KERNELS_DOT2X2_STEP
            "ldr %[t], %[end]\n\t"
            "cmp %[x], %[t]\n\t"
            "bne 1b\n\t"
            : [x] "+r"(wide), [w] "+r"(w), [a0] "+r"(a0), [a1] "+r"(a1),
              [a2] "+r"(a2), [a3] "+r"(a3), [xa] "=&r"(xa), [xb] "=&r"(xb),
              [ya] "=&r"(ya), [yb] "=&r"(yb), [t] "=&r"(t), [wv] "=&r"(wv)
            : [s] "r"(w_stride), [end] "m"(end)
            : "cc", "memory");
      }
#undef ARENAPLAN_KERNELS_DOT2X2_STEP
    } else  // NOLINT: the C++ loop only without the assembly
#endif
    {
      for (; wide != end; wide += 4, w += 4) {
        Step2x2(wide, w, w_stride, a0, a1, a2, a3);
      }
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
  }

  /// Three vectors a, b and c of n bytes (n a multiple of 4) as Dot3x2
  /// reads them: per four bytes, SXTB16 of a's word and of that word
  /// rotated by 8, then the same two of b's, then of c's (six words in
  /// `wide`).
  static ARENAPLAN_KERNELS_INLINE void Widen3(const std::int8_t* a,
                                              const std::int8_t* b,
                                              const std::int8_t* c,
                                              std::int32_t n,
                                              std::uint32_t* wide) {
    for (const std::int8_t* const end = a + n; a != end;
         a += 4, b += 4, c += 4, wide += 6) {
      const std::uint32_t va = dsp_detail::Load4(a), vb = dsp_detail::Load4(b),
                          vc = dsp_detail::Load4(c);
      wide[0] = Isa::Sxtb16(va), wide[1] = Isa::Sxtb16Ror8(va);
      wide[2] = Isa::Sxtb16(vb), wide[3] = Isa::Sxtb16Ror8(vb);
      wide[4] = Isa::Sxtb16(vc), wide[5] = Isa::Sxtb16Ror8(vc);
    }
  }

  /// One four-byte step of Dot3x2 (the C++ loop's body, and the first
  /// step of the assembly loop when the steps are odd); a[k] as acc[k].
  static ARENAPLAN_KERNELS_INLINE void Step3x2(const std::uint32_t* wide,
                                               const std::int8_t* w,
                                               std::int32_t w_stride,
                                               std::int32_t* a) {
    std::uint32_t wv = dsp_detail::Load4(w);
    for (int p = 0; p < 3; ++p) {
      a[2 * p] = Isa::Smlad(wide[2 * p], Isa::Sxtb16(wv), a[2 * p]);
      a[2 * p] = Isa::Smlad(wide[2 * p + 1], Isa::Sxtb16Ror8(wv), a[2 * p]);
    }
    wv = dsp_detail::Load4(w + w_stride);
    for (int p = 0; p < 3; ++p) {
      a[2 * p + 1] = Isa::Smlad(wide[2 * p], Isa::Sxtb16(wv), a[2 * p + 1]);
      a[2 * p + 1] =
          Isa::Smlad(wide[2 * p + 1], Isa::Sxtb16Ror8(wv), a[2 * p + 1]);
    }
  }

  /// acc[2 p] += x_p . w0 and acc[2 p + 1] += x_p . w1 for the pixels
  /// x_0 = a, x_1 = b, x_2 = c over n bytes (n a multiple of 4), from
  /// Widen3's `wide`, w0 = w and w1 = w + w_stride: three pixels times two
  /// output channels, each weight word loaded and widened once for the
  /// three pixels.
  static ARENAPLAN_KERNELS_INLINE void Dot3x2(const std::uint32_t* wide,
                                              const std::int8_t* w,
                                              std::int32_t w_stride,
                                              std::int32_t n,
                                              std::int32_t* acc) {
    const std::uint32_t* const end = wide + n + n / 2;  // six words per four
#if ARENAPLAN_KERNELS_ASM_LOOPS
    if constexpr (Isa::kAsm) {
      // An odd number of steps: the last one after the loop (before it,
      // as in Dot2x2 and DotNx1, GCC found no 13 registers for the loop
      // on Cortex-M4 at -O2 with the FPU's flags).
      const std::uint32_t* const pairs_end = (n & 4) != 0 ? end - 6 : end;
      std::int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3],
                   a4 = acc[4], a5 = acc[5];
      // Two steps a pass. Per step (four bytes of each pixel): 2 LDR (the
      // second post-increments w), 4 SXTB16, 6 LDRD (the fourth
      // post-increments x), 12 SMLAD; per pass the end's load, cmp, bne
      // (51 instructions for 48 multiply-accumulates, Dot2x2's 35 for 32);
      // channel w1 first, then w0, the widened weights of one channel held
      // at a time: 13 registers, `end` read from memory into the spent
      // `xl`.
#define ARENAPLAN_KERNELS_DOT3X2_STEP    \
  "ldr %[wh], [%[w], %[s]]\n\t"          \
  "sxtb16 %[wl], %[wh]\n\t"              \
  "sxtb16 %[wh], %[wh], ror #8\n\t"      \
  "ldrd %[xl], %[xh], [%[x]]\n\t"        \
  "smlad %[a1], %[xl], %[wl], %[a1]\n\t" \
  "smlad %[a1], %[xh], %[wh], %[a1]\n\t" \
  "ldrd %[xl], %[xh], [%[x], #8]\n\t"    \
  "smlad %[a3], %[xl], %[wl], %[a3]\n\t" \
  "smlad %[a3], %[xh], %[wh], %[a3]\n\t" \
  "ldrd %[xl], %[xh], [%[x], #16]\n\t"   \
  "smlad %[a5], %[xl], %[wl], %[a5]\n\t" \
  "smlad %[a5], %[xh], %[wh], %[a5]\n\t" \
  "ldr %[wh], [%[w]], #4\n\t"            \
  "sxtb16 %[wl], %[wh]\n\t"              \
  "sxtb16 %[wh], %[wh], ror #8\n\t"      \
  "ldrd %[xl], %[xh], [%[x]], #24\n\t"   \
  "smlad %[a0], %[xl], %[wl], %[a0]\n\t" \
  "smlad %[a0], %[xh], %[wh], %[a0]\n\t" \
  "ldrd %[xl], %[xh], [%[x], #-16]\n\t"  \
  "smlad %[a2], %[xl], %[wl], %[a2]\n\t" \
  "smlad %[a2], %[xh], %[wh], %[a2]\n\t" \
  "ldrd %[xl], %[xh], [%[x], #-8]\n\t"   \
  "smlad %[a4], %[xl], %[wl], %[a4]\n\t" \
  "smlad %[a4], %[xh], %[wh], %[a4]\n\t"
      if (wide != pairs_end) {
        std::uint32_t wl, wh, xl, xh;
        __asm__ volatile(
            "1:\n\t" ARENAPLAN_KERNELS_DOT3X2_STEP ARENAPLAN_KERNELS_DOT3X2_STEP
            "ldr %[xl], %[end]\n\t"
            "cmp %[x], %[xl]\n\t"
            "bne 1b\n\t"
            : [x] "+r"(wide), [w] "+r"(w), [a0] "+r"(a0), [a1] "+r"(a1),
              [a2] "+r"(a2), [a3] "+r"(a3), [a4] "+r"(a4), [a5] "+r"(a5),
              [wl] "=&r"(wl), [wh] "=&r"(wh), [xl] "=&r"(xl), [xh] "=&r"(xh)
            : [s] "r"(w_stride), [end] "m"(pairs_end)
            : "cc", "memory");
      }
#undef ARENAPLAN_KERNELS_DOT3X2_STEP
      acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3, acc[4] = a4,
      acc[5] = a5;
      if (wide != end) Step3x2(wide, w, w_stride, acc);
    } else  // NOLINT: the C++ loop only without the assembly
#endif
    {
      for (; wide != end; wide += 6, w += 4) Step3x2(wide, w, w_stride, acc);
    }
  }

  /// kN (4 or 5) vectors x[0 .. kN) of n bytes (n a multiple of 4) as
  /// DotNx1 reads them: per four bytes, SXTB16 of each vector's word and of
  /// that word rotated by 8, vector by vector (2 kN words in `wide`).
  template <int kN>
  static ARENAPLAN_KERNELS_INLINE void WidenN(const std::int8_t* const* x,
                                              std::int32_t n,
                                              std::uint32_t* wide) {
    const std::int8_t* v[kN];  // the pointers in registers, not reloaded
#pragma GCC unroll 5
    for (int p = 0; p < kN; ++p) v[p] = x[p];
    for (std::int32_t i = 0; i < n; i += 4, wide += 2 * kN) {
#pragma GCC unroll 5
      for (int p = 0; p < kN; ++p) {
        const std::uint32_t word = dsp_detail::Load4(v[p] + i);
        wide[2 * p] = Isa::Sxtb16(word);
        wide[2 * p + 1] = Isa::Sxtb16Ror8(word);
      }
    }
  }

  /// One four-byte step of DotNx1 (the C++ loop's body, and the first step
  /// of the assembly loop when the steps are odd).
  template <int kN>
  static ARENAPLAN_KERNELS_INLINE void StepNx1(const std::uint32_t* wide,
                                               const std::int8_t* w,
                                               std::int32_t* a) {
    const std::uint32_t wv = dsp_detail::Load4(w);
    const std::uint32_t lo = Isa::Sxtb16(wv), hi = Isa::Sxtb16Ror8(wv);
#pragma GCC unroll 5
    for (int p = 0; p < kN; ++p) {
      a[p] = Isa::Smlad(wide[2 * p], lo, a[p]);
      a[p] = Isa::Smlad(wide[2 * p + 1], hi, a[p]);
    }
  }

  /// acc[p] += x_p . w for the kN (4 or 5) pixels x_p of WidenN's `wide`
  /// over n bytes (n a multiple of 4): one output channel times kN pixels,
  /// each weight word loaded and widened once for all of them (a pointwise
  /// layer's runs: fast_conv.hpp PixelRun).
  template <int kN>
  static ARENAPLAN_KERNELS_INLINE void DotNx1(const std::uint32_t* wide,
                                              const std::int8_t* w,
                                              std::int32_t n,
                                              std::int32_t* acc) {
    static_assert(kN == 4 || kN == 5, "four or five pixels");
    const std::uint32_t* const end = wide + (n / 4) * 2 * kN;
#if ARENAPLAN_KERNELS_ASM_LOOPS
    if constexpr (Isa::kAsm) {
      if ((n & 4) != 0) {  // an odd number of steps: one first (Dot2x2)
        StepNx1<kN>(wide, w, acc);
        wide += 2 * kN, w += 4;
      }
      std::int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3],
                   a4 = kN == 5 ? acc[4] : 0;
      // Two steps a pass. Per step: 1 LDR (post-incrementing w), 2 SXTB16,
      // kN LDRD (the first post-increments x), 2 kN SMLAD; per pass cmp,
      // bne (38 instructions for 40 multiply-accumulates with five pixels,
      // 32 for 32 with four; Dot3x2's 51 for 48): 12 registers at most,
      // `end` among them.
#define ARENAPLAN_KERNELS_DOTN_HEAD(post) \
  "ldr %[wh], [%[w]], #4\n\t"             \
  "sxtb16 %[wl], %[wh]\n\t"               \
  "sxtb16 %[wh], %[wh], ror #8\n\t"       \
  "ldrd %[xl], %[xh], [%[x]], #" post     \
  "\n\t"                                  \
  "smlad %[a0], %[xl], %[wl], %[a0]\n\t"  \
  "smlad %[a0], %[xh], %[wh], %[a0]\n\t"
#define ARENAPLAN_KERNELS_DOTN_PIXEL(a, off) \
  "ldrd %[xl], %[xh], [%[x], #" off          \
  "]\n\t"                                    \
  "smlad %[" a "], %[xl], %[wl], %[" a       \
  "]\n\t"                                    \
  "smlad %[" a "], %[xh], %[wh], %[" a "]\n\t"
#define ARENAPLAN_KERNELS_DOT5_STEP         \
  ARENAPLAN_KERNELS_DOTN_HEAD("40")         \
  ARENAPLAN_KERNELS_DOTN_PIXEL("a1", "-32") \
  ARENAPLAN_KERNELS_DOTN_PIXEL("a2", "-24") \
  ARENAPLAN_KERNELS_DOTN_PIXEL("a3", "-16") \
  ARENAPLAN_KERNELS_DOTN_PIXEL("a4", "-8")
#define ARENAPLAN_KERNELS_DOT4_STEP         \
  ARENAPLAN_KERNELS_DOTN_HEAD("32")         \
  ARENAPLAN_KERNELS_DOTN_PIXEL("a1", "-24") \
  ARENAPLAN_KERNELS_DOTN_PIXEL("a2", "-16") \
  ARENAPLAN_KERNELS_DOTN_PIXEL("a3", "-8")
      if (wide != end) {
        std::uint32_t wl, wh, xl, xh;
        if constexpr (kN == 5) {
          __asm__ volatile(
              "1:\n\t" ARENAPLAN_KERNELS_DOT5_STEP ARENAPLAN_KERNELS_DOT5_STEP
              "cmp %[x], %[end]\n\t"
              "bne 1b\n\t"
              : [x] "+r"(wide), [w] "+r"(w), [a0] "+r"(a0), [a1] "+r"(a1),
                [a2] "+r"(a2), [a3] "+r"(a3), [a4] "+r"(a4), [wl] "=&r"(wl),
                [wh] "=&r"(wh), [xl] "=&r"(xl), [xh] "=&r"(xh)
              : [end] "r"(end)
              : "cc", "memory");
        } else {  // no a4: one register fewer (a spare one costs 1.5 k on
                  // pretrainedResnet_quant, mps2-an386)
          __asm__ volatile(
              "1:\n\t" ARENAPLAN_KERNELS_DOT4_STEP ARENAPLAN_KERNELS_DOT4_STEP
              "cmp %[x], %[end]\n\t"
              "bne 1b\n\t"
              : [x] "+r"(wide), [w] "+r"(w), [a0] "+r"(a0), [a1] "+r"(a1),
                [a2] "+r"(a2), [a3] "+r"(a3), [wl] "=&r"(wl), [wh] "=&r"(wh),
                [xl] "=&r"(xl), [xh] "=&r"(xh)
              : [end] "r"(end)
              : "cc", "memory");
        }
      }
#undef ARENAPLAN_KERNELS_DOT4_STEP
#undef ARENAPLAN_KERNELS_DOT5_STEP
#undef ARENAPLAN_KERNELS_DOTN_PIXEL
#undef ARENAPLAN_KERNELS_DOTN_HEAD
      acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
      if constexpr (kN == 5) acc[4] = a4;
    } else  // NOLINT: the C++ loop only without the assembly
#endif
    {
      for (; wide != end; wide += 2 * kN, w += 4) StepNx1<kN>(wide, w, acc);
    }
  }

  // Outlined: only the leftover channels (fewer than four) call it.
  static ARENAPLAN_KERNELS_OUTLINE std::int32_t Dot1(const std::int8_t* x,
                                                     const std::int8_t* w,
                                                     std::int32_t n,
                                                     std::int32_t a) {
    for (std::int32_t i = n >> 2; i > 0; --i) {
      const std::uint32_t xv = dsp_detail::Load4(x);
      const std::uint32_t wv = dsp_detail::Load4(w);
      x += 4, w += 4;
      a = Isa::Smlad(Isa::Sxtb16(xv), Isa::Sxtb16(wv), a);
      a = Isa::Smlad(Isa::Sxtb16Ror8(xv), Isa::Sxtb16Ror8(wv), a);
    }
    for (std::int32_t i = n & 3; i > 0; --i) {
      a = dsp_detail::Wrap(static_cast<std::uint32_t>(a) +
                           static_cast<std::uint32_t>(*x++ * *w++));
    }
    return a;
  }

  /// acc[c] += sum_{t < taps} x_t[c] * w[t * w_step + c], c = 0 .. 3, x_t
  /// the byte at address base + off[t] (four channels of a depthwise window
  /// whose taps are the input or zero points); reads tap by tap.
  static ARENAPLAN_KERNELS_INLINE void Taps4(
      std::uintptr_t base, const std::uintptr_t* off, const std::int8_t* w,
      std::int32_t w_step, std::int32_t taps, std::int32_t* acc) {
    std::int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    const std::uintptr_t* const end = off + taps;
#if ARENAPLAN_KERNELS_ASM_LOOPS
    if constexpr (Isa::kAsm) {
      // Per tap: 3 LDR (the tap's offset, four input bytes, four weights),
      // the weights' step, 4 SXTB16, 4 SMLAxy, cmp, bne (15 instructions
      // for 4 multiply-accumulates; GCC's loop took 18, reloading three
      // spilled values a tap): 13 registers.
#define ARENAPLAN_KERNELS_TAP4          \
  "ldr %[t], [%[off]], #4\n\t"          \
  "ldr %[x], [%[base], %[t]]\n\t"       \
  "ldr %[v], [%[w]]\n\t"                \
  "add %[w], %[w], %[step]\n\t"         \
  "sxtb16 %[t], %[x]\n\t"               \
  "sxtb16 %[u], %[v]\n\t"               \
  "smlabb %[a0], %[t], %[u], %[a0]\n\t" \
  "smlatt %[a2], %[t], %[u], %[a2]\n\t" \
  "sxtb16 %[x], %[x], ror #8\n\t"       \
  "sxtb16 %[v], %[v], ror #8\n\t"       \
  "smlabb %[a1], %[x], %[v], %[a1]\n\t" \
  "smlatt %[a3], %[x], %[v], %[a3]\n\t"
#define ARENAPLAN_KERNELS_TAP4_OPERANDS                                     \
  : [off] "+r"(off), [w] "+r"(w), [a0] "+r"(a0), [a1] "+r"(a1),          \
    [a2] "+r"(a2), [a3] "+r"(a3), [t] "=&r"(t), [x] "=&r"(x), [u] "=&r"(u), \
    [v] "=&r"(v)                                                          \
  : [base] "r"(base), [step] "r"(w_step), [end] "r"(end)                  \
  : "cc", "memory"
      std::uint32_t t, x, u, v;
      if (taps % 3 == 0 && off != end) {  // three taps a pass (3x3, 5x3)
        __asm__ volatile("1:\n\t" ARENAPLAN_KERNELS_TAP4 ARENAPLAN_KERNELS_TAP4
                             ARENAPLAN_KERNELS_TAP4
                         "cmp %[off], %[end]\n\t"
                         "bne 1b\n\t" ARENAPLAN_KERNELS_TAP4_OPERANDS);
      } else if (off != end) {
        __asm__ volatile("1:\n\t" ARENAPLAN_KERNELS_TAP4
                         "cmp %[off], %[end]\n\t"
                         "bne 1b\n\t" ARENAPLAN_KERNELS_TAP4_OPERANDS);
      }
#undef ARENAPLAN_KERNELS_TAP4_OPERANDS
#undef ARENAPLAN_KERNELS_TAP4
      acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
      return;
    }
#endif
    for (; off != end; ++off, w += w_step) {
      const std::uint32_t xv =
          dsp_detail::Load4(reinterpret_cast<const std::int8_t*>(base + *off));
      const std::uint32_t wv = dsp_detail::Load4(w);
      const std::uint32_t x02 = Isa::Sxtb16(xv), w02 = Isa::Sxtb16(wv);
      a0 = Isa::Smlabb(x02, w02, a0);
      a2 = Isa::Smlatt(x02, w02, a2);
      const std::uint32_t x13 = Isa::Sxtb16Ror8(xv);
      const std::uint32_t w13 = Isa::Sxtb16Ror8(wv);
      a1 = Isa::Smlabb(x13, w13, a1);
      a3 = Isa::Smlatt(x13, w13, a3);
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
  }
};

/// The same sums, one byte at a time.
struct ScalarMac {
  static constexpr bool kPairs = false;  ///< No Widen2 / Dot2x2 / Dot3x2.

  static inline void Dot4(const std::int8_t* x, const std::int8_t* w,
                          std::int32_t w_stride, std::int32_t n,
                          std::int32_t* acc) {
    const std::int8_t* w1 = w + w_stride;
    const std::int8_t* w2 = w1 + w_stride;
    const std::int8_t* w3 = w2 + w_stride;
    std::uint32_t a0 = static_cast<std::uint32_t>(acc[0]);
    std::uint32_t a1 = static_cast<std::uint32_t>(acc[1]);
    std::uint32_t a2 = static_cast<std::uint32_t>(acc[2]);
    std::uint32_t a3 = static_cast<std::uint32_t>(acc[3]);
    for (std::int32_t i = 0; i < n; ++i) {
      const std::int32_t xi = x[i];
      a0 += static_cast<std::uint32_t>(xi * w[i]);
      a1 += static_cast<std::uint32_t>(xi * w1[i]);
      a2 += static_cast<std::uint32_t>(xi * w2[i]);
      a3 += static_cast<std::uint32_t>(xi * w3[i]);
    }
    acc[0] = dsp_detail::Wrap(a0), acc[1] = dsp_detail::Wrap(a1);
    acc[2] = dsp_detail::Wrap(a2), acc[3] = dsp_detail::Wrap(a3);
  }

  static inline std::int32_t Dot1(const std::int8_t* x, const std::int8_t* w,
                                  std::int32_t n, std::int32_t a) {
    std::uint32_t s = static_cast<std::uint32_t>(a);
    for (std::int32_t i = 0; i < n; ++i) {
      s += static_cast<std::uint32_t>(x[i] * w[i]);
    }
    return dsp_detail::Wrap(s);
  }

  static inline void Taps4(std::uintptr_t base, const std::uintptr_t* off,
                           const std::int8_t* w, std::int32_t w_step,
                           std::int32_t taps, std::int32_t* acc) {
    std::uint32_t a0 = static_cast<std::uint32_t>(acc[0]);
    std::uint32_t a1 = static_cast<std::uint32_t>(acc[1]);
    std::uint32_t a2 = static_cast<std::uint32_t>(acc[2]);
    std::uint32_t a3 = static_cast<std::uint32_t>(acc[3]);
    for (std::int32_t t = 0; t < taps; ++t, w += w_step) {
      const auto* xt = reinterpret_cast<const std::int8_t*>(base + off[t]);
      a0 += static_cast<std::uint32_t>(xt[0] * w[0]);
      a1 += static_cast<std::uint32_t>(xt[1] * w[1]);
      a2 += static_cast<std::uint32_t>(xt[2] * w[2]);
      a3 += static_cast<std::uint32_t>(xt[3] * w[3]);
    }
    acc[0] = dsp_detail::Wrap(a0), acc[1] = dsp_detail::Wrap(a1);
    acc[2] = dsp_detail::Wrap(a2), acc[3] = dsp_detail::Wrap(a3);
  }
};

#if defined(__ARM_FEATURE_DSP)
using DefaultMac = SimdMac<AcleIsa>;
#else
using DefaultMac = ScalarMac;
#endif

/// MultiplyByQuantizedMultiplier (quantization.hpp) for a multiplier in
/// [0, 2^31), the only ones the generator passes to the fast kernels (it
/// negates a channel of negative multiplier, weights and bias, or calls the
/// reference kernel: codegen/compile/quantize.hpp NegateNegativeChannels),
/// which never hit
/// the saturating case (both factors INT32_MIN). Then the rounded high
/// product,
/// nudged by 2^30 or 1 - 2^30 by sign and truncated toward zero, equals
/// floor((a * b + 2^30) / 2^31): for a * b >= 0 it is that by definition;
/// for a * b < 0, s = a*b + 1 - 2^30 < 0 and trunc(s / 2^31) =
/// ceil(s / 2^31) = floor((s + 2^31 - 1) / 2^31) = floor((a*b + 2^30) /
/// 2^31). An arithmetic shift of the 64-bit sum computes it.
ARENAPLAN_KERNELS_INLINE std::int32_t RequantizeAcc(std::int32_t acc,
                                                    std::int32_t multiplier,
                                                    int shift) {
  const int left = shift > 0 ? shift : 0;
  const int right = shift > 0 ? 0 : -shift;
  const std::int64_t ab = static_cast<std::int64_t>(static_cast<std::int32_t>(
                              static_cast<std::uint32_t>(acc) << left)) *
                          multiplier;
  const auto high =
      static_cast<std::int32_t>((ab + (std::int64_t{1} << 30)) >> 31);
  // RoundingDivideByPOT (quantization.hpp), here so that it is inlined.
  const std::int32_t mask =
      static_cast<std::int32_t>((std::uint32_t{1} << right) - 1u);
  const std::int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
  return (high >> right) + ((high & mask) > threshold ? 1 : 0);
}

/// RequantizeAcc for a right shift (shift = -right, right in [1, 31]) and a
/// multiplier in [0, 2^31), with one rounding step instead of two:
///   result = floor((acc * M + K) / 2^(31 + right)),
///   K = 2^30 + 2^(30 + right) - [acc < 0] * 2^31,
/// i.e. the high word of the 64-bit sum (one SMLAL) shifted right by
/// right - 1. Proof. Let ab = acc * M and h = floor((ab + 2^30) / 2^31),
/// the rounded high product (RequantizeAcc's comment). gemmlowp's
/// RoundingDivideByPOT(h, r), r >= 1, rounds h / 2^r half away from zero:
/// with h = q * 2^r + rem, 0 <= rem < 2^r, it adds 1 to q when rem >
/// 2^(r-1) - 1 + [h < 0], which is floor((h + 2^(r-1) - [h < 0]) / 2^r)
/// (rem + 2^(r-1) - [h < 0] < 2^(r+1) reaches 2^r exactly then). For
/// integers y, c and positive a, b, floor((floor(y / a) + c) / b) =
/// floor((y + c * a) / (a * b)); with y = ab + 2^30, a = 2^31, b = 2^r,
/// c = 2^(r-1) - [h < 0] the result is floor((ab + 2^30 + 2^(30+r) -
/// [h < 0] * 2^31) / 2^(31+r)). Finally [h < 0] may be replaced by
/// [acc < 0]: they differ only when acc < 0 and -2^30 <= ab <= 0 (M >= 0),
/// where h = 0 and the result is 0; with [acc < 0] = 1 the numerator is
/// ab + 2^30 + 2^(30+r) - 2^31, in [2^(30+r) - 2^31, 2^(30+r) - 2^30] and
/// so in [0, 2^(31+r)) for r >= 1: the result is 0 as well. |ab| <= 2^62 and
/// 0 < K < 2^62, so the 64-bit sum does not overflow; floor(S / 2^32) is the
/// high word of S, and floor(floor(S / 2^32) / 2^(r-1)) = floor(S /
/// 2^(31+r)). K is formed as 2^30 + 2^31 * v, v = 2^(r-1) - [acc < 0] in
/// [0, 2^30] (the two terms share no bit): v >> 1 is its high word,
/// (v << 31) | 2^30 its low word. The step from [h < 0] to [acc < 0] is
/// what needs M >= 0: with M < 0 a positive acc makes h negative, and the
/// result differs from TFLite's (e.g. acc = 3, M = -2^30, right = 1:
/// h = -1 (-1.5 rounded up), TFLite's -1 (-0.5 away from zero), here 0);
/// hence no negative multiplier here.
ARENAPLAN_KERNELS_INLINE std::int32_t RequantizeRight(std::int32_t acc,
                                                      std::int32_t multiplier,
                                                      int right) {
  const int rm1 = right - 1;
  const std::uint32_t v =
      (std::uint32_t{1} << rm1) + static_cast<std::uint32_t>(acc >> 31);
  const auto k = static_cast<std::int64_t>((std::uint64_t{v} << 31) |
                                           (std::uint32_t{1} << 30));
  const std::int64_t sum = static_cast<std::int64_t>(acc) * multiplier + k;
  return static_cast<std::int32_t>(sum >> 32) >> rm1;
}

/// MultiplyByQuantizedMultiplier for a multiplier in [0, 2^31) and a shift
/// in [-31, 30]: RequantizeRight for the right shifts (the usual case: a
/// real multiplier below 0.5); otherwise RequantizeAcc with right = 0, whose
/// RoundingDivideByPOT by 2^0 returns its argument (mask 0, remainder 0, not
/// above the threshold 0 or 1): the rounded high product of the shifted
/// accumulator alone.
ARENAPLAN_KERNELS_INLINE std::int32_t Requantize(std::int32_t acc,
                                                 std::int32_t multiplier,
                                                 int shift) {
  if (shift < 0) return RequantizeRight(acc, multiplier, -shift);
  const std::int64_t ab = static_cast<std::int64_t>(static_cast<std::int32_t>(
                              static_cast<std::uint32_t>(acc) << shift)) *
                          multiplier;
  return static_cast<std::int32_t>((ab + (std::int64_t{1} << 30)) >> 31);
}

/// One layer's output stage (requantization, output offset, clamp), its
/// scalars copied out of the layer's parameters: the kernels' int8 stores may
/// alias any object, so fields read through a reference would be reloaded
/// after every store; these locals stay in registers.
struct OutputStage {
  const std::int32_t* multiplier;  ///< One per output channel; not owned.
  const std::int8_t* shift;        ///< One per output channel; not owned.
  std::int32_t offset;             ///< The output zero point.
  std::int32_t lo, hi;             ///< Clamp range, both ends included.
  /// The output byte of accumulator `acc` of output channel `ch`.
  ARENAPLAN_KERNELS_INLINE std::int8_t operator()(std::int32_t acc,
                                                  std::int32_t ch) const {
    const std::int32_t v = Requantize(acc, multiplier[ch], shift[ch]) + offset;
    return static_cast<std::int8_t>(v < lo ? lo : (v > hi ? hi : v));
  }
  /// The same, not inlined: for the leftover channels (fewer than four per
  /// pixel), where the code size matters more than the call.
  ARENAPLAN_KERNELS_OUTLINE std::int8_t Leftover(std::int32_t acc,
                                                 std::int32_t ch) const {
    return (*this)(acc, ch);
  }

  /// Whether the clamp range is all of int8, [-128, 127]: then the clamp
  /// is a saturation to 8 bits (dsp_detail::Sat8, one SSAT). Every layer
  /// of the shared models has it; the callers test it once per call.
  ARENAPLAN_KERNELS_INLINE constexpr bool FullRange() const {
    return lo == -128 && hi == 127;
  }

  /// out[k] = (*this)(acc[k], ch + k) for k = 0 .. 3, `full` FullRange().
  /// The four channels' multipliers and shifts are read before any byte is
  /// written (no reloads after the stores, which may alias them). When all
  /// four shifts are right shifts (the usual case) and `full`, each byte is
  /// Sat8(RequantizeRight(acc, M, -shift) + offset), inlined, without the
  /// per-byte test of the shift's sign: Requantize's right-shift case, and
  /// Sat8 is the clamp to [lo, hi] = [-128, 127]. Otherwise Leftover per
  /// byte (outlined: little code for the layers that never take it).
  /// Outlined: one copy for VectorGroups, DepthwisePassGroups and
  /// Conv2DFast's row-wise path (inlined, it took about 170 bytes of flash
  /// in each, and the callers' loops kept fewer values in registers).
  ARENAPLAN_KERNELS_OUTLINE void Store4(const std::int32_t* acc,
                                        std::int32_t ch, std::int8_t* out,
                                        bool full) const {
    const std::int32_t* m = multiplier + ch;
    const std::int8_t* s = shift + ch;
    const std::int32_t m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3];
    const int s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    // All four negative and `full` (one test: full as a sign mask).
    if ((s0 & s1 & s2 & s3 & -static_cast<int>(full)) < 0) {
      const std::int32_t v0 = RequantizeRight(acc[0], m0, -s0) + offset,
                         v1 = RequantizeRight(acc[1], m1, -s1) + offset,
                         v2 = RequantizeRight(acc[2], m2, -s2) + offset,
                         v3 = RequantizeRight(acc[3], m3, -s3) + offset;
      out[0] = static_cast<std::int8_t>(dsp_detail::Sat8(v0));
      out[1] = static_cast<std::int8_t>(dsp_detail::Sat8(v1));
      out[2] = static_cast<std::int8_t>(dsp_detail::Sat8(v2));
      out[3] = static_cast<std::int8_t>(dsp_detail::Sat8(v3));
      return;
    }
    for (std::int32_t k = 0; k < 4; ++k) out[k] = Leftover(acc[k], ch + k);
  }

  /// Two pixels' bytes of channels ch and ch + 1: out_a[k] =
  /// (*this)(a[k], ch + k), out_b[k] = (*this)(b[k], ch + k), k = 0, 1,
  /// `full` FullRange(). Each channel's multiplier and shift are read once
  /// for both pixels, before any byte is written; as Store4 otherwise.
  ARENAPLAN_KERNELS_INLINE void Store2x2(const std::int32_t* a,
                                         const std::int32_t* b, std::int32_t ch,
                                         std::int8_t* out_a, std::int8_t* out_b,
                                         bool full) const {
    const std::int32_t m0 = multiplier[ch], m1 = multiplier[ch + 1];
    const int s0 = shift[ch], s1 = shift[ch + 1];
    if ((s0 & s1 & -static_cast<int>(full)) < 0) {  // both negative, full
      const std::int32_t va0 = RequantizeRight(a[0], m0, -s0) + offset,
                         va1 = RequantizeRight(a[1], m1, -s1) + offset,
                         vb0 = RequantizeRight(b[0], m0, -s0) + offset,
                         vb1 = RequantizeRight(b[1], m1, -s1) + offset;
      out_a[0] = static_cast<std::int8_t>(dsp_detail::Sat8(va0));
      out_a[1] = static_cast<std::int8_t>(dsp_detail::Sat8(va1));
      out_b[0] = static_cast<std::int8_t>(dsp_detail::Sat8(vb0));
      out_b[1] = static_cast<std::int8_t>(dsp_detail::Sat8(vb1));
      return;
    }
    out_a[0] = Leftover(a[0], ch), out_a[1] = Leftover(a[1], ch + 1);
    out_b[0] = Leftover(b[0], ch), out_b[1] = Leftover(b[1], ch + 1);
  }

  /// Three pixels' bytes of channels ch and ch + 1 from Dot3x2's
  /// accumulators: out_p[k] = (*this)(acc[2 p + k], ch + k), p = 0, 1, 2 for
  /// out_a, out_b, out_c, k = 0, 1; as Store2x2 otherwise (each byte
  /// written as soon as it is known: the multipliers and shifts are read
  /// first, and no array of results takes stack).
  ARENAPLAN_KERNELS_INLINE void Store2x3(const std::int32_t* acc,
                                         std::int32_t ch, std::int8_t* out_a,
                                         std::int8_t* out_b, std::int8_t* out_c,
                                         bool full) const {
    const std::int32_t m0 = multiplier[ch], m1 = multiplier[ch + 1];
    const int s0 = shift[ch], s1 = shift[ch + 1];
    if ((s0 & s1 & -static_cast<int>(full)) < 0) {  // both negative, full
      const auto two = [&](const std::int32_t* a,
                           std::int8_t* out) ARENAPLAN_KERNELS_INLINE_LAMBDA {
        const std::int32_t v0 = RequantizeRight(a[0], m0, -s0) + offset;
        const std::int32_t v1 = RequantizeRight(a[1], m1, -s1) + offset;
        out[0] = static_cast<std::int8_t>(dsp_detail::Sat8(v0));
        out[1] = static_cast<std::int8_t>(dsp_detail::Sat8(v1));
      };
      two(acc, out_a), two(acc + 2, out_b), two(acc + 4, out_c);
      return;
    }
    out_a[0] = Leftover(acc[0], ch), out_a[1] = Leftover(acc[1], ch + 1);
    out_b[0] = Leftover(acc[2], ch), out_b[1] = Leftover(acc[3], ch + 1);
    out_c[0] = Leftover(acc[4], ch), out_c[1] = Leftover(acc[5], ch + 1);
  }

  /// kN pixels' bytes of channel ch from DotNx1's accumulators: out[p *
  /// step] = (*this)(acc[p], ch), p < kN; as Store2x2 otherwise (the
  /// channel's multiplier and shift read once for all of them).
  template <int kN>
  ARENAPLAN_KERNELS_INLINE void StoreColumn(const std::int32_t* acc,
                                            std::int32_t ch, std::int8_t* out,
                                            std::int32_t step,
                                            bool full) const {
    const std::int32_t m = multiplier[ch];
    const int s = shift[ch];
    if ((s & -static_cast<int>(full)) < 0) {  // negative, full
#pragma GCC unroll 5
      for (int p = 0; p < kN; ++p) {
        const std::int32_t v = RequantizeRight(acc[p], m, -s) + offset;
        out[p * step] = static_cast<std::int8_t>(dsp_detail::Sat8(v));
      }
      return;
    }
    for (int p = 0; p < kN; ++p) out[p * step] = Leftover(acc[p], ch);
  }
};

/// out[oc] = stage(folded_bias[oc] + sum_{i < n} x[i] * filter[oc * n + i])
/// for oc in [0, groups_end), groups_end a multiple of 4: the output channels
/// in groups of four, in ascending order, in one call (a convolution pixel
/// whose window is one contiguous vector, unclipped 1x1 or gathered; a fully
/// connected row). Each group reads x[0, n), then writes its four bytes.
/// Dot4 and Store4 are calls (flash: the pixel pairs, PairGroups, are the
/// convolutions' hot loop; VectorGroups takes the odd pixels and the fully
/// connected layers).
template <class Mac>
ARENAPLAN_KERNELS_OUTLINE void VectorGroups(
    const std::int8_t* x, const std::int8_t* filter, std::int32_t n,
    std::int32_t groups_end, const std::int32_t* folded_bias,
    const OutputStage& stage_in, std::int8_t* out) {
  const OutputStage stage = stage_in;  // in registers across the stores
  const bool full = stage.FullRange();
  for (std::int32_t oc = 0; oc < groups_end; oc += 4) {
    std::int32_t acc[4] = {folded_bias[oc], folded_bias[oc + 1],
                           folded_bias[oc + 2], folded_bias[oc + 3]};
    Mac::Dot4(x, filter + oc * n, n, n, acc);
    stage.Store4(acc, oc, out + oc, full);
  }
}

/// Two pixels' vectors a and b (n bytes each, widened by Mac::Widen2 into
/// `wide` for the first n & ~3 bytes; the last n & 3 read from a and b):
/// out_a[oc] = stage(folded_bias[oc] + sum_i a[i] * filter[oc * n + i]),
/// out_b[oc] likewise from b, for oc in [0, pairs_end), pairs_end even. The
/// output channels in pairs, in ascending order: each pair reads all of
/// `wide` (and the tails), then writes out_a[oc], out_a[oc + 1], out_b[oc],
/// out_b[oc + 1].
template <class Mac>
ARENAPLAN_KERNELS_OUTLINE void PairGroups(
    const std::uint32_t* wide, const std::int8_t* a, const std::int8_t* b,
    std::int32_t n, const std::int8_t* filter, std::int32_t pairs_end,
    const std::int32_t* folded_bias, const OutputStage& stage_in,
    std::int8_t* out_a, std::int8_t* out_b) {
  const OutputStage stage = stage_in;  // in registers across the stores
  const bool full = stage.FullRange();
  const std::int32_t n4 = n & ~3;
  for (std::int32_t oc = 0; oc < pairs_end; oc += 2) {
    const std::int8_t* w = filter + oc * n;
    std::int32_t acc[4] = {folded_bias[oc], folded_bias[oc + 1],
                           folded_bias[oc], folded_bias[oc + 1]};
    Mac::Dot2x2(wide, w, n, n4, acc);
    for (std::int32_t i = n4; i < n; ++i) {
      const std::int32_t ai = a[i], bi = b[i], w0 = w[i], w1 = w[n + i];
      acc[0] = dsp_detail::Wrap(static_cast<std::uint32_t>(acc[0]) +
                                static_cast<std::uint32_t>(ai * w0));
      acc[1] = dsp_detail::Wrap(static_cast<std::uint32_t>(acc[1]) +
                                static_cast<std::uint32_t>(ai * w1));
      acc[2] = dsp_detail::Wrap(static_cast<std::uint32_t>(acc[2]) +
                                static_cast<std::uint32_t>(bi * w0));
      acc[3] = dsp_detail::Wrap(static_cast<std::uint32_t>(acc[3]) +
                                static_cast<std::uint32_t>(bi * w1));
    }
    stage.Store2x2(acc, acc + 2, oc, out_a + oc, out_b + oc, full);
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_DSP_HPP_
