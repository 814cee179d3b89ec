// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RESHAPE: the bytes are unchanged, only the shape differs. With a planned
// arena the output is a different tensor from the input (their lifetimes
// meet at the RESHAPE operator, so they never share bytes): copy.
#ifndef ARENAPLAN_KERNELS_RESHAPE_HPP_
#define ARENAPLAN_KERNELS_RESHAPE_HPP_

#include <cstddef>
#include <cstdint>

namespace arenaplan::kernels {

/// Copies `bytes` bytes; nothing when input == output.
inline void Reshape(const std::int8_t* input, std::int8_t* output,
                    std::size_t bytes) {
  if (input == output) return;
  for (std::size_t i = 0; i < bytes; ++i) output[i] = input[i];
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_RESHAPE_HPP_
