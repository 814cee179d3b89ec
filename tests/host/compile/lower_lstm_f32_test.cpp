// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The float32 UNIDIRECTIONAL_SEQUENCE_LSTM through `compile` end to end
// (a one-operator model built here, compiled, built with the host compiler
// and run). Expected values: the standard LSTM equations evaluated here in
// double (sigmoid 1 / (1 + e^-x), tanh from <cmath>); the kernel computes
// in float with math.hpp's exp and tanh, so the bound below is measured
// float-versus-double error, not an ULP claim.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/host/support/float_oracle.hpp"
#include "tests/host/support/model_builder.hpp"
#include "tests/host/support/op_model.hpp"

namespace {

using arenaplan::testing_util::Bytes;
using arenaplan::testing_util::CompileAndRunBytes;
using arenaplan::testing_util::FromBits;
using arenaplan::testing_util::ModelBuilder;
using arenaplan::testing_util::RandomFloats;
using arenaplan::testing_util::RunOptions;
using arenaplan::testing_util::SerializeModel;
using arenaplan::testing_util::WordsOf;
namespace tflite = arenaplan::tflite;

constexpr std::int32_t kBatches = 2, kSteps = 3, kInput = 5, kUnits = 4;

/// The weights of a float LSTM: gates input, forget, cell, output.
struct LstmWeights {
  std::vector<float> wi[4], wr[4], bias[4];
};

LstmWeights RandomWeights(unsigned seed) {
  LstmWeights w;
  for (int g = 0; g < 4; ++g) {
    w.wi[g] = RandomFloats(kUnits * kInput, seed + 3 * g, -0.8f, 0.8f);
    w.wr[g] = RandomFloats(kUnits * kUnits, seed + 3 * g + 1, -0.8f, 0.8f);
    w.bias[g] = RandomFloats(kUnits, seed + 3 * g + 2, -0.5f, 0.5f);
  }
  return w;
}

/// The .tflite bytes of one float LSTM; `weight_type` for the
/// input-to-forget weights (float32 unless a refusal is tested).
std::vector<std::uint8_t> LstmModel(
    const LstmWeights& w, bool time_major, float cell_clip,
    tflite::TensorType weight_type = tflite::TensorType::kFloat32) {
  using tflite::TensorType;
  ModelBuilder b;
  const std::vector<std::int32_t> seq =
      time_major ? std::vector<std::int32_t>{kSteps, kBatches, kInput}
                 : std::vector<std::int32_t>{kBatches, kSteps, kInput};
  std::vector<std::int32_t> in(24, -1);
  in[0] = b.Tensor(seq, TensorType::kFloat32, 0.0f);
  for (int g = 0; g < 4; ++g) {
    const TensorType t = g == 1 ? weight_type : TensorType::kFloat32;
    in[1 + g] = b.Constant({kUnits, kInput}, t, Bytes(w.wi[g]), 0.0f);
    in[5 + g] = b.Constant({kUnits, kUnits}, TensorType::kFloat32,
                           Bytes(w.wr[g]), 0.0f);
    in[12 + g] =
        b.Constant({kUnits}, TensorType::kFloat32, Bytes(w.bias[g]), 0.0f);
  }
  for (int s : {18, 19}) {
    in[s] = b.Tensor({kBatches, kUnits}, TensorType::kFloat32, 0.0f);
    b.graph().tensors[static_cast<std::size_t>(in[s])].is_variable = true;
  }
  const std::vector<std::int32_t> out_shape =
      time_major ? std::vector<std::int32_t>{kSteps, kBatches, kUnits}
                 : std::vector<std::int32_t>{kBatches, kSteps, kUnits};
  const std::int32_t out = b.Tensor(out_shape, TensorType::kFloat32, 0.0f);
  tflite::SequenceLstmOptions o;
  o.activation = tflite::Activation::kTanh;
  o.cell_clip = cell_clip;
  o.time_major = time_major;
  b.Op(tflite::BuiltinOp::kUnidirectionalSequenceLstm, in, {out}, o);
  return SerializeModel(b.Finish({in[0]}, {out}));
}

/// The LSTM in double (header comment); rows as the model's layout.
std::vector<double> LstmInDouble(const LstmWeights& w,
                                 const std::vector<float>& x, bool time_major,
                                 double clip) {
  std::vector<double> out(kBatches * kSteps * kUnits);
  const auto sigmoid = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
  for (int b = 0; b < kBatches; ++b) {
    std::vector<double> h(kUnits, 0.0), c(kUnits, 0.0);
    for (int t = 0; t < kSteps; ++t) {
      const int row = time_major ? t * kBatches + b : b * kSteps + t;
      std::vector<double> gate[4];
      for (int g = 0; g < 4; ++g) {
        for (int j = 0; j < kUnits; ++j) {
          double v = w.bias[g][j];
          for (int i = 0; i < kInput; ++i)
            v += double{x[row * kInput + i]} * w.wi[g][j * kInput + i];
          for (int k = 0; k < kUnits; ++k) v += h[k] * w.wr[g][j * kUnits + k];
          gate[g].push_back(g == 2 ? std::tanh(v) : sigmoid(v));
        }
      }
      for (int j = 0; j < kUnits; ++j) {
        c[j] = gate[1][j] * c[j] + gate[0][j] * gate[2][j];
        if (clip > 0.0) c[j] = std::fmax(std::fmin(c[j], clip), -clip);
        h[j] = gate[3][j] * std::tanh(c[j]);
        out[row * kUnits + j] = h[j];
      }
    }
  }
  return out;
}

/// Runs the model on random input in [-2, 2] and compares with the
/// double LSTM: within `bound` (absolute; outputs are in (-1, 1)).
void CheckLstm(bool time_major, float clip, unsigned seed) {
  const LstmWeights w = RandomWeights(seed);
  const std::vector<float> x =
      RandomFloats(kBatches * kSteps * kInput, seed + 100, -2.0f, 2.0f);
  const auto run = CompileAndRunBytes(LstmModel(w, time_major, clip),
                                      "lstm_f32", Bytes(x), RunOptions{});
  ASSERT_EQ(run.error, "");
  const auto got = WordsOf(run.output);
  const auto want = LstmInDouble(w, x, time_major, clip);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    // Measured on these cases: at most 5.9e-8.
    EXPECT_NEAR(FromBits(got[i]), want[i], 2e-7) << i;
  }
}

TEST(LowerLstmF32, FollowsTheLstmBatchMajor) { CheckLstm(false, 0.0f, 1); }

TEST(LowerLstmF32, FollowsTheLstmTimeMajorWithACellClip) {
  CheckLstm(true, 0.3f, 2);
}

TEST(LowerLstmF32, RefusesMixedWeightTypesNamingTheTensor) {
  const LstmWeights w = RandomWeights(3);
  LstmWeights w8 = w;
  w8.wi[1].resize(kUnits * kInput / 4);  // int8 bytes of the same count
  const auto run = CompileAndRunBytes(
      LstmModel(w8, false, 0.0f, tflite::TensorType::kInt8), "lstm_f32",
      std::vector<std::uint8_t>(kBatches * kSteps * kInput * 4), RunOptions{});
  EXPECT_NE(run.error.find("UNIDIRECTIONAL_SEQUENCE_LSTM"), std::string::npos)
      << run.error;
  EXPECT_NE(run.error.find("input-to-forget weights"), std::string::npos)
      << run.error;
  EXPECT_NE(run.error.find("INT8"), std::string::npos) << run.error;
}

}  // namespace
