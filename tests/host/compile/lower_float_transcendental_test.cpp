// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// float32 LOGISTIC, TANH and SOFTMAX through `compile` end to end. Their
// kernels use the project's own exp and tanh (kernels/include/arenaplan/
// kernels/float/math.hpp; the firmware has no libm), so they are not
// bit-exact with TFLM: each output is compared with a second computation
// here, TFLite's formula with every +, -, *, / as TFLite rounds it
// (tests/host/support/float_oracle.hpp) and each exp / tanh computed by
// the host's libm in double and rounded to float once (a correctly rounded
// libm), within a stated tolerance in units in the last place (ULP): 4
// for each of LOGISTIC, TANH and SOFTMAX.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tests/host/support/float_oracle.hpp"
#include "tests/host/support/op_model.hpp"

namespace {

using arenaplan::testing_util::AddF;
using arenaplan::testing_util::Bits;
using arenaplan::testing_util::Bytes;
using arenaplan::testing_util::CompileAndRun;
using arenaplan::testing_util::DivF;
using arenaplan::testing_util::FromBits;
using arenaplan::testing_util::MulF;
using arenaplan::testing_util::OneOpModel;
using arenaplan::testing_util::RandomFloats;
using arenaplan::testing_util::SubF;
using arenaplan::testing_util::TensorSpec;
using arenaplan::testing_util::WordsOf;
namespace fb = arenaplan::tflite::fb;
namespace tflite = arenaplan::tflite;

using arenaplan::testing_util::kF32;

/// e^x correctly rounded to float (double exp, one rounding).
float ExpF(float x) {
  return static_cast<float>(std::exp(static_cast<double>(x)));
}

/// TFLite's reference float logistic with ExpF.
float LogisticF(float x) {
  if (x > 16.619047164916992188f) return 1.0f;
  if (x < -9.0f) return ExpF(x);
  return DivF(1.0f, AddF(1.0f, ExpF(-x)));
}

std::int64_t UlpDistance(float a, float b) {
  auto ordinal = [](float v) {
    const std::uint32_t u = Bits(v);
    const auto m = static_cast<std::int64_t>(u & 0x7fffffffu);
    return (u & 0x80000000u) ? -m : m;
  };
  const std::int64_t d = ordinal(a) - ordinal(b);
  return d < 0 ? -d : d;
}

/// A one-input float operator on shape `shape`.
OneOpModel FloatUnary(tflite::BuiltinOp op,
                      const std::vector<std::int32_t>& shape) {
  OneOpModel m;
  m.name = "unary_f32_" + std::to_string(static_cast<int>(op));
  m.tensors = {TensorSpec{shape, kF32, 0.0f, 0, {}},
               TensorSpec{shape, kF32, 0.0f, 0, {}}};
  m.graph_inputs = {0};
  m.graph_outputs = {1};
  m.op = op;
  m.op_inputs = {0};
  m.op_outputs = {1};
  return m;
}

TEST(LowerFloatTranscendental, LogisticAndTanhStayWithinFourUlp) {
  // 64 inputs over [-20, 20] (both of LOGISTIC's cut-offs, -9 and
  // 16.619047, and TANH's saturation), plus 0, -0.0, tiny and huge ones.
  std::vector<float> in = RandomFloats(64, 31, -20.0f, 20.0f);
  for (float v : {0.0f, -0.0f, 1e-20f, -3e-7f, 1e30f, -1e30f, -9.5f, 17.0f}) {
    in.push_back(v);
  }
  const std::vector<std::int32_t> shape{2, 36};
  for (const bool logistic : {true, false}) {
    const auto run =
        CompileAndRun(FloatUnary(logistic ? tflite::BuiltinOp::kLogistic
                                          : tflite::BuiltinOp::kTanh,
                                 shape),
                      Bytes(in));
    ASSERT_EQ(run.error, "") << logistic;
    const auto out = WordsOf(run.output);
    ASSERT_EQ(out.size(), in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
      const float expect =
          logistic ? LogisticF(in[i])
                   : static_cast<float>(std::tanh(static_cast<double>(in[i])));
      EXPECT_LE(UlpDistance(FromBits(out[i]), expect), 4)
          << (logistic ? "logistic " : "tanh ") << in[i];
    }
  }
}

TEST(LowerFloatTranscendental, SoftmaxStaysWithinFourUlp) {
  // [3, 7] rows over [-8, 8], beta 0.75; the last row holds one large
  // value (its exps of the others underflow towards 0).
  std::vector<float> in = RandomFloats(21, 32, -8.0f, 8.0f);
  in[17] = 80.0f;
  OneOpModel m = FloatUnary(tflite::BuiltinOp::kSoftmax, {3, 7});
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::SoftmaxOptions,
                     fb::CreateSoftmaxOptions(fbb, 0.75f).Union()};
  };
  const auto run = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(run.error, "");
  const auto out = WordsOf(run.output);
  ASSERT_EQ(out.size(), in.size());
  for (int r = 0; r < 3; ++r) {
    const float* x = &in[static_cast<std::size_t>(r * 7)];
    float max = std::numeric_limits<float>::lowest(), sum = 0.0f;
    for (int c = 0; c < 7; ++c) max = max < x[c] ? x[c] : max;
    float e[7];
    for (int c = 0; c < 7; ++c) {
      e[c] = ExpF(MulF(SubF(x[c], max), 0.75f));
      sum = AddF(sum, e[c]);
    }
    for (int c = 0; c < 7; ++c) {
      EXPECT_LE(UlpDistance(FromBits(out[static_cast<std::size_t>(r * 7 + c)]),
                            DivF(e[c], sum)),
                4)
          << r << " " << c;
    }
  }
}

}  // namespace
