// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The overlap contracts of the int16 and float32 element-wise kernels and
// of the conversions between element sizes (requantization, QUANTIZE from
// float32, DEQUANTIZE to float32): overlap.hpp's
// ElementwiseOverlapDistance(count, sizeof(In), sizeof(Out)), in bytes, on
// random counts and parameters (fixed seeds), checked the two ways of
// tests/host/support/overlap_case.hpp. The real kernels read typed
// elements, so they run only at distances that keep the input aligned
// (Case::in_align); the trace checks every distance, and tightness at d - 1
// with it. Where d > 0 (a wider output), the real kernel placed one aligned
// step below d must give wrong bytes in some cases.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "arenaplan/kernels/kernels.hpp"
#include "tests/host/support/overlap_case.hpp"

namespace {

namespace k = arenaplan::kernels;
using arenaplan::overlap_case::Case;
using arenaplan::overlap_case::CheckCase;
using arenaplan::overlap_case::ElementwiseTrace;
using arenaplan::overlap_case::Lcg;
using arenaplan::overlap_case::Tally;
using arenaplan::overlap_case::Trace;

constexpr std::int32_t kMaxInt32 = std::numeric_limits<std::int32_t>::max();

/// `count` random values of T: integers over T's range, floats in [-8, 8]
/// in steps of 1/64.
template <class T>
std::vector<T> RandomValues(std::int32_t count, Lcg& rng) {
  std::vector<T> v(static_cast<std::size_t>(count));
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(rng.Next(-512, 512)) / 64.0f;
    } else {
      x = static_cast<T>(rng.Next(std::numeric_limits<T>::min(),
                                  std::numeric_limits<T>::max()));
    }
  }
  return v;
}

