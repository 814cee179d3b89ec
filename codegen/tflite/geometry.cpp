// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflite/geometry.hpp"

#include <algorithm>

namespace arenaplan::tflite {

PaddedDim ComputePadding(Padding padding, std::int32_t in, std::int32_t filter,
                         std::int32_t stride) {
  PaddedDim d;
  if (padding == Padding::kSame) {
    d.out = (in + stride - 1) / stride;
    const std::int32_t total = std::max((d.out - 1) * stride + filter - in, 0);
    d.pad_before = total / 2;
  } else {
    d.out = (in - filter + stride) / stride;
    d.pad_before = 0;
  }
  return d;
}

}  // namespace arenaplan::tflite
