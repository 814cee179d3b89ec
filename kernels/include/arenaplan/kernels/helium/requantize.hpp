// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Helium (M-profile Vector Extension, integer MVE: __ARM_FEATURE_MVE & 1)
// requantization of four int32 accumulators at once: lane by lane the bytes
// of MultiplyByQuantizedMultiplier (quantization.hpp, TFLM's
// tensorflow/lite/kernels/internal/common.h) plus the output offset and the
// clamp, for every int32 accumulator, every multiplier (also negative ones)
// and every shift in [-31, 30].
//
// Why the instructions give the reference's values, lane by lane:
// - left = max(shift, 0): VSHL by a register vector shifts left, the bits
//   above bit 31 dropped, which is the reference's uint32 shift.
// - VQRDMULH(a, b) is sat((2ab + 2^31) >> 32) = sat(floor((ab + 2^30) /
//   2^31)), saturating only a = b = INT32_MIN to INT32_MAX: the reference's
//   SaturatingRoundingDoublingHighMul (ties toward +infinity).
// - right = min(shift, 0) <= 0: VRSHL by a negative amount -r is the
//   rounding right shift floor((h + 2^(r-1)) / 2^r) computed without
//   overflow (ties toward +infinity). RoundingDivideByPOT rounds ties away
//   from zero, so a negative h is first lowered by one (saturating; h =
//   INT32_MIN is a multiple of 2^r and stays exact): for h < 0, floor((h - 1
//   + 2^(r-1)) / 2^r) is the nearest integer of h / 2^r with ties toward
//   -infinity, because h - 1 + 2^(r-1) reaches a multiple of 2^r exactly
//   when h / 2^r lies at or above a tie. The "lower by one" is (h AND right)
//   >> 31: -1 exactly when h < 0 and right != 0 (right < 0 has its sign bit
//   set), 0 otherwise (shift >= 0 leaves h unchanged, as RoundingDivideByPOT
//   by 2^0 does).
// - The output offset is added with saturation (VQADD) and the sum clamped
//   to [lo, hi] (within int8): the clamped value of the exact sum, which is
//   the reference's wherever its int32 sum does not overflow.
// Freestanding; compiled only when the core has integer MVE.
#ifndef ARENAPLAN_KERNELS_HELIUM_REQUANTIZE_HPP_
#define ARENAPLAN_KERNELS_HELIUM_REQUANTIZE_HPP_

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)

#include <arm_mve.h>

#include <cstdint>

#include "arenaplan/kernels/dsp.hpp"

namespace arenaplan::kernels::helium {

/// MultiplyByQuantizedMultiplier(acc[k], multiplier[k], shift[k]) for the
/// four lanes k (header comment); shift lanes in [-31, 30].
ARENAPLAN_KERNELS_INLINE int32x4_t Requantize(int32x4_t acc,
                                              int32x4_t multiplier,
                                              int32x4_t shift) {
  const int32x4_t zero = vdupq_n_s32(0);
  const int32x4_t left = vmaxq_s32(shift, zero);
  const int32x4_t right = vminq_s32(shift, zero);  // minus the right shift
  const int32x4_t high = vqrdmulhq_s32(vshlq_s32(acc, left), multiplier);
  const int32x4_t lowered =
      vqaddq_s32(high, vshrq_n_s32(vandq_s32(high, right), 31));
  return vrshlq_s32(lowered, right);
}

/// One layer's output stage (dsp.hpp OutputStage's fields) on four lanes.
struct Stage4 {
  const std::int32_t* multiplier;  ///< One per output channel; not owned.
  const std::int8_t* shift;        ///< One per output channel; not owned.
  std::int32_t offset;             ///< The output zero point.
  std::int32_t lo, hi;             ///< Clamp range, both ends included.

  /// clamp(Requantize(acc[k]) + offset) of channels ch + k in lane k, the
  /// multipliers and shifts m and s (lanes as loaded by the caller), the
  /// clamp range as the vectors lo_v and hi_v.
  ARENAPLAN_KERNELS_INLINE int32x4_t Bytes(int32x4_t acc, int32x4_t m,
                                           int32x4_t s, int32x4_t lo_v,
                                           int32x4_t hi_v) const {
    const int32x4_t v = vqaddq_n_s32(Requantize(acc, m, s), offset);
    return vminq_s32(vmaxq_s32(v, lo_v), hi_v);
  }

