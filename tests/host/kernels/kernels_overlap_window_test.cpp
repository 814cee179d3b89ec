// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The overlap contracts of the sliding-window kernels (CONV_2D,
// DEPTHWISE_CONV_2D, their fast and dilated forms, pooling) on random
// shapes, strides, paddings (SAME, VALID, and explicit leading padding
// within the contract's preconditions), filter sizes, dilations, depth
// multipliers, channel counts and batches (fixed seeds), checked the two
// ways of tests/host/support/overlap_case.hpp; and hand-derived figures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "arenaplan/kernels/kernels.hpp"
#include "codegen/tflite/geometry.hpp"
#include "tests/host/support/overlap_case.hpp"
#include "tests/host/support/window_geometry.hpp"

namespace {

namespace k = arenaplan::kernels;
namespace tflite = arenaplan::tflite;
using arenaplan::overlap_case::Case;
using arenaplan::overlap_case::CheckCase;
using arenaplan::overlap_case::Lcg;
using arenaplan::overlap_case::ShapeText;
using arenaplan::overlap_case::Tally;
using arenaplan::overlap_case::Trace;
using arenaplan::overlap_case::Write;
namespace window_geometry = arenaplan::window_geometry;
using window_geometry::Dim;
using window_geometry::RandomDilatedDim;

// --- sliding-window kernels ------------------------------------------------

/// kConvFast and kDepthwiseFast are fast_conv.hpp's kernels (on the SIMD
/// loops with the portable DSP semantics), checked against the reference
/// kernels' contracts and trace, which fast_conv.hpp states they keep.
enum class Window {
  kConv,
  kDepthwise,
  kAveragePool,
  kMaxPool,
  kConvFast,
  kDepthwiseFast,
  /// A one-input-channel depthwise convolution as the generator lowers it:
  /// Conv2DFast with the filter transposed, under the depthwise contract.
  kDepthwiseAsConv
};

/// A random dimension as the tests below draw it: taps 1 in three cases
/// of ten, else 1 .. 4.
Dim RandomDim(Lcg& rng, std::int32_t max_in) {
  return window_geometry::RandomDim(
      rng, max_in, [](Lcg& r) { return r.Next(0, 9) < 3 ? 1 : r.Next(1, 4); });
}

/// Everything a window kernel call needs, kept alive by the Case lambdas.
struct WindowCall {
  Window kind;
  k::Shape4 in, filter, out;
  k::DilatedConvParams conv{};
  k::PoolParams pool{};
  std::vector<std::int8_t> weights,
      transposed;  ///< transposed: as [oc, kh, kw, 1]
  std::vector<std::int32_t> bias, mult, folded;
  std::vector<std::int8_t> shift;
};

/// The trace of the loop order stated in conv.hpp / pooling.hpp
/// (window_geometry.hpp's, on this call's geometry).
void WindowTrace(const WindowCall& w, Trace& t) {
  const bool pool =
      w.kind == Window::kAveragePool || w.kind == Window::kMaxPool;
  window_geometry::Window g;
  g.order = w.kind == Window::kConv || w.kind == Window::kConvFast
                ? window_geometry::WindowOrder::kWholeWindow
                : window_geometry::WindowOrder::kChannelByChannel;
  g.in = w.in;
  g.out = w.out;
  g.y = {w.in.h,
         pool ? w.pool.filter_h : w.filter.h,
         pool ? w.pool.stride_h : w.conv.stride_h,
         pool ? w.pool.pad_h : w.conv.pad_h,
         w.out.h,
         pool ? 1 : w.conv.dilation_h};
  g.x = {w.in.w,
         pool ? w.pool.filter_w : w.filter.w,
         pool ? w.pool.stride_w : w.conv.stride_w,
         pool ? w.pool.pad_w : w.conv.pad_w,
         w.out.w,
         pool ? 1 : w.conv.dilation_w};
  g.depth_multiplier = pool ? 1 : w.conv.depth_multiplier;
  window_geometry::WindowTrace(g, t);
}

/// Whether a convolution's window is dilated (the generator's choice of the
/// dilated fast kernels, codegen/compile/lower_conv.cpp).
bool Dilated(const k::DilatedConvParams& p) {
  return p.dilation_h != 1 || p.dilation_w != 1;
}

/// The generator's fast convolution for `p`: Conv2DDilatedFast when
/// dilated, else Conv2DFast on the undilated ConvParams (SIMD loops with
/// the portable DSP semantics).
void ConvFast(const k::DilatedConvParams& p, const k::Shape4& in_shape,
              const std::int8_t* input, const k::Shape4& filter_shape,
              const std::int8_t* filter, const std::int32_t* folded_bias,
              k::ChannelQuant quant, const k::Shape4& out_shape,
              std::int8_t* output) {
  using Mac = k::SimdMac<k::PortableIsa>;
  if (Dilated(p)) {
    k::Conv2DDilatedFastWith<Mac>(p, in_shape, input, filter_shape, filter,
                                  folded_bias, quant, out_shape, output);
  } else {
    std::vector<std::int8_t> scratch(
        static_cast<std::size_t>(k::Conv2DFastScratchBytes(filter_shape)));
    k::Conv2DFastWith<Mac>(p, in_shape, input, filter_shape, filter,
                           folded_bias, quant, out_shape, output,
                           scratch.data());
  }
}

/// A window kernel call of the given geometry with random data and
/// quantization.
Case WindowCase(Window kind, const Dim& dy, const Dim& dx, std::int32_t n,
                std::int32_t c, std::int32_t oc, std::int32_t dm, Lcg& rng) {
  auto w = std::make_shared<WindowCall>();
  w->kind = kind;
  w->in = {n, dy.in, dx.in, c};
  w->out = {n, dy.out, dx.out, oc};
  const bool pool = kind == Window::kAveragePool || kind == Window::kMaxPool;
  if (pool) {
    w->pool = {dy.k,
               dx.k,
               dy.stride,
               dx.stride,
               dy.pad,
               dx.pad,
               rng.Next(-128, -100),
               rng.Next(100, 127)};
  } else {
    w->filter = kind == Window::kConv || kind == Window::kConvFast
                    ? k::Shape4{oc, dy.k, dx.k, c}
                    : k::Shape4{1, dy.k, dx.k, oc};
    w->conv = {{rng.Next(-127, 128), rng.Next(-128, 127), -128, 127, dy.stride,
                dx.stride, dy.pad, dx.pad, dm},
               dy.dil,
               dx.dil};
    w->weights.resize(static_cast<std::size_t>(w->filter.Count()));
    for (auto& v : w->weights) v = rng.Byte();
    for (std::int32_t o = 0; o < oc; ++o) {
      w->bias.push_back(rng.Next(-4000, 4000));
      w->mult.push_back(
          rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()));
      w->shift.push_back(static_cast<std::int8_t>(rng.Next(-12, -6)));
    }
    w->folded.resize(static_cast<std::size_t>(oc));
    if (kind == Window::kConvFast) {
      k::FoldConvBias(w->conv.input_offset, w->filter, w->weights.data(),
                      w->bias.data(), w->folded.data());
    } else if (kind == Window::kDepthwiseFast) {
      k::FoldDepthwiseBias(w->conv.input_offset, w->filter, w->weights.data(),
                           w->bias.data(), w->folded.data());
    } else if (kind == Window::kDepthwiseAsConv) {
      const std::int32_t taps = dy.k * dx.k;
      w->transposed.resize(w->weights.size());
      for (std::int32_t t = 0; t < taps; ++t) {
        for (std::int32_t o = 0; o < oc; ++o) {
          w->transposed[static_cast<std::size_t>(o * taps + t)] =
              w->weights[static_cast<std::size_t>(t * oc + o)];
        }
      }
      k::FoldConvBias(w->conv.input_offset, k::Shape4{oc, dy.k, dx.k, 1},
                      w->transposed.data(), w->bias.data(), w->folded.data());
    }
  }
  Case cs;
  static const char* const kNames[] = {
      "Conv2D",     "DepthwiseConv2D",     "AveragePool",          "MaxPool",
      "Conv2DFast", "DepthwiseConv2DFast", "DepthwiseAsConv2DFast"};
  char what[160];
  std::snprintf(what, sizeof what,
                "%s in %s out %s k %dx%d stride %dx%d pad %d,%d dm %d "
                "dilation %dx%d",
                kNames[static_cast<int>(kind)], ShapeText(w->in).c_str(),
                ShapeText(w->out).c_str(), dy.k, dx.k, dy.stride, dx.stride,
                dy.pad, dx.pad, dm, dy.dil, dx.dil);
  cs.what = what;
  cs.in_bytes = w->in.Count();
  cs.out_bytes = w->out.Count();
  cs.input.resize(static_cast<std::size_t>(cs.in_bytes));
  for (auto& v : cs.input) v = rng.Byte();
  switch (kind) {
    case Window::kConv:
      cs.contract = k::Conv2DOverlapDistance(w->conv, w->in, w->filter, w->out);
      cs.run = [w](const std::int8_t* in, std::int8_t* out) {
        k::Conv2D(w->conv, w->in, in, w->filter, w->weights.data(),
                  w->bias.data(), {w->mult.data(), w->shift.data()}, w->out,
                  out);
      };
      break;
    case Window::kDepthwise:
      cs.contract =
          k::DepthwiseConv2DOverlapDistance(w->conv, w->in, w->filter, w->out);
      cs.run = [w](const std::int8_t* in, std::int8_t* out) {
        k::DepthwiseConv2D(w->conv, w->in, in, w->filter, w->weights.data(),
                           w->bias.data(), {w->mult.data(), w->shift.data()},
                           w->out, out);
      };
      break;
    case Window::kConvFast:
      cs.contract = k::Conv2DOverlapDistance(w->conv, w->in, w->filter, w->out);
      cs.run = [w](const std::int8_t* in, std::int8_t* out) {
        ConvFast(w->conv, w->in, in, w->filter, w->weights.data(),
                 w->folded.data(), {w->mult.data(), w->shift.data()}, w->out,
                 out);
      };
      break;
    case Window::kDepthwiseFast:
      cs.contract =
          k::DepthwiseConv2DOverlapDistance(w->conv, w->in, w->filter, w->out);
      cs.run = [w](const std::int8_t* in, std::int8_t* out) {
        using Mac = k::SimdMac<k::PortableIsa>;
        const k::ChannelQuant q{w->mult.data(), w->shift.data()};
        std::vector<std::int8_t> scratch(static_cast<std::size_t>(
            k::DepthwiseConv2DFastScratchBytes(w->filter)));
        if (Dilated(w->conv)) {
          k::DepthwiseConv2DFastWith<Mac>(w->conv, w->in, in, w->filter,
                                          w->weights.data(), w->folded.data(),
                                          q, w->out, out, scratch.data());
        } else {  // the undilated code: ConvParams
          const k::ConvParams& p = w->conv;
          k::DepthwiseConv2DFastWith<Mac>(p, w->in, in, w->filter,
                                          w->weights.data(), w->folded.data(),
                                          q, w->out, out, scratch.data());
        }
      };
      break;
    case Window::kDepthwiseAsConv:
      cs.contract =
          k::DepthwiseConv2DOverlapDistance(w->conv, w->in, w->filter, w->out);
      cs.run = [w](const std::int8_t* in, std::int8_t* out) {
        k::DilatedConvParams p = w->conv;
        p.depth_multiplier = 1;
        ConvFast(p, w->in, in, k::Shape4{w->out.c, w->filter.h, w->filter.w, 1},
                 w->transposed.data(), w->folded.data(),
                 {w->mult.data(), w->shift.data()}, w->out, out);
      };
      break;
    case Window::kAveragePool:
      cs.contract = k::PoolOverlapDistance(w->pool, w->in, w->out);
      cs.run = [w](const std::int8_t* in, std::int8_t* out) {
        k::AveragePool(w->pool, w->in, in, w->out, out);
      };
      break;
    case Window::kMaxPool:
      cs.contract = k::PoolOverlapDistance(w->pool, w->in, w->out);
      cs.run = [w](const std::int8_t* in, std::int8_t* out) {
        k::MaxPool(w->pool, w->in, in, w->out, out);
      };
      break;
  }
  cs.trace = [w](Trace& t) { WindowTrace(*w, t); };
  return cs;
}

