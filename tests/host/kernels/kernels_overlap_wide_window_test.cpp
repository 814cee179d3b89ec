// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The overlap contracts of the int16 and float32 sliding-window kernels
// (kernels/int16/conv.hpp, int16/pooling.hpp, float/conv.hpp,
// float/pooling.hpp): the int8 kernel's distance in elements times the
// element size (overlap.hpp's ScaledOverlapDistance), as the lowerings
// state it. Checked the two ways of tests/host/support/overlap_case.hpp on
// random geometry (window_geometry.hpp; a third of the convolutions
// dilated) with fixed seeds: the real kernel in a poisoned buffer at the
// stated distance, at larger ones and at trace-safe smaller ones; the
// byte trace (the element trace of the stated loop order, each element's
// bytes read or written whole) gives exactly the stated distance, clobbers
// at one byte less, and the real kernel one element nearer gives wrong
// bytes in some cases.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "arenaplan/kernels/kernels.hpp"
#include "tests/host/support/overlap_case.hpp"
#include "tests/host/support/window_geometry.hpp"

namespace {

namespace k = arenaplan::kernels;
namespace wg = arenaplan::window_geometry;
using arenaplan::overlap_case::Case;
using arenaplan::overlap_case::CheckCase;
using arenaplan::overlap_case::Lcg;
using arenaplan::overlap_case::ScaleTrace;
using arenaplan::overlap_case::ShapeText;
using arenaplan::overlap_case::Tally;
using arenaplan::overlap_case::Trace;

enum class Kind { kConv, kDepthwise, kAveragePool, kMaxPool };

/// Element type and, for int16 convolutions, the accumulator (the bias's
/// type: int64, or int32 for an int32 bias).
enum class Type { kInt16Acc64, kInt16Acc32, kFloat32 };

const char* KindName(Kind kind) {
  static const char* const kNames[] = {"Conv2D", "DepthwiseConv2D",
                                       "AveragePool", "MaxPool"};
  return kNames[static_cast<int>(kind)];
}

const char* TypeName(Type type) {
  static const char* const kNames[] = {"int16 (int64 bias)",
                                       "int16 (int32 bias)", "float32"};
  return kNames[static_cast<int>(type)];
}

/// The operands of one call, kept alive by the Case lambdas.
struct Call {
  Kind kind;
  Type type;
  k::Shape4 in, filter, out;
  k::DilatedConvParams conv{};  ///< Geometry; int16: also the clamp.
  k::PoolParams pool{};
  k::f32::ConvParams fconv{};
  k::f32::PoolParams fpool{};
  std::vector<std::int8_t> weights;
  std::vector<float> fweights, fbias;
  std::vector<std::int64_t> bias64;
  std::vector<std::int32_t> bias32, mult;
  std::vector<std::int8_t> shift;
};

/// Random values of the element type: int16 over its whole range, floats
/// in [-8, 8] in steps of 1/64 (exact in float32).
std::vector<std::int8_t> RandomElements(Type type, std::int64_t count,
                                        Lcg& rng) {
  std::vector<std::int8_t> bytes;
  if (type == Type::kFloat32) {
    std::vector<float> v(static_cast<std::size_t>(count));
    for (auto& x : v) x = static_cast<float>(rng.Next(-512, 512)) / 64.0f;
    bytes.resize(v.size() * sizeof(float));
    std::memcpy(bytes.data(), v.data(), bytes.size());
  } else {
    std::vector<std::int16_t> v(static_cast<std::size_t>(count));
    for (auto& x : v) x = static_cast<std::int16_t>(rng.Next(-32768, 32767));
    bytes.resize(v.size() * sizeof(std::int16_t));
    std::memcpy(bytes.data(), v.data(), bytes.size());
  }
  return bytes;
}

/// Fills the filter, bias and requantization of a convolution.
void RandomConvOperands(Call& w, Lcg& rng) {
  const std::int32_t oc = w.out.c;
  if (w.type == Type::kFloat32) {
    for (std::int64_t i = 0; i < w.filter.Count(); ++i) {
      w.fweights.push_back(static_cast<float>(rng.Next(-64, 64)) / 64.0f);
    }
    for (std::int32_t o = 0; o < oc; ++o) {
      w.fbias.push_back(static_cast<float>(rng.Next(-256, 256)) / 64.0f);
    }
    return;
  }
  w.weights.resize(static_cast<std::size_t>(w.filter.Count()));
  for (auto& v : w.weights) v = rng.Byte();
  for (std::int32_t o = 0; o < oc; ++o) {
    w.bias64.push_back(rng.Next(-100000, 100000));
    w.bias32.push_back(rng.Next(-100000, 100000));
    w.mult.push_back(
        rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()));
    // Sums reach about 2^22 x taps: shifts that keep outputs in range.
    w.shift.push_back(static_cast<std::int8_t>(rng.Next(-14, -8)));
  }
}

