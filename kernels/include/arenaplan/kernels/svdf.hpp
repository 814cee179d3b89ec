// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Integer SVDF (singular value decomposition filter, a rank-limited 1-D
// convolution over time), int8 input and output, int8 feature weights, and
// time weights and a state that persists between invocations both of one
// type T, int16 or int8 (TFLM's micro/kernels/svdf_common.cc,
// EvalIntegerSvdfReference<T>: EvalInt16SvdfReference and
// EvalInt8SvdfReference). Shapes (TFLite's SVDF operator):
//   input            [batches, input_size]                 int8
//   weights_feature  [filters, input_size]                 int8, symmetric
//   weights_time     [filters, memory]                     T, symmetric
//   bias             [units] (optional), units = filters / rank, int32 at
//                    scale s_state * s_time
//   state            [batches, filters * memory]            T (variable)
//   output           [batches, units]                      int8
// One invocation:
//  1. the state moves one step back in time: the whole buffer shifts left by
//     one element (the last column of each filter row is overwritten in 2);
//  2. for every filter f, the new last column holds the feature dot product
//     sum_i wf[f][i] * (in[i] - zp_in), requantized by s_in * s_wf / s_state,
//     saturated to T's range, then plus the state zero point, stored as T
//     (modulo 2^bits, as TFLM's assignment to T does: the saturation comes
//     before the zero point, so a non-zero zero point can wrap);
//  3. for every unit u, acc = bias[u] + sum over its `rank` filters f and the
//     memory m of wt[f][m] * (state[f][m] - zp_state), requantized by
//     s_state * s_time / s_out, plus zp_out, clamped to the activation range.
// The accumulations of step 3 wrap modulo 2^32 (as int32 arithmetic on the
// targets does) instead of being undefined; the sum does not depend on the
// order of its terms. No scratch memory: each unit is reduced on the fly.
#ifndef ARENAPLAN_KERNELS_SVDF_HPP_
#define ARENAPLAN_KERNELS_SVDF_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct SvdfParams {
  std::int32_t input_offset;  ///< Minus the input zero point.
  std::int32_t state_zero_point;
  std::int32_t output_offset;     ///< The output zero point.
  std::int32_t act_min, act_max;  ///< int8 range, both ends included.
  std::int32_t batches, input_size, filters, memory, rank;
  /// s_in * s_wf / s_state and s_state * s_time / s_out as Q0.31
  /// multiplier * 2^(shift - 31).
  std::int32_t feature_multiplier, feature_shift;
  std::int32_t output_multiplier, output_shift;
};

/// `state` (batches * filters * memory elements of T, owned by the caller,
/// kept between invocations, initially all state_zero_point) is read and
/// updated; `bias` may be nullptr. The output must not overlap the input or
/// the state. T is std::int16_t or std::int8_t.
template <typename T>
inline void Svdf(const SvdfParams& p, const std::int8_t* input,
                 const std::int8_t* weights_feature, const T* weights_time,
                 const std::int32_t* bias, T* state, std::int8_t* output) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2, "int8 or int16 state");
  constexpr std::int32_t kStateMin = sizeof(T) == 1 ? -128 : -32768;
  constexpr std::int32_t kStateMax = sizeof(T) == 1 ? 127 : 32767;
  const std::int32_t row = p.filters * p.memory;  // state elements per batch
  // 1. Shift the whole state left by one element.
  const std::int32_t total = p.batches * row;
  for (std::int32_t i = 0; i + 1 < total; ++i) state[i] = state[i + 1];
  const std::int32_t units = p.filters / p.rank;
  for (std::int32_t b = 0; b < p.batches; ++b) {
    const std::int8_t* in = input + b * p.input_size;
    T* st = state + b * row;
    // 2. Feature dot products into the newest column.
    for (std::int32_t f = 0; f < p.filters; ++f) {
      const std::int8_t* w = weights_feature + f * p.input_size;
      std::int32_t dot = 0;
      for (std::int32_t i = 0; i < p.input_size; ++i) {
        dot += w[i] * (in[i] + p.input_offset);
      }
      std::int32_t v = MultiplyByQuantizedMultiplier(dot, p.feature_multiplier,
                                                     p.feature_shift);
      v = v < kStateMin ? kStateMin : (v > kStateMax ? kStateMax : v);
      // Modulo 2^bits (C++20 conversion), as TFLM's store.
      st[f * p.memory + p.memory - 1] = static_cast<T>(v + p.state_zero_point);
    }
    // 3. Time dot products, reduced over each unit's rank filters.
    for (std::int32_t u = 0; u < units; ++u) {
      std::uint32_t acc =
          bias != nullptr ? static_cast<std::uint32_t>(bias[u]) : 0u;
      for (std::int32_t r = 0; r < p.rank; ++r) {
        const std::int32_t f = u * p.rank + r;
        const T* wt = weights_time + f * p.memory;
        const T* s = st + f * p.memory;
        for (std::int32_t m = 0; m < p.memory; ++m) {
          // The product modulo 2^32, computed without signed overflow.
          acc += static_cast<std::uint32_t>(wt[m]) *
                 static_cast<std::uint32_t>(s[m] - p.state_zero_point);
        }
      }
      const std::int32_t out =
          MultiplyByQuantizedMultiplier(static_cast<std::int32_t>(acc),
                                        p.output_multiplier, p.output_shift) +
          p.output_offset;
      output[b * units + u] = ClampToInt8(out, p.act_min, p.act_max);
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_SVDF_HPP_
