// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// UNIDIRECTIONAL_SEQUENCE_LSTM's lowering (lower_lstm.cpp) on TFLM's
// mnist_lstm example model (corpus): the emitted multipliers against the
// real ratios of the model's scales, the two state buffers, and the LSTM
// variants it refuses, each naming the operator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/tflite/model.hpp"

namespace {

using arenaplan::InputError;
using arenaplan::compile::CompileModel;
using arenaplan::compile::CompileOptions;
using arenaplan::tflite::Model;

std::string MnistLstmPath() {
  return std::string(ARENAPLAN_SHARED_DIR) +
         "/corpus/tflm_mnist_lstm_int8.tflite";
}

std::string Compile(const Model& model) {
  CompileOptions options;
  options.namespace_name = "m";
  return CompileModel(model, MnistLstmPath(), options).model_source;
}

std::string CompileError(const Model& model) {
  try {
    (void)Compile(model);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

/// The integers after `at` in `src`, separated by commas, braces and
/// spaces, up to `n` of them (identifiers are skipped).
std::vector<double> NumbersAfter(const std::string& src, std::size_t at,
                                 std::size_t n) {
  std::vector<double> v;
  std::size_t i = at;
  while (v.size() < n && i < src.size()) {
    const char c = src[i];
    const bool starts_number =
        (c == '-' || (c >= '0' && c <= '9')) &&
        (i == 0 || src[i - 1] == ' ' || src[i - 1] == '{' ||
         src[i - 1] == ',' || src[i - 1] == '\n');
    if (starts_number) {
      std::size_t used = 0;
      v.push_back(std::stod(src.substr(i, 24), &used));
      i += used;
    } else {
      ++i;
    }
  }
  return v;
}

/// multiplier * 2^(shift - 31).
double Real(double multiplier, double shift) {
  return multiplier * std::ldexp(1.0, static_cast<int>(shift) - 31);
}

TEST(LowerLstm, EmitsTheGateAndCellMultipliersOfTheScales) {
  const Model model = arenaplan::tflite::ReadModelFile(MnistLstmPath());
  const auto& sg = model.subgraphs[0];
  const auto& op = sg.operators[0];
  ASSERT_EQ(op.builtin_name, "UNIDIRECTIONAL_SEQUENCE_LSTM");
  const auto scale = [&](std::size_t input) {
    return static_cast<double>(
        sg.tensors[static_cast<std::size_t>(op.inputs[input])]
            .quantization.scale[0]);
  };
  const std::string src = Compile(model);
  std::size_t at = src.find("k::SequenceLstm(");
  ASSERT_NE(at, std::string::npos);
  // batches, time steps, input size, units; [1,28,28] batch-major, 20
  // units; offsets: -zp_in, -zp_h, zp_h.
  const auto head = NumbersAfter(src, at, 7);
  const auto zp = [&](std::size_t input) {
    return static_cast<double>(
        sg.tensors[static_cast<std::size_t>(op.inputs[input])]
            .quantization.zero_point[0]);
  };
  EXPECT_EQ(head,
            (std::vector<double>{1, 28, 28, 20, -zp(0), -zp(18), zp(18)}));
  EXPECT_NE(src.find("20, false, "), std::string::npos);
  // Four gates: input FC multiplier s_in * s_w / 2^-12, recurrent
  // s_h * s_r / 2^-12, each within one part in 2^30 of the real ratio.
  for (std::size_t g = 0; g < 4; ++g) {
    at = src.find("k::LstmGate{", at + 1);
    ASSERT_NE(at, std::string::npos) << g;
    // The weight and bias identifiers are skipped.
    const auto v = NumbersAfter(src, at, 4);
    ASSERT_EQ(v.size(), 4u);
    const double want_in = scale(0) * scale(1 + g) * 4096;
    const double want_rec = scale(18) * scale(5 + g) * 4096;
    EXPECT_NEAR(Real(v[0], v[1]), want_in, want_in * 1e-6) << g;
    EXPECT_NEAR(Real(v[2], v[3]), want_rec, want_rec * 1e-6) << g;
  }
  // Then: cell tanh (multiplier, shift), clip flag and value, and the
  // three products: 2^-15, 2^-30 / s_c, 2^-30 / s_h.
  const std::size_t tail = src.find("},\n", at) + 3;
  const auto t = NumbersAfter(src, tail, 9);
  ASSERT_EQ(t.size(), 9u);
  const double s_c = scale(19);
  const int power = static_cast<int>(std::lround(std::log2(s_c)));
  if (15 + power - 3 >= 0) {
    EXPECT_EQ(t[0], 0);
    EXPECT_EQ(t[1], 15 + power - 3);
  } else {
    EXPECT_EQ(t[0], 3);
    EXPECT_EQ(t[1], -(15 + power - 3));
  }
  // The model's cell clip in cell units, truncated, at most 32767.
  const float clip =
      std::get<arenaplan::tflite::SequenceLstmOptions>(op.options).cell_clip;
  ASSERT_GT(clip, 0.0f);
  EXPECT_NE(src.find(", true, " +
                     std::to_string(static_cast<int>(
                         std::min(std::trunc(clip / s_c), 32767.0))) +
                     ", {"),
            std::string::npos);
  EXPECT_EQ(t[2], std::min(std::trunc(clip / s_c), 32767.0));
  EXPECT_NEAR(Real(t[3], t[4]), std::ldexp(1.0, -15), 1e-12);
  const double want_ic = std::ldexp(1.0, -30) / s_c;
  const double want_oh = std::ldexp(1.0, -30) / scale(18);
  EXPECT_NEAR(Real(t[5], t[6]), want_ic, want_ic * 1e-6);
  EXPECT_NEAR(Real(t[7], t[8]), want_oh, want_oh * 1e-6);
  // The states: int8 hidden state initially its zero point, int16 cell
  // state in .bss, both set again by ResetState().
  EXPECT_NE(src.find("alignas(16) std::int8_t kState16[20] = {"),
            std::string::npos);
  EXPECT_NE(src.find("alignas(16) std::int16_t kState17[20];"),
            std::string::npos);
  EXPECT_NE(src.find("for (std::int16_t& v : kState17) v = 0;"),
            std::string::npos);
}

TEST(LowerLstm, RefusesVariantsTheKernelDoesNotCompute) {
  const Model original = arenaplan::tflite::ReadModelFile(MnistLstmPath());
  const std::string prefix = ": operator 0 (UNIDIRECTIONAL_SEQUENCE_LSTM): ";
  // A peephole weight present.
  Model m = original;
  m.subgraphs[0].operators[0].inputs[9] = 4;
  EXPECT_NE(CompileError(m).find(prefix + "input 9 is present"),
            std::string::npos)
      << CompileError(m);
  // A cell activation other than TANH.
  m = original;
  std::get<arenaplan::tflite::SequenceLstmOptions>(
      m.subgraphs[0].operators[0].options)
      .activation = arenaplan::tflite::Activation::kRelu;
  EXPECT_NE(CompileError(m).find(prefix + "cell activation 1"),
            std::string::npos)
      << CompileError(m);
  // An int8 cell state.
  m = original;
  m.subgraphs[0].tensors[17].type = arenaplan::tflite::TensorType::kInt8;
  EXPECT_NE(CompileError(m).find("only an int16 cell state"), std::string::npos)
      << CompileError(m);
  // A state that is not a variable tensor.
  m = original;
  m.subgraphs[0].tensors[16].is_variable = false;
  EXPECT_NE(CompileError(m).find("must be a variable (state) tensor"),
            std::string::npos)
      << CompileError(m);
  // Per-channel recurrent weights (TFLM's LSTM has one multiplier per FC).
  m = original;
  auto& w = m.subgraphs[0].tensors[static_cast<std::size_t>(
      m.subgraphs[0].operators[0].inputs[5])];
  w.quantization.scale.assign(20, w.quantization.scale[0]);
  w.quantization.zero_point.assign(20, 0);
  EXPECT_NE(CompileError(m).find("needs one positive scale"), std::string::npos)
      << CompileError(m);
  // Missing options.
  m = original;
  m.subgraphs[0].operators[0].options = std::monostate{};
  EXPECT_NE(CompileError(m).find(prefix + "builtin options are missing"),
            std::string::npos)
      << CompileError(m);
}

TEST(LowerLstm, RefusesScalesThatWouldOverflowTheKernel) {
  const Model original = arenaplan::tflite::ReadModelFile(MnistLstmPath());
  // Cell scale 2^p: TanhInt16 multiplies by 3 << (12 + p) when that is
  // >= 0, within int32 for every int16 cell value up to p = 2
  // (32768 * 3 * 2^14 < 2^31); p = 3 is refused.
  Model m = original;
  m.subgraphs[0].tensors[17].quantization.scale = {4.0f};
  EXPECT_EQ(CompileError(m), "");
  m.subgraphs[0].tensors[17].quantization.scale = {8.0f};
  EXPECT_NE(CompileError(m).find("cell scale 8 is out of range"),
            std::string::npos)
      << CompileError(m);
  // Hidden scale s: the output multiplier is 2^-30 / s; 2^-31 makes it 2
  // (shift 2), which may overflow the sum with the zero point.
  m = original;
  m.subgraphs[0].tensors[16].quantization.scale = {std::ldexp(1.0f, -31)};
  EXPECT_NE(CompileError(m).find("output x tanh(cell) multiplier 2 or more"),
            std::string::npos)
      << CompileError(m);
}

}  // namespace
