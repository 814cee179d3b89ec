// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The overlap contracts of the int8 element-wise kernels (ADD, SUB, MUL,
// DIV, MAXIMUM/MINIMUM, requantization, LEAKY_RELU, RELU, HARD_SWISH,
// LOGISTIC, TANH), RESHAPE and PAD on random sizes and parameters (fixed
// seeds), checked the two ways of tests/host/support/overlap_case.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "arenaplan/kernels/kernels.hpp"
#include "codegen/tflite/geometry.hpp"
#include "tests/host/support/overlap_case.hpp"

namespace {

namespace k = arenaplan::kernels;
namespace tflite = arenaplan::tflite;
using arenaplan::overlap_case::BinaryElementwiseCase;
using arenaplan::overlap_case::Case;
using arenaplan::overlap_case::CheckCase;
using arenaplan::overlap_case::ElementwiseTrace;
using arenaplan::overlap_case::Lcg;
using arenaplan::overlap_case::ScaleTrace;
using arenaplan::overlap_case::ShapeText;
using arenaplan::overlap_case::Tally;
using arenaplan::overlap_case::Trace;
using arenaplan::overlap_case::UnaryElementwiseCase;
using arenaplan::overlap_case::Write;

/// Runs `cases` cases, case i drawn by draw(rng, i) from one generator
/// seeded with `seed`, each checked by CheckCase; stops at the first
/// failure. Returns the tallies.
template <class Draw>
Tally CheckCases(std::uint64_t seed, int cases, Draw draw) {
  Lcg rng(seed);
  Tally tally;
  for (int i = 0; i < cases && !testing::Test::HasFailure(); ++i) {
    CheckCase(draw(rng, i), rng, tally);
  }
  return tally;
}

TEST(KernelsOverlap, AddContractHoldsForEitherInput) {
  const Tally tally = CheckCases(505, 120, [](Lcg& rng, int i) {
    const bool fast = i >= 60;  // AddFast, the generated code's kernel
    k::AddParams p;
    const std::int32_t count = rng.Next(1, 300);
    p = {rng.Next(-127, 128),
         rng.Next(-127, 128),
         rng.Next(-128, 127),
         20,
         rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
         rng.Next(-3, 0),
         rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
         rng.Next(-3, 0),
         rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
         rng.Next(-20, -17),
         -128,
         127,
         count};
    const bool first = i % 2 == 0;  // Which input streams into the output.
    auto* add = fast ? &k::AddFast : &k::Add;
    return BinaryElementwiseCase(
        fast ? "AddFast" : "Add", count, first, rng,
        [p, add](const std::int8_t* a, const std::int8_t* b, std::int8_t* out) {
          add(p, a, b, out);
        });
  });
  if (HasFailure()) return;
  EXPECT_EQ(tally.positive, 0);  // d = 0 always: in place.
  EXPECT_EQ(tally.overlapping, 120);
}

TEST(KernelsOverlap, Int8RequantizeIsInPlace) {
  const Tally tally = CheckCases(606, 40, [](Lcg& rng, int) {
    k::RequantizeParams p;
    const std::int32_t count = rng.Next(1, 300);
    p = {rng.Next(-127, 128), rng.Next(-128, 127),
         rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
         rng.Next(-2, 1), count};
    return UnaryElementwiseCase("Requantize int8 -> int8", count, rng,
                                [p](const std::int8_t* in, std::int8_t* out) {
                                  k::Requantize(p, in, out);
                                });
  });
  if (HasFailure()) return;
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, LeakyReluIsInPlace) {
  const Tally tally = CheckCases(9898, 40, [](Lcg& rng, int) {
    k::LeakyReluParams p;
    const std::int32_t count = rng.Next(1, 300);
    p = {rng.Next(-128, 127),
         rng.Next(-128, 127),
         rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
         rng.Next(-2, 1),
         rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
         rng.Next(-6, -1),
         count};
    return UnaryElementwiseCase("LeakyRelu", count, rng,
                                [p](const std::int8_t* in, std::int8_t* out) {
                                  k::LeakyRelu(p, in, out);
                                });
  });
  if (HasFailure()) return;
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, ReluIsInPlace) {
  const Tally tally = CheckCases(1919, 40, [](Lcg& rng, int) {
    k::ReluParams p;
    const std::int32_t count = rng.Next(1, 300);
    const std::int32_t zp_out = rng.Next(-128, 127);
    p = {rng.Next(-128, 127),
         zp_out,
         rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
         rng.Next(-2, 1),
         zp_out,
         127,
         count};
    return UnaryElementwiseCase(
        "Relu", count, rng,
        [p](const std::int8_t* in, std::int8_t* out) { k::Relu(p, in, out); });
  });
  if (HasFailure()) return;
  EXPECT_EQ(tally.overlapping, 40);
}

/// One output row of w x ch elements, the output's own strides for both
/// inputs (element-wise): the shape and strides of the tests below.
struct RowShape {
  std::int32_t w, ch;
  k::Shape4 Shape() const { return {1, 1, w, ch}; }
  std::int32_t Count() const { return w * ch; }
};
RowShape RandomRow(Lcg& rng) {
  const std::int32_t w = rng.Next(1, 20), ch = rng.Next(1, 15);
  return {w, ch};
}

TEST(KernelsOverlap, MulContractHoldsForEitherInput) {
  const Tally tally = CheckCases(1818, 40, [](Lcg& rng, int i) {
    const RowShape r = RandomRow(rng);
    const k::MulParams p = {
        rng.Next(-128, 127),
        rng.Next(-128, 127),
        rng.Next(-128, 127),
        rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
        rng.Next(-10, -6),
        -128,
        127,
        r.Shape(),
        {0, 0, r.ch, 1},
        {0, 0, r.ch, 1}};
    return BinaryElementwiseCase(
        "Mul", r.Count(), i % 2 == 0, rng,
        [p](const std::int8_t* a, const std::int8_t* b, std::int8_t* out) {
          k::Mul(p, a, b, out);
        });
  });
  if (HasFailure()) return;
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, DivContractHoldsForEitherInput) {
  const Tally tally = CheckCases(4242, 40, [](Lcg& rng, int i) {
    const RowShape r = RandomRow(rng);
    const k::DivParams p = {
        rng.Next(-128, 127),
        rng.Next(-128, 127),
        rng.Next(-128, 127),
        rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
        rng.Next(-2, 12),
        -128,
        127,
        r.Shape(),
        {0, 0, r.ch, 1},
        {0, 0, r.ch, 1}};
    return BinaryElementwiseCase(
        "Div", r.Count(), i % 2 == 0, rng,
        [p](const std::int8_t* a, const std::int8_t* b, std::int8_t* out) {
          k::Div(p, a, b, out);
        });
  });
  if (HasFailure()) return;
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, MaximumMinimumContractHoldsForEitherInput) {
  const Tally tally = CheckCases(5757, 40, [](Lcg& rng, int i) {
    const RowShape r = RandomRow(rng);
    const k::MaximumMinimumParams p = {
        i % 4 < 2, r.Shape(), {0, 0, r.ch, 1}, {0, 0, r.ch, 1}};
    return BinaryElementwiseCase(
        p.maximum ? "Maximum" : "Minimum", r.Count(), i % 2 == 0, rng,
        [p](const std::int8_t* a, const std::int8_t* b, std::int8_t* out) {
          k::MaximumMinimum(p, a, b, out);
        });
  });
  if (HasFailure()) return;
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, SubContractHoldsForEitherInput) {
  const Tally tally = CheckCases(4242, 40, [](Lcg& rng, int i) {
    const RowShape r = RandomRow(rng);
    const k::SubParams p = {
        rng.Next(-127, 128),
        rng.Next(-127, 128),
        rng.Next(-128, 127),
        20,
        rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
        rng.Next(-3, 0),
        rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
        rng.Next(-3, 0),
        rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
        rng.Next(-20, -14),
        -128,
        127,
        r.Shape(),
        {0, 0, r.ch, 1},
        {0, 0, r.ch, 1}};
    return BinaryElementwiseCase(
        "Sub", r.Count(), i % 2 == 0, rng,
        [p](const std::int8_t* a, const std::int8_t* b, std::int8_t* out) {
          k::Sub(p, a, b, out);
        });
  });
  if (HasFailure()) return;
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, HardSwishIsInPlace) {
  const Tally tally = CheckCases(1171, 40, [](Lcg& rng, int) {
    k::HardSwishParams p;
    const std::int32_t count = rng.Next(1, 300);
    p = {rng.Next(-128, 127),
         rng.Next(-128, 127),
         rng.Next(1 << 14, 32767),
         rng.Next(-10, 0),
         rng.Next(1 << 14, 32767),
         rng.Next(-3, 4),
         count};
    return UnaryElementwiseCase("HardSwish", count, rng,
                                [p](const std::int8_t* in, std::int8_t* out) {
                                  k::HardSwish(p, in, out);
                                });
  });
  if (HasFailure()) return;
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, LogisticTanhAndRelu6AreInPlace) {
  const Tally tally = CheckCases(1428, 40, [](Lcg& rng, int i) {
    const std::int32_t count = rng.Next(1, 300);
    // Scale 2^-4: 2^23 = 0.5 * 2^24, shift 24, radius 15 * 2^27 / 2^24.
    const std::int32_t zp = rng.Next(-128, 127);
    const bool tanh = i % 2 == 1;
    return UnaryElementwiseCase(
        tanh ? "Tanh" : "Logistic", count, rng,
        [=](const std::int8_t* in, std::int8_t* out) {
          if (tanh && zp % 3 == 0) {
            k::Relu6(k::Relu6Params{zp, zp / 2 + 64, count}, in, out);
          } else if (tanh) {
            k::Tanh(k::TanhParams{zp, 120, 1 << 30, 24, count}, in, out);
          } else {
            k::Logistic(k::LogisticParams{zp, 120, 1 << 30, 24, count}, in,
                        out);
          }
        });
  });
  if (HasFailure()) return;
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, ReshapeSkipsTheCopyOnAliasAndCopiesForward) {
  (void)CheckCases(707, 20, [](Lcg& rng, int) {
    const std::int32_t count = rng.Next(1, 200);
    std::vector<std::int8_t> data(static_cast<std::size_t>(count));
    for (auto& v : data) v = rng.Byte();
    // Alias: the same address, nothing changes.
    std::vector<std::int8_t> alias = data;
    k::Reshape(alias.data(), alias.data(), alias.size());
    EXPECT_EQ(alias, data);
    // Any distance below (forward copy, element-wise: d = 0).
    Case c;
    c.what = "Reshape, count " + std::to_string(count);
    c.in_bytes = c.out_bytes = count;
    c.input = data;
    c.contract = 0;
    c.run = [count](const std::int8_t* in, std::int8_t* out) {
      k::Reshape(in, out, static_cast<std::size_t>(count));
    };
    c.trace = [count](Trace& t) { ElementwiseTrace(count, t); };
    return c;
  });
}

// --- PAD -------------------------------------------------------------------

/// PAD's trace, loop by loop from the header: output elements in row-major
/// order; one inside the input's box reads the input element at its own
/// coordinates (computed here from them, not counted), then writes.
void PadTrace(const k::PadParams& p, Trace& t) {
  const k::Shape4 o = k::PadOutputShape(p);
  std::int64_t j = 0;
  for (std::int32_t n = 0; n < o.n; ++n) {
    for (std::int32_t y = 0; y < o.h; ++y) {
      for (std::int32_t x = 0; x < o.w; ++x) {
        for (std::int32_t c = 0; c < o.c; ++c, ++j) {
          const std::int32_t a = n - p.before.n, b = y - p.before.h;
          const std::int32_t e = x - p.before.w, f = c - p.before.c;
          if (a >= 0 && a < p.input.n && b >= 0 && b < p.input.h && e >= 0 &&
              e < p.input.w && f >= 0 && f < p.input.c) {
            t.push_back(((a * p.input.h + b) * p.input.w + e) * p.input.c + f);
          }
          t.push_back(Write(j));
        }
      }
    }
  }
}

TEST(KernelsOverlap, PadContractIsExactAndSafe) {
  Lcg rng(3434);
  Tally tally;
  for (int i = 0; i < 150; ++i) {
    auto p = std::make_shared<k::PadParams>(k::PadParams{
        {rng.Next(1, 2), rng.Next(1, 7), rng.Next(1, 7), rng.Next(1, 5)},
        {rng.Next(0, 1), rng.Next(0, 3), rng.Next(0, 3), rng.Next(0, 2)},
        {rng.Next(0, 1), rng.Next(0, 3), rng.Next(0, 3), rng.Next(0, 2)}});
    const k::Shape4 o = k::PadOutputShape(*p);
    const auto value = rng.Byte();
    Case c;
    c.what = "Pad " + ShapeText(p->input) + " before " + ShapeText(p->before) +
             " after " + ShapeText(p->after);
    c.in_bytes =
        std::int64_t{p->input.n} * p->input.h * p->input.w * p->input.c;
    c.out_bytes = std::int64_t{o.n} * o.h * o.w * o.c;
    c.input.resize(static_cast<std::size_t>(c.in_bytes));
    for (auto& v : c.input) v = rng.Byte();
    c.contract = k::PadOverlapDistance(*p);
    c.run = [p, value](const std::int8_t* in, std::int8_t* out) {
      k::Pad<std::int8_t>(*p, value, in, out);
    };
    c.trace = [p](Trace& t) { PadTrace(*p, t); };
    CheckCase(c, rng, tally);
    // The input fits inside the output's bytes: in + d <= out.
    EXPECT_LE(c.in_bytes + c.contract, c.out_bytes) << c.what;
    if (HasFailure()) return;
  }
  EXPECT_GT(tally.positive, 100);
  EXPECT_GT(tally.wrong_below, 50);
}

/// An int16 or float32 PAD: pad.hpp's element distance times the element
/// size (overlap.hpp's ScaledOverlapDistance), against the element trace
/// turned into bytes (ScaleTrace).
template <class T>
void CheckWidePad(std::uint64_t seed, Tally& tally) {
  Lcg rng(seed);
  for (int i = 0; i < 60; ++i) {
    auto p = std::make_shared<k::PadParams>(
        k::PadParams{{1, rng.Next(1, 6), rng.Next(1, 6), rng.Next(1, 4)},
                     {0, rng.Next(0, 3), rng.Next(0, 3), rng.Next(0, 2)},
                     {0, rng.Next(0, 3), rng.Next(0, 3), rng.Next(0, 2)}});
    const k::Shape4 o = k::PadOutputShape(*p);
    const std::int64_t size = sizeof(T);
    const T value = static_cast<T>(rng.Next(-100, 100));
    Case c;
    c.what = "Pad " + std::to_string(size) + "-byte " + ShapeText(p->input) +
             " before " + ShapeText(p->before) + " after " +
             ShapeText(p->after);
    c.in_bytes = size * p->input.n * p->input.h * p->input.w * p->input.c;
    c.out_bytes = size * o.n * o.h * o.w * o.c;
    c.in_align = size;
    std::vector<T> values(static_cast<std::size_t>(c.in_bytes / size));
    for (auto& v : values) v = static_cast<T>(rng.Next(-30000, 30000));
    c.input.resize(static_cast<std::size_t>(c.in_bytes));
    std::memcpy(c.input.data(), values.data(), c.input.size());
    c.contract = k::ScaledOverlapDistance(k::PadOverlapDistance(*p), size);
    c.run = [p, value](const std::int8_t* in, std::int8_t* out) {
      k::Pad<T>(*p, value, reinterpret_cast<const T*>(in),
                reinterpret_cast<T*>(out));
    };
    c.trace = [p](Trace& t) {
      Trace elements;
      PadTrace(*p, elements);
      t = ScaleTrace(elements, sizeof(T));
    };
    CheckCase(c, rng, tally);
    if (::testing::Test::HasFailure()) return;
  }
}

TEST(KernelsOverlap, PadContractScalesWithTheElementSize) {
  Tally tally;
  CheckWidePad<std::int16_t>(3535, tally);
  CheckWidePad<float>(3636, tally);
  EXPECT_EQ(tally.cases, 120);
  EXPECT_GT(tally.positive, 60);
  EXPECT_GT(tally.wrong_below, 30);  // One element below d is wrong.
}

}  // namespace
