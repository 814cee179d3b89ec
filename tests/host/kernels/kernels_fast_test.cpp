// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The fast kernels (fast_conv.hpp, fast_fully_connected.hpp, dsp.hpp) give
// the same bytes as the reference kernels (conv.hpp, fully_connected.hpp),
// the oracle, on random cases (fixed seeds): shapes, strides, paddings
// (SAME, VALID, explicit leading padding), filter sizes, batches, zero
// points, per-channel multipliers and shifts, fused activation ranges, with
// and without a bias. Each kernel runs on both multiply-accumulate flavours:
// the SIMD loops with the DSP instructions' semantics in portable C++
// (SimdMac<PortableIsa>, what SimdMac<AcleIsa> computes on a Cortex-M4) and
// the scalar loops (ScalarMac, the path of cores without DSP). The DSP
// instructions themselves run in the QEMU runs of the shared models
// (`make test-reference`).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "arenaplan/kernels/kernels.hpp"
#include "codegen/tflite/geometry.hpp"
#include "tests/host/support/window_geometry.hpp"

namespace {

namespace k = arenaplan::kernels;
namespace tflite = arenaplan::tflite;

/// Deterministic pseudo-random integers (64-bit LCG, high bits).
class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : s_(seed) {}
  std::int64_t Next64(std::int64_t lo, std::int64_t hi) {
    s_ = s_ * 6364136223846793005ull + 1442695040888963407ull;
    const std::uint64_t r = (s_ >> 16) ^ (s_ << 21);
    return lo + static_cast<std::int64_t>(
                    r % static_cast<std::uint64_t>(hi - lo + 1));
  }
  std::int32_t Next(std::int32_t lo, std::int32_t hi) {
    return static_cast<std::int32_t>(Next64(lo, hi));
  }
  std::int8_t Byte() { return static_cast<std::int8_t>(Next(-128, 127)); }

 private:
  std::uint64_t s_;
};

constexpr int kCases = 2000;

namespace window_geometry = arenaplan::window_geometry;
using window_geometry::Dim;

/// A random dimension as the tests below draw it: taps 1 in one case of
/// four, else 1 .. max_k.
Dim RandomDim(Lcg& rng, std::int32_t max_in, std::int32_t max_k) {
  return window_geometry::RandomDim(rng, max_in, [max_k](Lcg& r) {
    return r.Next(0, 3) == 0 ? 1 : r.Next(1, max_k);
  });
}

/// Per-channel requantization, bias and activation of one random case.
struct Quant {
  std::vector<std::int32_t> bias, mult;
  std::vector<std::int8_t> shift;
  bool has_bias = true;
  std::int32_t in_zp = 0, out_zp = 0, act_min = -128, act_max = 127;
  [[nodiscard]] const std::int32_t* Bias() const {
    return has_bias ? bias.data() : nullptr;
  }
  [[nodiscard]] k::ChannelQuant Channel() const {
    return {mult.data(), shift.data()};
  }
};

Quant RandomQuant(Lcg& rng, std::int32_t channels) {
  Quant q;
  q.has_bias = rng.Next(0, 4) != 0;
  q.in_zp = rng.Next(-128, 127);
  q.out_zp = rng.Next(-128, 127);
  if (rng.Next(0, 2) == 0) {
    q.act_min = rng.Next(-128, 0);
    q.act_max = rng.Next(q.act_min, 127);
  }
  for (std::int32_t c = 0; c < channels; ++c) {
    q.bias.push_back(rng.Next(-(1 << 20), 1 << 20));
    q.mult.push_back(
        rng.Next(0, 15) == 0
            ? 0
            : rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()));
    q.shift.push_back(static_cast<std::int8_t>(rng.Next(-16, 1)));
  }
  return q;
}

std::vector<std::int8_t> RandomBytes(Lcg& rng, std::int64_t n) {
  std::vector<std::int8_t> v(static_cast<std::size_t>(n));
  for (auto& b : v) b = rng.Byte();
  return v;
}

/// Cases where the fast kernel differed from the reference.
struct Result {
  int cases = 0, clipped = 0, wrong = 0;
  std::string first;
};

enum class Kind { kConv, kDepthwise };

