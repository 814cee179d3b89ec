// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Dilated CONV_2D and DEPTHWISE_CONV_2D kernels against a second method: a
// convolution with kh x kw taps dilated dh x dw equals, exactly in integer
// arithmetic, the undilated convolution whose filter is the zero-inserted
// one of (kh - 1) * dh + 1 x (kw - 1) * dw + 1 taps (tap (ky, kx) at
// (ky * dh, kx * dw), zeros between: a zero tap adds (x + offset) * 0 = 0,
// in the padding as inside the input), with the same strides and leading
// padding. Random cases (fixed seeds): dilations 1 .. 4, strides 1 .. 3,
// SAME / VALID over the effective size (TFLite's padding written out
// here) or an explicit leading padding, batches, channels, depth
// multipliers, zero points, per-channel multipliers and shifts, activation
// ranges, with and without a bias. The reference kernels (conv.hpp) with
// dilation are compared with the reference kernels on the zero-inserted
// filter; the fast kernels (Conv2DDilatedFastWith, DepthwiseConv2DFastWith
// on DilatedConvParams) with the dilated reference, on both multiply-accumulate
// flavours (SimdMac<PortableIsa>, ScalarMac).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "arenaplan/kernels/kernels.hpp"
#include "tests/host/support/lcg.hpp"

namespace {

namespace k = arenaplan::kernels;

using ::arenaplan::testing_util::Lcg;

/// One spatial dimension: input extent, taps, dilation, stride, leading
/// padding, output extent.
struct Dim {
  std::int32_t in, k, dil, stride, pad, out;
  [[nodiscard]] std::int32_t Span() const { return (k - 1) * dil + 1; }
};

/// SAME (out = ceil(in / stride), total padding max(0, (out - 1) * stride
/// + span - in), half of it rounded down before), VALID (out = (in - span +
/// stride) / stride, no padding) or an explicit padding in [0, span - 1]
/// with an output whose last window starts inside the input.
Dim RandomDim(Lcg& rng, std::int32_t max_in, std::int32_t max_k) {
  for (;;) {
    Dim d{};
    d.in = rng.Next(1, max_in);
    d.k = rng.Next(1, max_k);
    d.dil = rng.Next(1, 4);
    d.stride = rng.Next(1, 3);
    const std::int32_t span = d.Span();
    const int mode = rng.Next(0, 2);
    if (mode == 0) {
      d.out = (d.in + d.stride - 1) / d.stride;
      const std::int32_t total = (d.out - 1) * d.stride + span - d.in;
      d.pad = total > 0 ? total / 2 : 0;
    } else if (mode == 1) {
      if (span > d.in) continue;
      d.out = (d.in - span + d.stride) / d.stride;
      d.pad = 0;
    } else {
      d.pad = rng.Next(0, span - 1);
      d.out = rng.Next(1, (d.in - 1 + d.pad) / d.stride + 1);
    }
    return d;
  }
}

/// The zero-inserted form of filter `w` ([n, kh, kw, c]): [n, span_h,
/// span_w, c], tap (ky, kx) at (ky * dh, kx * dw), zeros elsewhere.
std::vector<std::int8_t> ZeroInserted(const std::vector<std::int8_t>& w,
                                      const k::Shape4& f, std::int32_t dh,
                                      std::int32_t dw, k::Shape4* shape) {
  *shape = {f.n, (f.h - 1) * dh + 1, (f.w - 1) * dw + 1, f.c};
  std::vector<std::int8_t> z(static_cast<std::size_t>(shape->Count()), 0);
  for (std::int32_t n = 0; n < f.n; ++n) {
    for (std::int32_t y = 0; y < f.h; ++y) {
      for (std::int32_t x = 0; x < f.w; ++x) {
        for (std::int32_t c = 0; c < f.c; ++c) {
          z[static_cast<std::size_t>(
              ((n * shape->h + y * dh) * shape->w + x * dw) * f.c + c)] =
              w[static_cast<std::size_t>(((n * f.h + y) * f.w + x) * f.c + c)];
        }
      }
    }
  }
  return z;
}

/// One random case's operands.
struct Operands {
  k::DilatedConvParams p{};
  k::Shape4 in, filter, out;
  std::vector<std::int8_t> input, weights;
  std::vector<std::int32_t> bias, mult, folded;
  std::vector<std::int8_t> shift;
  bool with_bias = true;
  [[nodiscard]] k::ChannelQuant Quant() const {
    return {mult.data(), shift.data()};
  }
  [[nodiscard]] const std::int32_t* Bias() const {
    return with_bias ? bias.data() : nullptr;
  }
};

Operands RandomOperands(Lcg& rng, bool depthwise, std::int32_t max_c) {
  Operands o;
  const Dim dy = RandomDim(rng, 12, 3), dx = RandomDim(rng, 12, 4);
  const std::int32_t n = rng.Next(0, 4) == 0 ? 2 : 1;
  const std::int32_t c = rng.Next(1, max_c);
  const std::int32_t dm = depthwise ? rng.Next(1, 3) : 1;
  const std::int32_t oc = depthwise ? c * dm : rng.Next(1, 9);
  o.in = {n, dy.in, dx.in, c};
  o.out = {n, dy.out, dx.out, oc};
  o.filter =
      depthwise ? k::Shape4{1, dy.k, dx.k, oc} : k::Shape4{oc, dy.k, dx.k, c};
  const std::int32_t lo = rng.Next(0, 2) == 0 ? -128 : rng.Next(-128, 0);
  const std::int32_t hi = rng.Next(0, 2) == 0 ? 127 : rng.Next(lo, 127);
  o.p = {{rng.Next(-127, 128), rng.Next(-128, 127), lo, hi, dy.stride,
          dx.stride, dy.pad, dx.pad, dm},
         dy.dil,
         dx.dil};
  o.input.resize(static_cast<std::size_t>(o.in.Count()));
  for (auto& v : o.input) v = rng.Byte();
  o.weights.resize(static_cast<std::size_t>(o.filter.Count()));
  for (auto& v : o.weights) v = rng.Byte();
  for (std::int32_t i = 0; i < oc; ++i) {
    o.bias.push_back(rng.Next(-20000, 20000));
    o.mult.push_back(
        rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()));
    o.shift.push_back(static_cast<std::int8_t>(rng.Next(-12, 1)));
  }
  o.with_bias = rng.Next(0, 3) != 0;
  o.folded.resize(static_cast<std::size_t>(oc));
  (depthwise ? k::FoldDepthwiseBias : k::FoldConvBias)(
      o.p.input_offset, o.filter, o.weights.data(), o.Bias(), o.folded.data());
  return o;
}

