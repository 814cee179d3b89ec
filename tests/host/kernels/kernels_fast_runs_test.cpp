// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The fast convolution's pixel runs (fast_conv.hpp RunSink: pointwise
// windows in groups of five and four, PixelRun; gathered windows in
// triples) and the fused pools' lane sums (fused.hpp AddLanes) against
// their definitions: Conv2D (conv.hpp), the oracle, byte for byte on every
// run length of 1 to 13 pixels a row, and sums taken one byte at a time.
// The SIMD loops run with the DSP instructions' semantics in portable C++
// (SimdMac<PortableIsa>); their assembly runs on the boards
// (tests/target/kernels_property, `make test-kernels-board`).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "arenaplan/kernels/fused.hpp"
#include "arenaplan/kernels/kernels.hpp"
#include "tests/host/support/lcg.hpp"

namespace {

namespace k = arenaplan::kernels;
using arenaplan::testing_util::Lcg;
using Simd = k::SimdMac<k::PortableIsa>;

std::vector<std::int8_t> RandomBytes(Lcg& rng, std::int32_t n) {
  std::vector<std::int8_t> v(static_cast<std::size_t>(n));
  for (auto& b : v) b = rng.Byte();
  return v;
}

/// One convolution case: random weights, per-channel requantization (right
/// shifts, and a left shift in one channel of eight), zero points and bias;
/// Conv2DFastWith<Simd> against Conv2D. Returns whether every byte is equal.
bool FastEqualsReference(Lcg& rng, const k::Shape4& in, const k::Shape4& filter,
                         const k::Shape4& out, std::int32_t stride,
                         std::int32_t pad) {
  const std::int32_t oc = filter.n;
  const auto input = RandomBytes(rng, in.Count());
  const auto weights = RandomBytes(rng, filter.Count());
  std::vector<std::int32_t> bias(static_cast<std::size_t>(oc)),
      mult(static_cast<std::size_t>(oc)), folded(static_cast<std::size_t>(oc));
  std::vector<std::int8_t> shift(static_cast<std::size_t>(oc));
  for (std::int32_t c = 0; c < oc; ++c) {
    const auto i = static_cast<std::size_t>(c);
    bias[i] = rng.Next(-(1 << 16), 1 << 16);
    mult[i] = rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max());
    shift[i] =
        static_cast<std::int8_t>(rng.Next(0, 7) == 0 ? 1 : rng.Next(-9, -1));
  }
  const std::int32_t in_zp = rng.Next(-128, 127);
  const k::ConvParams p{
      -in_zp, rng.Next(-128, 127), -128, 127, stride, stride, pad, pad, 1};
  std::vector<std::int8_t> want(static_cast<std::size_t>(out.Count()));
  std::vector<std::int8_t> got(want.size(), 0x55);
  k::Conv2D(p, in, input.data(), filter, weights.data(), bias.data(),
            {mult.data(), shift.data()}, out, want.data());
  k::FoldConvBias(p.input_offset, filter, weights.data(), bias.data(),
                  folded.data());
  std::vector<std::int8_t> scratch(
      static_cast<std::size_t>(k::Conv2DFastScratchBytes(filter)), 0x5a);
  k::Conv2DFastWith<Simd>(p, in, input.data(), filter, weights.data(),
                          folded.data(), {mult.data(), shift.data()}, out,
                          got.data(), scratch.data());
  return got == want;
}