template <class Mac>
Result CheckWindow(Kind kind, std::uint64_t seed) {
  Lcg rng(seed);
  Result r;
  for (int i = 0; i < kCases; ++i) {
    const Dim dy = RandomDim(rng, 14, 5), dx = RandomDim(rng, 14, 5);
    const std::int32_t n = rng.Next(0, 5) == 0 ? 2 : 1;
    std::int32_t c = rng.Next(0, 3) == 0 ? rng.Next(1, 40) : rng.Next(1, 9);
    // Depthwise: sometimes more channels than one pass (kDepthwisePass).
    if (kind == Kind::kDepthwise && rng.Next(0, 7) == 0) c = rng.Next(60, 150);
    const std::int32_t oc = kind == Kind::kConv ? rng.Next(1, 13) : c;
    const k::Shape4 in{n, dy.in, dx.in, c}, out{n, dy.out, dx.out, oc};
    const k::Shape4 filter = kind == Kind::kConv ? k::Shape4{oc, dy.k, dx.k, c}
                                                 : k::Shape4{1, dy.k, dx.k, oc};
    const auto input = RandomBytes(rng, in.Count());
    const auto weights = RandomBytes(rng, filter.Count());
    const Quant q = RandomQuant(rng, oc);
    const k::ConvParams p{-q.in_zp,  q.out_zp, q.act_min, q.act_max, dy.stride,
                          dx.stride, dy.pad,   dx.pad,    1};
    std::vector<std::int8_t> want(static_cast<std::size_t>(out.Count()), 0);
    std::vector<std::int8_t> got(want.size(), 0x55);
    std::vector<std::int32_t> folded(static_cast<std::size_t>(oc));
    if (kind == Kind::kConv) {
      k::Conv2D(p, in, input.data(), filter, weights.data(), q.Bias(),
                q.Channel(), out, want.data());
      k::FoldConvBias(p.input_offset, filter, weights.data(), q.Bias(),
                      folded.data());
      std::vector<std::int8_t> scratch(
          static_cast<std::size_t>(k::Conv2DFastScratchBytes(filter)), 0x5a);
      k::Conv2DFastWith<Mac>(p, in, input.data(), filter, weights.data(),
                             folded.data(), q.Channel(), out, got.data(),
                             scratch.data());
    } else {
      k::DepthwiseConv2D(p, in, input.data(), filter, weights.data(), q.Bias(),
                         q.Channel(), out, want.data());
      k::FoldDepthwiseBias(p.input_offset, filter, weights.data(), q.Bias(),
                           folded.data());
      std::vector<std::int8_t> scratch(
          static_cast<std::size_t>(k::DepthwiseConv2DFastScratchBytes(filter)),
          0x5a);
      k::DepthwiseConv2DFastWith<Mac>(
          p, in, input.data(), filter, weights.data(), folded.data(),
          q.Channel(), out, got.data(), scratch.data());
    }
    ++r.cases;
    if (dy.pad > 0 || dx.pad > 0) ++r.clipped;
    if (got != want && r.wrong++ == 0) {
      r.first = "case " + std::to_string(i) + ": in [" + std::to_string(n) +
                "," + std::to_string(dy.in) + "," + std::to_string(dx.in) +
                "," + std::to_string(c) + "] k " + std::to_string(dy.k) + "x" +
                std::to_string(dx.k) + " stride " + std::to_string(dy.stride) +
                "x" + std::to_string(dx.stride) + " pad " +
                std::to_string(dy.pad) + "," + std::to_string(dx.pad) + " oc " +
                std::to_string(oc);
    }
  }
  return r;
}

template <class Mac>
Result CheckFullyConnected(std::uint64_t seed) {
  Lcg rng(seed);
  Result r;
  for (int i = 0; i < kCases; ++i) {
    const std::int32_t batches = rng.Next(1, 3);
    const std::int32_t depth =
        rng.Next(0, 3) == 0 ? rng.Next(1, 700) : rng.Next(1, 40);
    const std::int32_t units = rng.Next(1, 23);
    const auto input = RandomBytes(rng, std::int64_t{batches} * depth);
    const auto weights = RandomBytes(rng, std::int64_t{units} * depth);
    const Quant q = RandomQuant(rng, units);
    const k::FullyConnectedParams p{-q.in_zp, q.out_zp, q.act_min, q.act_max,
                                    batches,  depth,    units};
    std::vector<std::int8_t> want(static_cast<std::size_t>(batches * units), 0);
    std::vector<std::int8_t> got(want.size(), 0x55);
    std::vector<std::int32_t> folded(static_cast<std::size_t>(units));
    k::FullyConnected(p, input.data(), weights.data(), q.Bias(), q.Channel(),
                      want.data());
    k::FoldFullyConnectedBias(p.input_offset, units, depth, weights.data(),
                              q.Bias(), folded.data());
    k::FullyConnectedFastWith<Mac>(p, input.data(), weights.data(),
                                   folded.data(), q.Channel(), got.data());
    ++r.cases;
    if (got != want && r.wrong++ == 0) {
      r.first = "case " + std::to_string(i) + ": batches " +
                std::to_string(batches) + " depth " + std::to_string(depth) +
                " units " + std::to_string(units);
    }
  }
  return r;
}