std::string Text(const Operands& o) {
  return "in [" + std::to_string(o.in.n) + "," + std::to_string(o.in.h) + "," +
         std::to_string(o.in.w) + "," + std::to_string(o.in.c) + "] taps " +
         std::to_string(o.filter.h) + "x" + std::to_string(o.filter.w) +
         " dilation " + std::to_string(o.p.dilation_h) + "x" +
         std::to_string(o.p.dilation_w) + " stride " +
         std::to_string(o.p.stride_h) + "x" + std::to_string(o.p.stride_w) +
         " pad " + std::to_string(o.p.pad_h) + "," + std::to_string(o.p.pad_w) +
         " out_c " + std::to_string(o.out.c);
}

using Out = std::vector<std::int8_t>;

/// The zero-inserted undilated reference: the expected bytes.
Out Expected(const Operands& o, bool depthwise) {
  k::Shape4 zs{};
  const auto z =
      ZeroInserted(o.weights, o.filter, o.p.dilation_h, o.p.dilation_w, &zs);
  const k::ConvParams p = o.p;  // undilated
  Out y(static_cast<std::size_t>(o.out.Count()));
  (depthwise ? k::DepthwiseConv2D<k::ConvParams>
             : k::Conv2D<k::ConvParams>)(p, o.in, o.input.data(), zs, z.data(),
                                         o.Bias(), o.Quant(), o.out, y.data());
  return y;
}

TEST(KernelsDilatedConv, Conv2DEqualsTheZeroInsertedFilter) {
  Lcg rng(71);
  int dilated = 0, wide = 0;
  for (int i = 0; i < 1500 && !testing::Test::HasFailure(); ++i) {
    const Operands o = RandomOperands(rng, /*depthwise=*/false, 40);
    SCOPED_TRACE(Text(o));
    dilated += o.p.dilation_h != 1 || o.p.dilation_w != 1;
    wide += o.filter.h * o.filter.w * o.in.c > 256;
    const Out expect = Expected(o, false);
    Out ref(expect.size()), simd(expect.size()), scalar(expect.size());
    k::Conv2D(o.p, o.in, o.input.data(), o.filter, o.weights.data(), o.Bias(),
              o.Quant(), o.out, ref.data());
    EXPECT_EQ(ref, expect) << "reference";
    k::Conv2DDilatedFastWith<k::SimdMac<k::PortableIsa>>(
        o.p, o.in, o.input.data(), o.filter, o.weights.data(), o.folded.data(),
        o.Quant(), o.out, simd.data());
    EXPECT_EQ(simd, expect) << "Conv2DDilatedFast (SIMD)";
    k::Conv2DDilatedFastWith<k::ScalarMac>(o.p, o.in, o.input.data(), o.filter,
                                           o.weights.data(), o.folded.data(),
                                           o.Quant(), o.out, scalar.data());
    EXPECT_EQ(scalar, expect) << "Conv2DDilatedFast (scalar)";
  }
  EXPECT_GT(dilated, 1300);
  EXPECT_GT(wide, 50);  // the tap-by-tap path (windows over 256 bytes)
}