Case RandomWindowCase(Window kind, Lcg& rng) {
  const Dim dy = RandomDim(rng, 16), dx = RandomDim(rng, 16);
  const std::int32_t n = rng.Next(0, 4) == 0 ? 2 : 1;
  const std::int32_t c = rng.Next(1, 8);
  std::int32_t oc = c, dm = 1;
  if (kind == Window::kConv || kind == Window::kConvFast) oc = rng.Next(1, 8);
  if (kind == Window::kDepthwise) {
    dm = rng.Next(1, 3);
    oc = c * dm;
  }
  if (kind == Window::kDepthwiseAsConv) {  // one input channel
    dm = rng.Next(1, 8);
    return WindowCase(kind, dy, dx, n, 1, dm, dm, rng);
  }
  return WindowCase(kind, dy, dx, n, c, oc, dm, rng);
}

void CheckWindowKernel(Window kind, std::uint64_t seed, int cases,
                       Tally& tally) {
  Lcg rng(seed);
  for (int i = 0; i < cases; ++i) {
    const Case c = RandomWindowCase(kind, rng);
    CheckCase(c, rng, tally);
    if (testing::Test::HasFailure()) return;  // One case's report is enough.
  }
}

TEST(KernelsOverlap, Conv2DContractIsExactAndSafe) {
  Tally t;
  CheckWindowKernel(Window::kConv, 101, 500, t);
  EXPECT_EQ(t.cases, 500);
  EXPECT_GT(t.overlapping, t.cases / 2);  // Most cases do overlap.
  EXPECT_GT(t.wrong_below, 0);
  std::printf(
      "Conv2D: %d cases, %d overlapping, %d with d > 0, %d wrong at "
      "d - 1\n",
      t.cases, t.overlapping, t.positive, t.wrong_below);
}