/// A depthwise convolution of one input channel and depth multiplier m
/// (DepthwiseConv2D, the oracle) as the generator lowers it: Conv2DFast
/// with the filter transposed from [1, kh, kw, m] to [m, kh, kw, 1].
template <class Mac>
Result CheckDepthwiseOneChannel(std::uint64_t seed) {
  Lcg rng(seed);
  Result r;
  for (int i = 0; i < kCases; ++i) {
    const Dim dy = RandomDim(rng, 14, 5), dx = RandomDim(rng, 14, 5);
    const std::int32_t m = rng.Next(1, 16);
    const k::Shape4 in{1, dy.in, dx.in, 1}, out{1, dy.out, dx.out, m};
    const k::Shape4 dw_filter{1, dy.k, dx.k, m}, conv_filter{m, dy.k, dx.k, 1};
    const auto input = RandomBytes(rng, in.Count());
    const auto weights = RandomBytes(rng, dw_filter.Count());
    const std::int32_t taps = dy.k * dx.k;
    std::vector<std::int8_t> transposed(weights.size());
    for (std::int32_t t = 0; t < taps; ++t) {
      for (std::int32_t oc = 0; oc < m; ++oc) {
        transposed[static_cast<std::size_t>(oc * taps + t)] =
            weights[static_cast<std::size_t>(t * m + oc)];
      }
    }
    const Quant q = RandomQuant(rng, m);
    const k::ConvParams p{-q.in_zp,  q.out_zp, q.act_min, q.act_max, dy.stride,
                          dx.stride, dy.pad,   dx.pad,    m};
    std::vector<std::int8_t> want(static_cast<std::size_t>(out.Count()), 0);
    std::vector<std::int8_t> got(want.size(), 0x55);
    std::vector<std::int32_t> folded(static_cast<std::size_t>(m));
    k::DepthwiseConv2D(p, in, input.data(), dw_filter, weights.data(), q.Bias(),
                       q.Channel(), out, want.data());
    k::FoldConvBias(p.input_offset, conv_filter, transposed.data(), q.Bias(),
                    folded.data());
    k::ConvParams pc = p;
    pc.depth_multiplier = 1;
    std::vector<std::int8_t> scratch(
        static_cast<std::size_t>(k::Conv2DFastScratchBytes(conv_filter)), 0x5a);
    k::Conv2DFastWith<Mac>(pc, in, input.data(), conv_filter, transposed.data(),
                           folded.data(), q.Channel(), out, got.data(),
                           scratch.data());
    ++r.cases;
    if (dy.pad > 0 || dx.pad > 0) ++r.clipped;
    if (got != want && r.wrong++ == 0) {
      r.first = "case " + std::to_string(i) + ": m " + std::to_string(m);
    }
  }
  return r;
}

