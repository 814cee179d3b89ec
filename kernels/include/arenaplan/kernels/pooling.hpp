// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// int8 AVERAGE_POOL_2D and MAX_POOL_2D. Input and output share scale and
// zero point (TFLite's int8 pooling requires it; the generator checks), so
// no requantization: the average is rounded to nearest, ties away from zero,
// over the window's in-bounds elements only (padding is not counted).
//
// Loop order (followed exactly): batch b, output row oy, output column ox
// (output pixel P = (b * OH + oy) * OW + ox ascending), channel
// c = 0 .. C - 1; for each c the in-bounds window of P at channel c is read,
// then output byte P * C + c is written. This is DepthwiseConv2D's order
// with depth multiplier 1 (conv.hpp), so its overlap contract, with
// OC = C, applies word for word (notation in overlap.hpp):
//   d = max(0, max_P ((P + 1) * C - C - a(P)), max_P (P * C - m(P)))
//     = max(0, M - C).
// Example, 2x2 stride 2 VALID over 16x16x4 (8x8x4 out): g(oy) =
// 32 oy - 128 oy, largest 0 at oy = 0; h(ox) = 4 (ox + 1) - 8 ox, largest 4
// at ox = 0: d = 0 + 4 - 4 = 0, in place (each output pixel lies below
// the input pixels it reads, and every later window reads above them).
// PoolOverlapDistance returns S_out outside the preconditions of
// overlap.hpp or when the shapes do not match (batch, channels).
#ifndef ARENAPLAN_KERNELS_POOLING_HPP_
#define ARENAPLAN_KERNELS_POOLING_HPP_

#include <cstdint>

#include "arenaplan/kernels/overlap.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct PoolParams {
  std::int32_t filter_h, filter_w;
  std::int32_t stride_h, stride_w;
  std::int32_t pad_h, pad_w;  ///< Rows above / columns left (see ConvParams).
  std::int32_t act_min, act_max;  ///< Fused activation, both ends included.
};

namespace detail {
/// The pool over elements of type T (int8, or int16 for int16/pooling.hpp):
/// the maximum starts at T's lowest value; the clamp is to [act_min,
/// act_max], within T.
template <bool kMax, class T = std::int8_t>
inline void Pool(const PoolParams& p, const Shape4& in_shape, const T* input,
                 const Shape4& out_shape, T* output) {
  constexpr std::int32_t kLowest = -(std::int32_t{1} << (8 * sizeof(T) - 1));
  for (std::int32_t b = 0; b < out_shape.n; ++b) {
    for (std::int32_t oy = 0; oy < out_shape.h; ++oy) {
      const std::int32_t y0 = oy * p.stride_h - p.pad_h;
      const std::int32_t ky_begin = y0 < 0 ? -y0 : 0;
      const std::int32_t ky_end =
          p.filter_h < in_shape.h - y0 ? p.filter_h : in_shape.h - y0;
      for (std::int32_t ox = 0; ox < out_shape.w; ++ox) {
        const std::int32_t x0 = ox * p.stride_w - p.pad_w;
        const std::int32_t kx_begin = x0 < 0 ? -x0 : 0;
        const std::int32_t kx_end =
            p.filter_w < in_shape.w - x0 ? p.filter_w : in_shape.w - x0;
        for (std::int32_t c = 0; c < out_shape.c; ++c) {
          std::int32_t acc = kMax ? kLowest : 0;
          std::int32_t count = 0;
          for (std::int32_t ky = ky_begin; ky < ky_end; ++ky) {
            for (std::int32_t kx = kx_begin; kx < kx_end; ++kx) {
              const std::int32_t v =
                  input[((b * in_shape.h + y0 + ky) * in_shape.w + x0 + kx) *
                            in_shape.c +
                        c];
              if (kMax) {
                acc = v > acc ? v : acc;
              } else {
                acc += v;
              }
              ++count;
            }
          }
          if (!kMax && count > 0) {
            // Round half away from zero (integer division truncates).
            acc =
                acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
          }
          acc = acc < p.act_min ? p.act_min : acc;
          output[((b * out_shape.h + oy) * out_shape.w + ox) * out_shape.c +
                 c] = static_cast<T>(acc > p.act_max ? p.act_max : acc);
        }
      }
    }
  }
}
}  // namespace detail
}  // namespace arenaplan::kernels

// The Helium AVERAGE_POOL_2D and MAX_POOL_2D (integer MVE only), which take
// PoolParams.
#include "arenaplan/kernels/helium/pooling.hpp"

namespace arenaplan::kernels {

/// AVERAGE_POOL_2D over NHWC int8 tensors (helium::AveragePool, the same
/// bytes and overlap contract, where the core has integer MVE).
inline void AveragePool(const PoolParams& p, const Shape4& in_shape,
                        const std::int8_t* input, const Shape4& out_shape,
                        std::int8_t* output) {
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
  helium::AveragePool(p, in_shape, input, out_shape, output);
#else
  detail::Pool<false>(p, in_shape, input, out_shape, output);
#endif
}

/// MAX_POOL_2D over NHWC int8 tensors (helium::MaxPool, the same bytes
/// and overlap contract, where the core has integer MVE).
inline void MaxPool(const PoolParams& p, const Shape4& in_shape,
                    const std::int8_t* input, const Shape4& out_shape,
                    std::int8_t* output) {
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
  helium::MaxPool(p, in_shape, input, out_shape, output);
#else
  detail::Pool<true>(p, in_shape, input, out_shape, output);
#endif
}

/// The smallest distance in bytes by which AveragePool's or MaxPool's
/// output may start below its input (header comment); S_out outside the
/// contract's preconditions or when the shapes do not match.
[[nodiscard]] constexpr std::int64_t PoolOverlapDistance(
    const PoolParams& p, const Shape4& in_shape, const Shape4& out_shape) {
  const std::int64_t d = overlap_detail::WindowDistance(
      overlap_detail::Window{in_shape.n, in_shape.h, in_shape.w, in_shape.c,
                             out_shape.h, out_shape.w, out_shape.c, p.stride_h,
                             p.stride_w, p.pad_h, p.pad_w, p.filter_h,
                             p.filter_w},
      overlap_detail::WindowOrder::kChannelByChannel);
  if (d < 0 || out_shape.n != in_shape.n || out_shape.c != in_shape.c) {
    return overlap_detail::Bytes(out_shape);
  }
  return d;
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_POOLING_HPP_
