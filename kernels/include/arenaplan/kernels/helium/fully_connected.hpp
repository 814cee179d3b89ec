// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Helium FULLY_CONNECTED: the bytes of FullyConnected (fully_connected.hpp,
// the oracle; TFLM's reference/integer_ops/fully_connected.h), with the
// input offset folded into the bias (FoldFullyConnectedBias) and the
// weights in their [units, depth] layout, as FullyConnectedFast takes them.
// Each group of four units is four VMLADAVA dot products of the input row
// (helium/dot.hpp Dot4), then one four-lane requantization
// (helium/requantize.hpp); a last group of fewer units is tail-predicated.
//
// Loop order: batch rows ascending; within a row, units in groups of four,
// each group reading the whole input row, then writing its bytes. No
// overlap contract (as the reference: the output gets its own bytes).
// Scratch: none (registers only).
#ifndef ARENAPLAN_KERNELS_HELIUM_FULLY_CONNECTED_HPP_
#define ARENAPLAN_KERNELS_HELIUM_FULLY_CONNECTED_HPP_

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)

#include <cstdint>

#include "arenaplan/kernels/dsp.hpp"
#include "arenaplan/kernels/fully_connected.hpp"
#include "arenaplan/kernels/helium/dot.hpp"
#include "arenaplan/kernels/helium/requantize.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels::helium {

/// FullyConnected with `folded_bias` from FoldFullyConnectedBias (never
/// nullptr). Output not overlapping the input.
inline void FullyConnected(const FullyConnectedParams& p,
                           const std::int8_t* input, const std::int8_t* weights,
                           const std::int32_t* folded_bias, ChannelQuant quant,
                           std::int8_t* output) {
  const std::int32_t depth = p.depth, units = p.units, batches = p.batches;
  const Stage4 stage{quant.multiplier, quant.shift, p.output_offset, p.act_min,
                     p.act_max};
  for (std::int32_t b = 0; b < batches; ++b) {
    const std::int8_t* in = input + b * depth;
    std::int8_t* out = output + b * units;
    VectorChannels(in, weights, depth, units, folded_bias, stage, out);
  }
}

}  // namespace arenaplan::kernels::helium

#endif  // __ARM_FEATURE_MVE & 1

#endif  // ARENAPLAN_KERNELS_HELIUM_FULLY_CONNECTED_HPP_
