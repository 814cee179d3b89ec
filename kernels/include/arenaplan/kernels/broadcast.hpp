// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The walk shared by the binary kernels with NumPy broadcasting over at
// most 4 dimensions (ADD, SUB, MUL, DIV, MAXIMUM/MINIMUM): the generator
// passes each input's strides over the output's NHWC coordinates (0 where
// the input's dimension is 1 and the output's is not), so output element
// (n, h, w, c) reads a[n * sa[0] + h * sa[1] + w * sa[2] + c * sa[3]] and
// the same of b.
#ifndef ARENAPLAN_KERNELS_BROADCAST_HPP_
#define ARENAPLAN_KERNELS_BROADCAST_HPP_

#include <cstdint>

#include "arenaplan/kernels/dsp.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

/// Calls visit(a_index, b_index) once per output element, in the output's
/// row-major NHWC order (the caller writes output element k at the k-th
/// call); the indices are elements into a and b through a_stride and
/// b_stride (elements, one per output dimension, 0 on a broadcast one).
/// Forced inline, and so should `visit` be (ARENAPLAN_KERNELS_INLINE_LAMBDA):
/// -Os would otherwise keep the walk and the per-element body as two functions
/// and pay a call per element.
template <typename Visit>
ARENAPLAN_KERNELS_INLINE void ForEachBroadcast(const Shape4& output,
                                               const std::int32_t a_stride[4],
                                               const std::int32_t b_stride[4],
                                               Visit&& visit) {
  for (std::int32_t n = 0; n < output.n; ++n) {
    for (std::int32_t y = 0; y < output.h; ++y) {
      for (std::int32_t x = 0; x < output.w; ++x) {
        for (std::int32_t c = 0; c < output.c; ++c) {
          visit(n * a_stride[0] + y * a_stride[1] + x * a_stride[2] +
                    c * a_stride[3],
                n * b_stride[0] + y * b_stride[1] + x * b_stride[2] +
                    c * b_stride[3]);
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_BROADCAST_HPP_
