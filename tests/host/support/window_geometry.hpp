// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Random sliding-window geometry (one spatial dimension at a time) and the
// read/write trace of the window kernels' stated loop order, shared by the
// kernel tests (kernels_fast_test, kernels_overlap_window_test,
// kernels_overlap_wide_window_test). The trace is in elements: the int8
// kernels' bytes; overlap_case.hpp's ScaleTrace turns it into the bytes of
// wider elements.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_WINDOW_GEOMETRY_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_WINDOW_GEOMETRY_HPP_

#include <cstdint>

#include "arenaplan/kernels/kernels.hpp"
#include "codegen/tflite/geometry.hpp"
#include "tests/host/support/lcg.hpp"
#include "tests/host/support/overlap_case.hpp"

namespace arenaplan::window_geometry {

using ::arenaplan::overlap_case::Trace;
using ::arenaplan::overlap_case::Write;
using ::arenaplan::testing_util::Lcg;

/// One spatial dimension of a window kernel: input and output extents
/// (elements), taps, stride, leading padding and dilation (elements
/// between taps).
struct Dim {
  std::int32_t in, k, stride, pad, out;
  std::int32_t dil = 1;
};

/// Random geometry within the overlap contracts' preconditions: SAME,
/// VALID or an explicit leading padding in [0, k - 1] with any output
/// extent whose last window still starts inside the input. Draws the input
/// extent in [1, max_in], then the taps with `draw_k(rng)`, then the
/// stride (1 or 2) and the padding. Rng: any generator with Next(lo, hi)
/// over [lo, hi].
template <class Rng, class DrawK>
Dim RandomDim(Rng& rng, std::int32_t max_in, DrawK draw_k) {
  Dim d;
  d.in = rng.Next(1, max_in);
  d.k = draw_k(rng);
  d.stride = rng.Next(1, 3);
  const int mode = rng.Next(0, 2);
  if (mode == 1 && d.k > d.in) d.k = d.in;  // VALID needs k <= in.
  if (mode < 2) {
    const auto p = tflite::ComputePadding(
        mode == 0 ? tflite::Padding::kSame : tflite::Padding::kValid, d.in, d.k,
        d.stride);
    d.pad = p.pad_before;
    d.out = p.out;
  } else {
    d.pad = rng.Next(0, d.k - 1);
    d.out = rng.Next(1, (d.in - 1 + d.pad) / d.stride + 1);
  }
  return d;
}

/// Random dilated geometry (taps 1 .. 3, dilation 1 .. 4) within the
/// contract's preconditions: SAME and VALID over the effective size
/// (k - 1) * dil + 1, or an explicit leading padding below it; redrawn
/// until every window holds an in-bounds tap (checked here tap by tap;
/// the kernels' functions give S_out otherwise, tested apart).
inline Dim RandomDilatedDim(Lcg& rng, std::int32_t max_in) {
  for (;;) {
    Dim d;
    d.in = rng.Next(1, max_in);
    d.k = rng.Next(1, 3);
    d.dil = rng.Next(1, 4);
    d.stride = rng.Next(1, 3);
    const std::int32_t span = (d.k - 1) * d.dil + 1;
    const int mode = rng.Next(0, 2);
    if (mode == 1 && span > d.in) continue;  // VALID needs span <= in.
    if (mode < 2) {
      const auto p = tflite::ComputePadding(
          mode == 0 ? tflite::Padding::kSame : tflite::Padding::kValid, d.in,
          span, d.stride);
      d.pad = p.pad_before;
      d.out = p.out;
    } else {
      d.pad = rng.Next(0, span - 1);
      d.out = rng.Next(1, (d.in - 1 + d.pad) / d.stride + 1);
    }
    bool every = true;
    for (std::int32_t o = 0; o < d.out; ++o) {
      bool hit = false;
      for (std::int32_t t = 0; t < d.k; ++t) {
        const std::int32_t i = o * d.stride - d.pad + t * d.dil;
        hit = hit || (i >= 0 && i < d.in);
      }
      every = every && hit;
    }
    if (every) return d;
  }
}

/// The loop orders conv.hpp and pooling.hpp state: kWholeWindow reads an
/// output pixel's whole window (every input channel) before each output
/// channel's write (CONV_2D); kChannelByChannel reads input channel ic's
/// taps before each of the depth_multiplier writes of its output channels
/// (DEPTHWISE_CONV_2D; pools with depth multiplier 1).
enum class WindowOrder { kWholeWindow, kChannelByChannel };

/// One window kernel call's geometry, in elements.
struct Window {
  WindowOrder order;
  kernels::Shape4 in, out;
  Dim y, x;
  std::int32_t depth_multiplier = 1;
};

/// The element trace of `w` in its stated loop order: output pixels in
/// row-major order, batch outermost.
inline void WindowTrace(const Window& w, Trace& t) {
  const kernels::Shape4& is = w.in;
  const kernels::Shape4& os = w.out;
  auto read_window = [&](std::int32_t b, std::int32_t oy, std::int32_t ox,
                         std::int32_t c_begin, std::int32_t c_end) {
    for (std::int32_t ky = 0; ky < w.y.k; ++ky) {
      const std::int32_t y = oy * w.y.stride - w.y.pad + ky * w.y.dil;
      if (y < 0 || y >= is.h) continue;
      for (std::int32_t kx = 0; kx < w.x.k; ++kx) {
        const std::int32_t x = ox * w.x.stride - w.x.pad + kx * w.x.dil;
        if (x < 0 || x >= is.w) continue;
        for (std::int32_t c = c_begin; c < c_end; ++c) {
          t.push_back(((b * is.h + y) * is.w + x) * is.c + c);
        }
      }
    }
  };
  for (std::int32_t b = 0; b < os.n; ++b) {
    for (std::int32_t oy = 0; oy < os.h; ++oy) {
      for (std::int32_t ox = 0; ox < os.w; ++ox) {
        const std::int64_t base = ((b * os.h + oy) * os.w + ox) * os.c;
        if (w.order == WindowOrder::kWholeWindow) {
          for (std::int32_t oc = 0; oc < os.c; ++oc) {
            read_window(b, oy, ox, 0, is.c);
            t.push_back(Write(base + oc));
          }
        } else {
          const std::int32_t dm = w.depth_multiplier;
          for (std::int32_t ic = 0; ic < is.c; ++ic) {
            for (std::int32_t m = 0; m < dm; ++m) {
              read_window(b, oy, ox, ic, ic + 1);
              t.push_back(Write(base + ic * dm + m));
            }
          }
        }
      }
    }
  }
}

}  // namespace arenaplan::window_geometry

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_WINDOW_GEOMETRY_HPP_
