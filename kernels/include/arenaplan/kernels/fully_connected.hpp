// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// int8 FULLY_CONNECTED: out[b][o] = requant(bias[o] + sum_i (in[b][i] -
// in_zp) * w[o][i]) + out_zp, weights symmetric (zero point 0), per tensor
// or per output unit (the generator expands per-tensor parameters to one
// per unit).
//
// No overlap contract: every output unit of a row reads the whole input
// row, so the first output byte written must already lie below the whole
// row (d = S_out for one row); the output gets its own bytes.
#ifndef ARENAPLAN_KERNELS_FULLY_CONNECTED_HPP_
#define ARENAPLAN_KERNELS_FULLY_CONNECTED_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct FullyConnectedParams {
  std::int32_t input_offset;      ///< Minus the input zero point.
  std::int32_t output_offset;     ///< The output zero point.
  std::int32_t act_min, act_max;  ///< Fused activation, both ends included.
  std::int32_t batches;           ///< Rows of the input.
  std::int32_t depth;  ///< Elements per input row (weights' columns).
  std::int32_t units;  ///< Output units (weights' rows).
};

/// weights: [units, depth] row-major; bias: [units] or nullptr;
/// input [batches, depth]; output [batches, units], not overlapping input.
inline void FullyConnected(const FullyConnectedParams& p,
                           const std::int8_t* input, const std::int8_t* weights,
                           const std::int32_t* bias, ChannelQuant quant,
                           std::int8_t* output) {
  for (std::int32_t b = 0; b < p.batches; ++b) {
    const std::int8_t* in = input + b * p.depth;
    for (std::int32_t o = 0; o < p.units; ++o) {
      const std::int8_t* w = weights + o * p.depth;
      std::int32_t acc = 0;
      for (std::int32_t i = 0; i < p.depth; ++i) {
        acc += (in[i] + p.input_offset) * w[i];
      }
      if (bias != nullptr) acc += bias[o];
      acc = MultiplyByQuantizedMultiplier(acc, quant.multiplier[o],
                                          quant.shift[o]);
      output[b * p.units + o] =
          ClampToInt8(acc + p.output_offset, p.act_min, p.act_max);
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_FULLY_CONNECTED_HPP_