/// The real kernel of `w` on `in` into `out`.
void RunKernel(const Call& w, const std::int8_t* in, std::int8_t* out) {
  const auto* i16 = reinterpret_cast<const std::int16_t*>(in);
  auto* o16 = reinterpret_cast<std::int16_t*>(out);
  const auto* if32 = reinterpret_cast<const float*>(in);
  auto* of32 = reinterpret_cast<float*>(out);
  const k::ChannelQuant q{w.mult.data(), w.shift.data()};
  const bool wide = w.type == Type::kInt16Acc64;
  switch (w.kind) {
    case Kind::kConv:
      if (w.type == Type::kFloat32) {
        k::f32::Conv2D(w.fconv, w.in, if32, w.filter, w.fweights.data(),
                       w.fbias.data(), w.out, of32);
      } else if (wide) {
        k::int16::Conv2D(w.conv, w.in, i16, w.filter, w.weights.data(),
                         w.bias64.data(), q, w.out, o16);
      } else {
        k::int16::Conv2D(w.conv, w.in, i16, w.filter, w.weights.data(),
                         w.bias32.data(), q, w.out, o16);
      }
      return;
    case Kind::kDepthwise:
      if (w.type == Type::kFloat32) {
        k::f32::DepthwiseConv2D(w.fconv, w.in, if32, w.filter,
                                w.fweights.data(), w.fbias.data(), w.out, of32);
      } else if (wide) {
        k::int16::DepthwiseConv2D(w.conv, w.in, i16, w.filter, w.weights.data(),
                                  w.bias64.data(), q, w.out, o16);
      } else {
        k::int16::DepthwiseConv2D(w.conv, w.in, i16, w.filter, w.weights.data(),
                                  w.bias32.data(), q, w.out, o16);
      }
      return;
    case Kind::kAveragePool:
    case Kind::kMaxPool: {
      const bool max = w.kind == Kind::kMaxPool;
      if (w.type == Type::kFloat32) {
        if (max) {
          k::f32::MaxPool(w.fpool, w.in, if32, w.out, of32);
        } else {
          k::f32::AveragePool(w.fpool, w.in, if32, w.out, of32);
        }
      } else if (max) {
        k::int16::MaxPool(w.pool, w.in, i16, w.out, o16);
      } else {
        k::int16::AveragePool(w.pool, w.in, i16, w.out, o16);
      }
      return;
    }
  }
}

/// The stated distance in bytes: the int8 kernel's, in elements, scaled.
std::int64_t StatedDistance(const Call& w, std::int64_t size) {
  std::int64_t elements = 0;
  switch (w.kind) {
    case Kind::kConv:
      elements = k::Conv2DOverlapDistance(w.conv, w.in, w.filter, w.out);
      break;
    case Kind::kDepthwise:
      elements =
          k::DepthwiseConv2DOverlapDistance(w.conv, w.in, w.filter, w.out);
      break;
    case Kind::kAveragePool:
    case Kind::kMaxPool:
      elements = k::PoolOverlapDistance(w.pool, w.in, w.out);
      break;
  }
  return k::ScaledOverlapDistance(elements, size);
}

