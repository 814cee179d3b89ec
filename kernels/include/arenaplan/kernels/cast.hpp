// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// CAST between int8, int16, int32 and float32 tensors. Matches TensorFlow
// Lite Micro's tensorflow/lite/micro/kernels/cast.cc: every element
// converted with static_cast, quantization ignored (the stored values are
// converted, not the real ones):
//   * integer -> narrower integer keeps the low bits (two's complement
//     wrap; C++20 defines it, GCC and Clang do it in C++17 too);
//   * integer -> float rounds to nearest even (exact below 2^24);
//   * float -> integer truncates toward zero. C++ leaves a value outside the
//     target's range (and NaN) undefined, so TFLM's result there depends on
//     the platform (a Cortex-M FPU's VCVT saturates to int32; a narrower
//     target is then usually cut to its low bits). Here it saturates to the
//     target's own range and NaN gives 0: the same as VCVT for int32, and a
//     defined value for int8 and int16 where TFLM has none.
//
// Loop order: i ascending, element i read then written. No overlap
// contract (element sizes may differ).
#ifndef ARENAPLAN_KERNELS_CAST_HPP_
#define ARENAPLAN_KERNELS_CAST_HPP_

#include <cstdint>
#include <limits>

namespace arenaplan::kernels {

namespace cast_detail {

template <class To, class From>
constexpr To Convert(From v) {
  if constexpr (std::numeric_limits<From>::is_integer ||
                !std::numeric_limits<To>::is_integer) {
    return static_cast<To>(v);
  } else {
    if (v != v) return To{0};  // NaN
    // The bounds as From: exact for int8/int16; for int32 the max rounds up
    // to 2^31, so >= catches it.
    constexpr From kLo = static_cast<From>(std::numeric_limits<To>::min());
    constexpr From kHi = static_cast<From>(std::numeric_limits<To>::max());
    if (v <= kLo) return std::numeric_limits<To>::min();
    if (v >= kHi) return std::numeric_limits<To>::max();
    return static_cast<To>(v);
  }
}

}  // namespace cast_detail

/// output[i] = input[i] converted to To (header comment), i in [0, count).
/// The output must not overlap the input.
template <class From, class To>
inline void Cast(const From* input, To* output, std::int32_t count) {
  for (std::int32_t i = 0; i < count; ++i) {
    output[i] = cast_detail::Convert<To>(input[i]);
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_CAST_HPP_
