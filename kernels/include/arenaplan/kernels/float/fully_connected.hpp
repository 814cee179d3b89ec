// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// float32 FULLY_CONNECTED, as TensorFlow Lite's reference
// FullyConnected(float) computes it:
//
//   total = 0.0f; total += in[b][i] * w[o][i] for i = 0, 1, ... (in order)
//   out[b][o] = Activate(total + (bias ? bias[o] : 0.0f))
//
// each product and each sum rounded to float (no fused multiply-add: see
// float.hpp); the bias is added after the sum, 0.0f when there is none.
//
// No overlap contract: every output unit of a row reads the whole input
// row (as fully_connected.hpp's int8 kernel); the output gets its own
// bytes.
#ifndef ARENAPLAN_KERNELS_FLOAT_FULLY_CONNECTED_HPP_
#define ARENAPLAN_KERNELS_FLOAT_FULLY_CONNECTED_HPP_

#include <cstdint>

#include "arenaplan/kernels/float/activation.hpp"

namespace arenaplan::kernels::f32 {

struct FullyConnectedParams {
  ActivationRange act;   ///< The fused activation's clamp.
  std::int32_t batches;  ///< Rows of the input.
  std::int32_t depth;    ///< Elements per input row (weights' columns).
  std::int32_t units;    ///< Output units (weights' rows).
};

/// weights: [units, depth] row-major; bias: [units] or nullptr; input
/// [batches, depth]; output [batches, units], not overlapping the input.
inline void FullyConnected(const FullyConnectedParams& p, const float* input,
                           const float* weights, const float* bias,
                           float* output) {
  for (std::int32_t b = 0; b < p.batches; ++b) {
    const float* in = input + b * p.depth;
    for (std::int32_t o = 0; o < p.units; ++o) {
      const float* w = weights + o * p.depth;
      float total = 0.0f;
      for (std::int32_t i = 0; i < p.depth; ++i) total += in[i] * w[i];
      const float bias_value = bias != nullptr ? bias[o] : 0.0f;
      output[b * p.units + o] = Activate(total + bias_value, p.act);
    }
  }
}

}  // namespace arenaplan::kernels::f32

#endif  // ARENAPLAN_KERNELS_FLOAT_FULLY_CONNECTED_HPP_