  /// out[k] = clamp(Requantize(acc[k]) + offset) for the lanes k < n of
  /// channels ch + k (n in [1, 4]; lanes k >= n neither read their
  /// multiplier and shift nor write a byte). Writes only out[0, n).
  ARENAPLAN_KERNELS_INLINE void Store(int32x4_t acc, std::int32_t ch,
                                      std::int32_t n, std::int8_t* out) const {
    const mve_pred16_t p = vctp32q(static_cast<std::uint32_t>(n));
    const int32x4_t v =
        Bytes(acc, vldrwq_z_s32(multiplier + ch, p),
              vldrbq_z_s32(shift + ch, p), vdupq_n_s32(lo), vdupq_n_s32(hi));
    // GCC 12 models the predicated store as a store of all four bytes, so
    // it may drop an earlier store to the bytes out[n, 4) that this store
    // leaves alone (seen: a buffer's initial bytes removed); an empty asm
    // that may read all memory keeps every earlier store. No instruction.
    __asm__ volatile("" ::: "memory");
    vstrbq_p_s32(out, v, p);
  }
};

/// Stage4::Bytes's instructions from the multiply to the output offset, as
/// assembly text: %q[a] (the accumulators, already shifted left by the left
/// shifts) becomes the offset values, given the multipliers in %q[m]
/// (clobbered) and the right shifts (<= 0) in %q[s]; OFFSET the output
/// offset's operand ("%[offset]", a general register, or "%q[offset]", a
/// vector of it). For the kernels whose loops are in assembly
/// (ScatterBytes, dot.hpp's HeldGroups), one copy of the sequence; the
/// clamp follows (ARENAPLAN_KERNELS_HELIUM_CLAMP or the caller's).
#define ARENAPLAN_KERNELS_HELIUM_STAGE_RIGHT(OFFSET) \
  "vqrdmulh.s32 %q[a], %q[a], %q[m]\n\t"             \
  "vand %q[m], %q[a], %q[s]\n\t"                     \
  "vshr.s32 %q[m], %q[m], #31\n\t"                   \
  "vqadd.s32 %q[a], %q[a], %q[m]\n\t"                \
  "vrshl.s32 %q[a], %q[a], %q[s]\n\t"                \
  "vqadd.s32 %q[a], %q[a], " OFFSET "\n\t"

/// The clamp of %q[a] to [%[lo], %[hi]] (general registers), %q[m]
/// clobbered.
#define ARENAPLAN_KERNELS_HELIUM_CLAMP \
  "vdup.32 %q[m], %[lo]\n\t"           \
  "vmax.s32 %q[a], %q[a], %q[m]\n\t"   \
  "vdup.32 %q[m], %[hi]\n\t"           \
  "vmin.s32 %q[a], %q[a], %q[m]\n\t"

/// Whether any of the n >= 0 shifts is positive (a left shift): then
/// ScatterBytes needs its kLeft form.
/// Sixteen shifts a step (VMAXV), the lanes past n predicated off and read
/// as 0: a fused segment's convolutions ask once a row call, and the byte
/// loop took about 940 instructions for 64 channels.
ARENAPLAN_KERNELS_OUTLINE bool AnyLeftShift(const std::int8_t* shift,
                                            std::int32_t n) {
  std::int8_t most = 0;
  for (std::int32_t i = 0; i < n; i += 16) {
    const mve_pred16_t lanes = vctp8q(static_cast<std::uint32_t>(n - i));
    most = vmaxvq_s8(most, vldrbq_z_s8(shift + i, lanes));
  }
  return most > 0;
}

/// out[off[k]] = clamp(Requantize(acc[k], multiplier[off[k]],
/// shift[off[k]]) + offset, lo, hi) for the four lanes k (the multipliers
/// and shifts gathered, the bytes scattered: lanes of channels that are not
/// consecutive, as VMULLB / VMULLT's even and odd lanes); offsets in
/// elements, distinct. Stage4::Bytes's instructions (header comment), in
/// assembly so that the accumulators of a caller's other lanes stay in
/// registers (GCC 12 at -Os spilled them and the constants); without kLeft
/// every shift must be <= 0 (AnyLeftShift false): then left = 0 and right =
/// shift, and the VMAX / VSHL / VMIN of the left shift are left out. Writes
/// only the four bytes out[off[k]].
template <bool kLeft>
ARENAPLAN_KERNELS_INLINE void ScatterBytes(int32x4_t acc, uint32x4_t off,
                                           const std::int32_t* multiplier,
                                           const std::int8_t* shift,
                                           std::int32_t offset, std::int32_t lo,
                                           std::int32_t hi, std::int8_t* out) {
  int32x4_t m, s, t;
  // One instruction per line:
  // clang-format off
  if constexpr (kLeft) {
    __asm__ volatile(
        "vldrb.s32 %q[s], [%[sp], %q[off]]\n\t"
        "vmov.i32 %q[t], #0\n\t"
        "vmax.s32 %q[m], %q[s], %q[t]\n\t"
        "vshl.s32 %q[a], %q[a], %q[m]\n\t"
        "vmin.s32 %q[s], %q[s], %q[t]\n\t"
        "vldrw.u32 %q[m], [%[mp], %q[off], uxtw #2]\n\t"
        ARENAPLAN_KERNELS_HELIUM_STAGE_RIGHT("%[offset]")
        ARENAPLAN_KERNELS_HELIUM_CLAMP
        "vstrb.32 %q[a], [%[op], %q[off]]\n"
        : [a] "+&w"(acc), [m] "=&w"(m), [s] "=&w"(s), [t] "=&w"(t)
        : [off] "w"(off), [mp] "r"(multiplier), [sp] "r"(shift),
          [offset] "r"(offset), [lo] "r"(lo), [hi] "r"(hi), [op] "r"(out)
        : "memory");
  } else {
    (void)t;
    __asm__ volatile(
        "vldrw.u32 %q[m], [%[mp], %q[off], uxtw #2]\n\t"
        "vldrb.s32 %q[s], [%[sp], %q[off]]\n\t"
        ARENAPLAN_KERNELS_HELIUM_STAGE_RIGHT("%[offset]")
        ARENAPLAN_KERNELS_HELIUM_CLAMP
        "vstrb.32 %q[a], [%[op], %q[off]]\n"
        : [a] "+&w"(acc), [m] "=&w"(m), [s] "=&w"(s)
        : [off] "w"(off), [mp] "r"(multiplier), [sp] "r"(shift),
          [offset] "r"(offset), [lo] "r"(lo), [hi] "r"(hi), [op] "r"(out)
        : "memory");
  }
  // clang-format on
}

/// The four-lane stage of an OutputStage (dsp.hpp).
constexpr Stage4 Stage4Of(const OutputStage& s) {
  return Stage4{s.multiplier, s.shift, s.offset, s.lo, s.hi};
}

}  // namespace arenaplan::kernels::helium

#endif  // __ARM_FEATURE_MVE & 1

#endif  // ARENAPLAN_KERNELS_HELIUM_REQUANTIZE_HPP_