/// The bytes of `v`.
template <class T>
std::vector<std::int8_t> Bytes(const std::vector<T>& v) {
  std::vector<std::int8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

/// A one-input element-wise kernel from In to Out over `count` elements,
/// its input streamed into its output.
template <class In, class Out>
Case UnaryCase(const std::string& name, std::int32_t count, Lcg& rng,
               std::function<void(const In*, Out*)> kernel) {
  Case c;
  c.what = name + ", count " + std::to_string(count);
  c.in_bytes = std::int64_t{count} * sizeof(In);
  c.out_bytes = std::int64_t{count} * sizeof(Out);
  c.in_align = alignof(In);
  c.input = Bytes(RandomValues<In>(count, rng));
  c.contract = k::ElementwiseOverlapDistance(count, sizeof(In), sizeof(Out));
  c.run = [kernel = std::move(kernel)](const std::int8_t* in,
                                       std::int8_t* out) {
    kernel(reinterpret_cast<const In*>(in), reinterpret_cast<Out*>(out));
  };
  c.trace = [count](Trace& t) {
    ElementwiseTrace(count, t, sizeof(In), sizeof(Out));
  };
  return c;
}

/// A two-input element-wise kernel on T, both inputs of the output's shape
/// (a [1, 1, 1, count] walk with unit strides), input 1 (`first`) or input
/// 2 streamed into the output.
template <class T>
Case BinaryCase(const std::string& name, std::int32_t count, bool first,
                Lcg& rng, std::function<void(const T*, const T*, T*)> kernel) {
  auto other = std::make_shared<std::vector<T>>(RandomValues<T>(count, rng));
  Case c = UnaryCase<T, T>(
      name + ", input " + (first ? "1" : "2") + " overlapped", count, rng,
      [kernel = std::move(kernel), other, first](const T* in, T* out) {
        if (first) {
          kernel(in, other->data(), out);
        } else {
          kernel(other->data(), in, out);
        }
      });
  return c;
}

/// Runs `make(i, rng)` for `n` cases and checks each.
Tally CheckAll(int n, std::uint64_t seed,
               const std::function<Case(int, Lcg&)>& make) {
  Lcg rng(seed);
  Tally tally;
  for (int i = 0; i < n; ++i) {
    CheckCase(make(i, rng), rng, tally);
    if (::testing::Test::HasFailure()) break;
  }
  return tally;
}

TEST(KernelsOverlapWide, Int16AddSubMulAreInPlaceForEitherInput) {
  const Tally tally = CheckAll(90, 1601, [](int i, Lcg& rng) {
    const std::int32_t count = rng.Next(1, 200);
    const bool first = i % 2 == 0;
    const k::Shape4 shape{1, 1, 1, count};
    if (i % 3 == 2) {
      const k::MulParams p{0,
                           0,
                           0,
                           rng.Next(1 << 30, kMaxInt32),
                           rng.Next(-15, -10),
                           -32768,
                           32767,
                           shape,
                           {0, 0, 0, 1},
                           {0, 0, 0, 1}};
      return BinaryCase<std::int16_t>(
          "int16 Mul", count, first, rng,
          [p](const std::int16_t* a, const std::int16_t* b, std::int16_t* out) {
            k::int16::Mul(p, a, b, out);
          });
    }
    // The multipliers TFLM derives: inputs' at most 1/2, the output's small.
    const k::int16::BinaryParams p{0,
                                   0,
                                   0,
                                   15,
                                   rng.Next(1 << 30, kMaxInt32),
                                   rng.Next(-3, -1),
                                   rng.Next(1 << 30, kMaxInt32),
                                   rng.Next(-3, -1),
                                   rng.Next(1 << 30, kMaxInt32),
                                   rng.Next(-18, -14),
                                   -32768,
                                   32767,
                                   shape,
                                   {0, 0, 0, 1},
                                   {0, 0, 0, 1}};
    const bool add = i % 3 == 0;
    return BinaryCase<std::int16_t>(
        add ? "int16 Add" : "int16 Sub", count, first, rng,
        [p, add](const std::int16_t* a, const std::int16_t* b,
                 std::int16_t* out) {
          if (add) {
            k::int16::Add(p, a, b, out);
          } else {
            k::int16::Sub(p, a, b, out);
          }
        });
  });
  EXPECT_EQ(tally.cases, 90);
  EXPECT_EQ(tally.positive, 0);  // d = 0 always: in place.
  EXPECT_EQ(tally.overlapping, 90);
}

TEST(KernelsOverlapWide, Int16LeakyReluLogisticTanhAreInPlace) {
  const Tally tally = CheckAll(60, 1602, [](int i, Lcg& rng) {
    const std::int32_t count = rng.Next(1, 200);
    if (i % 3 == 0) {
      const k::LeakyReluParams p{rng.Next(-100, 100),
                                 rng.Next(-100, 100),
                                 rng.Next(1 << 30, kMaxInt32),
                                 rng.Next(-3, 0),
                                 rng.Next(1 << 30, kMaxInt32),
                                 rng.Next(-6, -1),
                                 count};
      return UnaryCase<std::int16_t, std::int16_t>(
          "int16 LeakyRelu", count, rng,
          [p](const std::int16_t* in, std::int16_t* out) {
            k::int16::LeakyRelu(p, in, out);
          });
    }
    const k::int16::SigmoidParams p{rng.Next(1, 32767), rng.Next(0, 12), count};
    const bool tanh = i % 3 == 1;
    return UnaryCase<std::int16_t, std::int16_t>(
        tanh ? "int16 Tanh" : "int16 Logistic", count, rng,
        [p, tanh](const std::int16_t* in, std::int16_t* out) {
          if (tanh) {
            k::int16::Tanh(p, in, out);
          } else {
            k::int16::Logistic(p, in, out);
          }
        });
  });
  EXPECT_EQ(tally.cases, 60);
  EXPECT_EQ(tally.positive, 0);
}

TEST(KernelsOverlapWide, FloatElementwiseIsInPlaceForEitherInput) {
  const Tally tally = CheckAll(98, 1603, [](int i, Lcg& rng) {
    const std::int32_t count = rng.Next(1, 200);
    const k::f32::ArithmeticParams p{
        {-6.0f, 6.0f}, {1, 1, 1, count}, {0, 0, 0, 1}, {0, 0, 0, 1}};
    using Unary = void (*)(std::int32_t, const float*, float*);
    using Binary = void (*)(const k::f32::ArithmeticParams&, const float*,
                            const float*, float*);
    static const Unary kUnary[4] = {&k::f32::Relu, &k::f32::Relu6,
                                    &k::f32::Logistic, &k::f32::Tanh};
    static const char* const kUnaryName[4] = {"Relu", "Relu6", "Logistic",
                                              "Tanh"};
    static const Binary kBinary[3] = {&k::f32::Add, &k::f32::Sub, &k::f32::Mul};
    static const char* const kBinaryName[3] = {"Add", "Sub", "Mul"};
    const int which = i % 7;
    if (which < 4) {
      const Unary f = kUnary[which];
      return UnaryCase<float, float>(
          std::string("float ") + kUnaryName[which], count, rng,
          [f, count](const float* in, float* out) { f(count, in, out); });
    }
    const Binary f = kBinary[which - 4];
    return BinaryCase<float>(std::string("float ") + kBinaryName[which - 4],
                             count, (i / 7) % 2 == 0, rng,
                             [f, p](const float* a, const float* b,
                                    float* out) { f(p, a, b, out); });
  });
  EXPECT_EQ(tally.cases, 98);
  EXPECT_EQ(tally.positive, 0);
}

TEST(KernelsOverlapWide, RequantizeBetweenSizesFollowsTheElementSizes) {
  // int8 -> int16 widens by 1 byte an element: d = count - 1; int16 ->
  // int8 narrows: d = 0; int16 -> int16: d = 0.
  const Tally tally = CheckAll(60, 1604, [](int i, Lcg& rng) {
    const std::int32_t count = rng.Next(1, 200);
    const k::RequantizeParams p{rng.Next(-100, 100), rng.Next(-100, 100),
                                rng.Next(1 << 30, kMaxInt32), rng.Next(-4, 6),
                                count};
    Case c;
    switch (i % 3) {
      case 0:
        c = UnaryCase<std::int8_t, std::int16_t>(
            "Requantize int8 -> int16", count, rng,
            [p](const std::int8_t* in, std::int16_t* out) {
              k::Requantize(p, in, out);
            });
        EXPECT_EQ(c.contract, count - 1);  // By hand: 2 - 1 bytes a step.
        break;
      case 1:
        c = UnaryCase<std::int16_t, std::int8_t>(
            "Requantize int16 -> int8", count, rng,
            [p](const std::int16_t* in, std::int8_t* out) {
              k::Requantize(p, in, out);
            });
        EXPECT_EQ(c.contract, 0);
        break;
      default:
        c = UnaryCase<std::int16_t, std::int16_t>(
            "Requantize int16 -> int16", count, rng,
            [p](const std::int16_t* in, std::int16_t* out) {
              k::Requantize(p, in, out);
            });
        EXPECT_EQ(c.contract, 0);
    }
    return c;
  });
  EXPECT_EQ(tally.cases, 60);
  EXPECT_GT(tally.positive, 0);
  EXPECT_GT(tally.wrong_below, 0);  // One aligned step below d is wrong.
}

TEST(KernelsOverlapWide, QuantizeAndDequantizeFollowTheElementSizes) {
  // DEQUANTIZE widens: int8 -> float32 d = 3 (count - 1), int16 -> float32
  // d = 2 (count - 1); QUANTIZE from float32 narrows: d = 0.
  const Tally tally = CheckAll(80, 1605, [](int i, Lcg& rng) {
    const std::int32_t count = rng.Next(1, 200);
    const k::FloatQuantizeParams p{static_cast<float>(rng.Next(1, 64)) / 256.0f,
                                   rng.Next(-50, 50), count};
    Case c;
    switch (i % 4) {
      case 0:
        c = UnaryCase<std::int8_t, float>(
            "Dequantize int8 -> float", count, rng,
            [p](const std::int8_t* in, float* out) {
              k::DequantizeToFloat(p, in, out);
            });
        EXPECT_EQ(c.contract, 3 * (count - 1));
        break;
      case 1:
        c = UnaryCase<std::int16_t, float>(
            "Dequantize int16 -> float", count, rng,
            [p](const std::int16_t* in, float* out) {
              k::DequantizeToFloat(p, in, out);
            });
        EXPECT_EQ(c.contract, 2 * (count - 1));
        break;
      case 2:
        c = UnaryCase<float, std::int8_t>(
            "Quantize float -> int8", count, rng,
            [p](const float* in, std::int8_t* out) {
              k::QuantizeFromFloat(p, in, out);
            });
        EXPECT_EQ(c.contract, 0);
        break;
      default:
        c = UnaryCase<float, std::int16_t>(
            "Quantize float -> int16", count, rng,
            [p](const float* in, std::int16_t* out) {
              k::QuantizeFromFloat(p, in, out);
            });
        EXPECT_EQ(c.contract, 0);
    }
    return c;
  });
  EXPECT_EQ(tally.cases, 80);
  EXPECT_GT(tally.positive, 0);
  EXPECT_GT(tally.wrong_below, 0);
}

// By hand: 3 int16 values dequantized: output element 1 (bytes 4 .. 7) is
// written before input element 2 (bytes 4 .. 5 of the input) is read; at
// distance d the last output byte 7 lands on input byte 7 - d, which must
// be below 4: d >= 4 = 2 * (3 - 1).
static_assert(k::ElementwiseOverlapDistance(3, 2, 4) == 4);
static_assert(k::ElementwiseOverlapDistance(1, 1, 4) == 0);
static_assert(k::ElementwiseOverlapDistance(100, 4, 1) == 0);

}  // namespace
