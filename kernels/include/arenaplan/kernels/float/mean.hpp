// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// float32 MEAN over any set of the dimensions of an NHWC tensor (at most 4
// dimensions, leading 1s), as TensorFlow Lite Micro's reduce_common.cc
// (EvalMeanHelper) runs it with reference/reduce.h's Mean: per output
// element
//
//   sum = 0.0f; sum += x for each reduced input element in the input's
//   row-major order; out = sum / (float)count
//
// each sum and the quotient rounded to float. (TFLM's 4-D special case
// for axes {1, 2} with keep_dims sums in the same order and divides by
// the same count, so both of its paths give these bits.) count, the
// number of reduced elements, is exact as a float below 2^24 (the
// generator checks it).
//
// Loop order and overlap: as mean.hpp's int8 MEAN (its walk).
#ifndef ARENAPLAN_KERNELS_FLOAT_MEAN_HPP_
#define ARENAPLAN_KERNELS_FLOAT_MEAN_HPP_

#include <cstdint>

#include "arenaplan/kernels/mean.hpp"

namespace arenaplan::kernels::f32 {

struct MeanParams {
  Shape4 input;  ///< NHWC, leading 1s.
  /// Which dimensions are reduced: bit 3 n, bit 2 h, bit 1 w, bit 0 c.
  std::int32_t reduced;
  float count;  ///< Reduced elements per output element.
};

/// output[kept coordinates] = the mean over the reduced ones (header
/// comment). The output must not overlap the input.
inline void Mean(const MeanParams& p, const float* input, float* output) {
  float* out = output;
  ForEachReduction<float>(p.input, p.reduced, input,
                          [&](float sum) ARENAPLAN_KERNELS_INLINE_LAMBDA {
                            *out++ = sum / p.count;
                          });
}

}  // namespace arenaplan::kernels::f32

#endif  // ARENAPLAN_KERNELS_FLOAT_MEAN_HPP_
