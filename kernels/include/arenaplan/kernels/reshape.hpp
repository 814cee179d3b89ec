// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RESHAPE: the bytes are unchanged, only the shape differs. By default the
// plan gives the output its own bytes (their lifetimes meet at the RESHAPE
// operator) and the kernel copies.
//
// Overlap contract: alias (OverlapRelation::kAlias): the output may be the
// input, same address and size; the kernel then does nothing. Otherwise it
// copies forward, byte i read then written for i = 0, 1, ..., which is
// also safe for an output any number of bytes below the input (element-wise,
// d = 0, as in overlap.hpp), although the generator declares only the alias.
// TensorFlow Lite Micro's RESHAPE tolerates the same alias:
// tensorflow/tflite-micro, tensorflow/lite/micro/kernels/reshape.cc,
// EvalReshapeReference, under the comment "// Do nothing for in-place
// reshape." copies only `if (input->data.raw != output->data.raw)`.
#ifndef ARENAPLAN_KERNELS_RESHAPE_HPP_
#define ARENAPLAN_KERNELS_RESHAPE_HPP_

#include <cstddef>
#include <cstdint>

namespace arenaplan::kernels {

/// Copies `bytes` bytes forward (i = 0, 1, ...); nothing when
/// input == output.
inline void Reshape(const std::int8_t* input, std::int8_t* output,
                    std::size_t bytes) {
  if (input == output) return;
  for (std::size_t i = 0; i < bytes; ++i) output[i] = input[i];
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_RESHAPE_HPP_
