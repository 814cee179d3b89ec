// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The test model builder against the product's reader: a model built in
// memory, written as a .tflite file and read back is the same model, and
// the file is one a real model's reader accepts (the person_detect model
// read, written and read again keeps every tensor, operator and option).
#include "tests/host/support/model_builder.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan::testing_util {
namespace {

using tflite::BuiltinOp;
using tflite::TensorType;

void ExpectSameGraph(const tflite::Model& a, const tflite::Model& b) {
  ASSERT_EQ(a.subgraphs.size(), b.subgraphs.size());
  for (std::size_t s = 0; s < a.subgraphs.size(); ++s) {
    const tflite::Subgraph& x = a.subgraphs[s];
    const tflite::Subgraph& y = b.subgraphs[s];
    EXPECT_EQ(x.inputs, y.inputs);
    EXPECT_EQ(x.outputs, y.outputs);
    ASSERT_EQ(x.tensors.size(), y.tensors.size());
    for (std::size_t i = 0; i < x.tensors.size(); ++i) {
      const tflite::Tensor& t = x.tensors[i];
      const tflite::Tensor& u = y.tensors[i];
      EXPECT_EQ(t.name, u.name);
      EXPECT_EQ(t.type, u.type) << t.name;
      EXPECT_EQ(t.shape, u.shape) << t.name;
      EXPECT_EQ(t.quantization.scale, u.quantization.scale) << t.name;
      EXPECT_EQ(t.quantization.zero_point, u.quantization.zero_point);
      EXPECT_EQ(t.quantization.quantized_dimension,
                u.quantization.quantized_dimension);
      EXPECT_EQ(a.IsConstant(t), b.IsConstant(u)) << t.name;
      if (a.IsConstant(t)) {
        EXPECT_EQ(a.buffers[t.buffer].data, b.buffers[u.buffer].data);
      }
    }
    ASSERT_EQ(x.operators.size(), y.operators.size());
    for (std::size_t i = 0; i < x.operators.size(); ++i) {
      EXPECT_EQ(x.operators[i].builtin_code, y.operators[i].builtin_code);
      EXPECT_EQ(x.operators[i].inputs, y.operators[i].inputs);
      EXPECT_EQ(x.operators[i].outputs, y.operators[i].outputs);
      EXPECT_EQ(x.operators[i].options.index(), y.operators[i].options.index())
          << "operator " << i;
    }
  }
}

TEST(ModelBuilder, WrittenModelReadsBackTheSame) {
  ModelBuilder b;
  const auto x = b.Tensor({1, 4, 4, 2});
  const auto w =
      b.Constant({3, 1, 1, 2}, TensorType::kInt8, {1, 2, 3, 4, 5, 6});
  const auto bias = b.Int32Constant({7, -8, 9});
  const auto y = b.Tensor({1, 4, 4, 3}, TensorType::kInt8, 0.25f, -3);
  const auto z = b.Tensor({1, 48}, TensorType::kInt8, 0.25f, -3);
  const auto shape = b.Int32Constant({1, 48});
  tflite::Conv2DOptions conv;
  conv.padding = tflite::Padding::kValid;
  conv.stride_w = 1;
  conv.stride_h = 1;
  conv.activation = tflite::Activation::kRelu6;
  b.Op(BuiltinOp::kConv2D, {x, w, bias}, {y}, conv);
  b.Op(BuiltinOp::kReshape, {y, shape}, {z}, tflite::ReshapeOptions{{1, 48}});
  const tflite::Model built = b.Finish({x}, {z});

  const tflite::Model read =
      tflite::ReadModel(SerializeModel(built), "built.tflite");
  ExpectSameGraph(built, read);
  const auto& c =
      std::get<tflite::Conv2DOptions>(read.subgraphs[0].operators[0].options);
  EXPECT_EQ(c.padding, tflite::Padding::kValid);
  EXPECT_EQ(c.activation, tflite::Activation::kRelu6);
  EXPECT_EQ(
      std::get<tflite::ReshapeOptions>(read.subgraphs[0].operators[1].options)
          .new_shape,
      (std::vector<std::int32_t>{1, 48}));
  // Bias bytes are little-endian int32: -8 is F8 FF FF FF.
  const auto& bias_bytes =
      read.buffers[read.subgraphs[0].tensors[2].buffer].data;
  ASSERT_EQ(bias_bytes.size(), 12u);
  EXPECT_EQ(bias_bytes[4], 0xF8);
  EXPECT_EQ(bias_bytes[7], 0xFF);
}

TEST(ModelBuilder, RealModelSurvivesAWriteAndARead) {
  const std::string path = kModels + "person_detect.tflite";
  const tflite::Model original = tflite::ReadModelFile(path);
  const tflite::Model again =
      tflite::ReadModel(SerializeModel(original), "again.tflite");
  ExpectSameGraph(original, again);
  // The same lifetimes and sizes: the planner sees the same problem.
  const auto p = tflite::BuildProblem(original, InputOptions());
  const auto q = tflite::BuildProblem(again, InputOptions());
  ASSERT_EQ(p.problem.records.size(), q.problem.records.size());
  for (std::size_t i = 0; i < p.problem.records.size(); ++i) {
    EXPECT_EQ(p.problem.records[i].size, q.problem.records[i].size);
    EXPECT_EQ(p.problem.records[i].first_op, q.problem.records[i].first_op);
    EXPECT_EQ(p.problem.records[i].last_op, q.problem.records[i].last_op);
  }
}

TEST(ModelBuilder, RefusesOptionsItCannotWrite) {
  ModelBuilder b;
  const auto x = b.Tensor({1, 4});
  const auto y = b.Tensor({1, 4});
  // ElementwiseOptions on an operator whose options table is not AddOptions,
  // SubOptions or MulOptions: the writer does not guess.
  b.Op(BuiltinOp::kRelu, {x}, {y}, tflite::ElementwiseOptions{});
  EXPECT_THROW((void)SerializeModel(b.Finish({x}, {y})), std::logic_error);
}

}  // namespace
}  // namespace arenaplan::testing_util
