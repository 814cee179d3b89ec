// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Helium int8 dot products of one input vector with four weight rows:
// VMLADAVA (sixteen int8 products added to a 32-bit accumulator, modulo
// 2^32, as the reference's int32 sums), sixteen bytes per instruction; a
// last partial block of n % 16 bytes under a VCTP tail predicate (its
// inactive lanes load zero and read no memory). Reads x[0, n) (or the same
// 16 bytes again and again when x_step is 0) and each row's n bytes in
// ascending blocks of 16; writes only the accumulators.
#ifndef ARENAPLAN_KERNELS_HELIUM_DOT_HPP_
#define ARENAPLAN_KERNELS_HELIUM_DOT_HPP_

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)

#include <arm_mve.h>

#include <cstdint>

#include "arenaplan/kernels/dsp.hpp"
#include "arenaplan/kernels/helium/requantize.hpp"

namespace arenaplan::kernels::helium {

/// Four weight rows, one per output channel of a group (a row may repeat
/// for the missing channels of a last group of fewer than four).
struct Rows4 {
  const std::int8_t *w0, *w1, *w2, *w3;
};

/// acc[k] += sum_{i < n} x_i * row_k[off + i], k = 0 .. 3, x_i = x[i] when
/// x_step is 16 and x[i % 16] when x_step is 0 (a vector of the zero point),
/// n >= 0; sums modulo 2^32.
ARENAPLAN_KERNELS_INLINE void Dot4(const std::int8_t* x, std::int32_t x_step,
                                   Rows4 r, std::int32_t off, std::int32_t n,
                                   std::int32_t* acc) {
  const std::int8_t *w0 = r.w0 + off, *w1 = r.w1 + off, *w2 = r.w2 + off,
                    *w3 = r.w3 + off;
  std::int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  for (; n >= 16; n -= 16) {
    const int8x16_t xv = vldrbq_s8(x);
    x += x_step;
    a0 = vmladavaq_s8(a0, xv, vldrbq_s8(w0));
    a1 = vmladavaq_s8(a1, xv, vldrbq_s8(w1));
    a2 = vmladavaq_s8(a2, xv, vldrbq_s8(w2));
    a3 = vmladavaq_s8(a3, xv, vldrbq_s8(w3));
    w0 += 16, w1 += 16, w2 += 16, w3 += 16;
  }
  if (n > 0) {
    const mve_pred16_t p = vctp8q(static_cast<std::uint32_t>(n));
    const int8x16_t xv = vldrbq_z_s8(x, p);  // inactive lanes 0
    a0 = vmladavaq_s8(a0, xv, vldrbq_z_s8(w0, p));
    a1 = vmladavaq_s8(a1, xv, vldrbq_z_s8(w1, p));
    a2 = vmladavaq_s8(a2, xv, vldrbq_z_s8(w2, p));
    a3 = vmladavaq_s8(a3, xv, vldrbq_z_s8(w3, p));
  }
  acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
}

/// Rows of output channels [oc, oc + min(n, 4)) of a weight matrix with
/// `per` bytes per channel; the missing channels of a last group repeat
/// channel oc's row (read, their sums never stored).
ARENAPLAN_KERNELS_INLINE Rows4 RowsOf(const std::int8_t* weights,
                                      std::int32_t per, std::int32_t oc,
                                      std::int32_t n) {
  const std::int8_t* w0 = weights + oc * per;
  return Rows4{w0, n > 1 ? w0 + per : w0, n > 2 ? w0 + 2 * per : w0,
               n > 3 ? w0 + 3 * per : w0};
}

/// out[k] = stage(acc[k] + bias[oc + k]) for k < min(n, 4), n >= 1, the
/// channels oc + k: the four sums as one vector plus the folded bias, then
/// Stage4::Store. Writes only out[0, min(n, 4)).
ARENAPLAN_KERNELS_INLINE void Finish4(const std::int32_t* acc,
                                      const std::int32_t* bias, std::int32_t oc,
                                      std::int32_t n, const Stage4& stage,
                                      std::int8_t* out) {
  const std::int32_t lanes = n < 4 ? n : 4;
  int32x4_t v = vdupq_n_s32(acc[0]);
  v = vsetq_lane_s32(acc[1], v, 1);
  v = vsetq_lane_s32(acc[2], v, 2);
  v = vsetq_lane_s32(acc[3], v, 3);
  const mve_pred16_t p = vctp32q(static_cast<std::uint32_t>(lanes));
  stage.Store(vaddq_s32(v, vldrwq_z_s32(bias + oc, p)), oc, lanes, out);
}

}  // namespace arenaplan::kernels::helium

#endif  // __ARM_FEATURE_MVE & 1

#endif  // ARENAPLAN_KERNELS_HELIUM_DOT_HPP_
