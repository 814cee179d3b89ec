// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// int16 SOFTMAX (int16 in, int16 out) through `compile` end to end (one-
// operator models built here, compiled, built with the host compiler and
// run), and the two tables the generator computes for it. Expected values:
// the tables from TFLite's table formula evaluated here in double; the
// outputs from softmax computed in double, within a bound of the two
// tables' interpolation and the kernel's Q0.15 roundings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/compile/quantize.hpp"
#include "tests/host/support/int16_reference.hpp"
#include "tests/host/support/op_model.hpp"

namespace {

using arenaplan::compile::Int16SoftmaxFunction;
using arenaplan::compile::Int16SoftmaxTable;
using arenaplan::testing_util::AsInt16;
using arenaplan::testing_util::Bytes;
using arenaplan::testing_util::CompileAndRun;
using arenaplan::testing_util::CompileError;
using arenaplan::testing_util::kI16;
using arenaplan::testing_util::OneOpModel;
using arenaplan::testing_util::Random16;
using arenaplan::testing_util::TensorSpec;
namespace fb = arenaplan::tflite::fb;
using arenaplan::tflite::BuiltinOp;

/// The table of `f` over [lo, hi] by TFLite's construction, in double:
/// 512 steps; entry i is s = round(32768 f(x_i)) less half (rounded) of
/// the rounded chord midpoint's error against round(32768 f(midpoint));
/// the last entry round(32768 f(hi)); all clamped to int16.
template <class F>
std::vector<int> TableInDouble(F f, double lo, double hi) {
  const auto q = [](double v) { return std::round(v * 32768.0); };
  const auto clamp16 = [](double v) {
    return static_cast<int>(std::clamp(v, -32768.0, 32767.0));
  };
  const double step = (hi - lo) / 512.0;
  std::vector<int> t;
  for (int i = 0; i < 512; ++i) {
    const double x = lo + i * step;
    const double s = q(f(x));
    const double chord = std::round((f(x + step) * 32768.0 + s) / 2.0);
    const double err = chord - q(f(x + step / 2.0));
    t.push_back(clamp16(s - std::round(err / 2.0)));
  }
  t.push_back(clamp16(q(f(hi))));
  return t;
}

/// Entries where `got` differs from `want`; fails when any differs by
/// more than one.
int Differences(const std::vector<std::int16_t>& got,
                const std::vector<int>& want) {
  EXPECT_EQ(got.size(), 513u);
  EXPECT_EQ(want.size(), 513u);
  int n = 0;
  for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) {
    EXPECT_LE(std::abs(got[i] - want[i]), 1) << i;
    n += got[i] != want[i] ? 1 : 0;
  }
  return n;
}

TEST(LowerSoftmax16, ComputesTheExpTableByTheFormula) {
  const auto t = Int16SoftmaxTable(Int16SoftmaxFunction::kExp);
  const auto want =
      TableInDouble([](double x) { return std::exp(x); }, -10.0, 0.0);
  // The generator works in float, as TFLM does, which could round an entry
  // across a half; for exp none does.
  EXPECT_EQ(Differences(t, want), 0);
  EXPECT_EQ(t[512], 32767);  // exp(0) = 1, saturated
  // By hand: 32768 exp(-10) = 1.488 rounds to 1; the chord's midpoint
  // round((1.517 + 1) / 2) = 1 is below the curve's round(1.502) = 2, so
  // half that error, round(-0.5) = -1, is taken off: 2.
  EXPECT_EQ(t[0], 2);
}

TEST(LowerSoftmax16, ComputesTheReciprocalTableByTheFormula) {
  const auto t = Int16SoftmaxTable(Int16SoftmaxFunction::kReciprocal);
  const auto want =
      TableInDouble([](double x) { return 1.0 / (1.0 + x); }, 0.0, 1.0);
  // In float two entries round the other way (by one).
  EXPECT_LE(Differences(t, want), 2);
  EXPECT_EQ(t[0], 32767);    // 1 / (1 + 0), saturated
  EXPECT_EQ(t[512], 16384);  // 1 / 2
}

/// SOFTMAX of int16 [rows, depth] with input scale `si` and `beta`;
/// output scale `so`, zero points `zi`, `zo`.
OneOpModel Softmax16(std::int32_t rows, std::int32_t depth, float si,
                     float beta, float so = 1.0f / 32768.0f, int zi = 0,
                     int zo = 0) {
  OneOpModel m;
  m.name = "softmax16_" + std::to_string(rows) + "x" + std::to_string(depth);
  m.op = BuiltinOp::kSoftmax;
  m.tensors = {TensorSpec{{rows, depth}, kI16, si, zi, {}},
               TensorSpec{{rows, depth}, kI16, so, zo, {}}};
  m.graph_inputs = {0};
  m.graph_outputs = {1};
  m.op_inputs = {0};
  m.op_outputs = {1};
  m.options = [beta](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::SoftmaxOptions,
                     fb::CreateSoftmaxOptions(fbb, beta).Union()};
  };
  return m;
}

