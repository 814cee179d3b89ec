// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// SPLIT, SPLIT_V and UNPACK: one tensor's elements dealt out along one axis
// to several outputs, the inverse of CONCATENATION (concatenation.hpp).
// Matches TensorFlow Lite Micro's tensorflow/lite/micro/kernels/split.cc
// (SplitImpl), split_v.cc (SplitImpl) and unpack.cc (UnpackImpl): with
// outer = the product of the input's dimensions before the axis, output k
// takes inner_k = (its size along the axis) x (the product of the
// dimensions after it) elements per outer step:
//
//   for o in 0 .. outer - 1: for k in 0 .. outputs - 1:
//     copy the next inner_k input elements to
//     output_k[o * inner_k .. o * inner_k + inner_k - 1].
//
// UNPACK is the same with each output of size 1 along the removed axis.
// The bytes are copied, never requantized (TFLM copies them as they are).
//
// Loop order (followed exactly): the input read in increasing order, each
// element read then written. No overlap contract is declared: a pair
// relates one input to one output, and every output but the first starts
// its writes at an input position beyond its own offset only when outer is
// 1; the outputs are copies the planner keeps apart.
#ifndef ARENAPLAN_KERNELS_SPLIT_HPP_
#define ARENAPLAN_KERNELS_SPLIT_HPP_

#include <cstdint>

namespace arenaplan::kernels {

struct SplitParams {
  std::int32_t outer;    ///< Product of the input's dimensions before the axis.
  std::int32_t outputs;  ///< Number of outputs.
};

/// outputs[0 .. p.outputs - 1] = the input dealt out along the axis (header
/// comment); inner[k] elements of output k per outer step. No output may
/// overlap the input or another output.
template <class T>
inline void Split(const SplitParams& p, const T* input,
                  const std::int32_t* inner, T* const* outputs) {
  const T* in = input;
  for (std::int32_t o = 0; o < p.outer; ++o) {
    for (std::int32_t k = 0; k < p.outputs; ++k) {
      T* out = outputs[k] + o * inner[k];
      for (std::int32_t i = 0; i < inner[k]; ++i) out[i] = *in++;
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_SPLIT_HPP_