/// AddFast against Add on random operands, offsets, multipliers (some 0,
/// some exactly 2^30 with shift 0: equal input scales) and shifts.
Result CheckAdd(std::uint64_t seed) {
  Lcg rng(seed);
  Result r;
  auto multiplier = [&rng] {
    const int kind = rng.Next(0, 9);
    if (kind == 0) return 0;
    return rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max());
  };
  for (int i = 0; i < kCases; ++i) {
    const std::int32_t count = rng.Next(1, 200);
    k::AddParams p{};
    p.input1_offset = rng.Next(-127, 128);
    p.input2_offset = rng.Next(-127, 128);
    p.output_offset = rng.Next(-128, 127);
    p.left_shift = 20;
    if (rng.Next(0, 1) == 0) {  // the larger input scale: ratio 1/2
      p.input1_multiplier = 1 << 30, p.input1_shift = 0;
    } else {
      p.input1_multiplier = multiplier(), p.input1_shift = rng.Next(-6, 0);
    }
    p.input2_multiplier = multiplier(), p.input2_shift = rng.Next(-6, 0);
    p.output_multiplier = multiplier(), p.output_shift = rng.Next(-31, 1);
    p.act_min = -128, p.act_max = 127;
    if (rng.Next(0, 2) == 0) {
      p.act_min = rng.Next(-128, 0);
      p.act_max = rng.Next(p.act_min, 127);
    }
    p.count = count;
    const auto a = RandomBytes(rng, count), b = RandomBytes(rng, count);
    std::vector<std::int8_t> want(static_cast<std::size_t>(count), 0);
    std::vector<std::int8_t> got(want.size(), 0x55);
    k::Add(p, a.data(), b.data(), want.data());
    k::AddFast(p, a.data(), b.data(), got.data());
    ++r.cases;
    if (got != want && r.wrong++ == 0) {
      r.first = "case " + std::to_string(i) + ": count " +
                std::to_string(count) + " output shift " +
                std::to_string(p.output_shift);
    }
  }
  return r;
}

using Simd = k::SimdMac<k::PortableIsa>;
using Scalar = k::ScalarMac;

TEST(KernelsFast, RequantizeAccEqualsMultiplyByQuantizedMultiplier) {
  Lcg rng(7);
  int wrong = 0;
  const std::int32_t edges[] = {0,
                                1,
                                -1,
                                std::numeric_limits<std::int32_t>::max(),
                                std::numeric_limits<std::int32_t>::min(),
                                1 << 30,
                                -(1 << 30)};
  for (int i = 0; i < 200000; ++i) {
    const std::int32_t acc =
        i < 7 * 7 ? edges[i % 7]
                  : static_cast<std::int32_t>(
                        rng.Next64(std::numeric_limits<std::int32_t>::min(),
                                   std::numeric_limits<std::int32_t>::max()));
    const std::int32_t mult =
        i < 7 * 7 ? (i / 7 % 2 == 0 ? std::numeric_limits<std::int32_t>::max()
                                    : 1 << 30)
                  : rng.Next(0, std::numeric_limits<std::int32_t>::max());
    const int shift = rng.Next(-31, 30);
    if (k::RequantizeAcc(acc, mult, shift) !=
        k::MultiplyByQuantizedMultiplier(acc, mult, shift)) {
      ++wrong;
    }
  }
  EXPECT_EQ(wrong, 0);
}

