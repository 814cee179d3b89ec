// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// QUANTIZE from float32 / uint8 and DEQUANTIZE to float32 at the graph's
// edges (lower_quantize.cpp, lower_dequantize.cpp, generate.cpp): the
// generated calls carry the model's own scales and zero points exactly,
// the model header gives the float32 / uint8 element types and byte counts,
// and the variants the kernels do not compute are refused naming the
// operator. The numbers are checked against TFLM in run/corpus.sh.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/tflite/model.hpp"

namespace {

using arenaplan::InputError;
using arenaplan::compile::CompileModel;
using arenaplan::compile::CompileOptions;
using arenaplan::tflite::TensorType;

std::string CorpusPath(const std::string& name) {
  return std::string(ARENAPLAN_SHARED_DIR) + "/corpus/" + name + ".tflite";
}

std::string CompileError(const arenaplan::tflite::Model& model,
                         const std::string& path) {
  try {
    (void)CompileModel(model, path, CompileOptions{});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string HexFloat(float v) {
  char text[64];
  std::snprintf(text, sizeof text, "%af", static_cast<double>(v));
  return text;
}

TEST(LowerEdgeTypes, FloatInputAndOutputCarryTheModelsQuantization) {
  // armex_dnn_s: QUANTIZE tensor 14 (FLOAT32 [1,250]) -> tensor 0 (INT8),
  // ..., DEQUANTIZE tensor 13 (INT8 [1,12]) -> tensor 15 (FLOAT32).
  const std::string path = CorpusPath("armex_dnn_s");
  const auto model = arenaplan::tflite::ReadModelFile(path);
  const auto& t = model.subgraphs[0].tensors;
  ASSERT_EQ(t[14].type, TensorType::kFloat32);
  ASSERT_EQ(t[15].type, TensorType::kFloat32);
  CompileOptions options;
  options.namespace_name = "m";
  const auto out = CompileModel(model, path, options);
  const std::string q = "k::QuantizeFromFloat(k::FloatQuantizeParams{" +
                        HexFloat(t[0].quantization.scale[0]);
  const std::size_t at = out.model_source.find(q);
  ASSERT_NE(at, std::string::npos) << q;
  EXPECT_NE(
      out.model_source.find(
          ", " + std::to_string(t[0].quantization.zero_point[0]) + ", 250}",
          at),
      std::string::npos);
  EXPECT_NE(out.model_source.find(
                "k::DequantizeToFloat(k::FloatQuantizeParams{" +
                HexFloat(t[13].quantization.scale[0]) + ", " +
                std::to_string(t[13].quantization.zero_point[0]) + ", 12}"),
            std::string::npos);
  // The firmware takes 250 floats and returns 12.
  for (const char* line :
       {"using InputElement = float;", "kInputBytes = 1000;",
        "using OutputElement = float;", "kOutputBytes = 48;"}) {
    EXPECT_NE(out.model_header.find(line), std::string::npos) << line;
  }
  EXPECT_EQ(out.model_header.find("kInputScale"), std::string::npos);
}

TEST(LowerEdgeTypes, Uint8InputIsRequantizedWithUnitMultiplier) {
  // mlperf_v01_aww_model: uint8 input (zero point 216) -> int8 (88), the
  // same scale: multiplier 2^30, shift 1 (exactly x1), offsets -216, 88.
  const std::string path = CorpusPath("mlperf_v01_aww_model");
  const auto model = arenaplan::tflite::ReadModelFile(path);
  CompileOptions options;
  options.namespace_name = "m";
  const auto out = CompileModel(model, path, options);
  EXPECT_NE(out.model_source.find("k::Requantize(k::RequantizeParams{-216, "
                                  "88, 1073741824, 1, 490},\n      "
                                  "reinterpret_cast<std::uint8_t*>("),
            std::string::npos);
  EXPECT_NE(out.model_header.find("using InputElement = std::uint8_t;"),
            std::string::npos);
}

TEST(LowerEdgeTypes, RefusesWhatTheKernelsDoNotCompute) {
  const std::string path = CorpusPath("armex_dnn_s");
  // QUANTIZE from float32 to int32.
  auto model = arenaplan::tflite::ReadModelFile(path);
  model.subgraphs[0].tensors[0].type = TensorType::kInt32;
  EXPECT_NE(CompileError(model, path)
                .find(path + ": operator 0 (QUANTIZE): output tensor 0 "
                             "'input_int8' is INT32; QUANTIZE accepts (input, "
                             "output) as (FLOAT32, INT8), (FLOAT32, INT16), "),
            std::string::npos)
      << CompileError(model, path);
  // DEQUANTIZE to int8.
  model = arenaplan::tflite::ReadModelFile(path);
  model.subgraphs[0].tensors[15].type = TensorType::kInt8;
  EXPECT_NE(CompileError(model, path)
                .find(": operator 6 (DEQUANTIZE): output tensor 15 "
                      "'Identity' is INT8; DEQUANTIZE accepts (input, "
                      "output) as (INT8, FLOAT32), (UINT8, FLOAT32), (INT16, "
                      "FLOAT32)"),
            std::string::npos)
      << CompileError(model, path);
  // A uint8 zero point outside [0, 255].
  const std::string aww = CorpusPath("mlperf_v01_aww_model");
  model = arenaplan::tflite::ReadModelFile(aww);
  model.subgraphs[0].tensors[35].quantization.zero_point[0] = 300;
  EXPECT_NE(CompileError(model, aww)
                .find(": operator 0 (QUANTIZE): tensor 35 'input_1' has an "
                      "invalid scale or zero point"),
            std::string::npos)
      << CompileError(model, aww);
}

}  // namespace

namespace {

TEST(LowerEdgeTypes, SeveralOutputsAreListedInTheModelsOrder) {
  // tflm_custom_model_rf_keras: one int8 input [1,144,192,1] (27648 B), two
  // int8 outputs [1,1590,2] (3180 B) and [1,1590,4] (6360 B).
  const std::string path = CorpusPath("tflm_custom_model_rf_keras");
  const auto model = arenaplan::tflite::ReadModelFile(path);
  ASSERT_EQ(model.subgraphs[0].outputs.size(), 2u);
  CompileOptions options;
  options.namespace_name = "m";
  const auto out = CompileModel(model, path, options);
  for (const char* line :
       {"inline constexpr std::size_t kInputCount = 1;",
        "inline constexpr std::size_t kInputSizes[] = {27648};",
        "inline constexpr std::size_t kInputTotalBytes = 27648;",
        "inline constexpr std::size_t kOutputCount = 2;",
        "inline constexpr std::size_t kOutputSizes[] = {3180, 6360};",
        "inline constexpr std::size_t kOutputTotalBytes = 9540;",
        "kOutputBytes = 3180;"}) {
    EXPECT_NE(out.model_header.find(line), std::string::npos) << line;
  }
}

}  // namespace
