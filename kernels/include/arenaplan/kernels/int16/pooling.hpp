// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// AVERAGE_POOL_2D and MAX_POOL_2D on int16 activations, the readable form.
// Matches TensorFlow Lite's reference_integer_ops AveragePool and MaxPool
// for int16 as TFLM's pooling.cc calls them: the int8 method of
// pooling.hpp (detail::Pool) over int16 elements. No requantization (input
// and output share scale and zero point; the generator checks); the
// average sums the window's in-bounds elements in int32 and rounds to
// nearest, ties away from zero; the maximum starts at -32768; the result is
// clamped to the fused activation's range.
//
// Loop order: pooling.hpp's. Overlap contract: pooling.hpp's
// PoolOverlapDistance, counted in elements, times 2 bytes (overlap.hpp,
// ScaledOverlapDistance: input and output elements are both 2 bytes, read
// and written whole).
#ifndef ARENAPLAN_KERNELS_INT16_POOLING_HPP_
#define ARENAPLAN_KERNELS_INT16_POOLING_HPP_

#include <cstdint>

#include "arenaplan/kernels/pooling.hpp"

namespace arenaplan::kernels::int16 {

/// AVERAGE_POOL_2D over NHWC int16 tensors (header comment).
inline void AveragePool(const PoolParams& p, const Shape4& in_shape,
                        const std::int16_t* input, const Shape4& out_shape,
                        std::int16_t* output) {
  detail::Pool<false>(p, in_shape, input, out_shape, output);
}

/// MAX_POOL_2D over NHWC int16 tensors (header comment).
inline void MaxPool(const PoolParams& p, const Shape4& in_shape,
                    const std::int16_t* input, const Shape4& out_shape,
                    std::int16_t* output) {
  detail::Pool<true>(p, in_shape, input, out_shape, output);
}

}  // namespace arenaplan::kernels::int16

#endif  // ARENAPLAN_KERNELS_INT16_POOLING_HPP_
