// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// FULLY_CONNECTED with int16 activations and int8 weights ("16x8"), the
// readable form (the oracle of fast.hpp's DSP path). Matches TensorFlow Lite's
// reference_integer_ops FullyConnected and FullyConnectedPerChannel for int16
// input as TFLM's fully_connected.cc calls them:
//
//   acc = sum over d of w[u][d] * (q_in[b][d] + input_offset)
//   acc += bias[u]                                  (when there is one)
//   out = clamp(Requantize(acc, M[u], s[u]) + output_offset, act_min, act_max)
//
// The accumulator has the bias's type `Acc`: int64 (an INT64 bias, or none
// unless the options ask for int32) through requantize.hpp's 64-bit stage,
// int32 (an INT32 bias) through the two-rounding int32 stage. A per-tensor
// layer passes its one multiplier repeated per unit (the same arithmetic).
// The weights are symmetric (weights offset 0).
//
// Loop order: batches, then units ascending, each output element written
// after its whole input row is read. No overlap contract is stated (the
// generator plans input and output apart).
#ifndef ARENAPLAN_KERNELS_INT16_FULLY_CONNECTED_HPP_
#define ARENAPLAN_KERNELS_INT16_FULLY_CONNECTED_HPP_

#include <cstdint>

#include "arenaplan/kernels/fully_connected.hpp"
#include "arenaplan/kernels/int16/requantize.hpp"

namespace arenaplan::kernels::int16 {

/// FULLY_CONNECTED 16x8 (header comment), the reference loops (fast.hpp's
/// FullyConnected dispatches to them or to the DSP path). weights [units,
/// depth] row-major; `bias` [units] of the accumulator's type, or nullptr;
/// input [batches, depth]; output [batches, units], not overlapping the input.
/// Unit u's output from its row sum `acc`: the bias (when there is one),
/// the requantization, the output offset, the clamp, in TFLM's order.
template <class Acc>
[[nodiscard]] constexpr std::int16_t UnitOutput(const FullyConnectedParams& p,
                                                Acc acc, const Acc* bias,
                                                ChannelQuant quant,
                                                std::int32_t u) {
  if (bias != nullptr) acc += bias[u];
  return ClampToInt16(
      Requantize(acc, quant.multiplier[u], quant.shift[u]) + p.output_offset,
      p.act_min, p.act_max);
}

template <class Acc>
inline void FullyConnectedReference(const FullyConnectedParams& p,
                                    const std::int16_t* input,
                                    const std::int8_t* weights, const Acc* bias,
                                    ChannelQuant quant, std::int16_t* output) {
  for (std::int32_t b = 0; b < p.batches; ++b) {
    const std::int16_t* in = input + b * p.depth;
    for (std::int32_t u = 0; u < p.units; ++u) {
      const std::int8_t* w = weights + u * p.depth;
      Acc acc = 0;
      for (std::int32_t d = 0; d < p.depth; ++d) {
        acc += static_cast<Acc>(w[d] * (in[d] + p.input_offset));
      }
      output[b * p.units + u] = UnitOutput(p, acc, bias, quant, u);
    }
  }
}

}  // namespace arenaplan::kernels::int16

#endif  // ARENAPLAN_KERNELS_INT16_FULLY_CONNECTED_HPP_
