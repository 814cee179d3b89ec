// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The DSP path of the 16x8 CONV_2D and FULLY_CONNECTED
// (kernels/include/arenaplan/kernels/int16/fast.hpp) on PortableIsa, the
// C++ semantics of the instructions AcleIsa issues on a Cortex-M4, against
// the reference loops (Conv2DReference, FullyConnectedReference) on random
// shapes, strides, paddings, dilations and both accumulator widths. For
// 64-bit sums the values span the whole int16 and int8 ranges, so the sums
// exceed 2^31 where the windows are long; for 32-bit sums the activations
// stay within +-2000 (the reference's int32 sum must not overflow).
// The repacking and the largest sums are checked against hand-derived
// values.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "arenaplan/kernels/int16/int16.hpp"
#include "tests/host/support/lcg.hpp"

namespace {

namespace k = arenaplan::kernels;
namespace k16 = arenaplan::kernels::int16;
using arenaplan::testing_util::Lcg;

TEST(KernelsInt16Fast, PacksHalfwordsAsPkhbtAndPkhtb) {
  // Words (x0, x1) = (0x1111, 0x2222) and (x2, x3) = (0x3333, 0x4444).
  EXPECT_EQ(k::PortableIsa::PackLo(0x22221111u, 0x44443333u), 0x33331111u);
  EXPECT_EQ(k::PortableIsa::PackHi(0x22221111u, 0x44443333u), 0x44442222u);
}

TEST(KernelsInt16Fast, SumsTheLargestProductsPastTwoToThe31) {
  // 1531 products of -32768 * -128 = 2^22: the sum 1531 * 2^22 exceeds
  // 2^31 (three 508-term partial sums and 7 more terms); bias -1531 * 2^22
  // + 5 leaves 5, times the multiplier 2^30 (0.5, R = 2^14) with shift 0:
  // 5 * 2^14 / 2^15 = 2.5, rounded half up to 3.
  const std::int32_t depth = 1531;
  const std::vector<std::int16_t> input(depth, -32768);
  const std::vector<std::int8_t> weights(2 * depth, -128);
  const std::int64_t bias[2] = {-1531ll * (1 << 22) + 5,
                                -1531ll * (1 << 22) - 7};
  const std::int32_t multiplier[2] = {1 << 30, 1 << 30};
  const std::int8_t shift[2] = {0, 0};
  const k::FullyConnectedParams p{0, 0, -32768, 32767, 1, depth, 2};
  std::int16_t out[2] = {0, 0};
  k16::FullyConnectedFastWith<k::PortableIsa>(p, input.data(), weights.data(),
                                              bias, {multiplier, shift}, out);
  EXPECT_EQ(out[0], 3);
  EXPECT_EQ(out[1], -3);  // -3.5 rounded half up
}

/// Activations for an accumulator Acc: for int64 drawn over the whole
/// range, a third at -32768 (the largest products); for int32 within
/// +-2000.
template <class Acc>
std::vector<std::int16_t> Activations(Lcg& r, std::int32_t n) {
  std::vector<std::int16_t> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    const std::int32_t pick = r.Next(0, 2);
    if (sizeof(Acc) == 4) {
      x = static_cast<std::int16_t>(r.Next(-2000, 2000));
    } else {
      x = static_cast<std::int16_t>(pick == 0   ? r.Next(-32768, 32767)
                                    : pick == 1 ? -32768
                                                : r.Next(-300, 300));
    }
  }
  return v;
}
std::vector<std::int8_t> Weights(Lcg& r, std::int32_t n) {
  std::vector<std::int8_t> v(static_cast<std::size_t>(n));
  for (auto& w : v) w = r.Next(0, 2) == 0 ? std::int8_t{-128} : r.Byte();
  return v;
}

struct Quant {
  std::vector<std::int32_t> multiplier;
  std::vector<std::int8_t> shift;
  k::ChannelQuant View() const { return {multiplier.data(), shift.data()}; }
};
/// Multipliers in [2^30, 2^31) and shifts small enough that large sums
/// reach both ends of the int16 clamp and the middle.
Quant Quants(Lcg& r, std::int32_t n, std::int32_t lo_shift,
             std::int32_t hi_shift) {
  Quant q;
  for (std::int32_t i = 0; i < n; ++i) {
    q.multiplier.push_back((1 << 30) + r.Next(0, (1 << 30) - 1));
    q.shift.push_back(static_cast<std::int8_t>(r.Next(lo_shift, hi_shift)));
  }
  return q;
}

template <class Acc>
std::vector<Acc> Biases(Lcg& r, std::int32_t n) {
  std::vector<Acc> v;
  for (std::int32_t i = 0; i < n; ++i) v.push_back(r.Next(-1 << 24, 1 << 24));
  return v;
}

