// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `arenaplan compile`: what it accepts, and that an operator or option the
// kernels do not support is an error at generation time naming the
// operator's index and type, with nothing written.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/compile/quantize.hpp"
#include "codegen/tflite/model.hpp"
#include "tests/host/support/test_util.hpp"

namespace {

namespace fs = std::filesystem;
using arenaplan::InputError;
using arenaplan::compile::CompileModel;
using arenaplan::compile::CompileOptions;

std::string ModelPath(const std::string& name) {
  return std::string(ARENAPLAN_SHARED_DIR) + "/models/" + name;
}

/// The InputError message of compiling `model`, or "" when it compiles.
std::string CompileError(const arenaplan::tflite::Model& model,
                         const std::string& path,
                         const CompileOptions& options = {}) {
  try {
    (void)CompileModel(model, path, options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CompileModel, CompilesTheIntegerModels) {
  for (const char* name :
       {"person_detect.tflite", "micro_speech_quantized.tflite",
        "hello_world_int8.tflite", "keyword_scrambled.tflite"}) {
    const auto model = arenaplan::tflite::ReadModelFile(ModelPath(name));
    CompileOptions options;
    options.namespace_name = "m";
    options.input.assume_dim = 1;  // hello_world's batch is dynamic
    const auto out = CompileModel(model, ModelPath(name), options);
    // One "// operator K" comment per operator, in order.
    for (std::size_t k = 0; k < model.subgraphs[0].operators.size(); ++k) {
      EXPECT_NE(
          out.model_source.find("// operator " + std::to_string(k) + ": " +
                                model.subgraphs[0].operators[k].builtin_name),
          std::string::npos)
          << name << " operator " << k;
    }
    EXPECT_NE(out.model_source.find("void Invoke(std::int8_t* arena)"),
              std::string::npos);
    EXPECT_EQ(out.arena_header_name, "m_arena.hpp");
  }
}

TEST(CompileModel, PersonDetectConstantsAreTheWeightsPlusParameters) {
  // Hand count from the operator list: the int8 weights of 14 convolution
  // filters and 13 depthwise filters, int32 biases, and per output channel
  // two requantization parameters (the softmax needs no constant array).
  // Weights: conv0 3*3*8 = 72; depthwise 3*3*(8+16+32+32+64+64+128*6+256)
  // = 9*1240 = 11160; pointwise 8*16 + 16*32 + 32*32 + 32*64 + 64*64 +
  // 64*128 + 5*128*128 + 128*256 + 256*256 = 196224; logits 256*2 = 512.
  // Output channels: 8 + (8+16+32+32+64+64+128*6+256) + (16+32+32+64+64+128
  // + 5*128 + 256 + 256) + 2 = 8 + 1240 + 1488 + 2 = 2738; each has a bias
  // and an int32 multiplier and int8 shift: 2738 * (4 + 4 + 1) bytes. Every
  // int8 array emitted as a string literal has one NUL byte more: 27 of the
  // 28 (conv0, a depthwise convolution of one input channel, is emitted as
  // a convolution, its filter transposed into a braced array).
  const std::uint64_t weights = 72 + 11160 + 196224 + 512;
  const std::uint64_t expect = weights + 27 + 2738 * 9;
  const auto model =
      arenaplan::tflite::ReadModelFile(ModelPath("person_detect.tflite"));
  const auto out =
      CompileModel(model, ModelPath("person_detect.tflite"), CompileOptions{});
  EXPECT_EQ(out.constant_bytes, expect);
}

TEST(CompileModel, RejectsUnsupportedOperatorByIndexAndType) {
  // face_detection_short_range is a float model; it starts with a
  // DEQUANTIZE of float16 weights, which compile computes at generation
  // time (codegen/tflite/const_fold.hpp; lower_float_test runs the model)
  // unless --no-fold: then DEQUANTIZE, which takes integer activations,
  // refuses it.
  const std::string face = ModelPath("face_detection_short_range.tflite");
  CompileOptions no_fold;
  no_fold.input.fold = false;
  const std::string ferr =
      CompileError(arenaplan::tflite::ReadModelFile(face), face, no_fold);
  EXPECT_NE(ferr.find(face + ": operator 0 (DEQUANTIZE): input tensor 2 "
                             "'conv2d/Bias' is FLOAT16"),
            std::string::npos)
      << ferr;
  // hello_world_float (FULLY_CONNECTED on float tensors) compiles:
  // lower_float_test runs it.
}

// Four operators without a lowering, three kinds: each named once with
// its count, in order of first appearance, CUSTOM ones by their custom
// code; the supported ADD between them is not listed.
TEST(CompileModel, NamesEveryOperatorItCannotLower) {
  namespace tflite = arenaplan::tflite;
  tflite::Model m;
  m.source = "m.tflite";
  tflite::Subgraph g;
  g.tensors.resize(2);
  for (tflite::Tensor& t : g.tensors) {
    t.type = tflite::TensorType::kInt8;
    t.shape = {1, 4};
  }
  g.inputs = {0};
  g.outputs = {1};
  auto op = [](tflite::BuiltinOp code, const std::string& custom) {
    tflite::Operator o;
    o.builtin_code = code;
    o.builtin_name = tflite::BuiltinOpName(code);
    o.custom_code = custom;
    o.inputs = {0};
    o.outputs = {1};
    return o;
  };
  g.operators = {op(tflite::BuiltinOp::kCustom, "SignalWindow"),
                 op(static_cast<tflite::BuiltinOp>(200), ""),
                 op(tflite::BuiltinOp::kAdd, ""),
                 op(tflite::BuiltinOp::kCustom, "SignalWindow"),
                 op(tflite::BuiltinOp::kCustom, "Other")};
  m.subgraphs = {g};
  CompileOptions options;
  options.namespace_name = "m";
  std::string err;
  try {
    (void)CompileModel(m, "m.tflite", options);
  } catch (const InputError& e) {
    err = e.what();
  }
  EXPECT_EQ(err.substr(0, err.find(" (supported: ")),
            "m.tflite: cannot lower 4 operators: CUSTOM SignalWindow x2, "
            "BUILTIN_200 x1, CUSTOM Other x1");
  g.operators.resize(1);
  m.subgraphs = {g};
  try {
    (void)CompileModel(m, "m.tflite", options);
  } catch (const InputError& e) {
    err = e.what();
  }
  EXPECT_EQ(err.substr(0, err.find(" (supported: ")),
            "m.tflite: cannot lower 1 operator: CUSTOM SignalWindow x1");
}

TEST(CompileModel, RejectsSvdfVariantsTheKernelDoesNotCompute) {
  const std::string path = ModelPath("keyword_scrambled.tflite");
  auto model = arenaplan::tflite::ReadModelFile(path);
  auto& sg = model.subgraphs[0];
  ASSERT_EQ(sg.operators[1].builtin_name, "SVDF");
  // A state that is not a variable tensor.
  sg.tensors[4].is_variable = false;
  EXPECT_NE(CompileError(model, path)
                .find(": operator 1 (SVDF): tensor 4 '' must be a variable"),
            std::string::npos)
      << CompileError(model, path);
  // A state zero point other than 0 (the static buffer starts at 0).
  model = arenaplan::tflite::ReadModelFile(path);
  model.subgraphs[0].tensors[4].quantization.zero_point[0] = 3;
  EXPECT_NE(CompileError(model, path)
                .find(": operator 1 (SVDF): tensor 4 '' has a non-zero zero "
                      "point"),
            std::string::npos)
      << CompileError(model, path);
  // A bias at another scale than state scale x time-weight scale.
  model = arenaplan::tflite::ReadModelFile(path);
  model.subgraphs[0].tensors[3].quantization.scale[0] *= 1.01f;
  EXPECT_NE(
      CompileError(model, path).find(": operator 1 (SVDF): tensor 3 '': bias"),
      std::string::npos)
      << CompileError(model, path);
  // A rank that does not divide the filters (64).
  model = arenaplan::tflite::ReadModelFile(path);
  std::get<arenaplan::tflite::SvdfOptions>(
      model.subgraphs[0].operators[1].options)
      .rank = 3;
  EXPECT_NE(CompileError(model, path)
                .find(": operator 1 (SVDF): rank 3 does not divide"),
            std::string::npos)
      << CompileError(model, path);
  // An int16 softmax output quantized otherwise than 1/65536, -32768.
  model = arenaplan::tflite::ReadModelFile(path);
  ASSERT_EQ(model.subgraphs[0].operators[13].builtin_name, "SOFTMAX");
  model.subgraphs[0].tensors[51].quantization.zero_point[0] = 0;
  EXPECT_NE(CompileError(model, path)
                .find(": operator 13 (SOFTMAX): int16 output must have"),
            std::string::npos)
      << CompileError(model, path);
}

TEST(CompileModel, RejectsBadDilationAndUnsupportedActivation) {
  const std::string path = ModelPath("person_detect.tflite");
  auto model = arenaplan::tflite::ReadModelFile(path);
  ASSERT_EQ(model.subgraphs[0].operators[2].builtin_name, "CONV_2D");
  std::get<arenaplan::tflite::Conv2DOptions>(
      model.subgraphs[0].operators[2].options)
      .dilation_h = 0;
  EXPECT_NE(CompileError(model, path)
                .find(": operator 2 (CONV_2D): dilation 0x1 is not positive"),
            std::string::npos)
      << CompileError(model, path);

  model = arenaplan::tflite::ReadModelFile(path);
  ASSERT_EQ(model.subgraphs[0].operators[1].builtin_name, "DEPTHWISE_CONV_2D");
  std::get<arenaplan::tflite::DepthwiseConv2DOptions>(
      model.subgraphs[0].operators[1].options)
      .activation = arenaplan::tflite::Activation::kTanh;
  EXPECT_NE(CompileError(model, path)
                .find(": operator 1 (DEPTHWISE_CONV_2D): fused activation 4 is "
                      "not supported"),
            std::string::npos)
      << CompileError(model, path);

  model = arenaplan::tflite::ReadModelFile(path);
  ASSERT_EQ(model.subgraphs[0].operators[27].builtin_name, "AVERAGE_POOL_2D");
  model.subgraphs[0].tensors[27].quantization.scale[0] *= 2.0f;  // pool output
  EXPECT_NE(CompileError(model, path)
                .find(": operator 27 (AVERAGE_POOL_2D): input and "
                      "output quantization differ"),
            std::string::npos)
      << CompileError(model, path);
}

// An output scale of 1e-9 puts RELU6's upper bound at round(6 / 1e-9) =
// 6e9, outside int32: TFLite's Quantize refuses the model, and so must
// compile (it used to add 6e9 to the zero point in 32 bits).
TEST(CompileModel, RefusesActivationBoundOutsideInt32) {
  const std::string path = ModelPath("hello_world_int8.tflite");
  auto model = arenaplan::tflite::ReadModelFile(path);
  auto& sg = model.subgraphs[0];
  ASSERT_EQ(sg.operators[2].builtin_name, "FULLY_CONNECTED");
  ASSERT_EQ(sg.operators[2].outputs, std::vector<std::int32_t>{9});
  std::get<arenaplan::tflite::FullyConnectedOptions>(sg.operators[2].options)
      .activation = arenaplan::tflite::Activation::kRelu6;
  sg.tensors[9].quantization.scale[0] = 1e-9f;
  CompileOptions options;
  options.input.assume_dim = 1;
  std::string error;
  try {
    (void)CompileModel(model, path, options);
  } catch (const InputError& e) {
    error = e.what();
  }
  EXPECT_NE(error.find(path + ": operator 2 (FULLY_CONNECTED): tensor 9 "),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("fused activation 3"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;

  // RELU_N1_TO_1 on the same scale: round(+-1 / 1e-9) fits int32, so the
  // range is all of int8 (both bounds clamp), as in TFLite.
  std::get<arenaplan::tflite::FullyConnectedOptions>(sg.operators[2].options)
      .activation = arenaplan::tflite::Activation::kReluN1To1;
  const auto out = CompileModel(model, path, options);
  const std::string params =
      "{" + std::to_string(-sg.tensors[8].quantization.zero_point[0]) + ", " +
      std::to_string(sg.tensors[9].quantization.zero_point[0]) +
      ", -128, 127, ";
  const auto last = out.model_source.rfind("k::FullyConnectedParams{");
  ASSERT_NE(last, std::string::npos);
  EXPECT_EQ(out.model_source.substr(last + 23, params.size()), params)
      << out.model_source.substr(last, 80);
}

/// The first value of the int32 array `id` in generated source.
std::int64_t FirstArrayValue(const std::string& source, const std::string& id) {
  const auto at = source.find(id + "[");
  if (at == std::string::npos) return -1;
  const auto open = source.find('{', at);
  return std::stoll(source.substr(open + 1));
}

TEST(CompileModel, FullyConnectedMultiplierUsesTheFloatProductOfScales) {
  // TFLite forms a per-tensor FULLY_CONNECTED multiplier as
  // double(float(s_in * s_w)) / s_out (GetQuantizedConvolutionMultipler),
  // a convolution's as double(s_in) * double(s_w) / s_out. On ad01_int8's
  // first layer the two differ by 66 units of the Q0.31 multiplier; TFLM's
  // outputs follow the float product.
  const std::string path = ModelPath("ad01_int8.tflite");
  const auto model = arenaplan::tflite::ReadModelFile(path);
  const auto& sg = model.subgraphs[0];
  const auto& op = sg.operators[0];
  ASSERT_EQ(op.builtin_name, "FULLY_CONNECTED");
  const float s_in = sg.tensors[op.inputs[0]].quantization.scale.at(0);
  const float s_w = sg.tensors[op.inputs[1]].quantization.scale.at(0);
  const float s_out = sg.tensors[op.outputs[0]].quantization.scale.at(0);
  ASSERT_EQ(sg.tensors[op.inputs[1]].quantization.scale.size(), 1u);
  const auto from_float = arenaplan::compile::QuantizeMultiplier(
      static_cast<double>(s_in * s_w) / static_cast<double>(s_out));
  const auto from_double = arenaplan::compile::QuantizeMultiplier(
      static_cast<double>(s_in) * static_cast<double>(s_w) /
      static_cast<double>(s_out));
  EXPECT_EQ(from_float.multiplier - from_double.multiplier, -66);
  CompileOptions options;
  options.input.assume_dim = 1;
  const auto out = CompileModel(model, path, options);
  EXPECT_EQ(FirstArrayValue(out.model_source, "kMultiplier0"),
            from_float.multiplier);
}

TEST(CompileCli, ExitsTwoAndWritesNothingOnUnsupportedModel) {
  const arenaplan::testing_util::ScopedTempDir tmp(
      "arenaplan_compile_cli_test_");
  ASSERT_FALSE(tmp.path().empty());
  const fs::path dir = tmp.path();
  const std::string err = (dir / "stderr.txt").string();
  // TFLM's audio preprocessor: TFLM's custom signal operators (which no
  // int8 kernel set lowers) beside builtins compile lacks.
  const std::string model = std::string(ARENAPLAN_SHARED_DIR) +
                            "/corpus/tflm_audio_preprocessor_int8.tflite";
  const std::string cmd = std::string(ARENAPLAN_BINARY) + " compile " + model +
                          " --out-dir " + dir.string() + " --namespace fd 2>" +
                          err;
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) files += e.path() != err;
  EXPECT_EQ(files, 0u);
  FILE* f = std::fopen(err.c_str(), "r");
  ASSERT_NE(f, nullptr);
  char line[1024] = {};
  ASSERT_NE(std::fgets(line, sizeof line, f), nullptr);
  EXPECT_NE(std::string(line).find("cannot lower "), std::string::npos) << line;
  EXPECT_NE(std::string(line).find("CUSTOM SignalWindow x1"), std::string::npos)
      << line;
  EXPECT_EQ(std::fgets(line, sizeof line, f), nullptr);  // exactly one line
  std::fclose(f);
}

TEST(CompileCli, WritesTheThreeFiles) {
  const arenaplan::testing_util::ScopedTempDir tmp("arenaplan_compile_cli_ok_");
  ASSERT_FALSE(tmp.path().empty());
  const fs::path dir = tmp.path();
  const std::string cmd =
      std::string(ARENAPLAN_BINARY) + " compile " +
      ModelPath("hello_world_int8.tflite") + " --out-dir " + dir.string() +
      " --namespace hw --strategy greedy-by-size --assume-dim 1 >/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  for (const char* f : {"hw_arena.hpp", "hw_model.hpp", "hw_model.cpp"}) {
    EXPECT_TRUE(fs::exists(dir / f)) << f;
  }
}

}  // namespace

namespace {

/// resnet8's operator 3 (ADD of two int8 [1,32,32,16] tensors) turned into
/// `op`; returns the generated model source.
std::string CompileResnet8WithOperator3As(arenaplan::tflite::BuiltinOp op,
                                          const char* name) {
  const std::string path = std::string(ARENAPLAN_SHARED_DIR) +
                           "/corpus/mlperf_resnet8_quant_2021.tflite";
  auto model = arenaplan::tflite::ReadModelFile(path);
  auto& o = model.subgraphs[0].operators[3];
  EXPECT_EQ(o.builtin_name, "ADD");
  o.builtin_code = op;
  o.builtin_name = name;
  CompileOptions options;
  options.namespace_name = "m";
  options.input.assume_dim = 1;
  return CompileModel(model, path, options).model_source;
}

TEST(CompileModel, LowersMaximumAndMinimumWithTheOutputsStrides) {
  // NHWC [1,32,32,16]: strides 32*32*16 = 16384, 32*16 = 512, 16, 1.
  const std::string params =
      ", k::Shape4{1, 32, 32, 16}, {16384, 512, 16, 1}, {16384, 512, 16, 1}}";
  const std::string max = CompileResnet8WithOperator3As(
      arenaplan::tflite::BuiltinOp::kMaximum, "MAXIMUM");
  EXPECT_NE(max.find("k::MaximumMinimum(k::MaximumMinimumParams{true" + params),
            std::string::npos)
      << max.substr(max.find("k::MaximumMinimum("), 160);
  const std::string min = CompileResnet8WithOperator3As(
      arenaplan::tflite::BuiltinOp::kMinimum, "MINIMUM");
  EXPECT_NE(
      min.find("k::MaximumMinimum(k::MaximumMinimumParams{false" + params),
      std::string::npos);
}

TEST(CompileModel, LowersSubWithTheOutputsStridesAndTheAddMultipliers) {
  const std::string sub =
      CompileResnet8WithOperator3As(arenaplan::tflite::BuiltinOp::kSub, "SUB");
  const auto at = sub.find("k::Sub(k::SubParams{");
  ASSERT_NE(at, std::string::npos);
  const std::string call = sub.substr(at, sub.find(");", at) - at);
  EXPECT_NE(call.find(", k::Shape4{1, 32, 32, 16}, {16384, 512, 16, 1}, "
                      "{16384, 512, 16, 1}}"),
            std::string::npos)
      << call;
  // SUB's ratios are ADD's, formed in float (sub_common.cc) where ADD forms
  // them in double (add_common.cc): the unmodified model's ADD call carries
  // the same offsets, shifts and clamps, and multipliers that differ by
  // float rounding only (at most 2^-22 relative, 2^9 units of 2^31).
  const std::string path = std::string(ARENAPLAN_SHARED_DIR) +
                           "/corpus/mlperf_resnet8_quant_2021.tflite";
  CompileOptions options;
  options.namespace_name = "m";
  options.input.assume_dim = 1;
  const std::string add =
      CompileModel(arenaplan::tflite::ReadModelFile(path), path, options)
          .model_source;
  const auto add_at = add.find("k::AddFast(k::AddParams{");
  ASSERT_NE(add_at, std::string::npos);
  auto first_twelve = [](const std::string& s) {
    std::vector<long long> v;
    std::size_t pos = 0;
    for (int i = 0; i < 12; ++i) {
      v.push_back(std::stoll(s.substr(pos)));
      pos = s.find(',', pos) + 1;
    }
    return v;
  };
  const auto a = first_twelve(add.substr(add_at + 24));
  const auto b = first_twelve(call.substr(20));
  for (int i : {0, 1, 2, 3, 5, 7, 9, 10, 11}) EXPECT_EQ(a[i], b[i]) << i;
  for (int i : {4, 6, 8}) {
    EXPECT_LE(std::llabs(a[i] - b[i]), 512) << i;
    EXPECT_GE(b[i], 1LL << 30) << i;
  }
}

TEST(CompileModel, LowersSplitAndUnpackOfArmsBasicLstm) {
  // armex_basic_lstm_s cut down to its operators 0-8 and 12, TFLM's
  // refused FILL (operator 5) removed: its output, tensor 18 (the LSTM's
  // int8 zero state), and SPLIT's input, tensor 72 (int8 [1,472]), become
  // graph inputs; the outputs are UNPACK's and SPLIT's. Operator 8 UNPACKs
  // tensor 20 [1,49,10] along axis 1 into 49 outputs of [1,10]: outer 1,
  // inner 10 each. Operator 12 SPLITs tensor 72 along axis 1 (constant
  // tensor 6) into four [1,118]: outer 1, inner 118 each.
  const std::string path =
      std::string(ARENAPLAN_SHARED_DIR) + "/corpus/armex_basic_lstm_s.tflite";
  auto model = arenaplan::tflite::ReadModelFile(path);
  auto& sg = model.subgraphs[0];
  ASSERT_EQ(sg.operators[5].builtin_name, "FILL");
  ASSERT_EQ(sg.operators[5].outputs[0], 18);
  ASSERT_EQ(sg.operators[8].builtin_name, "UNPACK");
  ASSERT_EQ(sg.operators[12].builtin_name, "SPLIT");
  ASSERT_EQ(sg.operators[12].inputs[1], 72);
  const auto split = sg.operators[12];
  sg.operators.resize(9);
  sg.operators.push_back(split);
  sg.operators.erase(sg.operators.begin() + 5);
  sg.inputs.push_back(18);
  sg.inputs.push_back(72);
  sg.outputs = sg.operators[7].outputs;
  for (std::int32_t t : split.outputs) sg.outputs.push_back(t);
  CompileOptions options;
  options.namespace_name = "m";
  options.input.assume_dim = 1;
  const std::string src = CompileModel(model, path, options).model_source;
  // UNPACK (operator 7 after the erase).
  EXPECT_NE(src.find("k::Split<std::int8_t>(k::SplitParams{1, 49}, "),
            std::string::npos);
  EXPECT_NE(src.find("kOp7Inner[49] = {\n    10, 10, 10, 10, 10, 10, 10, 10,"),
            std::string::npos);
  // SPLIT (operator 8 now): four shares of 118.
  EXPECT_NE(src.find("k::Split<std::int8_t>(k::SplitParams{1, 4}, "),
            std::string::npos);
  EXPECT_NE(src.find("kOp8Inner[4] = {\n    118, 118, 118, 118,"),
            std::string::npos);
}

TEST(CompileModel, LowersHardSwishWithQ015Multipliers) {
  // resnet8's operator 3 made a HARD_SWISH of its first input (tensor 22)
  // into tensor 25, both int8 [1,32,32,16].
  const std::string path = std::string(ARENAPLAN_SHARED_DIR) +
                           "/corpus/mlperf_resnet8_quant_2021.tflite";
  auto model = arenaplan::tflite::ReadModelFile(path);
  auto& o = model.subgraphs[0].operators[3];
  ASSERT_EQ(o.builtin_name, "ADD");
  o.builtin_code = arenaplan::tflite::BuiltinOp::kHardSwish;
  o.builtin_name = "HARD_SWISH";
  o.inputs.resize(1);
  o.options = std::monostate{};
  CompileOptions options;
  options.namespace_name = "m";
  options.input.assume_dim = 1;
  const std::string src = CompileModel(model, path, options).model_source;
  const auto at = src.find("k::HardSwish(k::HardSwishParams{");
  ASSERT_NE(at, std::string::npos);
  std::vector<double> v;
  std::size_t pos = at + 32;
  for (int i = 0; i < 7; ++i) {
    v.push_back(std::stod(src.substr(pos)));
    pos = src.find(',', pos) + 1;
  }
  const auto& t = model.subgraphs[0].tensors;
  EXPECT_EQ(v[0], static_cast<double>(t[22].quantization.zero_point[0]));
  EXPECT_EQ(v[1], static_cast<double>(t[25].quantization.zero_point[0]));
  EXPECT_EQ(v[6], 16384.0);
  // Each Q0.15 multiplier times 2^exponent / 2^15 is its real ratio within
  // one Q0.15 unit: s_in / 128 / s_out and s_in / 128 / (3 / 2^15).
  const double s_in = t[22].quantization.scale[0];
  const double s_out = t[25].quantization.scale[0];
  const double ratios[2] = {s_in / 128 / s_out, s_in / 128 / (3.0 / 32768)};
  for (int k = 0; k < 2; ++k) {
    const double m = v[2 + 2 * k], e = v[3 + 2 * k];
    EXPECT_GE(m, 16384.0) << k;
    EXPECT_LE(m, 32767.0) << k;
    EXPECT_NEAR(m * std::ldexp(1.0, static_cast<int>(e)) / 32768, ratios[k],
                std::ldexp(1.0, static_cast<int>(e)) / 32768)
        << k;
  }
  EXPECT_LE(v[3], 0.0);
}

}  // namespace
