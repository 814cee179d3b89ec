// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TRANSPOSE of a tensor of at most 4 dimensions (leading dimensions padded
// with size 1, the permutation extended by the identity), any element type.
// Matches TensorFlow Lite Micro's tensorflow/lite/micro/kernels/transpose.cc
// with tensorflow/lite/kernels/internal/reference/transpose.h: output
// dimension i is input dimension perm[i], and output element (a, b, c, d)
// is input element a * S[perm[0]] + b * S[perm[1]] + c * S[perm[2]] +
// d * S[perm[3]], S the input's row-major strides. The generator passes
// the output shape and the four strides (input strides in output order).
//
// Loop order: output elements in row-major order; each read then written.
// No overlap contract: a transposed read order jumps across the whole
// input (the identity permutation would be a RESHAPE).
#ifndef ARENAPLAN_KERNELS_TRANSPOSE_HPP_
#define ARENAPLAN_KERNELS_TRANSPOSE_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct TransposeParams {
  Shape4 output;           ///< Output dimensions (n, h, w, c order).
  std::int32_t stride[4];  ///< Input stride of each output dimension.
};

/// output[a][b][c][d] = input[a * stride[0] + ... + d * stride[3]]. The
/// output must not overlap the input.
template <class T>
inline void Transpose(const TransposeParams& p, const T* input, T* output) {
  T* out = output;
  for (std::int32_t a = 0; a < p.output.n; ++a) {
    for (std::int32_t b = 0; b < p.output.h; ++b) {
      for (std::int32_t c = 0; c < p.output.w; ++c) {
        const T* in =
            input + a * p.stride[0] + b * p.stride[1] + c * p.stride[2];
        for (std::int32_t d = 0; d < p.output.c; ++d) {
          *out++ = in[d * p.stride[3]];
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_TRANSPOSE_HPP_
