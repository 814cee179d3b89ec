// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Helium AVERAGE_POOL_2D and MAX_POOL_2D: the bytes of AveragePool and
// MaxPool (pooling.hpp's detail::Pool, the oracle; TFLM's
// reference/integer_ops/pooling.h). AveragePool: sixteen channels per group
// as four int32 vectors (VLDRB.S32 of four bytes, VADD) summed over the
// window's in-bounds taps, a last group of fewer channels tail-predicated;
// then per channel the reference's rounding division (ties away from zero)
// and clamp, in C. MaxPool: sixteen channels per group as one int8 vector
// (VLDRB.8, VMAX from -128, the reference's start) over the in-bounds taps,
// then VMAX / VMIN with the activation's ends and one predicated VSTRB.8;
// it requires act_min <= act_max, both in [-128, 127] (the generator's
// int8 ranges), where max(min) gives ClampToInt8's bytes. Included by
// pooling.hpp only (PoolParams).
//
// Loop order and overlap (both kernels): output pixels P ascending; within
// P, channels in groups of sixteen, each group reading only its channels of
// the in-bounds window of P, then writing its bytes. After output byte c
// (of the group starting at c0 <= c) the reads are of channels >= c0 + 16
// of window P and of later windows, a subset of the reference's reads after
// byte c (channels c + 1 and up of window P, then later windows), so the
// reference's PoolOverlapDistance holds. Scratch: AveragePool 64 bytes of
// stack (one group's sums); MaxPool none.
#ifndef ARENAPLAN_KERNELS_HELIUM_POOLING_HPP_
#define ARENAPLAN_KERNELS_HELIUM_POOLING_HPP_

#ifndef ARENAPLAN_KERNELS_POOLING_HPP_
#error "include arenaplan/kernels/pooling.hpp, which includes this header"
#endif

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)