TEST(KernelsOverlap, DepthwiseConv2DContractIsExactAndSafe) {
  Tally t;
  CheckWindowKernel(Window::kDepthwise, 202, 500, t);
  EXPECT_EQ(t.cases, 500);
  EXPECT_GT(t.overlapping, t.cases / 2);
  EXPECT_GT(t.wrong_below, 0);
  std::printf(
      "DepthwiseConv2D: %d cases, %d overlapping, %d with d > 0, %d "
      "wrong at d - 1\n",
      t.cases, t.overlapping, t.positive, t.wrong_below);
}

TEST(KernelsOverlap, FastConvKernelsKeepTheReferenceContracts) {
  for (Window kind : {Window::kConvFast, Window::kDepthwiseFast}) {
    Tally t;
    CheckWindowKernel(kind, kind == Window::kConvFast ? 303 : 404, 500, t);
    EXPECT_EQ(t.cases, 500);
    EXPECT_GT(t.overlapping, t.cases / 2);
    EXPECT_GT(t.wrong_below, 0);
    std::printf(
        "%s: %d cases, %d overlapping, %d with d > 0, %d wrong at d - 1\n",
        kind == Window::kConvFast ? "Conv2DFast" : "DepthwiseConv2DFast",
        t.cases, t.overlapping, t.positive, t.wrong_below);
  }
}

