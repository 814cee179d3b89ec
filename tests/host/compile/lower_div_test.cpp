// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// DIV through `compile` end to end: one-operator models built here,
// compiled, built with the host compiler and run (with and without
// --overlap); inputs chosen so that every real quotient is an integer
// number of output steps, so the expected bytes are exact by hand.
// Unsupported options are refused with one line.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/host/support/op_model.hpp"

namespace {

using arenaplan::testing_util::Bytes;
using arenaplan::testing_util::CompileAndRun;
using arenaplan::testing_util::CompileError;
using arenaplan::testing_util::OneOpModel;
using arenaplan::testing_util::TensorSpec;
namespace fb = arenaplan::tflite::fb;

OneOpModel DivModel(TensorSpec a, TensorSpec b, TensorSpec out,
                    std::int8_t activation = 0) {
  OneOpModel m;
  m.name = "div";
  m.tensors = {a, b, out};
  m.graph_inputs = {0};
  if (b.data.empty()) m.graph_inputs.push_back(1);
  m.graph_outputs = {2};
  m.op = arenaplan::tflite::BuiltinOp::kDiv;
  m.op_inputs = {0, 1};
  m.op_outputs = {2};
  m.options = [activation](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::DivOptions,
                     fb::CreateDivOptions(fbb, activation).Union()};
  };
  return m;
}

std::vector<std::uint8_t> U8(const std::vector<int>& v) {
  std::vector<std::uint8_t> b;
  for (int x : v)
    b.push_back(static_cast<std::uint8_t>(static_cast<std::int8_t>(x)));
  return b;
}

TEST(LowerDiv, DividesByABroadcastConstant) {
  // a [2,3] scale 0.5 zp 1; b [3] constant scale 0.25 zp -2, q {0,2,-6}
  // (real 0.5, 1, -1); out scale 0.5 zp 0. Ratio 0.5 / (0.25 * 0.5) = 4:
  // out = (qa - 1) / (qb + 2) * 4. qa - 1 = {4,8,12,-2,6,1} over
  // d = {2,4,-4}: {8,8,-12,-4,6,-1}.
  const OneOpModel m =
      DivModel({{2, 3}, 9, 0.5f, 1, {}}, {{3}, 9, 0.25f, -2, U8({0, 2, -6})},
               {{2, 3}, 9, 0.5f, 0, {}});
  for (bool overlap : {false, true}) {
    const auto r = CompileAndRun(m, U8({5, 9, 13, -1, 7, 2}), overlap);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.output, U8({8, 8, -12, -4, 6, -1}));
  }
}

TEST(LowerDiv, DividesTwoInputsWithReluAndSaturation) {
  // a, b [1,2,2,1] graph inputs, scale 1 zp 0 / scale 0.5 zp 10; out
  // scale 0.25 zp -20, RELU (clamp at zp -20). Ratio 1 / (0.5 * 0.25) = 8:
  // out = -20 + qa / (qb - 10) * 8.
  //   qa  qb   quotient * 8  out
  //   10  12   40            20
  //   -6  13   -16           -36 -> RELU -20
  //   50  11   400           380 -> 127
  //    0  -4   0             -20
  OneOpModel m =
      DivModel({{1, 2, 2, 1}, 9, 1.0f, 0, {}}, {{1, 2, 2, 1}, 9, 0.5f, 10, {}},
               {{1, 2, 2, 1}, 9, 0.25f, -20, {}}, /*RELU*/ 1);
  m.name = "div_relu";
  for (bool overlap : {false, true}) {
    const auto r =
        CompileAndRun(m, U8({10, -6, 50, 0, 12, 13, 11, -4}), overlap);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.output, U8({20, -20, 127, -20}));
  }
}

TEST(LowerDiv, RefusesWhatTheKernelDoesNotTake) {
  // Ratio 1 / (2^-12 * 2^-12) = 2^24: shift 25.
  const std::string big =
      CompileError(DivModel({{4}, 9, 1.0f, 0, {}}, {{4}, 9, 1.0f / 4096, 0, {}},
                            {{4}, 9, 1.0f / 4096, 0, {}}));
  EXPECT_NE(big.find("operator 0 (DIV): the ratio of scales"),
            std::string::npos)
      << big;
  EXPECT_NE(big.find("the kernel takes shifts up to 23"), std::string::npos);
  EXPECT_EQ(big.find('\n'), std::string::npos);
  // TANH is not a fused activation TFLite defines for DIV's int8 clamp.
  EXPECT_NE(CompileError(DivModel({{4}, 9, 1.0f, 0, {}}, {{4}, 9, 1.0f, 0, {}},
                                  {{4}, 9, 1.0f, 0, {}}, /*TANH*/ 4))
                .find("operator 0 (DIV)"),
            std::string::npos);
  // int16 operands.
  EXPECT_NE(CompileError(DivModel({{4}, 7, 1.0f, 0, {}}, {{4}, 7, 1.0f, 0, {}},
                                  {{4}, 7, 1.0f, 0, {}}))
                .find("operator 0 (DIV)"),
            std::string::npos);
  // Shapes that do not broadcast.
  EXPECT_NE(CompileError(DivModel({{4}, 9, 1.0f, 0, {}}, {{3}, 9, 1.0f, 0, {}},
                                  {{4}, 9, 1.0f, 0, {}}))
                .find("does not broadcast to the output"),
            std::string::npos);
}

}  // namespace
