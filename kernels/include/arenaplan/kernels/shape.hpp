// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// SHAPE: the input's dimensions as an int32 vector. In a compiled model
// every shape is known ahead of time, so the generator emits the dimensions
// as a constant and the kernel copies them (TensorFlow Lite Micro's
// tensorflow/lite/micro/kernels/shape.cc writes the same values from the
// input's dims at run time). Also the plain element copy other lowerings
// use.
//
// Loop order: i = 0 .. count - 1, element i read then written (element-
// wise); no overlap contract is declared (the source is a constant).
#ifndef ARENAPLAN_KERNELS_SHAPE_HPP_
#define ARENAPLAN_KERNELS_SHAPE_HPP_

#include <cstdint>

namespace arenaplan::kernels {

/// output[i] = input[i] for i = 0 .. count - 1, in that order.
template <class T>
inline void CopyElements(const T* input, T* output, std::int32_t count) {
  for (std::int32_t i = 0; i < count; ++i) output[i] = input[i];
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_SHAPE_HPP_
