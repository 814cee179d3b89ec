// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The type table (codegen/compile/type_rules.hpp): well formed, one line
// per operator, each for an operator the lowering table lowers; the text
// refusals list. What each line makes a lowering accept or refuse is
// checked end to end in lower_int16_test, lower_float_test and
// compile_model_test.
#include "codegen/compile/type_rules.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "codegen/compile/lowering.hpp"

namespace {

using arenaplan::compile::AcceptedTypesText;
using arenaplan::compile::FindLowering;
using arenaplan::compile::FindTypeRule;
using arenaplan::compile::TypeRule;
using arenaplan::compile::TypeRules;
using arenaplan::tflite::BuiltinOp;

TEST(TypeRules, HoldOneWellFormedLinePerLoweredOperator) {
  std::set<BuiltinOp> seen;
  for (const TypeRule& r : TypeRules()) {
    EXPECT_TRUE(seen.insert(r.op).second)
        << arenaplan::tflite::BuiltinOpName(r.op) << " has two lines";
    EXPECT_NE(FindLowering(r.op), nullptr)
        << arenaplan::tflite::BuiltinOpName(r.op) << " has no lowering";
    EXPECT_FALSE(r.slots.empty());
    EXPECT_FALSE(r.accepted.empty());
    std::set<std::vector<arenaplan::tflite::TensorType>> combos;
    for (const auto& c : r.accepted) {
      EXPECT_EQ(c.size(), r.slots.size())
          << arenaplan::tflite::BuiltinOpName(r.op);
      EXPECT_TRUE(combos.insert(c).second)
          << arenaplan::tflite::BuiltinOpName(r.op) << " lists a pair twice";
    }
  }
}

TEST(TypeRules, ListTheSixteenByEightConvolutions) {
  const TypeRule* conv = FindTypeRule(BuiltinOp::kConv2D);
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(AcceptedTypesText(*conv),
            "(INT8, INT8, INT8), (INT16, INT8, INT16), (FLOAT32, FLOAT32, "
            "FLOAT32)");
  const TypeRule* tc = FindTypeRule(BuiltinOp::kTransposeConv);
  ASSERT_NE(tc, nullptr);
  // TRANSPOSE_CONV's activation is its input 2, the filter input 1.
  EXPECT_EQ(tc->slots[0].index, 2);
  EXPECT_EQ(tc->slots[1].index, 1);
  EXPECT_EQ(FindTypeRule(BuiltinOp::kGather), nullptr);
}

TEST(TypeRules, ListTheFloatLinesBesideTheIntegerOnes) {
  const TypeRule* fc = FindTypeRule(BuiltinOp::kFullyConnected);
  ASSERT_NE(fc, nullptr);
  EXPECT_EQ(AcceptedTypesText(*fc),
            "(INT8, INT8, INT8), (INT16, INT8, INT16), (FLOAT32, FLOAT32, "
            "FLOAT32)");
  EXPECT_STREQ(fc->slots[1].role, "weights");
  EXPECT_EQ(fc->slots[1].index, 1);
  for (const BuiltinOp op :
       {BuiltinOp::kDepthwiseConv2D, BuiltinOp::kAdd, BuiltinOp::kRelu,
        BuiltinOp::kPad, BuiltinOp::kPadv2, BuiltinOp::kAveragePool2D,
        BuiltinOp::kMaxPool2D}) {
    const TypeRule* r = FindTypeRule(op);
    ASSERT_NE(r, nullptr) << arenaplan::tflite::BuiltinOpName(op);
    const std::string text = AcceptedTypesText(*r);
    EXPECT_NE(text.find("FLOAT32, FLOAT32"), std::string::npos) << text;
  }
  // PAD moves elements of any of four types; RELU computes int8 or float.
  EXPECT_EQ(AcceptedTypesText(*FindTypeRule(BuiltinOp::kPad)),
            "(INT8, INT8), (INT16, INT16), (INT32, INT32), (FLOAT32, FLOAT32)");
  EXPECT_EQ(AcceptedTypesText(*FindTypeRule(BuiltinOp::kRelu)),
            "(INT8, INT8), (FLOAT32, FLOAT32)");
  // The shape operators move elements of the four types PAD moves.
  for (const BuiltinOp op :
       {BuiltinOp::kStridedSlice, BuiltinOp::kPack, BuiltinOp::kConcatenation,
        BuiltinOp::kTranspose, BuiltinOp::kResizeNearestNeighbor}) {
    EXPECT_EQ(AcceptedTypesText(*FindTypeRule(op)),
              AcceptedTypesText(*FindTypeRule(BuiltinOp::kPad)))
        << arenaplan::tflite::BuiltinOpName(op);
  }
  // SOFTMAX: int8 in, int8 or int16 out; int16 in and out; or float32.
  EXPECT_EQ(AcceptedTypesText(*FindTypeRule(BuiltinOp::kSoftmax)),
            "(INT8, INT8), (INT8, INT16), (INT16, INT16), (FLOAT32, FLOAT32)");
  for (const BuiltinOp op :
       {BuiltinOp::kSub, BuiltinOp::kMul, BuiltinOp::kMaximum,
        BuiltinOp::kMinimum, BuiltinOp::kRelu6, BuiltinOp::kMean,
        BuiltinOp::kReshape, BuiltinOp::kLogistic, BuiltinOp::kTanh,
        BuiltinOp::kSplit, BuiltinOp::kSplitV, BuiltinOp::kUnpack,
        BuiltinOp::kResizeBilinear, BuiltinOp::kTransposeConv}) {
    const TypeRule* r = FindTypeRule(op);
    ASSERT_NE(r, nullptr) << arenaplan::tflite::BuiltinOpName(op);
    EXPECT_NE(AcceptedTypesText(*r).find("FLOAT32"), std::string::npos)
        << arenaplan::tflite::BuiltinOpName(op);
  }
}

}  // namespace
