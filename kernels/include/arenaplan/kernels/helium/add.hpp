// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Helium ADD of two tensors of the same shape: the bytes of Add (add.hpp,
// the oracle; TFLM's reference/integer_ops/add.h), four elements per vector
// (VLDRB.S32 of each input, the offsets added, the headroom shift, the
// three requantizations of helium/requantize.hpp, the output offset and
// clamp, VSTRB.32), the last one to three elements tail-predicated. Taken
// when the three shifts are right shifts (<= 0: multipliers below one, what
// TFLite's converter gives an ADD); then Requantize's left shift is by 0
// and left out. Included by add.hpp only (AddParams).
//
// Loop order: elements in blocks of four, ascending; a block's four bytes
// of each input are read, then its four output bytes written. The reads
// after output byte j (of block b = j / 4) are of bytes >= 4 (b + 1) > j, so
// minAfter(j) > j as for Add: the same overlap contract,
// kElementwiseOverlapDistance (0). Scratch: none.
#ifndef ARENAPLAN_KERNELS_HELIUM_ADD_HPP_
#define ARENAPLAN_KERNELS_HELIUM_ADD_HPP_

#ifndef ARENAPLAN_KERNELS_ADD_HPP_
#error "include arenaplan/kernels/add.hpp, which includes this header"
#endif

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)

#include <arm_mve.h>

#include <cstdint>

#include "arenaplan/kernels/dsp.hpp"
#include "arenaplan/kernels/helium/requantize.hpp"

namespace arenaplan::kernels::helium {

namespace add_detail {

/// Requantize (helium/requantize.hpp) for shifts <= 0, `right` the shifts
/// (minus the right shift): the left shift by 0 left out.
ARENAPLAN_KERNELS_INLINE int32x4_t RequantizeRight(int32x4_t acc,
                                                   int32x4_t multiplier,
                                                   int32x4_t right) {
  const int32x4_t high = vqrdmulhq_s32(acc, multiplier);
  return vrshlq_s32(vqaddq_s32(high, vshrq_n_s32(vandq_s32(high, right), 31)),
                    right);
}

}  // namespace add_detail

/// Add(p, input1, input2, output) when p's three shifts are <= 0 (returns
/// true); otherwise writes nothing and returns false.
inline bool Add(const AddParams& p, const std::int8_t* input1,
                const std::int8_t* input2, std::int8_t* output) {
  if (p.input1_shift > 0 || p.input2_shift > 0 || p.output_shift > 0) {
    return false;
  }
  using add_detail::RequantizeRight;
  const std::int32_t off1 = p.input1_offset, off2 = p.input2_offset;
  const std::int32_t left = p.left_shift, out_off = p.output_offset;
  const int32x4_t m1 = vdupq_n_s32(p.input1_multiplier),
                  m2 = vdupq_n_s32(p.input2_multiplier),
                  mo = vdupq_n_s32(p.output_multiplier);
  const int32x4_t r1 = vdupq_n_s32(p.input1_shift),
                  r2 = vdupq_n_s32(p.input2_shift),
                  ro = vdupq_n_s32(p.output_shift);
  const std::int32_t lo = p.act_min, hi = p.act_max, count = p.count;
  const auto element4 = [&](int32x4_t x1,
                            int32x4_t x2) ARENAPLAN_KERNELS_INLINE_LAMBDA {
    // (x + offset) * 2^left, modulo 2^32 as the reference's product.
    const int32x4_t a = vshlq_r_s32(vaddq_n_s32(x1, off1), left);
    const int32x4_t b = vshlq_r_s32(vaddq_n_s32(x2, off2), left);
    const int32x4_t sum =
        vaddq_s32(RequantizeRight(a, m1, r1), RequantizeRight(b, m2, r2));
    const int32x4_t v = vqaddq_n_s32(RequantizeRight(sum, mo, ro), out_off);
    return vminq_s32(vmaxq_s32(v, vdupq_n_s32(lo)), vdupq_n_s32(hi));
  };
  std::int32_t i = 0;
  for (; i + 4 <= count; i += 4) {
    vstrbq_s32(output + i,
               element4(vldrbq_s32(input1 + i), vldrbq_s32(input2 + i)));
  }
  if (i < count) {
    const mve_pred16_t q = vctp32q(static_cast<std::uint32_t>(count - i));
    const int32x4_t v =
        element4(vldrbq_z_s32(input1 + i, q), vldrbq_z_s32(input2 + i, q));
    __asm__ volatile("" ::: "memory");  // Stage4::Store's note
    vstrbq_p_s32(output + i, v, q);
  }
  return true;
}

}  // namespace arenaplan::kernels::helium

#endif  // __ARM_FEATURE_MVE & 1

#endif  // ARENAPLAN_KERNELS_HELIUM_ADD_HPP_
