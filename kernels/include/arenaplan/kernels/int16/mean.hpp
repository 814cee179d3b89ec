// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// MEAN on int16 activations, the readable form. Matches TensorFlow Lite's
// reference reduce.h QuantizedMeanOrSum<int16_t> (compute_sum false) as
// TFLM's reduce_common.cc calls it (EvalIntegerMean<int16_t>): mean.hpp's
// method over int16 elements, the int32 sum exact for num < 2^15 reduced
// elements (the generator checks), the result clamped to [-32768, 32767].
//
// Loop order: mean.hpp's. No overlap contract (as mean.hpp: the generator
// plans input and output apart).
#ifndef ARENAPLAN_KERNELS_INT16_MEAN_HPP_
#define ARENAPLAN_KERNELS_INT16_MEAN_HPP_

#include <cstdint>

#include "arenaplan/kernels/mean.hpp"

namespace arenaplan::kernels::int16 {

/// MEAN of int16 over the dimensions `p.reduced` names (header comment).
inline void Mean(const MeanParams& p, const std::int16_t* input,
                 std::int16_t* output) {
  kernels::Mean<std::int16_t>(p, input, output);
}

}  // namespace arenaplan::kernels::int16

#endif  // ARENAPLAN_KERNELS_INT16_MEAN_HPP_