TEST(KernelsOverlap, OneChannelDepthwiseAsConvKeepsTheDepthwiseContract) {
  Tally t;
  CheckWindowKernel(Window::kDepthwiseAsConv, 505, 500, t);
  EXPECT_EQ(t.cases, 500);
  EXPECT_GT(t.overlapping, t.cases / 2);
  std::printf(
      "DepthwiseAsConv2DFast: %d cases, %d overlapping, %d with d > 0\n",
      t.cases, t.overlapping, t.positive);
}

TEST(KernelsOverlap, PoolContractsAreExactAndSafe) {
  Tally avg, max;
  CheckWindowKernel(Window::kAveragePool, 303, 300, avg);
  CheckWindowKernel(Window::kMaxPool, 404, 300, max);
  EXPECT_EQ(avg.cases + max.cases, 600);
  EXPECT_GT(avg.overlapping, avg.cases / 2);
  EXPECT_GT(max.overlapping, max.cases / 2);
  EXPECT_GT(avg.wrong_below, 0);
  EXPECT_GT(max.wrong_below, 0);
  std::printf(
      "AveragePool: %d cases, %d with d > 0, %d wrong at d - 1; "
      "MaxPool: %d cases, %d with d > 0, %d wrong at d - 1\n",
      avg.cases, avg.positive, avg.wrong_below, max.cases, max.positive,
      max.wrong_below);
}

