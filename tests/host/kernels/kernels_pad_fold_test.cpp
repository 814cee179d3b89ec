// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The arithmetic behind folding a PAD into the operator that reads it
// (codegen/tflite/fold.hpp, rule 2): on random shapes, paddings, strides
// and windows, k::Pad followed by the operator on the padded tensor (what
// TFLM runs) gives the same bytes as the operator alone on the unpadded
// tensor with the PAD's rows and columns added to its own leading padding
// (tflite::ExtendedPadding), for
//  - CONV_2D and DEPTHWISE_CONV_2D (reference and fast kernels) when the
//    pad value is the input zero point;
//  - MAX_POOL_2D when the pad value is -128, or at most the lower clamp;
//  - AVERAGE_POOL_2D when no window reads a padded element;
// and hand-made cases where the rule's condition fails and the bytes differ
// (so the conditions are needed).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "arenaplan/kernels/conv.hpp"
#include "arenaplan/kernels/fast_conv.hpp"
#include "arenaplan/kernels/pad.hpp"
#include "arenaplan/kernels/pooling.hpp"
#include "codegen/tflite/geometry.hpp"

namespace arenaplan {
namespace {

namespace k = ::arenaplan::kernels;
using tflite::Padding;

/// One random case: input [1, h, w, c], PAD rows top/bottom and columns
/// left/right, a window kh x kw moved by stride, the consumer's own
/// padding.
struct Case {
  std::int32_t h, w, c, top, bottom, left, right, kh, kw, sh, sw;
  Padding padding;
  std::vector<std::int8_t> input;
};

Case RandomCase(std::mt19937& rng) {
  auto in = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  Case c{in(1, 7), in(1, 7), in(1, 6),
         in(0, 2), in(0, 2), in(0, 2),
         in(0, 2), in(1, 4), in(1, 4),
         in(1, 3), in(1, 3), in(0, 1) != 0 ? Padding::kSame : Padding::kValid,
         {}};
  c.input.resize(static_cast<std::size_t>(c.h * c.w * c.c));
  for (auto& v : c.input) v = static_cast<std::int8_t>(in(-128, 127));
  return c;
}

/// The padded tensor TFLM's PAD writes.
std::vector<std::int8_t> Padded(const Case& c, std::int8_t value) {
  const k::PadParams p{k::Shape4{1, c.h, c.w, c.c},
                       k::Shape4{0, c.top, c.left, 0},
                       k::Shape4{0, c.bottom, c.right, 0}};
  std::vector<std::int8_t> out(static_cast<std::size_t>(
      (c.h + c.top + c.bottom) * (c.w + c.left + c.right) * c.c));
  k::Pad<std::int8_t>(p, value, c.input.data(), out.data());
  return out;
}

/// Geometry of the unfolded operator (on the padded tensor) and of the
/// folded one (on the input, the PAD's rows and columns added).
struct Geometry {
  tflite::PaddedDim h, w;                ///< Unfolded.
  tflite::PaddedDim folded_h, folded_w;  ///< Folded.
};

Geometry GeometryOf(const Case& c) {
  Geometry g;
  g.h = tflite::ComputePadding(c.padding, c.h + c.top + c.bottom, c.kh, c.sh);
  g.w = tflite::ComputePadding(c.padding, c.w + c.left + c.right, c.kw, c.sw);
  g.folded_h =
      tflite::ExtendedPadding(c.padding, c.h, c.kh, c.sh, c.top, c.bottom);
  g.folded_w =
      tflite::ExtendedPadding(c.padding, c.w, c.kw, c.sw, c.left, c.right);
  return g;
}

TEST(KernelsPadFold, ExtendedPaddingKeepsTheOutputAndAddsTheLeadingRows) {
  std::mt19937 rng(11);
  for (int i = 0; i < 500; ++i) {
    const Case c = RandomCase(rng);
    const Geometry g = GeometryOf(c);
    EXPECT_EQ(g.folded_h.out, g.h.out);
    EXPECT_EQ(g.folded_w.out, g.w.out);
    EXPECT_EQ(g.folded_h.pad_before, g.h.pad_before + c.top);
    EXPECT_EQ(g.folded_w.pad_before, g.w.pad_before + c.left);
  }
}

TEST(KernelsPadFold, ConvolutionsGiveTheSameBytesWhenPaddingWithTheZeroPoint) {
  std::mt19937 rng(7);
  int checked = 0;
  for (int i = 0; i < 400; ++i) {
    const Case c = RandomCase(rng);
    const Geometry g = GeometryOf(c);
    if (g.h.out <= 0 || g.w.out <= 0) continue;
    const std::int32_t zp = std::uniform_int_distribution<int>(-128, 127)(rng);
    const bool depthwise = i % 2 == 1;
    const std::int32_t out_c = depthwise ? c.c : 3;
    const k::Shape4 fs = depthwise ? k::Shape4{1, c.kh, c.kw, c.c}
                                   : k::Shape4{out_c, c.kh, c.kw, c.c};
    std::vector<std::int8_t> filter(
        static_cast<std::size_t>(fs.n * fs.h * fs.w * fs.c));
    for (auto& v : filter) {
      v = static_cast<std::int8_t>(
          std::uniform_int_distribution<int>(-127, 127)(rng));
    }
    std::vector<std::int32_t> bias(static_cast<std::size_t>(out_c), 1000);
    std::vector<std::int32_t> mult(static_cast<std::size_t>(out_c), 1 << 30);
    std::vector<std::int8_t> shift(static_cast<std::size_t>(out_c), -7);
    const k::ChannelQuant q{mult.data(), shift.data()};
    const k::Shape4 os{1, g.h.out, g.w.out, out_c};
    const std::size_t n = static_cast<std::size_t>(os.h * os.w * out_c);
    std::vector<std::int8_t> want(n), ref(n), fast(n);

    const std::vector<std::int8_t> padded =
        Padded(c, static_cast<std::int8_t>(zp));
    const k::Shape4 ps{1, c.h + c.top + c.bottom, c.w + c.left + c.right, c.c};
    k::ConvParams unfolded{
        -zp, 5, -128, 127, c.sh, c.sw, g.h.pad_before, g.w.pad_before, 1};
    k::ConvParams folded = unfolded;
    folded.pad_h = g.folded_h.pad_before;
    folded.pad_w = g.folded_w.pad_before;
    const k::Shape4 is{1, c.h, c.w, c.c};
    std::vector<std::int32_t> folded_bias(static_cast<std::size_t>(out_c));
    if (depthwise) {
      k::DepthwiseConv2D(unfolded, ps, padded.data(), fs, filter.data(),
                         bias.data(), q, os, want.data());
      k::DepthwiseConv2D(folded, is, c.input.data(), fs, filter.data(),
                         bias.data(), q, os, ref.data());
      k::FoldDepthwiseBias(-zp, fs, filter.data(), bias.data(),
                           folded_bias.data());
      std::vector<std::int8_t> scratch(
          static_cast<std::size_t>(k::DepthwiseConv2DFastScratchBytes(fs)),
          0x5a);
      k::DepthwiseConv2DFast(folded, is, c.input.data(), fs, filter.data(),
                             folded_bias.data(), q, os, fast.data(),
                             scratch.data());
    } else {
      k::Conv2D(unfolded, ps, padded.data(), fs, filter.data(), bias.data(), q,
                os, want.data());
      k::Conv2D(folded, is, c.input.data(), fs, filter.data(), bias.data(), q,
                os, ref.data());
      k::FoldConvBias(-zp, fs, filter.data(), bias.data(), folded_bias.data());
      std::vector<std::int8_t> scratch(
          static_cast<std::size_t>(k::Conv2DFastScratchBytes(fs)), 0x5a);
      k::Conv2DFast(folded, is, c.input.data(), fs, filter.data(),
                    folded_bias.data(), q, os, fast.data(), scratch.data());
    }
    ASSERT_EQ(ref, want) << "case " << i;
    ASSERT_EQ(fast, want) << "case " << i << (depthwise ? " depthwise" : "")
                          << " in " << c.h << "x" << c.w << "x" << c.c
                          << " pads " << c.top << c.bottom << c.left << c.right
                          << " window " << c.kh << "x" << c.kw << " stride "
                          << c.sh << "x" << c.sw << " same "
                          << (c.padding == Padding::kSame) << " out " << os.h
                          << "x" << os.w;
    ++checked;
  }
  EXPECT_GT(checked, 200);
}

/// True when some tap of some output window falls on an element the PAD
/// added (rows [0, top) and [top + h, ...) of the padded tensor, likewise
/// for columns), enumerated tap by tap.
bool ReadsPadding(const Case& c, const Geometry& g) {
  for (std::int32_t oy = 0; oy < g.h.out; ++oy) {
    for (std::int32_t ox = 0; ox < g.w.out; ++ox) {
      for (std::int32_t ky = 0; ky < c.kh; ++ky) {
        for (std::int32_t kx = 0; kx < c.kw; ++kx) {
          const std::int32_t y = oy * c.sh - g.h.pad_before + ky;
          const std::int32_t x = ox * c.sw - g.w.pad_before + kx;
          const bool in_padded = y >= 0 && y < c.h + c.top + c.bottom &&
                                 x >= 0 && x < c.w + c.left + c.right;
          const bool in_input =
              y >= c.top && y < c.top + c.h && x >= c.left && x < c.left + c.w;
          if (in_padded && !in_input) return true;
        }
      }
    }
  }
  return false;
}

TEST(KernelsPadFold, PoolsGiveTheSameBytesUnderTheFoldConditions) {
  std::mt19937 rng(5);
  int max_checked = 0, average_checked = 0;
  for (int i = 0; i < 4000; ++i) {
    const Case c = RandomCase(rng);
    const Geometry g = GeometryOf(c);
    if (g.h.out <= 0 || g.w.out <= 0) continue;
    const std::int32_t zp = std::uniform_int_distribution<int>(-128, 127)(rng);
    const bool relu = i % 2 == 0;
    const std::int32_t act_min = relu ? zp : -128;
    const k::Shape4 ps{1, c.h + c.top + c.bottom, c.w + c.left + c.right, c.c};
    const k::Shape4 is{1, c.h, c.w, c.c};
    const k::Shape4 os{1, g.h.out, g.w.out, c.c};
    const std::size_t n = static_cast<std::size_t>(os.h * os.w * c.c);
    const k::PoolParams unfolded{c.kh,           c.kw,           c.sh,    c.sw,
                                 g.h.pad_before, g.w.pad_before, act_min, 127};
    k::PoolParams folded = unfolded;
    folded.pad_h = g.folded_h.pad_before;
    folded.pad_w = g.folded_w.pad_before;
    // MAX_POOL_2D: -128 always; the zero point under RELU (act_min = zp).
    for (const std::int32_t value : {-128, zp}) {
      if (value != -128 && !relu) continue;
      std::vector<std::int8_t> want(n), got(n);
      const auto padded = Padded(c, static_cast<std::int8_t>(value));
      k::MaxPool(unfolded, ps, padded.data(), os, want.data());
      k::MaxPool(folded, is, c.input.data(), os, got.data());
      ASSERT_EQ(got, want) << "case " << i << " value " << value;
      ++max_checked;
    }
    if (!ReadsPadding(c, g)) {
      std::vector<std::int8_t> want(n), got(n);
      const auto padded = Padded(c, static_cast<std::int8_t>(zp));
      k::AveragePool(unfolded, ps, padded.data(), os, want.data());
      k::AveragePool(folded, is, c.input.data(), os, got.data());
      ASSERT_EQ(got, want) << "case " << i;
      ++average_checked;
    }
  }
  EXPECT_GT(max_checked, 2000);
  EXPECT_GT(average_checked, 40);
}

// Where the conditions fail the bytes differ. One column of padding on the
// left of [1,1,2,1] = {-100, -100}, a 2-wide window, stride 1, VALID.
TEST(KernelsPadFold, PoolsDifferOutsideTheFoldConditions) {
  const std::vector<std::int8_t> in = {-100, -100};
  const k::Shape4 is{1, 1, 2, 1}, ps{1, 1, 3, 1}, os{1, 1, 2, 1};
  std::vector<std::int8_t> padded(3);
  k::Pad<std::int8_t>(
      k::PadParams{is, k::Shape4{0, 0, 1, 0}, k::Shape4{0, 0, 0, 0}}, 0,
      in.data(), padded.data());
  std::vector<std::int8_t> want(2), got(2);
  // MAX_POOL_2D, zero point 0, no activation: max(0, -100) = 0 with the
  // PAD; the folded window sees -100 alone.
  k::MaxPool(k::PoolParams{1, 2, 1, 1, 0, 0, -128, 127}, ps, padded.data(), os,
             want.data());
  k::MaxPool(k::PoolParams{1, 2, 1, 1, 0, 1, -128, 127}, is, in.data(), os,
             got.data());
  EXPECT_EQ(want, (std::vector<std::int8_t>{0, -100}));
  EXPECT_EQ(got, (std::vector<std::int8_t>{-100, -100}));
  // AVERAGE_POOL_2D: (0 - 100) / 2 = -50 with the PAD (TFLM counts the
  // padded element); -100 / 1 folded.
  k::AveragePool(k::PoolParams{1, 2, 1, 1, 0, 0, -128, 127}, ps, padded.data(),
                 os, want.data());
  k::AveragePool(k::PoolParams{1, 2, 1, 1, 0, 1, -128, 127}, is, in.data(), os,
                 got.data());
  EXPECT_EQ(want, (std::vector<std::int8_t>{-50, -100}));
  EXPECT_EQ(got, (std::vector<std::int8_t>{-100, -100}));
}

}  // namespace
}  // namespace arenaplan