TEST(KernelsFast, RequantizeEqualsMultiplyByQuantizedMultiplier) {
  // Every shift in [-31, 30] (RequantizeRight takes the negative ones),
  // random and edge accumulators and multipliers (0, 1, 2^30, 2^31 - 1, and
  // multipliers that make acc * M land on the ties of both roundings).
  Lcg rng(11);
  int wrong = 0, right_shifts = 0;
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  const std::int32_t edges[] = {0,    1,         -1,         kMax,
                                kMin, 1 << 30,   -(1 << 30), kMin + 1,
                                -2,   (1 << 15), -(1 << 15)};
  const std::int32_t mults[] = {0, 1, 1 << 30, kMax, (1 << 30) + 1};
  for (int i = 0; i < 250000; ++i) {
    auto acc = static_cast<std::int32_t>(rng.Next64(kMin, kMax));
    std::int32_t mult = rng.Next(0, kMax);
    const int shift = rng.Next(-31, 30);
    switch (i % 4) {
      case 0:
        acc = edges[rng.Next(0, 10)];
        break;
      case 1:
        mult = mults[rng.Next(0, 4)];
        break;
      case 2:
        // Small accumulators, as the layers produce: ties of the second
        // rounding are frequent.
        acc = rng.Next(-70000, 70000);
        mult = (1 << 30) + rng.Next(0, 3) * (1 << 28);  // below 2^31
        break;
      default:
        break;
    }
    if (shift < 0) ++right_shifts;
    if (k::Requantize(acc, mult, shift) !=
        k::MultiplyByQuantizedMultiplier(acc, mult, shift)) {
      ++wrong;
    }
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(right_shifts, 100000);
}

TEST(KernelsFast, OutputStageStoresEqualTheReferenceBytes) {
  // Store4 and Store2x2 (dsp.hpp) against the reference kernels' output
  // stage per byte: ClampToInt8(MultiplyByQuantizedMultiplier(acc, M, s) +
  // offset, lo, hi). 500,000 groups of four channels (2,000,000 bytes each
  // way): shifts mostly right shifts (the RequantizeRight path) with some
  // groups holding a left or zero shift (the per-byte fallback), the full
  // int8 clamp range (the Sat8 path) or a narrower one, random and small
  // accumulators, output offsets over int8.
  Lcg rng(23);
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  int wrong4 = 0, wrong22 = 0, fast_groups = 0, full_groups = 0;
  for (int i = 0; i < 500000; ++i) {
    std::int32_t mult[4], acc[4];
    std::int8_t shift[4];
    const bool mixed = rng.Next(0, 7) == 0;
    for (int c = 0; c < 4; ++c) {
      mult[c] =
          rng.Next(0, 3) == 0 ? rng.Next(1 << 30, kMax) : rng.Next(0, kMax);
      shift[c] = static_cast<std::int8_t>(mixed ? rng.Next(-31, 30)
                                                : rng.Next(-31, -1));
      acc[c] = rng.Next(0, 1) == 0
                   ? static_cast<std::int32_t>(rng.Next64(kMin, kMax))
                   : rng.Next(-300000, 300000);
    }
    const bool full = rng.Next(0, 1) == 0;
    std::int32_t lo = -128, hi = 127;
    if (!full) {
      lo = rng.Next(-128, 127);
      hi = rng.Next(lo, 127);
    }
    const k::OutputStage stage{mult, shift, rng.Next(-128, 127), lo, hi};
    ASSERT_EQ(stage.FullRange(), full || (lo == -128 && hi == 127));
    if ((shift[0] & shift[1] & shift[2] & shift[3]) < 0) ++fast_groups;
    if (stage.FullRange()) ++full_groups;
    std::int8_t want[4], got4[4], got_a[2], got_b[2];
    for (int c = 0; c < 4; ++c) {
      want[c] = k::ClampToInt8(
          k::MultiplyByQuantizedMultiplier(acc[c], mult[c], shift[c]) +
              stage.offset,
          lo, hi);
    }
    stage.Store4(acc, 0, got4, stage.FullRange());
    for (int c = 0; c < 4; ++c) wrong4 += got4[c] != want[c] ? 1 : 0;
    // Store2x2 with channels 2, 3: pixel a's accumulators are acc[2], acc[3]
    // and pixel b's acc[0], acc[1] taken as channels 2, 3 too.
    const std::int32_t b_acc[2] = {acc[0], acc[1]};
    stage.Store2x2(acc + 2, b_acc, 2, got_a, got_b, stage.FullRange());
    for (int c = 0; c < 2; ++c) {
      const std::int8_t want_b = k::ClampToInt8(
          k::MultiplyByQuantizedMultiplier(acc[c], mult[2 + c], shift[2 + c]) +
              stage.offset,
          lo, hi);
      wrong22 += got_a[c] != want[2 + c] ? 1 : 0;
      wrong22 += got_b[c] != want_b ? 1 : 0;
    }
  }
  EXPECT_EQ(wrong4, 0);
  EXPECT_EQ(wrong22, 0);
  EXPECT_GT(fast_groups, 400000);  // both paths well covered
  EXPECT_GT(500000 - fast_groups, 50000);
  EXPECT_GT(full_groups, 200000);
}

TEST(KernelsFast, RequantizeRightRoundsTiesAsTheTwoStepFormula) {
  // Hand-worked: M = 2^30 is the real multiplier 1/2 before the shift, so
  // acc * 2^30 * 2^(-31 - r) = acc / 2^(r + 1), rounded twice: first
  // h = round(acc / 2) (ties up), then h / 2^r (ties away from zero).
  // acc = 3, r = 1: h = round(1.5) = 2, 2 / 2 = 1.
  EXPECT_EQ(k::RequantizeRight(3, 1 << 30, 1), 1);
  // acc = -3, r = 1: h = round(-1.5) = -1 (ties toward +inf), -1 / 2 = -0.5
  // -> -1 (away from zero).
  EXPECT_EQ(k::RequantizeRight(-3, 1 << 30, 1), -1);
  // acc = -1, r = 1: h = round(-0.5) = 0 -> 0 (the [acc < 0] case with
  // h = 0 of the proof).
  EXPECT_EQ(k::RequantizeRight(-1, 1 << 30, 1), 0);
  // acc = 5, r = 2: h = round(2.5) = 3, 3 / 4 = 0.75 -> 1.
  EXPECT_EQ(k::RequantizeRight(5, 1 << 30, 2), 1);
  // acc = -12, r = 2: h = -6, -6 / 4 = -1.5 -> -2.
  EXPECT_EQ(k::RequantizeRight(-12, 1 << 30, 2), -2);
  // Largest operands: (2^31 - 1)^2 / 2^62 is just below 1: h = 2^31 - 2,
  // r = 31: (2^31 - 2) / 2^31 rounds to 1.
  EXPECT_EQ(k::RequantizeRight(std::numeric_limits<std::int32_t>::max(),
                               std::numeric_limits<std::int32_t>::max(), 31),
            1);
}

TEST(KernelsFast, PortableIsaMatchesTheInstructionDefinitions) {
  // Hand-worked lanes: 0x80FF7F01 holds bytes 0x01, 0x7F, 0xFF, 0x80, i.e.
  // 1, 127, -1, -128.
  EXPECT_EQ(k::PortableIsa::Sxtb16(0x80FF7F01u), 0xFFFF0001u);      // 1, -1
  EXPECT_EQ(k::PortableIsa::Sxtb16Ror8(0x80FF7F01u), 0xFF80007Fu);  // 127, -128
  // SMLAD: 10 + 1 * 127 + (-1) * (-128) = 265.
  EXPECT_EQ(k::PortableIsa::Smlad(0xFFFF0001u, 0xFF80007Fu, 10), 265);
  EXPECT_EQ(k::PortableIsa::Smlabb(0xFFFF0001u, 0xFF80007Fu, 10), 137);
  EXPECT_EQ(k::PortableIsa::Smlatt(0xFFFF0001u, 0xFF80007Fu, 10), 138);
  // -32768 * -32768 * 2 wraps modulo 2^32 like the instruction.
  EXPECT_EQ(k::PortableIsa::Smlad(0x80008000u, 0x80008000u, 0),
            std::numeric_limits<std::int32_t>::min());
}

void Report(const char* what, const Result& r) {
  EXPECT_EQ(r.cases, kCases) << what;
  EXPECT_EQ(r.wrong, 0) << what << ": " << r.first;
  std::printf("%s: %d cases (%d padded), %d differ\n", what, r.cases, r.clipped,
              r.wrong);
}

TEST(KernelsFast, Conv2DFastEqualsConv2D) {
  Report("Conv2DFast SIMD", CheckWindow<Simd>(Kind::kConv, 11));
  Report("Conv2DFast scalar", CheckWindow<Scalar>(Kind::kConv, 12));
}

TEST(KernelsFast, DepthwiseConv2DFastEqualsDepthwiseConv2D) {
  Report("DepthwiseConv2DFast SIMD", CheckWindow<Simd>(Kind::kDepthwise, 21));
  Report("DepthwiseConv2DFast scalar",
         CheckWindow<Scalar>(Kind::kDepthwise, 22));
}

TEST(KernelsFast, FullyConnectedFastEqualsFullyConnected) {
  Report("FullyConnectedFast SIMD", CheckFullyConnected<Simd>(31));
  Report("FullyConnectedFast scalar", CheckFullyConnected<Scalar>(32));
}

TEST(KernelsFast, OneChannelDepthwiseAsConv2DFastEqualsDepthwiseConv2D) {
  Report("one-channel depthwise as Conv2DFast SIMD",
         CheckDepthwiseOneChannel<Simd>(61));
  Report("one-channel depthwise as Conv2DFast scalar",
         CheckDepthwiseOneChannel<Scalar>(62));
}

TEST(KernelsFast, AddFastEqualsAdd) { Report("AddFast", CheckAdd(51)); }

/// Pointwise layers of 3 to 27 pixels (rows of width 3, 5, 7, 9, one to
/// three of them: runs of every length modulo 3) go in pixel triples
/// (Widen3, Dot3x2) on the SIMD path, each run ending in a triple, a pair
/// or two pairs; channels with and without tails (in_c % 4) and out_c up
/// to 64. Every byte equals Conv2D's.
TEST(KernelsFast, PointwiseTriplesEqualConv2D) {
  Lcg rng(71);
  int cases = 0;
  for (const std::int32_t w : {3, 5, 7, 9}) {
    for (const std::int32_t h : {1, 2, 3}) {
      for (const std::int32_t c : {3, 8, 13, 64}) {
        for (const std::int32_t oc : {2, 6, 64}) {
          const k::Shape4 in{1, h, w, c}, filter{oc, 1, 1, c}, out{1, h, w, oc};
          const auto input = RandomBytes(rng, in.Count());
          const auto weights = RandomBytes(rng, filter.Count());
          const Quant q = RandomQuant(rng, oc);
          const k::ConvParams p{-q.in_zp, q.out_zp, q.act_min, q.act_max, 1,
                                1,        0,        0,         1};
          std::vector<std::int8_t> want(static_cast<std::size_t>(out.Count()));
          std::vector<std::int8_t> got(want.size(), 0x55);
          std::vector<std::int32_t> folded(static_cast<std::size_t>(oc));
          k::Conv2D(p, in, input.data(), filter, weights.data(), q.Bias(),
                    q.Channel(), out, want.data());
          k::FoldConvBias(p.input_offset, filter, weights.data(), q.Bias(),
                          folded.data());
          std::vector<std::int8_t> scratch(
              static_cast<std::size_t>(k::Conv2DFastScratchBytes(filter)),
              0x5a);
          k::Conv2DFastWith<Simd>(p, in, input.data(), filter, weights.data(),
                                  folded.data(), q.Channel(), out, got.data(),
                                  scratch.data());
          EXPECT_EQ(got, want)
              << "in [1," << h << "," << w << "," << c << "] oc " << oc;
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 144);
}

/// Dot3x2's sums, against the definition (sum over the bytes of each
/// pixel times each channel's weights), n a multiple of 4.
TEST(KernelsFast, Dot3x2SumsEqualTheDefinition) {
  Lcg rng(72);
  for (const std::int32_t n : {4, 8, 60, 64}) {
    const auto a = RandomBytes(rng, n), b = RandomBytes(rng, n),
               c = RandomBytes(rng, n), w = RandomBytes(rng, 2 * n);
    std::vector<std::uint32_t> wide(static_cast<std::size_t>(6 * n / 4));
    Simd::Widen3(a.data(), b.data(), c.data(), n, wide.data());
    std::int32_t acc[6] = {1, -2, 3, -4, 5, -6};
    const std::int32_t start[6] = {1, -2, 3, -4, 5, -6};
    Simd::Dot3x2(wide.data(), w.data(), n, n, acc);
    const std::vector<std::int8_t>* x[3] = {&a, &b, &c};
    for (int p = 0; p < 3; ++p) {
      for (int ch = 0; ch < 2; ++ch) {
        std::int32_t want = start[2 * p + ch];
        for (std::int32_t i = 0; i < n; ++i) {
          want += (*x[p])[static_cast<std::size_t>(i)] *
                  w[static_cast<std::size_t>(ch * n + i)];
        }
        EXPECT_EQ(acc[2 * p + ch], want)
            << "n " << n << " pixel " << p << " channel " << ch;
      }
    }
  }
}

/// A wrong fold must be caught: the check above is not vacuous.
TEST(KernelsFast, AnUnfoldedBiasGivesOtherBytes) {
  const k::Shape4 in{1, 4, 4, 8}, filter{4, 1, 1, 8}, out{1, 4, 4, 4};
  Lcg rng(41);
  const auto input = RandomBytes(rng, in.Count());
  const auto weights = RandomBytes(rng, filter.Count());
  const std::vector<std::int32_t> bias(4, 0), mult(4, 1 << 30);
  const std::vector<std::int8_t> shift(4, -4);
  const k::ConvParams p{100, 0, -128, 127, 1, 1, 0, 0, 1};
  std::vector<std::int8_t> want(static_cast<std::size_t>(out.Count()));
  std::vector<std::int8_t> got(want.size());
  k::Conv2D(p, in, input.data(), filter, weights.data(), bias.data(),
            {mult.data(), shift.data()}, out, want.data());
  std::vector<std::int8_t> scratch(
      static_cast<std::size_t>(k::Conv2DFastScratchBytes(filter)));
  k::Conv2DFastWith<Simd>(p, in, input.data(), filter, weights.data(),
                          bias.data(), {mult.data(), shift.data()}, out,
                          got.data(), scratch.data());
  EXPECT_NE(got, want);
}

}  // namespace