template <class Acc, class Params>
void CompareConv(Lcg& r, const Params& p, const k::Shape4& in_s,
                 const k::Shape4& f_s, const k::Shape4& out_s, bool bias) {
  const auto input = Activations<Acc>(r, in_s.n * in_s.h * in_s.w * in_s.c);
  const auto filter = Weights(r, f_s.n * f_s.h * f_s.w * f_s.c);
  const auto b = Biases<Acc>(r, out_s.c);
  const Quant q = Quants(r, out_s.c, -24, -12);
  const std::size_t n =
      static_cast<std::size_t>(out_s.n * out_s.h * out_s.w * out_s.c);
  std::vector<std::int16_t> want(n, 0x5a5a), got(n, 0x5a5a);
  const Acc* bp = bias ? b.data() : nullptr;
  k16::Conv2DReference(p, in_s, input.data(), f_s, filter.data(), bp, q.View(),
                       out_s, want.data());
  k16::Conv2DFastWith<k::PortableIsa>(p, in_s, input.data(), f_s, filter.data(),
                                      bp, q.View(), out_s, got.data());
  ASSERT_EQ(got, want) << "in " << in_s.h << "x" << in_s.w << "x" << in_s.c
                       << " filter " << f_s.h << "x" << f_s.w << " out_c "
                       << out_s.c << " stride " << p.stride_h << ","
                       << p.stride_w << " pad " << p.pad_h << "," << p.pad_w;
}

/// One random CONV_2D case: dilation 1 or up to 3, padding up to the
/// filter's reach, output size from TFLite's formula.
template <class Acc>
void RandomConv(Lcg& r, bool dilated) {
  const std::int32_t in_c = r.Next(1, 19), out_c = r.Next(1, 9);
  const std::int32_t kh = r.Next(1, 4), kw = r.Next(1, 7);
  const std::int32_t dh = dilated ? r.Next(1, 3) : 1;
  const std::int32_t dw = dilated ? r.Next(2, 3) : 1;
  const std::int32_t sh = r.Next(1, 3), sw = r.Next(1, 3);
  const std::int32_t ih = r.Next(1, 7), iw = r.Next(1, 12);
  const std::int32_t reach_h = (kh - 1) * dh + 1, reach_w = (kw - 1) * dw + 1;
  const std::int32_t ph = r.Next(0, reach_h - 1), pw = r.Next(0, reach_w - 1);
  const std::int32_t oh = (ih + 2 * ph - reach_h) / sh + 1;
  const std::int32_t ow = (iw + 2 * pw - reach_w) / sw + 1;
  if (oh < 1 || ow < 1) return;
  const k::Shape4 in_s{r.Next(1, 2), ih, iw, in_c};
  const k::Shape4 f_s{out_c, kh, kw, in_c};
  const k::Shape4 out_s{in_s.n, oh, ow, out_c};
  const k::ConvParams base{0, 0, -32768, 32767, sh, sw, ph, pw, 1};
  const bool bias = r.Next(0, 3) != 0;
  if (dilated) {
    CompareConv<Acc>(r, k::DilatedConvParams{base, dh, dw}, in_s, f_s, out_s,
                     bias);
  } else {
    CompareConv<Acc>(r, base, in_s, f_s, out_s, bias);
  }
}

TEST(KernelsInt16Fast, ConvMatchesTheReferenceWithSixtyFourBitSums) {
  Lcg r(0x16c0);
  for (int i = 0; i < 400; ++i) RandomConv<std::int64_t>(r, false);
  for (int i = 0; i < 200; ++i) RandomConv<std::int64_t>(r, true);
}

TEST(KernelsInt16Fast, ConvMatchesTheReferenceWithThirtyTwoBitSums) {
  Lcg r(0x16c1);
  for (int i = 0; i < 300; ++i) RandomConv<std::int32_t>(r, false);
  for (int i = 0; i < 100; ++i) RandomConv<std::int32_t>(r, true);
}

TEST(KernelsInt16Fast, ConvMatchesTheReferenceOnALongWindow) {
  // 3 x 9 x 64 = 1728 terms per output: sums beyond 2^31 in magnitude
  // where the input sits at -32768 and the weights at -128.
  Lcg r(0x16c2);
  const k::Shape4 in_s{1, 5, 16, 64}, f_s{3, 3, 9, 64}, out_s{1, 5, 16, 3};
  CompareConv<std::int64_t>(r,
                            k::ConvParams{0, 0, -32768, 32767, 1, 1, 1, 4, 1},
                            in_s, f_s, out_s, true);
}

template <class Acc>
void RandomFullyConnected(Lcg& r) {
  const std::int32_t batches = r.Next(1, 3), depth = r.Next(1, 700);
  const std::int32_t units = r.Next(1, 9);
  const auto input = Activations<Acc>(r, batches * depth);
  const auto weights = Weights(r, units * depth);
  const auto b = Biases<Acc>(r, units);
  const Quant q = Quants(r, units, -26, -12);
  const k::FullyConnectedParams p{0,       r.Next(-5, 5), -32768, 32767,
                                  batches, depth,         units};
  const Acc* bp = r.Next(0, 3) != 0 ? b.data() : nullptr;
  std::vector<std::int16_t> want(static_cast<std::size_t>(batches * units)),
      got(want.size());
  k16::FullyConnectedReference(p, input.data(), weights.data(), bp, q.View(),
                               want.data());
  k16::FullyConnectedFastWith<k::PortableIsa>(p, input.data(), weights.data(),
                                              bp, q.View(), got.data());
  ASSERT_EQ(got, want) << "batches " << batches << " depth " << depth
                       << " units " << units;
}

TEST(KernelsInt16Fast, FullyConnectedMatchesTheReference) {
  Lcg r(0x16f0);
  for (int i = 0; i < 300; ++i) RandomFullyConnected<std::int64_t>(r);
  for (int i = 0; i < 200; ++i) RandomFullyConnected<std::int32_t>(r);
}

}  // namespace