Case RandomDilatedWindowCase(Window kind, Lcg& rng) {
  const Dim dy = RandomDilatedDim(rng, 14), dx = RandomDilatedDim(rng, 14);
  const std::int32_t n = rng.Next(0, 4) == 0 ? 2 : 1;
  std::int32_t c = rng.Next(1, 8), oc = c, dm = 1;
  if (kind == Window::kConv || kind == Window::kConvFast) {
    // Some windows above Conv2DDilatedFast's 256 gathered bytes.
    if (rng.Next(0, 2) == 0) c = rng.Next(20, 40);
    oc = rng.Next(1, 8);
  }
  if (kind == Window::kDepthwise) {
    dm = rng.Next(1, 3);
    oc = c * dm;
  }
  if (kind == Window::kDepthwiseAsConv) {
    dm = rng.Next(1, 8);
    return WindowCase(kind, dy, dx, n, 1, dm, dm, rng);
  }
  return WindowCase(kind, dy, dx, n, c, oc, dm, rng);
}

TEST(KernelsOverlap, DilatedConvContractsAreExactAndSafe) {
  const Window kinds[] = {Window::kConv, Window::kDepthwise, Window::kConvFast,
                          Window::kDepthwiseFast, Window::kDepthwiseAsConv};
  std::uint64_t seed = 606;
  for (Window kind : kinds) {
    Lcg rng(seed++);
    Tally t;
    int dilated = 0;
    for (int i = 0; i < 300 && !testing::Test::HasFailure(); ++i) {
      const Case c = RandomDilatedWindowCase(kind, rng);
      dilated += c.what.find("dilation 1x1") == std::string::npos;
      CheckCase(c, rng, t);
    }
    EXPECT_EQ(t.cases, 300);
    EXPECT_GT(dilated, 250);
    EXPECT_GT(t.overlapping, t.cases / 2);
    if (kind != Window::kDepthwiseAsConv) {
      EXPECT_GT(t.wrong_below, 0);
    }
    std::printf(
        "dilated kind %d: %d cases (%d dilated), %d overlapping, %d with "
        "d > 0, %d wrong at d - 1\n",
        static_cast<int>(kind), t.cases, dilated, t.overlapping, t.positive,
        t.wrong_below);
  }
}

// A dilated Conv1D as DEPTHWISE_CONV_2D: input 1x5x1 = (10, 20, 30, 40,
// 50), taps (1, 1) two columns apart (dilation 2), stride 1, SAME (span 3,
// one column of padding before), input offset 0, bias 0 and a multiplier
// of exactly 1 (2^30 with shift 1): output ox = x[ox - 1] + x[ox + 1] =
// (20, 40, 60, 80, 40). overlap.hpp's example derives d = 1. At d' = 0 (in
// place) output 0 (20) replaces input 0 (10) before output 1 reads it:
// output 1 becomes 20 + 30 = 50, and each output replaces the input the
// next one reads: 50 + 40 = 90, 90 + 50 = 140 (clamped to 127), 127.
TEST(KernelsOverlap, DilatedConv1DDistanceIsExactByHand) {
  const k::DilatedConvParams p{{0, 0, -128, 127, 1, 1, 0, 1, 1}, 1, 2};
  const k::Shape4 in{1, 1, 5, 1}, f{1, 1, 2, 1}, out{1, 1, 5, 1};
  const std::int8_t w[2] = {1, 1};
  const std::int32_t mult[1] = {1 << 30};
  const std::int8_t shift[1] = {1};
  EXPECT_EQ(k::DepthwiseConv2DOverlapDistance(p, in, f, out), 1);
  const auto run = [&](std::int64_t x) {
    std::int8_t buf[6] = {0, 0, 0, 0, 0, 0};
    std::int8_t* o = buf;
    std::int8_t* i = buf + x;
    const std::int8_t data[5] = {10, 20, 30, 40, 50};
    std::memcpy(i, data, 5);
    k::DepthwiseConv2D(p, in, i, f, w, nullptr, {mult, shift}, out, o);
    return std::vector<std::int8_t>(o, o + 5);
  };
  EXPECT_EQ(run(1), (std::vector<std::int8_t>{20, 40, 60, 80, 40}));
  EXPECT_EQ(run(0), (std::vector<std::int8_t>{20, 50, 90, 127, 127}));
}

