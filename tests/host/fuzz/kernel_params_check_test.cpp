// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The compile fuzz target's kernel parameter check
// (tests/fuzz/kernel_params_check.hpp) passes the code compiled from the
// corpus's LSTM and broadcasting-ADD models, and aborts on each parameter
// of that code set out of the range its kernel assumes (the header
// comment's derivations; each case changes one value).
#include "tests/fuzz/kernel_params_check.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/tflite/model.hpp"

namespace arenaplan::fuzz {
namespace {

std::string CompiledSource(const std::string& stem) {
  const std::string path =
      std::string(ARENAPLAN_SHARED_DIR) + "/corpus/" + stem + ".tflite";
  compile::CompileOptions options;
  options.namespace_name = "m";
  options.input.assume_dim = 1;
  return compile::CompileModel(tflite::ReadModelFile(path), path, options)
      .model_source;
}

/// `source` with its first `from` replaced by `to` (which must be there).
std::string Replaced(std::string source, const std::string& from,
                     const std::string& to) {
  const std::size_t at = source.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) source.replace(at, from.size(), to);
  return source;
}

TEST(KernelParamsCheck, AcceptsEveryCompiledSharedModel) {
  std::size_t compiled = 0;
  for (const char* dir : {"/models", "/corpus"}) {
    for (const auto& e : std::filesystem::directory_iterator(
             std::string(ARENAPLAN_SHARED_DIR) + dir)) {
      if (e.path().extension() != ".tflite") continue;
      SCOPED_TRACE(e.path().string());
      compile::CompileOptions options;
      options.namespace_name = "m";
      options.input.assume_dim = 1;
      std::string source;
      try {
        source = compile::CompileModel(tflite::ReadModelFile(e.path()),
                                       e.path(), options)
                     .model_source;
      } catch (const InputError&) {
        continue;  // Not compilable (an operator or type without lowering).
      }
      ++compiled;
      CheckKernelParams(source);  // Aborts on a failed check.
    }
  }
  EXPECT_GE(compiled, 30u);
  // Both kinds of call are there to check.
  EXPECT_NE(CompiledSource("tflm_mnist_lstm_int8").find("k::SequenceLstm("),
            std::string::npos);
  EXPECT_NE(CompiledSource("armex_basic_lstm_s").find("k::AddBroadcast("),
            std::string::npos);
}

// tflm_mnist_lstm_int8's operator 0, as compiled (checked present):
//   k::SequenceLstmParams{1, 28, 28, 20, false, 128, 0, 0,
//     {k::LstmGate{kConst15, kConst11, kConst7, 1239940864, -2, 1276881792,
//     -1}, ...}, 0, 0, true, 32767, {1073741824, -14}, {1073741824, -17},
//     {2146304392, -23}}, ..., kState16, kState17, ...
TEST(KernelParamsCheckDeathTest, CatchesOutOfRangeLstmParameters) {
  const std::string s = CompiledSource("tflm_mnist_lstm_int8");
  const std::string head =
      "k::SequenceLstmParams{1, 28, 28, 20, false, 128, 0, 0,";
  const std::string gate0 = "k::LstmGate{kConst15, kConst11, kConst7, ";
  const std::string tail = "0, 0, true, 32767, {1073741824, -14}";
  const std::string out_mul = "{2146304392, -23}}";
  ASSERT_NE(s.find(head), std::string::npos) << s;
  ASSERT_NE(s.find(gate0 + "1239940864, -2, 1276881792, -1}"),
            std::string::npos);
  ASSERT_NE(s.find(tail), std::string::npos);
  ASSERT_NE(s.find(out_mul), std::string::npos);
  const struct {
    const char* why;
    std::string from, to;
  } cases[] = {
      // 21 units need 21 x 28 input weights; kConst15 holds 20 x 28.
      {"units", head, "k::SequenceLstmParams{1, 28, 28, 21, false, 128, 0, 0,"},
      // hidden_offset must be minus the hidden zero point.
      {"hidden offset", head,
       "k::SequenceLstmParams{1, 28, 28, 20, false, 128, 0, 5,"},
      // An input offset of 129 is no negated int8 zero point.
      {"input offset", head,
       "k::SequenceLstmParams{1, 28, 28, 20, false, 129, 0, 0,"},
      // A shift of 31: beyond MultiplyByQuantizedMultiplier's [-31, 30].
      {"gate shift", gate0 + "1239940864, -2, 1276881792, -1}",
       gate0 + "1239940864, -2, 1276881792, 31}"},
      // A multiplier below 2^30 is no normalized Q0.31 multiplier.
      {"gate multiplier", gate0 + "1239940864,", gate0 + "1000,"},
      // Weights missing.
      {"weights", gate0, "k::LstmGate{kConst7, kConst11, kConst7, "},
      // Multiplier 0, shift 15: 32767 * (3 << 15) overflows int32.
      {"tanh shift", tail, "0, 15, true, 32767, {1073741824, -14}"},
      // Multiplier 3 takes a right shift of at least 1.
      {"tanh multiplier", tail, "3, 0, true, 32767, {1073741824, -14}"},
      {"cell clip", tail, "0, 0, true, -1, {1073741824, -14}"},
      // Shift 2: the product times 4 leaves int32.
      {"output shift", out_mul, "{2146304392, 2}}"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.why);
    const std::string bad = Replaced(s, c.from, c.to);
    EXPECT_DEATH(CheckKernelParams(bad), "") << c.why;
  }
}

// armex_basic_lstm_s's operator 11, as compiled (checked present): an ADD
// of an int8 [1,472] activation and the constant bias kConst10 [472].
TEST(KernelParamsCheckDeathTest, CatchesOutOfRangeAddBroadcastParameters) {
  const std::string s = CompiledSource("armex_basic_lstm_s");
  const std::string strides =
      "const std::int32_t a_stride[4] = {472, 472, 472, 1}, b_stride[4] = "
      "{472, 472, 472, 1};\n    k::AddBroadcast(k::AddParams{-5, 80, 5, 20, "
      "1073741824, 0, 1111702901, -6, 1075365189, -18, -128, 127, 472},\n"
      "        k::Shape4{1, 1, 1, 472}, a_stride, b_stride, ";
  ASSERT_NE(s.find(strides), std::string::npos) << s;
  const struct {
    const char* why;
    std::string from, to;
  } cases[] = {
      // Stride 2 over 472 elements reads index 942.
      {"stride", "b_stride[4] = {472, 472, 472, 1}",
       "b_stride[4] = {472, 472, 472, 2}"},
      {"negative stride", "a_stride[4] = {472, 472, 472, 1}",
       "a_stride[4] = {472, 472, 472, -1}"},
      // [1,1,2,236] with stride 472 on the 2: not the row-major 236.
      {"shape", "k::Shape4{1, 1, 1, 472}", "k::Shape4{1, 1, 2, 236}"},
      // 473 elements: more than count, and kConst10 holds 472.
      {"count", "k::Shape4{1, 1, 1, 472}", "k::Shape4{1, 1, 1, 473}"},
      // 255 * 2^23 twice overflows the int32 sum.
      {"left shift", "k::AddParams{-5, 80, 5, 20,",
       "k::AddParams{-5, 80, 5, 23,"},
      // An input multiplier of 1 or more (shift 1).
      {"input shift", "1073741824, 0, 1111702901", "1073741824, 1, 1111702901"},
      // An output multiplier of 1 or more (shift 1).
      {"output shift", "1075365189, -18, -128", "1075365189, 1, -128"},
      {"clamp", "-18, -128, 127, 472}", "-18, 127, -128, 472}"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.why);
    const std::string bad = Replaced(s, c.from, c.to);
    EXPECT_DEATH(CheckKernelParams(bad), "") << c.why;
  }
}

// Convolution parameters as the generator spells them: k::ConvParams with
// nine fields, k::DilatedConvParams{{those nine}, dh, dw}
// (codegen/compile/lower_conv.cpp).
TEST(KernelParamsCheckDeathTest, CatchesOutOfRangeConvParameters) {
  CheckKernelParams("k::ConvParams{7, 4, -128, 127, 1, 2, 0, 1, 1},");
  CheckKernelParams(
      "k::DilatedConvParams{{7, 4, -128, 127, 1, 2, 0, 1, 1}, 3, 2},");
  const struct {
    const char* why;
    std::string bad;
  } cases[] = {
      {"dilation 0",
       "k::DilatedConvParams{{7, 4, -128, 127, 1, 2, 0, 1, 1}, 0, 2},"},
      {"dilation above 2^16",
       "k::DilatedConvParams{{7, 4, -128, 127, 1, 2, 0, 1, 1}, 2, 65537},"},
      {"dilated clamp",
       "k::DilatedConvParams{{7, 4, 127, -128, 1, 2, 0, 1, 1}, 2, 2},"},
      {"stride 0", "k::ConvParams{7, 4, -128, 127, 0, 2, 0, 1, 1},"},
      {"ten fields", "k::ConvParams{7, 4, -128, 127, 1, 2, 0, 1, 1, 2},"},
      {"one factor",
       "k::DilatedConvParams{{7, 4, -128, 127, 1, 2, 0, 1, 1}, 2},"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.why);
    EXPECT_DEATH(CheckKernelParams(c.bad), "") << c.why;
  }
}

// armex_ds_cnn_s as compiled: for each fast kernel's first call, its
// ChannelQuant's first multiplier negated (a negative weight scale, which
// dsp.hpp's output stage does not handle) aborts; the same with the call
// renamed to the reference kernel, which takes negative multipliers, passes.
TEST(KernelParamsCheckDeathTest, CatchesANegativeMultiplierInAFastKernel) {
  const std::string s = CompiledSource("armex_ds_cnn_s");
  for (const std::string fast : {"k::Conv2DFast(", "k::DepthwiseConv2DFast(",
                                 "k::FullyConnectedFast("}) {
    SCOPED_TRACE(fast);
    const std::size_t call = s.find(fast);
    ASSERT_NE(call, std::string::npos);
    const std::size_t q = s.find("k::ChannelQuant{", call);
    ASSERT_NE(q, std::string::npos);
    const std::string id = Words(BracedText(s, q + 15)).at(0);
    const std::size_t array = s.find("const std::int32_t " + id + "[");
    ASSERT_NE(array, std::string::npos);
    const std::size_t first = s.find_first_of("0123456789", s.find('{', array));
    const std::string bad = s.substr(0, first) + "-" + s.substr(first);
    EXPECT_DEATH(CheckKernelParams(bad), "");
    const std::string reference = fast.substr(0, fast.size() - 5) + "(";
    CheckKernelParams(Replaced(bad, fast, reference));  // no abort
  }
}

}  // namespace
}  // namespace arenaplan::fuzz
