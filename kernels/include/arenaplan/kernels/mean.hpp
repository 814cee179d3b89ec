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

#include "arenaplan/kernels/dsp.hpp"
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

/// Calls finish(sum) once per output element in row-major order of the
/// kept dimensions (the caller writes output element k at the k-th call),
/// `sum` starting at Acc{} and adding each reduced input element (as Acc)
/// in row-major order of the reduced dimensions. The int8 MEAN here and
/// the float32 one (float/mean.hpp) share it.
template <typename Acc, typename In, typename Finish>
ARENAPLAN_KERNELS_INLINE void ForEachReduction(const Shape4& s,
                                               std::int32_t reduced,
                                               const In* input,
                                               Finish&& finish) {
  const std::int32_t on = (reduced & 8) ? 1 : s.n;
  const std::int32_t oh = (reduced & 4) ? 1 : s.h;
  const std::int32_t ow = (reduced & 2) ? 1 : s.w;
  const std::int32_t oc = (reduced & 1) ? 1 : s.c;
  const std::int32_t rn = (reduced & 8) ? s.n : 1;
  const std::int32_t rh = (reduced & 4) ? s.h : 1;
  const std::int32_t rw = (reduced & 2) ? s.w : 1;
  const std::int32_t rc = (reduced & 1) ? s.c : 1;
  for (std::int32_t n = 0; n < on; ++n) {
    for (std::int32_t y = 0; y < oh; ++y) {
      for (std::int32_t x = 0; x < ow; ++x) {
        for (std::int32_t c = 0; c < oc; ++c) {
          Acc sum{};
          for (std::int32_t a = 0; a < rn; ++a) {
            for (std::int32_t b = 0; b < rh; ++b) {
              for (std::int32_t e = 0; e < rw; ++e) {
                for (std::int32_t f = 0; f < rc; ++f) {
                  sum += static_cast<Acc>(
                      input[(((n + a) * s.h + (y + b)) * s.w + (x + e)) * s.c +
                            (c + f)]);
                }
              }
            }
          }
          finish(sum);
        }
      }
    }
  }
}

/// output[kept coordinates] = the mean over the reduced ones (header
/// comment), clamped to T's range: int8 here, int16 for int16/mean.hpp. The
/// output must not overlap the input.
template <class T = std::int8_t>
inline void Mean(const MeanParams& p, const T* input, T* output) {
  constexpr std::int32_t kLowest = -(std::int32_t{1} << (8 * sizeof(T) - 1));
  constexpr std::int32_t kHighest = -(kLowest + 1);
  T* out = output;
  ForEachReduction<std::int32_t>(
      p.input, p.reduced, input,
      [&](std::int32_t sum) ARENAPLAN_KERNELS_INLINE_LAMBDA {
        const std::int32_t v =
            MultiplyByQuantizedMultiplier(sum - p.input_zero_point_times_count,
                                          p.multiplier, p.shift) +
            p.output_zero_point;
        *out++ = static_cast<T>(v < kLowest ? kLowest
                                            : (v > kHighest ? kHighest : v));
      });
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_MEAN_HPP_
