// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// MAXIMUM and MINIMUM of two int8 tensors with NumPy broadcasting over at
// most 4 dimensions. Matches TensorFlow Lite Micro's
// tensorflow/lite/micro/kernels/maximum_minimum.cc with
// tensorflow/lite/kernels/internal/reference/maximum_minimum.h
// (MaximumMinimumBroadcastSlow): the stored int8 values are compared as
// they are, with no rescaling (TFLM has no Prepare step for these
// operators and reads neither quantization; the converter gives both
// inputs and the output one quantization):
//
//   out = max(a, b) (MAXIMUM) or min(a, b) (MINIMUM), element by element.
//
// Broadcasting as in mul.hpp: each input's strides over the output's NHWC
// coordinates, 0 where the input's dimension is 1 and the output's is not.
//
// Loop order: output elements in row-major order; each reads its two input
// elements, then writes. Overlap contract for an input with the output's
// shape (strides the output's own): element-wise, d = 0
// (kElementwiseOverlapDistance, overlap.hpp); a broadcast input has none.
#ifndef ARENAPLAN_KERNELS_MAXIMUM_MINIMUM_HPP_
#define ARENAPLAN_KERNELS_MAXIMUM_MINIMUM_HPP_

#include <cstdint>

#include "arenaplan/kernels/broadcast.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct MaximumMinimumParams {
  bool maximum;                           ///< true: MAXIMUM, false: MINIMUM.
  Shape4 output;                          ///< NHWC.
  std::int32_t a_stride[4], b_stride[4];  ///< Per output dimension.
};

/// output = max(a, b) or min(a, b) (header comment). The output must not
/// overlap an input unless that input has the output's shape and the
/// output starts kElementwiseOverlapDistance (0) or more bytes below it.
inline void MaximumMinimum(const MaximumMinimumParams& p, const std::int8_t* a,
                           const std::int8_t* b, std::int8_t* output) {
  std::int8_t* out = output;
  ForEachBroadcast(p.output, p.a_stride, p.b_stride,
                   [&](std::int32_t ai, std::int32_t bi)
                       ARENAPLAN_KERNELS_INLINE_LAMBDA {
                         const std::int8_t av = a[ai];
                         const std::int8_t bv = b[bi];
                         const bool a_wins = p.maximum ? av > bv : av < bv;
                         *out++ = a_wins ? av : bv;
                       });
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_MAXIMUM_MINIMUM_HPP_
