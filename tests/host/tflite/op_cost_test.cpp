// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// tflite::CostOf against MAC counts derived by hand from the layer shapes.
#include "codegen/tflite/op_cost.hpp"

#include <gtest/gtest.h>

#include "codegen/tflite/model.hpp"
#include "tests/host/support/model_builder.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

using tflite::BuiltinOp;
using tflite::TensorType;

std::vector<std::uint8_t> Zeros(std::size_t n) {
  return std::vector<std::uint8_t>(n, 0);
}

TEST(OperatorCost, CountsConvolutionsByTheirWindows) {
  testing_util::ModelBuilder b;
  const auto x = b.Tensor({1, 10, 10, 3});
  // CONV_2D 3x3, 3 -> 8 channels, output 5x5 (stride 2): 5*5*8 outputs,
  // each 3*3*3 products: 200 * 27 = 5400. Filter 8*3*3*3 = 216 bytes, bias
  // 8 * 4 = 32 bytes.
  const auto w = b.Constant({8, 3, 3, 3}, TensorType::kInt8, Zeros(216));
  const auto bias = b.Int32Constant(std::vector<std::int32_t>(8, 1));
  const auto y = b.Tensor({1, 5, 5, 8});
  b.Op(BuiltinOp::kConv2D, {x, w, bias}, {y});
  // DEPTHWISE_CONV_2D 3x3 on 8 channels, output 5x5x8: 200 * 9 = 1800.
  const auto dw = b.Constant({1, 3, 3, 8}, TensorType::kInt8, Zeros(72));
  const auto z = b.Tensor({1, 5, 5, 8});
  b.Op(BuiltinOp::kDepthwiseConv2D, {y, dw, -1}, {z});
  // FULLY_CONNECTED 200 features -> 10 units: 10 * 200 = 2000; the same
  // weights tensor twice counts once.
  const auto fw = b.Constant({10, 200}, TensorType::kInt8, Zeros(2000));
  const auto u = b.Tensor({1, 10});
  b.Op(BuiltinOp::kFullyConnected, {z, fw, fw}, {u});
  // SOFTMAX: no multiply-accumulate, no constant.
  const auto v = b.Tensor({1, 10});
  b.Op(BuiltinOp::kSoftmax, {u}, {v});
  const tflite::Model m = b.Finish({x}, {v});
  const auto& ops = m.subgraphs[0].operators;
  EXPECT_EQ(tflite::CostOf(m, ops[0]).macs, 5400u);
  EXPECT_EQ(tflite::CostOf(m, ops[0]).constant_bytes, 216u + 32u);
  EXPECT_EQ(tflite::CostOf(m, ops[1]).macs, 1800u);
  EXPECT_EQ(tflite::CostOf(m, ops[1]).constant_bytes, 72u);
  EXPECT_EQ(tflite::CostOf(m, ops[2]).macs, 2000u);
  EXPECT_EQ(tflite::CostOf(m, ops[2]).constant_bytes, 2000u);
  EXPECT_EQ(tflite::CostOf(m, ops[3]).macs, 0u);
  EXPECT_EQ(tflite::CostOf(m, ops[3]).constant_bytes, 0u);
}

TEST(OperatorCost, CountsTransposeConvByItsInput) {
  testing_util::ModelBuilder b;
  // TRANSPOSE_CONV: input 4x4x2, filter [3 out, 3, 3, 2 in]: each of the
  // 32 input elements is multiplied into 3*3*3 outputs: 864.
  const auto shape = b.Int32Constant({1, 8, 8, 3});
  const auto w = b.Constant({3, 3, 3, 2}, TensorType::kInt8, Zeros(54));
  const auto x = b.Tensor({1, 4, 4, 2});
  const auto y = b.Tensor({1, 8, 8, 3});
  b.Op(BuiltinOp::kTransposeConv, {shape, w, x}, {y});
  const tflite::Model m = b.Finish({x}, {y});
  EXPECT_EQ(tflite::CostOf(m, m.subgraphs[0].operators[0]).macs, 864u);
}

TEST(OperatorCost, CountsPersonDetectsFirstLayer) {
  // person_detect's operator 0: DEPTHWISE_CONV_2D 3x3, stride 2, on the
  // 96x96x1 image to 48x48x8 (the model's README and `inspect`): 48 * 48 *
  // 8 outputs of 9 products each = 165,888.
  const tflite::Model m =
      tflite::ReadModelFile(testing_util::kModels + "person_detect.tflite");
  EXPECT_EQ(tflite::CostOf(m, m.subgraphs[0].operators[0]).macs, 165888u);
}

}  // namespace
}  // namespace arenaplan
