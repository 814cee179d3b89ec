// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// MEAN of int8 over any set of the dimensions of an NHWC tensor (at most 4
// dimensions, leading 1s). Matches TensorFlow Lite Micro's
// tensorflow/lite/micro/kernels/reduce_common.cc (EvalMeanHelper ->
// QuantizedMeanOrSum) with tensorflow/lite/kernels/internal/reference/
// reduce.h (QuantizedMeanOrSum, compute_sum = false):
//
//   sum    = the int32 sum of the raw int8 inputs over the reduced elements
//            (num of them; exact in int32 for num < 2^23, whatever order);
//   out    = clamp(MBQM(sum - zp_in * num, M', s') + zp_out, -128, 127),
//
// where (M, s) = QuantizeMultiplier(s_in / s_out) and the division by num
// is folded into the multiplier on the host, as TFLM does at run time:
// k = floor(log2 num), k = min(k, 32, 31 + s), M' = (M << k) / num
// (int64, truncated), s' = s - k. The kernel gets M', s' and zp_in * num.
//
// Loop order: output elements in row-major order of the kept dimensions;
// each reads all its reduced input elements, then writes once. No overlap
// contract: the one output (a global pool) is small next to the input, and
// an output element's reads span the input's rows.
#ifndef ARENAPLAN_KERNELS_MEAN_HPP_
#define ARENAPLAN_KERNELS_MEAN_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct MeanParams {
  Shape4 input;  ///< NHWC, leading 1s.
  /// Which dimensions are reduced: bit 3 n, bit 2 h, bit 1 w, bit 0 c.
  std::int32_t reduced;
  std::int32_t input_zero_point_times_count;  ///< zp_in * num.
  std::int32_t multiplier, shift;             ///< M', s' (header comment).
  std::int32_t output_zero_point;
};

/// output[kept coordinates] = the mean over the reduced ones (header
/// comment). The output must not overlap the input.
/// MEAN over elements of type T (int8 here; int16 for int16/mean.hpp),
/// the result clamped to T's range (header comment).
template <class T = std::int8_t>
inline void Mean(const MeanParams& p, const T* input, T* output) {
  constexpr std::int32_t kLowest = -(std::int32_t{1} << (8 * sizeof(T) - 1));
  constexpr std::int32_t kHighest = -(kLowest + 1);
  const Shape4& s = p.input;
  const std::int32_t on = (p.reduced & 8) ? 1 : s.n;
  const std::int32_t oh = (p.reduced & 4) ? 1 : s.h;
  const std::int32_t ow = (p.reduced & 2) ? 1 : s.w;
  const std::int32_t oc = (p.reduced & 1) ? 1 : s.c;
  const std::int32_t rn = (p.reduced & 8) ? s.n : 1;
  const std::int32_t rh = (p.reduced & 4) ? s.h : 1;
  const std::int32_t rw = (p.reduced & 2) ? s.w : 1;
  const std::int32_t rc = (p.reduced & 1) ? s.c : 1;
  T* out = output;
  for (std::int32_t n = 0; n < on; ++n) {
    for (std::int32_t y = 0; y < oh; ++y) {
      for (std::int32_t x = 0; x < ow; ++x) {
        for (std::int32_t c = 0; c < oc; ++c) {
          std::int32_t sum = 0;
          for (std::int32_t a = 0; a < rn; ++a) {
            for (std::int32_t b = 0; b < rh; ++b) {
              for (std::int32_t e = 0; e < rw; ++e) {
                for (std::int32_t f = 0; f < rc; ++f) {
                  sum +=
                      input[(((n + a) * s.h + (y + b)) * s.w + (x + e)) * s.c +
                            (c + f)];
                }
              }
            }
          }
          const std::int32_t v =
              MultiplyByQuantizedMultiplier(
                  sum - p.input_zero_point_times_count, p.multiplier, p.shift) +
              p.output_zero_point;
          *out++ = static_cast<T>(v < kLowest ? kLowest
                                              : (v > kHighest ? kHighest : v));
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_MEAN_HPP_
