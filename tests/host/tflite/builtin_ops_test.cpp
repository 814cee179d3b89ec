// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The builtin operator codes (codegen/tflite/builtin_ops.hpp) against the
// values and names of TensorFlow Lite's schema.fbs (enum BuiltinOperator).
#include "codegen/tflite/builtin_ops.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace arenaplan::tflite {
namespace {

TEST(BuiltinOps, MatchTheSchemaValues) {
  // Values as schema.fbs numbers them.
  EXPECT_EQ(static_cast<int>(BuiltinOp::kAdd), 0);
  EXPECT_EQ(static_cast<int>(BuiltinOp::kConv2D), 3);
  EXPECT_EQ(static_cast<int>(BuiltinOp::kMaxPool2D), 17);
  EXPECT_EQ(static_cast<int>(BuiltinOp::kSvdf), 27);
  EXPECT_EQ(static_cast<int>(BuiltinOp::kCustom), 32);
  EXPECT_EQ(static_cast<int>(BuiltinOp::kPad), 34);
  EXPECT_EQ(static_cast<int>(BuiltinOp::kUnidirectionalSequenceLstm), 44);
  EXPECT_EQ(static_cast<int>(BuiltinOp::kQuantize), 114);
  EXPECT_EQ(static_cast<int>(BuiltinOp::kWhile), 119);
  EXPECT_EQ(static_cast<int>(BuiltinOp::kRightShift), 161);
}

TEST(BuiltinOps, NameEveryValueOnce) {
  std::set<std::string> names;
  for (std::int32_t v = 0; v < kBuiltinOpCount; ++v) {
    const std::string name = BuiltinOpName(static_cast<BuiltinOp>(v));
    EXPECT_EQ(name.find("BUILTIN_"), std::string::npos) << v;
    EXPECT_TRUE(names.insert(name).second) << name;
  }
  EXPECT_EQ(BuiltinOpName(BuiltinOp::kDepthwiseConv2D), "DEPTHWISE_CONV_2D");
  EXPECT_EQ(BuiltinOpName(BuiltinOp::kReluN1To1), "RELU_N1_TO_1");
}

TEST(BuiltinOps, NameUnknownCodesByNumber) {
  EXPECT_EQ(BuiltinOpName(static_cast<BuiltinOp>(kBuiltinOpCount)),
            "BUILTIN_162");
  EXPECT_EQ(BuiltinOpName(static_cast<BuiltinOp>(-1)), "BUILTIN_-1");
}

}  // namespace
}  // namespace arenaplan::tflite