Case RandomCase(Kind kind, Type type, Lcg& rng) {
  const bool conv = kind == Kind::kConv || kind == Kind::kDepthwise;
  const bool dilated = conv && rng.Next(0, 2) == 0;
  auto draw = [&rng, dilated]() {
    return dilated ? wg::RandomDilatedDim(rng, 12)
                   : wg::RandomDim(rng, 12, [](Lcg& r) {
                       return r.Next(0, 9) < 3 ? 1 : r.Next(1, 4);
                     });
  };
  const wg::Dim dy = draw(), dx = draw();
  const std::int32_t n = rng.Next(0, 4) == 0 ? 2 : 1;
  const std::int32_t c = rng.Next(1, 6);
  const std::int32_t dm = kind == Kind::kDepthwise ? rng.Next(1, 3) : 1;
  const std::int32_t oc = kind == Kind::kConv ? rng.Next(1, 6) : c * dm;
  auto w = std::make_shared<Call>();
  w->kind = kind;
  w->type = type;
  w->in = {n, dy.in, dx.in, c};
  w->out = {n, dy.out, dx.out, oc};
  w->conv = {{0, 0, -32768, 32767, dy.stride, dx.stride, dy.pad, dx.pad, dm},
             dy.dil,
             dx.dil};
  w->pool = {dy.k, dx.k, dy.stride, dx.stride, dy.pad, dx.pad, -32768, 32767};
  const float inf = std::numeric_limits<float>::infinity();
  w->fconv = {{-inf, inf}, dy.stride, dx.stride, dy.pad,
              dx.pad,      dy.dil,    dx.dil,    dm};
  w->fpool = {dy.k, dx.k, dy.stride, dx.stride, dy.pad, dx.pad, {-inf, inf}};
  if (conv) {
    w->filter = kind == Kind::kConv ? k::Shape4{oc, dy.k, dx.k, c}
                                    : k::Shape4{1, dy.k, dx.k, oc};
    RandomConvOperands(*w, rng);
  }
  const std::int64_t size = type == Type::kFloat32 ? 4 : 2;
  wg::Window g;
  g.order = kind == Kind::kConv ? wg::WindowOrder::kWholeWindow
                                : wg::WindowOrder::kChannelByChannel;
  g.in = w->in;
  g.out = w->out;
  g.y = dy;
  g.x = dx;
  g.depth_multiplier = dm;
  Case cs;
  char what[200];
  std::snprintf(what, sizeof what,
                "%s %s in %s out %s k %dx%d stride %dx%d pad %d,%d dm %d "
                "dilation %dx%d",
                KindName(kind), TypeName(type), ShapeText(w->in).c_str(),
                ShapeText(w->out).c_str(), dy.k, dx.k, dy.stride, dx.stride,
                dy.pad, dx.pad, dm, dy.dil, dx.dil);
  cs.what = what;
  cs.in_bytes = w->in.Count() * size;
  cs.out_bytes = w->out.Count() * size;
  cs.in_align = size;
  cs.input = RandomElements(type, w->in.Count(), rng);
  cs.contract = StatedDistance(*w, size);
  cs.run = [w](const std::int8_t* in, std::int8_t* out) {
    RunKernel(*w, in, out);
  };
  cs.trace = [g, size](Trace& t) {
    Trace elements;
    wg::WindowTrace(g, elements);
    t = ScaleTrace(elements, size);
  };
  return cs;
}

/// `cases` random cases of one kernel; the tallies of the file comment.
Tally CheckKernel(Kind kind, Type type, std::uint64_t seed, int cases) {
  const bool pool = kind == Kind::kAveragePool || kind == Kind::kMaxPool;
  Lcg rng(seed);
  Tally tally;
  for (int i = 0; i < cases && !testing::Test::HasFailure(); ++i) {
    CheckCase(RandomCase(kind, type, rng), rng, tally);
  }
  std::printf(
      "%s %s: %d cases, %d overlapping, %d with d > 0, %d wrong "
      "one element nearer\n",
      KindName(kind),
      pool ? (type == Type::kFloat32 ? "float32" : "int16") : TypeName(type),
      tally.cases, tally.overlapping, tally.positive, tally.wrong_below);
  return tally;
}

void ExpectTallies(const Tally& t, int cases) {
  EXPECT_EQ(t.cases, cases);
  EXPECT_GT(t.overlapping, cases / 2);  // Most cases do overlap.
  EXPECT_GT(t.wrong_below, 0);          // The distance is not loose.
}

TEST(KernelsOverlapWide, Int16ConvolutionsKeepTheScaledContract) {
  std::uint64_t seed = 1601;
  for (Kind kind : {Kind::kConv, Kind::kDepthwise}) {
    for (Type type : {Type::kInt16Acc64, Type::kInt16Acc32}) {
      ExpectTallies(CheckKernel(kind, type, seed++, 200), 200);
    }
  }
}

TEST(KernelsOverlapWide, Float32ConvolutionsKeepTheScaledContract) {
  std::uint64_t seed = 3201;
  for (Kind kind : {Kind::kConv, Kind::kDepthwise}) {
    ExpectTallies(CheckKernel(kind, Type::kFloat32, seed++, 200), 200);
  }
}

TEST(KernelsOverlapWide, PoolsKeepTheScaledContract) {
  std::uint64_t seed = 4801;
  for (Type type : {Type::kInt16Acc64, Type::kFloat32}) {
    for (Kind kind : {Kind::kAveragePool, Kind::kMaxPool}) {
      ExpectTallies(CheckKernel(kind, type, seed++, 200), 200);
    }
  }
}

}  // namespace
