// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Fast int8 FULLY_CONNECTED: the same output bytes as FullyConnected
// (fully_connected.hpp, the oracle of the host tests). The input offset is
// folded into the bias at generation time (FoldFullyConnectedBias), and
// four output units share each input load (dsp.hpp Dot4: SXTB16 + SMLAD on
// the DSP extension); the requantization is dsp.hpp's Requantize
// (OutputStage), for non-negative multipliers only (the generator negates
// a unit with a negative one, or calls FullyConnected).
//
// Loop order: batch rows ascending; within a row, units in groups of four
// (then one by one), each group reading the whole input row, then writing
// its bytes. As for the reference, no overlap contract: the output gets its
// own bytes.
#ifndef ARENAPLAN_KERNELS_FAST_FULLY_CONNECTED_HPP_
#define ARENAPLAN_KERNELS_FAST_FULLY_CONNECTED_HPP_

#include <cstdint>

#include "arenaplan/kernels/dsp.hpp"
#include "arenaplan/kernels/fully_connected.hpp"
#include "arenaplan/kernels/helium/fully_connected.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

/// The bias FullyConnectedFast takes: folded[o] = bias[o] (0 when bias is
/// nullptr) + input_offset * (sum of weights row o), modulo 2^32.
/// weights: [units, depth].
constexpr void FoldFullyConnectedBias(std::int32_t input_offset,
                                      std::int32_t units, std::int32_t depth,
                                      const std::int8_t* weights,
                                      const std::int32_t* bias,
                                      std::int32_t* folded) {
  for (std::int32_t o = 0; o < units; ++o) {
    std::int32_t sum = 0;
    for (std::int32_t i = 0; i < depth; ++i) sum += weights[o * depth + i];
    folded[o] = static_cast<std::int32_t>(
        static_cast<std::uint32_t>(bias != nullptr ? bias[o] : 0) +
        static_cast<std::uint32_t>(input_offset) *
            static_cast<std::uint32_t>(sum));
  }
}

/// FullyConnected (fully_connected.hpp) with `folded_bias` from
/// FoldFullyConnectedBias (never nullptr). Mac: dsp.hpp's SimdMac<Isa> or
/// ScalarMac. Output not overlapping the input.
template <class Mac>
inline void FullyConnectedFastWith(const FullyConnectedParams& p,
                                   const std::int8_t* input,
                                   const std::int8_t* weights,
                                   const std::int32_t* folded_bias,
                                   ChannelQuant quant, std::int8_t* output) {
  const std::int32_t depth = p.depth, units = p.units, batches = p.batches;
  // In registers across the output stores (dsp.hpp OutputStage).
  const OutputStage finish{quant.multiplier, quant.shift, p.output_offset,
                           p.act_min, p.act_max};
  for (std::int32_t b = 0; b < batches; ++b) {
    const std::int8_t* in = input + b * depth;
    std::int8_t* out = output + b * units;
    const std::int32_t groups_end = units & ~3;  // units in groups of four
    VectorGroups<Mac>(in, weights, depth, groups_end, folded_bias, finish, out);
    for (std::int32_t o = groups_end; o < units; ++o) {
      out[o] = finish.Leftover(
          Mac::Dot1(in, weights + o * depth, depth, folded_bias[o]), o);
    }
  }
}

/// FullyConnectedFastWith on this core's fastest multiply-accumulate;
/// helium::FullyConnected where the core has integer MVE.
inline void FullyConnectedFast(const FullyConnectedParams& p,
                               const std::int8_t* input,
                               const std::int8_t* weights,
                               const std::int32_t* folded_bias,
                               ChannelQuant quant, std::int8_t* output) {
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
  helium::FullyConnected(p, input, weights, folded_bias, quant, output);
#else
  FullyConnectedFastWith<DefaultMac>(p, input, weights, folded_bias, quant,
                                     output);
#endif
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_FAST_FULLY_CONNECTED_HPP_