/// Runs Softmax16 on random inputs in [lo, hi] and checks every output
/// against 32768 softmax(beta * si * x) in double: within `bound` units
/// of 2^-15 (the exp table's step and interpolation, the reciprocal's,
/// the exp table's cut below exp(-10)). Measured on these inputs: at most
/// 12.3.
void CheckAgainstDouble(float si, float beta, int lo, int hi, unsigned seed,
                        int bound) {
  const std::int32_t rows = 6, depth = 40;
  const auto in = Random16(rows * depth, seed, lo, hi);
  const auto run = CompileAndRun(Softmax16(rows, depth, si, beta), Bytes(in));
  ASSERT_EQ(run.error, "");
  const auto out = AsInt16(run.output);
  ASSERT_EQ(out.size(), in.size());
  for (std::int32_t r = 0; r < rows; ++r) {
    const std::int16_t* x = &in[static_cast<std::size_t>(r * depth)];
    const int max = *std::max_element(x, x + depth);
    double sum = 0.0;
    for (std::int32_t c = 0; c < depth; ++c) {
      sum += std::exp(double{beta} * double{si} * (x[c] - max));
    }
    for (std::int32_t c = 0; c < depth; ++c) {
      const double want =
          32768.0 * std::exp(double{beta} * double{si} * (x[c] - max)) / sum;
      EXPECT_LE(std::abs(out[static_cast<std::size_t>(r * depth + c)] -
                         std::min(want, 32767.0)),
                bound)
          << r << " " << c << " in " << x[c];
    }
  }
}

TEST(LowerSoftmax16, FollowsSoftmaxOverTheWholeRange) {
  // Input scale 10 / 32768: the whole int16 range spans exp(-20) .. 1.
  CheckAgainstDouble(10.0f / 32768.0f, 1.0f, -32768, 32767, 3, 16);
}

TEST(LowerSoftmax16, FollowsSoftmaxWithABetaAndANarrowRange) {
  CheckAgainstDouble(1.0f / 4096.0f, 0.5f, -4000, 4000, 4, 16);
}

TEST(LowerSoftmax16, GivesEqualShareToEqualInputs) {
  // Four equal inputs: each exp is exp(0); by hand 32768 / 4 = 8192, less
  // at most the exp table's saturation at 32767.
  const std::vector<std::int16_t> in(8, 1234);
  const auto run =
      CompileAndRun(Softmax16(2, 4, 1.0f / 1024.0f, 1.0f), Bytes(in));
  ASSERT_EQ(run.error, "");
  for (const std::int16_t v : AsInt16(run.output)) {
    EXPECT_GE(v, 8190);
    EXPECT_LE(v, 8192);
  }
}

TEST(LowerSoftmax16, TakesInt8InputToInt16Output) {
  // int8 in (scale 0.1, zero point 3), int16 out (1/65536, -32768): the
  // int8 fixed-point method; within 1/65536 of softmax in double
  // (measured: 0.50).
  const std::int32_t rows = 4, depth = 32;
  OneOpModel m = Softmax16(rows, depth, 0.1f, 1.0f);
  m.name = "softmax8to16";
  m.tensors[0].type = arenaplan::testing_util::kI8;
  m.tensors[0].zero_point = 3;
  m.tensors[1].scale = 1.0f / 65536.0f;
  m.tensors[1].zero_point = -32768;
  std::vector<std::int8_t> in(rows * depth);
  const auto r16 = Random16(in.size(), 11, -128, 127);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<std::int8_t>(r16[i]);
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "");
  const auto out = AsInt16(run.output);
  ASSERT_EQ(out.size(), in.size());
  for (std::int32_t r = 0; r < rows; ++r) {
    const std::int8_t* x = &in[static_cast<std::size_t>(r * depth)];
    const int max = *std::max_element(x, x + depth);
    double sum = 0.0;
    for (std::int32_t c = 0; c < depth; ++c)
      sum += std::exp(0.1 * (x[c] - max));
    for (std::int32_t c = 0; c < depth; ++c) {
      const double want =
          65536.0 * std::exp(0.1 * (x[c] - max)) / sum - 32768.0;
      EXPECT_LE(std::abs(out[static_cast<std::size_t>(r * depth + c)] -
                         std::min(want, 32767.0)),
                1)
          << r << " " << c;
    }
  }
}

TEST(LowerSoftmax16, RefusesOtherQuantizations) {
  EXPECT_NE(CompileError(Softmax16(1, 8, 0.001f, 1.0f, 1.0f / 256.0f))
                .find("must have scale 2^-15"),
            std::string::npos);
  EXPECT_NE(CompileError(Softmax16(1, 8, 0.001f, 1.0f, 1.0f / 32768.0f, 0, 5))
                .find("must have scale 2^-15"),
            std::string::npos);
  EXPECT_NE(CompileError(Softmax16(1, 8, 0.001f, 1.0f, 1.0f / 32768.0f, 3))
                .find("must have zero point 0"),
            std::string::npos);
  // 65535 x 2^16 overflows the rescaling: beta x scale above 2^15 x 10 /
  // 65535.
  EXPECT_NE(CompileError(Softmax16(1, 8, 8.0f, 1.0f)).find("too large"),
            std::string::npos);
}

}  // namespace
