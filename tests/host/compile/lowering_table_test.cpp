// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The lowering table (codegen/compile/lowering_table.cpp): one line per
// operator, found by builtin code, and the "supported: ..." list of the
// unsupported-operator error is the table's names.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/compile/lowering.hpp"
#include "codegen/tflite/model.hpp"

namespace {

namespace compile = arenaplan::compile;
namespace tflite = arenaplan::tflite;

TEST(LoweringTable, HoldsEachOperatorCodeOnce) {
  std::set<tflite::BuiltinOp> codes;
  for (const compile::Lowering& l : compile::LoweringTable()) {
    EXPECT_TRUE(codes.insert(l.builtin_code).second)
        << tflite::BuiltinOpName(l.builtin_code);
    EXPECT_NE(l.lower, nullptr);
    EXPECT_EQ(compile::FindLowering(l.builtin_code), l.lower);
  }
  // BIDIRECTIONAL_SEQUENCE_LSTM has no kernel.
  EXPECT_EQ(compile::FindLowering(tflite::BuiltinOp::kConv2D),
            &compile::LowerConv2D);
  EXPECT_EQ(compile::FindLowering(tflite::BuiltinOp::kAdd), &compile::LowerAdd);
  EXPECT_EQ(compile::FindLowering(tflite::BuiltinOp::kSvdf),
            &compile::LowerSvdf);
  EXPECT_EQ(compile::FindLowering(tflite::BuiltinOp::kDequantize),
            &compile::LowerDequantize);
  EXPECT_EQ(
      compile::FindLowering(tflite::BuiltinOp::kUnidirectionalSequenceLstm),
      &compile::LowerUnidirectionalSequenceLstm);
  EXPECT_EQ(
      compile::FindLowering(tflite::BuiltinOp::kBidirectionalSequenceLstm),
      nullptr);
}

TEST(LoweringTable, NamesEveryOperatorInTheUnsupportedError) {
  // Its custom signal operators have no lowering.
  const std::string path = std::string(ARENAPLAN_SHARED_DIR) +
                           "/corpus/tflm_audio_preprocessor_int8.tflite";
  std::string err;
  try {
    (void)compile::CompileModel(tflite::ReadModelFile(path), path,
                                compile::CompileOptions{});
  } catch (const arenaplan::InputError& e) {
    err = e.what();
  }
  const auto pos = err.find("(supported: ");
  ASSERT_NE(pos, std::string::npos) << err;
  const std::string list = err.substr(pos);
  for (const compile::Lowering& l : compile::LoweringTable()) {
    const std::string name = tflite::BuiltinOpName(l.builtin_code);
    EXPECT_NE(list.find(name), std::string::npos) << name << " in " << err;
  }
  EXPECT_EQ(list, "(supported: " + compile::SupportedOperatorNames() + ")");
  EXPECT_EQ(compile::SupportedOperatorNames().substr(0, 26),
            "CONV_2D, DEPTHWISE_CONV_2D");
}

}  // namespace