TEST(KernelsDilatedConv, DepthwiseConv2DEqualsTheZeroInsertedFilter) {
  Lcg rng(72);
  int dilated = 0, fast = 0;
  for (int i = 0; i < 1500 && !testing::Test::HasFailure(); ++i) {
    const Operands o = RandomOperands(rng, /*depthwise=*/true, 12);
    SCOPED_TRACE(Text(o));
    dilated += o.p.dilation_h != 1 || o.p.dilation_w != 1;
    const Out expect = Expected(o, true);
    Out ref(expect.size());
    k::DepthwiseConv2D(o.p, o.in, o.input.data(), o.filter, o.weights.data(),
                       o.Bias(), o.Quant(), o.out, ref.data());
    EXPECT_EQ(ref, expect) << "reference";
    if (o.p.depth_multiplier != 1) continue;  // the fast kernel's domain
    ++fast;
    Out simd(expect.size()), scalar(expect.size());
    std::vector<std::int8_t> scratch(
        static_cast<std::size_t>(k::DepthwiseConv2DFastScratchBytes(o.filter)),
        0x5a);
    k::DepthwiseConv2DFastWith<k::SimdMac<k::PortableIsa>>(
        o.p, o.in, o.input.data(), o.filter, o.weights.data(), o.folded.data(),
        o.Quant(), o.out, simd.data(), scratch.data());
    EXPECT_EQ(simd, expect) << "DepthwiseConv2DDilatedFast (SIMD)";
    k::DepthwiseConv2DFastWith<k::ScalarMac>(
        o.p, o.in, o.input.data(), o.filter, o.weights.data(), o.folded.data(),
        o.Quant(), o.out, scalar.data(), scratch.data());
    EXPECT_EQ(scalar, expect) << "DepthwiseConv2DDilatedFast (scalar)";
  }
  EXPECT_GT(dilated, 1300);
  EXPECT_GT(fast, 400);
}

// A hand-computed case: a 1x2-dilated Conv1D (Keras' Conv1D with
// dilation_rate 2 as CONV_2D), input 1x1x5x1 = (1, 2, 3, 4, 5), taps
// (1, 2, 3) two columns apart, SAME: span 5, two columns of padding before;
// output ox reads columns ox - 2, ox, ox + 2; a multiplier of exactly 1
// (2^30 with shift 1). Input offset 0: (2 + 9, 4 + 12, 1 + 6 + 15, 2 + 8,
// 3 + 10) = (11, 16, 22, 10, 13). Input offset 1 (zero point -1; the
// padding adds nothing): (4 + 12, 6 + 15, 2 + 8 + 18, 3 + 10, 4 + 12) =
// (16, 21, 28, 13, 16).
TEST(KernelsDilatedConv, Conv1DByHand) {
  const std::int8_t x[5] = {1, 2, 3, 4, 5}, w[3] = {1, 2, 3};
  const std::int32_t mult[1] = {1 << 30};
  const std::int8_t shift[1] = {1};
  const k::Shape4 in{1, 1, 5, 1}, f{1, 1, 3, 1}, out{1, 1, 5, 1};
  for (std::int32_t offset : {0, 1}) {
    const k::DilatedConvParams p{{offset, 0, -128, 127, 1, 1, 0, 2, 1}, 1, 2};
    std::int32_t folded[1] = {0};
    k::FoldConvBias(offset, f, w, nullptr, folded);
    Out ref(5), fast(5);
    k::Conv2D(p, in, x, f, w, nullptr, {mult, shift}, out, ref.data());
    k::Conv2DDilatedFast(p, in, x, f, w, folded, {mult, shift}, out,
                         fast.data());
    EXPECT_EQ(ref, offset == 0 ? (Out{11, 16, 22, 10, 13})
                               : (Out{16, 21, 28, 13, 16}));
    EXPECT_EQ(fast, ref);
  }
}

}  // namespace