#include <arm_mve.h>

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels::helium {

/// Calls body(window, rows, cols, out) for each output pixel in the
/// reference order (b, oy, ox ascending): `window` points to channel 0 of
/// the pixel's first in-bounds tap, rows x cols are its in-bounds taps (0
/// when none), `out` is the pixel's first output byte. The walk both pools
/// share; the body reads only the window and writes only out[0, c).
template <typename Body>
inline __attribute__((always_inline)) void ForEachWindow(
    const PoolParams& p, const Shape4& in_shape, const std::int8_t* input,
    const Shape4& out_shape, std::int8_t* output, Body&& body) {
  const std::int32_t in_h = in_shape.h, in_w = in_shape.w, c_n = in_shape.c;
  const std::int32_t fh = p.filter_h, fw = p.filter_w;
  std::int8_t* out = output;
  for (std::int32_t b = 0; b < out_shape.n; ++b) {
    for (std::int32_t oy = 0; oy < out_shape.h; ++oy) {
      const std::int32_t y0 = oy * p.stride_h - p.pad_h;
      const std::int32_t ky_begin = y0 < 0 ? -y0 : 0;
      const std::int32_t ky_end = fh < in_h - y0 ? fh : in_h - y0;
      for (std::int32_t ox = 0; ox < out_shape.w; ++ox, out += c_n) {
        const std::int32_t x0 = ox * p.stride_w - p.pad_w;
        const std::int32_t kx_begin = x0 < 0 ? -x0 : 0;
        const std::int32_t kx_end = fw < in_w - x0 ? fw : in_w - x0;
        const std::int32_t rows = ky_end > ky_begin ? ky_end - ky_begin : 0;
        const std::int32_t cols = kx_end > kx_begin ? kx_end - kx_begin : 0;
        body(input + ((b * in_h + y0 + ky_begin) * in_w + x0 + kx_begin) * c_n,
             rows, cols, out);
      }
    }
  }
}

/// AveragePool (pooling.hpp).
inline void AveragePool(const PoolParams& p, const Shape4& in_shape,
                        const std::int8_t* input, const Shape4& out_shape,
                        std::int8_t* output) {
  const std::int32_t in_w = in_shape.w, c_n = in_shape.c;
  const std::int32_t lo = p.act_min, hi = p.act_max;
  ForEachWindow(
      p, in_shape, input, out_shape, output,
      [&](const std::int8_t* window, std::int32_t rows, std::int32_t cols,
          std::int8_t* out) __attribute__((always_inline)) {
        const std::int32_t count = rows * cols;  // in-bounds taps
        for (std::int32_t c0 = 0; c0 < c_n; c0 += 16) {
          const std::int32_t n = c_n - c0 < 16 ? c_n - c0 : 16;
          mve_pred16_t q[4];
          for (std::int32_t j = 0; j < 4; ++j) {
            const std::int32_t lanes = n - 4 * j;
            q[j] = vctp32q(static_cast<std::uint32_t>(lanes < 0 ? 0 : lanes));
          }
          int32x4_t a0 = vdupq_n_s32(0), a1 = a0, a2 = a0, a3 = a0;
          for (std::int32_t ky = 0; ky < rows; ++ky) {
            const std::int8_t* x = window + ky * in_w * c_n + c0;
            for (std::int32_t kx = 0; kx < cols; ++kx, x += c_n) {
              a0 = vaddq_s32(a0, vldrbq_z_s32(x, q[0]));
              a1 = vaddq_s32(a1, vldrbq_z_s32(x + 4, q[1]));
              a2 = vaddq_s32(a2, vldrbq_z_s32(x + 8, q[2]));
              a3 = vaddq_s32(a3, vldrbq_z_s32(x + 12, q[3]));
            }
          }
          std::int32_t sums[16];
          vst1q_s32(sums, a0);
          vst1q_s32(sums + 4, a1);
          vst1q_s32(sums + 8, a2);
          vst1q_s32(sums + 12, a3);
          for (std::int32_t i = 0; i < n; ++i) {
            std::int32_t acc = sums[i];
            if (count > 0) {  // round half away from zero
              acc = acc > 0 ? (acc + count / 2) / count
                            : (acc - count / 2) / count;
            }
            out[c0 + i] = ClampToInt8(acc, lo, hi);
          }
        }
      });
}

/// MaxPool (pooling.hpp); act_min <= act_max, both in [-128, 127].
inline void MaxPool(const PoolParams& p, const Shape4& in_shape,
                    const std::int8_t* input, const Shape4& out_shape,
                    std::int8_t* output) {
  const std::int32_t in_w = in_shape.w, c_n = in_shape.c;
  const int8x16_t lo = vdupq_n_s8(static_cast<std::int8_t>(p.act_min));
  const int8x16_t hi = vdupq_n_s8(static_cast<std::int8_t>(p.act_max));
  ForEachWindow(
      p, in_shape, input, out_shape, output,
      [&](const std::int8_t* window, std::int32_t rows, std::int32_t cols,
          std::int8_t* out) __attribute__((always_inline)) {
        for (std::int32_t c0 = 0; c0 < c_n; c0 += 16) {
          const mve_pred16_t q = vctp8q(static_cast<std::uint32_t>(c_n - c0));
          int8x16_t m = vdupq_n_s8(-128);
          for (std::int32_t ky = 0; ky < rows; ++ky) {
            const std::int8_t* x = window + ky * in_w * c_n + c0;
            for (std::int32_t kx = 0; kx < cols; ++kx, x += c_n) {
              m = vmaxq_s8(m, vldrbq_z_s8(x, q));
            }
          }
          vstrbq_p_s8(out + c0, vminq_s8(vmaxq_s8(m, lo), hi), q);
        }
      });
}

}  // namespace arenaplan::kernels::helium

#endif  // __ARM_FEATURE_MVE & 1

#endif  // ARENAPLAN_KERNELS_HELIUM_POOLING_HPP_
