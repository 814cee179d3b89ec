// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// CONCATENATION and PACK: the inputs' elements interleaved along one axis.
// Matches TensorFlow Lite Micro's tensorflow/lite/micro/kernels/
// concatenation.cc and pack.cc with tensorflow/lite/kernels/internal/
// reference/concatenation.h: with outer = the product of the dimensions
// before the axis, input k contributes inner_k = (its size along the axis)
// x (the product of the dimensions after it) elements per outer step:
//
//   for o in 0 .. outer - 1: for k in 0 .. inputs - 1:
//     copy input_k[o * inner_k .. o * inner_k + inner_k - 1] to the output.
//
// PACK is the same with each input of size 1 along the new axis. The int8
// bytes are copied, never requantized: TFLM requires every int8 input to
// have the output's scale and zero point (concatenation.cc) and the same
// in pack.cc.
//
// Loop order (followed exactly): as above, each element read then written,
// the output in increasing order. No overlap contract is declared: an
// output element of input k lies above every element of input k before it
// only when k is the first input, and a pair allows one input only; a
// written-in-place concatenation (the inputs planned inside the output)
// would need a planner relation beyond kOutputBelowBy.
#ifndef ARENAPLAN_KERNELS_CONCATENATION_HPP_
#define ARENAPLAN_KERNELS_CONCATENATION_HPP_

#include <cstdint>

namespace arenaplan::kernels {

struct ConcatenationParams {
  std::int32_t outer;   ///< Product of the dimensions before the axis.
  std::int32_t inputs;  ///< Number of inputs.
};

/// output = the concatenation of inputs[0 .. p.inputs - 1] (header
/// comment); inner[k] elements of input k per outer step. The output must
/// not overlap any input.
template <class T>
inline void Concatenation(const ConcatenationParams& p, const T* const* inputs,
                          const std::int32_t* inner, T* output) {
  T* out = output;
  for (std::int32_t o = 0; o < p.outer; ++o) {
    for (std::int32_t k = 0; k < p.inputs; ++k) {
      const T* in = inputs[k] + o * inner[k];
      for (std::int32_t i = 0; i < inner[k]; ++i) *out++ = in[i];
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_CONCATENATION_HPP_