// CONV_2D 4x4x2 into 4x4x3, 3x3 taps dilated 2x2, stride 1, SAME: span 5,
// padding 2 before. First tap rows Y(oy) = (0, 1, 0, 1) (output row 1 taps
// rows -1, 1, 3), likewise X. The last pixel P = 15 writes its second
// byte, 15 * 3 + 1 = 46, before its third output channel re-reads input
// (1, 1), byte (1 * 4 + 1) * 2 = 10: d = 46 - 10 + 1 = 37 (undilated 3x3
// SAME gives 27).
static_assert(k::Conv2DOverlapDistance(
                  k::DilatedConvParams{{0, 0, -128, 127, 1, 1, 2, 2, 1}, 2, 2},
                  {1, 4, 4, 2}, {3, 3, 3, 2}, {1, 4, 4, 3}) == 37);
// Two rows, two taps three rows apart, SAME: span 4, padding 1 before;
// output row 0 taps rows -1 and 2, neither in the input: outside the
// preconditions, no overlap (S_out = 2).
static_assert(k::DepthwiseConv2DOverlapDistance(
                  k::DilatedConvParams{{0, 0, -128, 127, 1, 1, 1, 0, 1}, 3, 1},
                  {1, 2, 1, 1}, {1, 2, 1, 1}, {1, 2, 1, 1}) == 2);

/// SAME geometry of one dimension (TFLite's padding).
Dim Same(std::int32_t in, std::int32_t k, std::int32_t stride) {
  const auto p = tflite::ComputePadding(tflite::Padding::kSame, in, k, stride);
  return {in, k, stride, p.pad_before, p.out};
}

TEST(KernelsOverlap, ModelShapesAreExactAndSafe) {
  // Full-size operators of the shared models, with the distances the
  // pair finder reports for them (tests/host/overlap/overlap_pairs_test.cpp
  // derives those by hand): the same two methods as on the random shapes.
  struct Shape {
    Window kind;
    Dim dy, dx;
    std::int32_t c, oc, dm;
    std::int64_t d;
  };
  const Shape shapes[] = {
      // person_detect operators 0, 1, 2, 3 and 27.
      {Window::kDepthwise, Same(96, 3, 2), Same(96, 3, 2), 1, 8, 8, 9313},
      {Window::kDepthwise, Same(48, 3, 1), Same(48, 3, 1), 8, 8, 1, 392},
      {Window::kConv, Same(48, 1, 1), Same(48, 1, 1), 8, 16, 1, 18439},
      {Window::kDepthwise, Same(48, 3, 2), Same(48, 3, 2), 16, 16, 1, 0},
      {Window::kAveragePool, {3, 3, 1, 0, 1}, {3, 3, 1, 0, 1}, 256, 256, 1, 0},
      // kws_ref_model operator 0 (10x4 filter, stride 2), ResNet-8's first.
      {Window::kConv, Same(49, 10, 2), Same(10, 4, 2), 1, 64, 1, 7552},
      {Window::kConv, Same(32, 3, 1), Same(32, 3, 1), 3, 16, 1, 13413},
  };
  Lcg rng(909);
  Tally tally;
  for (const Shape& sh : shapes) {
    const Case c =
        WindowCase(sh.kind, sh.dy, sh.dx, 1, sh.c, sh.oc, sh.dm, rng);
    EXPECT_EQ(c.contract, sh.d) << c.what;
    CheckCase(c, rng, tally);
  }
  EXPECT_EQ(tally.cases, 7);
}

// --- hand-derived figures --------------------------------------------------