/// Pointwise layers of every row width 1 to 13 (one to three rows, so runs
/// of 1 to 39 pixels), strides 1 and 2: without padding and with in_c a
/// multiple of 4 the whole call is one run in groups of five and four
/// (PixelRun) ending in a triple, a pair or two pairs; with tails (in_c 13)
/// or padding (clipped windows) the triples of VectorSink; odd out_c one
/// pixel at a time. Every byte equals Conv2D's.
TEST(KernelsFastRuns, PointwiseRunsEqualConv2D) {
  Lcg rng(301);
  int cases = 0, wrong = 0;
  for (std::int32_t w = 1; w <= 13; ++w) {
    for (const std::int32_t h : {1, 3}) {
      for (const std::int32_t c : {4, 12, 64, 13}) {
        for (const std::int32_t oc : {2, 7, 16}) {
          for (const std::int32_t stride : {1, 2}) {
            const std::int32_t pad = w == 5 ? 1 : 0;  // some clipped runs
            const std::int32_t in_w = (w - 1) * stride + 1 - 2 * pad;
            const std::int32_t in_h = (h - 1) * stride + 1 - 2 * pad;
            if (in_w < 1 || in_h < 1) continue;
            const k::Shape4 in{1, in_h, in_w, c}, filter{oc, 1, 1, c},
                out{1, h, w, oc};
            ++cases;
            if (!FastEqualsReference(rng, in, filter, out, stride, pad)) {
              ADD_FAILURE()
                  << "pointwise in [1," << in_h << "," << in_w << "," << c
                  << "] oc " << oc << " stride " << stride << " pad " << pad;
              ++wrong;
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 600);  // 13 x 2 x 4 x 3 x 2, less w 5 h 1 with padding
  EXPECT_EQ(wrong, 0);
}

/// Gathered windows (3x3 of 1, 3 and 7 channels, 10x4 of 1: 9, 27, 63 and
/// 40 bytes, in triples; 3x3 of 8 channels, 72 bytes, in pairs) on output
/// rows of every width 1 to 11, one or two rows, SAME padding (so the edge
/// windows are clipped and gathered with the zero point too). Every byte
/// equals Conv2D's.
TEST(KernelsFastRuns, GatheredRunsEqualConv2D) {
  Lcg rng(302);
  struct Window {
    std::int32_t kh, kw, c;
  };
  int cases = 0, wrong = 0;
  for (const Window win : {Window{3, 3, 1}, Window{3, 3, 3}, Window{3, 3, 7},
                           Window{10, 4, 1}, Window{3, 3, 8}}) {
    for (std::int32_t w = 1; w <= 11; ++w) {
      for (const std::int32_t h : {1, 2}) {
        for (const std::int32_t oc : {2, 8}) {
          const std::int32_t pad = 1;
          const k::Shape4 in{1, h + win.kh - 1 - 2 * pad,
                             w + win.kw - 1 - 2 * pad, win.c},
              filter{oc, win.kh, win.kw, win.c}, out{1, h, w, oc};
          if (in.w < 1) continue;
          ++cases;
          if (!FastEqualsReference(rng, in, filter, out, 1, pad)) {
            ADD_FAILURE() << "gathered " << win.kh << "x" << win.kw << "x"
                          << win.c << " out [1," << h << "," << w << "," << oc
                          << "]";
            ++wrong;
          }
        }
      }
    }
  }
  EXPECT_EQ(cases, 220);  // 5 windows x 11 x 2 x 2
  EXPECT_EQ(wrong, 0);
}

/// RunSink's groups of a run of n pixels: they add up to n, none larger
/// than the kind allows (five pointwise, three gathered), and one pixel
/// alone only when the run is one pixel.
template <int kMax>
void ExpectGroupsCover(std::int32_t n) {
  using Sink = k::fast_detail::RunSink<Simd, kMax>;
  std::int32_t left = n, groups = 0;
  while (left > 0) {
    const std::int32_t g = Sink::GroupOf(left);
    ASSERT_GE(g, 1);
    ASSERT_LE(g, kMax);
    ASSERT_LE(g, left);
    if (g == 1) {
      EXPECT_EQ(n, 1) << "a lone pixel in a run of " << n;
    }
    left -= g, ++groups;
  }
  EXPECT_EQ(left, 0);
  EXPECT_LE(groups, (n + 1) / 2) << "run of " << n;
}

TEST(KernelsFastRuns, GroupsCoverEachRunOnce) {
  for (std::int32_t n = 1; n <= 64; ++n) {
    ExpectGroupsCover<5>(n);
    ExpectGroupsCover<3>(n);
  }
  // The hand-worked splits the header comment names.
  using Five = k::fast_detail::RunSink<Simd, 5>;
  EXPECT_EQ(Five::GroupOf(5), 5);
  EXPECT_EQ(Five::GroupOf(6), 3);  // 3 + 3
  EXPECT_EQ(Five::GroupOf(7), 4);  // 4 + 3
  EXPECT_EQ(Five::GroupOf(9), 4);  // 4 + 5
  EXPECT_EQ(Five::GroupOf(24), 5);
}

/// DotNx1's sums against the definition (sum over the bytes of each pixel
/// times the channel's weights), n a multiple of 4, odd and even steps.
template <int kN>
void ExpectDotNx1Sums(Lcg& rng) {
  for (const std::int32_t n : {4, 8, 12, 60, 64}) {
    std::vector<std::vector<std::int8_t>> x;
    const std::int8_t* ptr[kN];
    for (int p = 0; p < kN; ++p) x.push_back(RandomBytes(rng, n));
    for (int p = 0; p < kN; ++p) ptr[p] = x[static_cast<std::size_t>(p)].data();
    const auto w = RandomBytes(rng, n);
    std::vector<std::uint32_t> wide(static_cast<std::size_t>(2 * kN * n / 4));
    Simd::WidenN<kN>(ptr, n, wide.data());
    std::int32_t acc[kN];
    for (int p = 0; p < kN; ++p) acc[p] = 1000 * p - 7;
    Simd::DotNx1<kN>(wide.data(), w.data(), n, acc);
    for (int p = 0; p < kN; ++p) {
      std::int32_t want = 1000 * p - 7;
      for (std::int32_t i = 0; i < n; ++i) {
        const auto u = static_cast<std::size_t>(i);
        want += x[static_cast<std::size_t>(p)][u] * w[u];
      }
      EXPECT_EQ(acc[p], want) << "kN " << kN << " n " << n << " pixel " << p;
    }
  }
}

TEST(KernelsFastRuns, DotNx1SumsEqualTheDefinition) {
  Lcg rng(303);
  ExpectDotNx1Sums<4>(rng);
  ExpectDotNx1Sums<5>(rng);
}

/// AddLanes (16-bit lanes, SXTAB16) adds to each of four running sums the
/// same as a byte loop does, for 1 to 256 pixels (a lane's limit), the
/// extremes included: 256 bytes of -128 sum to -32,768.
TEST(KernelsFastRuns, LaneSumsEqualByteSums) {
  Lcg rng(304);
  for (std::int32_t cols = 1; cols <= 256; cols += (cols < 8 ? 1 : 37)) {
    for (const int fill : {0, -128, 127}) {
      const std::int32_t step = 4 + 4 * (cols % 3);  // channels a pixel
      std::vector<std::int8_t> row(static_cast<std::size_t>(cols * step));
      for (auto& b : row) {
        b = fill == 0 ? rng.Byte() : static_cast<std::int8_t>(fill);
      }
      alignas(4) std::uint8_t state[16];
      std::int32_t start[4], want[4];
      for (int c = 0; c < 4; ++c) {
        start[c] = want[c] = rng.Next(-100000, 100000);
        for (std::int32_t x = 0; x < cols; ++x) {
          want[c] += row[static_cast<std::size_t>(x * step + c)];
        }
      }
      std::memcpy(state, start, sizeof start);
      k::fused_detail::AddLanes<true, k::PortableIsa>(
          state, row.data(), row.data() + cols * step, step);
      std::int32_t got[4];
      std::memcpy(got, state, sizeof got);
      for (int c = 0; c < 4; ++c) {
        EXPECT_EQ(got[c], want[c])
            << "cols " << cols << " fill " << fill << " channel " << c;
      }
    }
  }
}

}  // namespace
