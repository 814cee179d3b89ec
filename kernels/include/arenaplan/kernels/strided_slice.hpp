// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// STRIDED_SLICE on at most 4 dimensions (leading dimensions padded with
// start 0, stop 1, stride 1), any element type. Matches TensorFlow Lite
// Micro's tensorflow/lite/micro/kernels/strided_slice.cc with
// tensorflow/lite/kernels/internal/reference/strided_slice.h: every
// dimension's start and stop are resolved once, on the host, by the rules of
// tensorflow/lite/kernels/internal/strided_slice_logic.h (StartForAxis,
// StopForAxis: masks, negative indices counted from the end, clamping,
// shrink_axis -> stop = start + 1), and the kernel visits
//
//   for a in start[0], start[0] + stride[0], ... while (stride > 0 ?
//   a < stop : a > stop), and so on for dimensions 1, 2, 3 inside,
//
// writing the output in increasing order. shrink_axis_mask only drops
// dimensions from the output's shape, not elements.
//
// No overlap contract: a negative stride reads the input backwards, and a
// slice writes far fewer bytes than it reads (the pair would save little).
#ifndef ARENAPLAN_KERNELS_STRIDED_SLICE_HPP_
#define ARENAPLAN_KERNELS_STRIDED_SLICE_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct StridedSliceParams {
  Shape4 input;  ///< NHWC, leading 1s.
  /// Resolved start, stop (excluded) and stride per dimension (n, h, w, c).
  std::int32_t start[4], stop[4], stride[4];
};

namespace strided_slice_detail {
[[nodiscard]] constexpr bool InRange(std::int32_t i, std::int32_t stop,
                                     std::int32_t stride) {
  return stride > 0 ? i < stop : i > stop;
}
}  // namespace strided_slice_detail

/// output = input[start:stop:stride] per dimension (header comment). The
/// output must not overlap the input.
template <class T>
inline void StridedSlice(const StridedSliceParams& p, const T* input,
                         T* output) {
  using strided_slice_detail::InRange;
  const Shape4& s = p.input;
  T* out = output;
  for (std::int32_t n = p.start[0]; InRange(n, p.stop[0], p.stride[0]);
       n += p.stride[0]) {
    for (std::int32_t y = p.start[1]; InRange(y, p.stop[1], p.stride[1]);
         y += p.stride[1]) {
      for (std::int32_t x = p.start[2]; InRange(x, p.stop[2], p.stride[2]);
           x += p.stride[2]) {
        for (std::int32_t c = p.start[3]; InRange(c, p.stop[3], p.stride[3]);
             c += p.stride[3]) {
          *out++ = input[((n * s.h + y) * s.w + x) * s.c + c];
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_STRIDED_SLICE_HPP_