// person_detect's first 1x1 CONV_2D (operator 2), 48x48x8 into 48x48x16,
// stride 1, no padding. The last pixel P = 2303 writes its 15th byte
// (oc = 14, byte 2303 * 16 + 14 = 36862) before its 16th output channel
// re-reads its 8 input bytes 2303 * 8 .. 2303 * 8 + 7 (first 18424): so
// 36862 - d < 18424, d >= 18439. Earlier pixels need less (the output runs
// ahead of the input by 8 bytes a pixel).
static_assert(k::Conv2DOverlapDistance({0, 0, -128, 127, 1, 1, 0, 0, 1},
                                       {1, 48, 48, 8}, {16, 1, 1, 8},
                                       {1, 48, 48, 16}) == 18439);
// The same with a batch of 2 over a 2x2x1 input into 2x2x2: the last pixel
// P = 7 writes byte 14 before re-reading input byte 7: d = 14 - 7 + 1 = 8.
static_assert(k::Conv2DOverlapDistance({0, 0, -128, 127, 1, 1, 0, 0, 1},
                                       {2, 2, 2, 1}, {2, 1, 1, 1},
                                       {2, 2, 2, 2}) == 8);
// person_detect's operator 0, DEPTHWISE_CONV_2D 96x96x1 into 48x48x8
// (depth multiplier 8), 3x3 stride 2, SAME: total padding (48 - 1) * 2 +
// 3 - 96 = 1, none before. The last pixel (47, 47), P = 2303, writes its
// 7th byte (m = 6, byte 2303 * 8 + 6 = 18430) before its 8th output channel
// re-reads the window's first byte, input (94, 94) = 94 * 96 + 94 = 9118:
// d = 18430 - 9118 + 1 = 9313.
static_assert(k::DepthwiseConv2DOverlapDistance({0, 0, -128, 127, 2, 2, 0, 0,
                                                 8},
                                                {1, 96, 96, 1}, {1, 3, 3, 8},
                                                {1, 48, 48, 8}) == 9313);
// A 3x3 stride 1 SAME depthwise convolution, 10x10x4, multiplier 1: pixel
// (y, x) writes channel 2 before reading channel 3 of input (y - 1, x - 1):
// byte (10 y + x) * 4 + 2 vs (10 (y - 1) + x - 1) * 4 + 3: d = 44 =
// (W + 1) * C.
static_assert(k::DepthwiseConv2DOverlapDistance({0, 0, -128, 127, 1, 1, 1, 1,
                                                 1},
                                                {1, 10, 10, 4}, {1, 3, 3, 4},
                                                {1, 10, 10, 4}) == 44);
// 2x2 stride 2 pooling: every output pixel lies below the inputs it reads.
static_assert(k::PoolOverlapDistance({2, 2, 2, 2, 0, 0, -128, 127},
                                     {1, 16, 16, 4}, {1, 8, 8, 4}) == 0);
// Outside the preconditions (leading padding 3 >= a 3-wide window: the
// first window reads nothing), or shapes that do not match: no overlap.
static_assert(k::PoolOverlapDistance({3, 3, 1, 1, 3, 0, -128, 127},
                                     {1, 8, 8, 2}, {1, 8, 6, 2}) == 96);
static_assert(k::Conv2DOverlapDistance({0, 0, -128, 127, 1, 1, 0, 0, 1},
                                       {1, 4, 4, 3}, {5, 1, 1, 2},
                                       {1, 4, 4, 5}) == 80);

TEST(KernelsOverlap, HandFiguresHoldAtRunTimeToo) {
  // The static_asserts above, evaluated by the same functions at run time.
  const k::ConvParams p{0, 0, -128, 127, 1, 1, 0, 0, 1};
  k::Shape4 in{1, 48, 48, 8}, f{16, 1, 1, 8}, out{1, 48, 48, 16};
  EXPECT_EQ(k::Conv2DOverlapDistance(p, in, f, out), 18439);
  // Footprint of the pair: max(S_out, d + S_in) = max(36864, 18439 +
  // 18432) = 36871 bytes instead of 55296.
  EXPECT_EQ(
      std::max<std::int64_t>(out.Count(), 18439 + std::int64_t{in.Count()}),
      36871);
}

}  // namespace
