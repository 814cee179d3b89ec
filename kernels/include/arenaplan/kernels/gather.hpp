// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// GATHER along one axis, any element type, int32 positions. Matches
// TensorFlow Lite Micro's tensorflow/lite/micro/kernels/gather.cc: the input
// seen as [batch, outer, axis, inner] (batch = the product of the first
// batch_dims dimensions, outer the dimensions after them and before the
// axis, inner those after it) and the positions as [batch, coords]; output
// [batch, outer, coords, inner] with
//
//   output[b][o][k][i] = input[b][o][positions[b * coords + k]][i].
//
// TFLM only DCHECKs that a position lies in [0, axis); a position outside
// it would read outside the input. Here such a position is clamped into
// [0, axis - 1] so that firmware never reads outside the tensor (a valid
// model never holds one; constant positions are checked by the generator).
//
// Loop order: b, o, k ascending, then i; each element read then written.
// No overlap contract: a position may name an earlier slice of the input,
// which the output may already have overwritten.
#ifndef ARENAPLAN_KERNELS_GATHER_HPP_
#define ARENAPLAN_KERNELS_GATHER_HPP_

#include <cstdint>

namespace arenaplan::kernels {

struct GatherParams {
  std::int32_t batch;   ///< Product of the first batch_dims dimensions.
  std::int32_t outer;   ///< Product of the dimensions before the axis.
  std::int32_t axis;    ///< Size of the gathered dimension (>= 1).
  std::int32_t coords;  ///< Positions per batch.
  std::int32_t inner;   ///< Product of the dimensions after the axis.
};

/// output = input gathered at `positions` (header comment). The output
/// must not overlap the input or the positions.
template <class T>
inline void Gather(const GatherParams& p, const T* input,
                   const std::int32_t* positions, T* output) {
  T* out = output;
  for (std::int32_t b = 0; b < p.batch; ++b) {
    for (std::int32_t o = 0; o < p.outer; ++o) {
      for (std::int32_t k = 0; k < p.coords; ++k) {
        std::int32_t at = positions[b * p.coords + k];
        at = at < 0 ? 0 : (at >= p.axis ? p.axis - 1 : at);
        const T* in = input + ((b * p.outer + o) * p.axis + at) * p.inner;
        for (std::int32_t i = 0; i < p.inner; ++i) *out++ = in[i];
      }
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_GATHER_HPP_
