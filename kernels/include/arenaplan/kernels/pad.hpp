// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// PAD / PADV2 on tensors of at most 4 dimensions (NHWC, leading 1s), any
// element type: every output element inside the input's box is the input
// element, every other one the pad value. Matches TensorFlow Lite Micro's
// tensorflow/lite/micro/kernels/pad.cc (pad_common.cc for the checks) with
// tensorflow/lite/kernels/internal/reference/pad.h (Pad, PadImageStyle,
// which compute the same thing): the int8 pad value is the output zero
// point for PAD, the constant input for PADV2; the bytes are copied, never
// requantized (TFLM checks no input scale).
//
// Loop order (followed exactly): output elements in row-major order
// j = 0 .. S_out - 1; an element inside the box reads input element i (in
// increasing order, i = 0 .. S_in - 1) and then writes output j; a padding
// element writes the pad value and reads nothing.
//
// Overlap contract (overlap.hpp, element size 1 byte; for int16 and
// float32, each element read and written whole, the generator states
// ScaledOverlapDistance(d, 2 or 4) bytes): let J(i) be the output position of input element i
// and P(i) = J(i) - i, the number of padding elements before it in output
// order; P is non-decreasing in i. When output J(i) is written the next
// read is input i + 1, so its term is J(i) - (i + 1) + 1 = P(i) for
// i < S_in - 1; a padding element j between J(i) and J(i + 1) has term
// j - (i + 1) + 1 <= J(i + 1) - (i + 1) = P(i + 1); after the last read
// (input S_in - 1) nothing is read, and no term counts. So
//   d = max(0, P(S_in - 1)) = J(S_in - 1) - (S_in - 1),
// reached at the padding element just before the last input element
// (or at J(S_in - 2) when none is): exact. With S_out = S_in + all padding,
// in + d = S_out - (padding after the last input element) <= S_out: the
// input fits inside the output's bytes, and the pair costs only the output.
#ifndef ARENAPLAN_KERNELS_PAD_HPP_
#define ARENAPLAN_KERNELS_PAD_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct PadParams {
  Shape4 input;   ///< NHWC, leading 1s.
  Shape4 before;  ///< Elements of padding before, per dimension (>= 0).
  Shape4 after;   ///< Elements of padding after, per dimension (>= 0).
};

/// The output shape: input + before + after in every dimension.
[[nodiscard]] constexpr Shape4 PadOutputShape(const PadParams& p) {
  return {
      p.input.n + p.before.n + p.after.n, p.input.h + p.before.h + p.after.h,
      p.input.w + p.before.w + p.after.w, p.input.c + p.before.c + p.after.c};
}

/// The overlap contract distance in elements (header comment): the output
/// position of the last input element minus its input position; 0 for an
/// empty input.
[[nodiscard]] constexpr std::int64_t PadOverlapDistance(const PadParams& p) {
  const Shape4 o = PadOutputShape(p);
  const std::int64_t in_count =
      std::int64_t{p.input.n} * p.input.h * p.input.w * p.input.c;
  if (in_count <= 0) return 0;
  const std::int64_t last_out =
      ((std::int64_t{p.before.n + p.input.n - 1} * o.h + p.before.h +
        p.input.h - 1) *
           o.w +
       p.before.w + p.input.w - 1) *
          o.c +
      p.before.c + p.input.c - 1;
  return last_out - (in_count - 1);
}

/// output = pad(input) with `pad_value` (header comment). The output must
/// not overlap the input unless it starts PadOverlapDistance(p) elements
/// or more below it.
template <class T>
inline void Pad(const PadParams& p, T pad_value, const T* input, T* output) {
  const Shape4 o = PadOutputShape(p);
  std::int32_t i = 0;  // the next input element
  std::int32_t j = 0;  // the next output element
  for (std::int32_t n = 0; n < o.n; ++n) {
    const bool in_n = n >= p.before.n && n < p.before.n + p.input.n;
    for (std::int32_t y = 0; y < o.h; ++y) {
      const bool in_y = in_n && y >= p.before.h && y < p.before.h + p.input.h;
      for (std::int32_t x = 0; x < o.w; ++x) {
        const bool in_x = in_y && x >= p.before.w && x < p.before.w + p.input.w;
        for (std::int32_t c = 0; c < o.c; ++c) {
          if (in_x && c >= p.before.c && c < p.before.c + p.input.c) {
            const T v = input[i++];
            output[j++] = v;
          } else {
            output[j++] = pad_value;
          }
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_PAD_HPP_
