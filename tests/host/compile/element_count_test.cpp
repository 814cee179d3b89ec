// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Element counts the kernels' std::int32_t parameters cannot hold are
// refused when compiling (issue 27): 46341 x 46341 = 2147488281 elements,
// 4634 more than 2^31 - 1 = 2147483647; 46340 x 46340 = 2147395600 fit.
#include <gtest/gtest.h>

#include <string>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/tflite/model.hpp"

namespace arenaplan {
namespace {

using tflite::Model;
using tflite::Operator;
using tflite::Subgraph;
using tflite::Tensor;
using tflite::TensorType;

Tensor Int8(const char* name, std::int32_t side, float scale) {
  Tensor t;
  t.name = name;
  t.type = TensorType::kInt8;
  t.shape = {side, side};
  t.quantization.scale = {scale};
  t.quantization.zero_point = {0};
  return t;
}

/// QUANTIZE (int8 -> int8, code 114) or ADD (code 0) on [side, side].
Model Elementwise(bool add, std::int32_t side) {
  Model m;
  m.source = "big.tflite";
  m.buffers.resize(1);
  Subgraph g;
  Operator op;
  if (add) {
    // ADD(x, x): one graph input.
    g.tensors = {Int8("x", side, 0.5f), Int8("sum", side, 1.0f)};
    op.builtin_code = tflite::BuiltinOp::kAdd;
    op.builtin_name = "ADD";
    op.inputs = {0, 0};
    op.outputs = {1};
    op.options = tflite::ElementwiseOptions{};
    g.inputs = {0};
    g.outputs = {1};
  } else {
    g.tensors = {Int8("in", side, 0.5f), Int8("out", side, 1.0f)};
    op.builtin_code = tflite::BuiltinOp::kQuantize;
    op.builtin_name = "QUANTIZE";
    op.inputs = {0};
    op.outputs = {1};
    g.inputs = {0};
    g.outputs = {1};
  }
  g.operators = {op};
  m.subgraphs = {g};
  return m;
}

std::string CompileError(const Model& m) {
  try {
    (void)compile::CompileModel(m, m.source, compile::CompileOptions{});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ElementCount, RefusesCountsBeyondTheKernelsInt32) {
  for (bool add : {false, true}) {
    const std::string err = CompileError(Elementwise(add, 46341));
    const std::string op = add ? "operator 0 (ADD)" : "operator 0 (QUANTIZE)";
    EXPECT_NE(err.find("big.tflite: " + op), std::string::npos) << err;
    EXPECT_NE(err.find("2147488281 elements"), std::string::npos) << err;
    EXPECT_NE(err.find("2147483647"), std::string::npos) << err;
    // 46340 x 46340 passes the check (the model, with no file behind it,
    // fails later, when its bytes are hashed).
    const std::string below = CompileError(Elementwise(add, 46340));
    EXPECT_EQ(below.find("elements;"), std::string::npos) << below;
    EXPECT_NE(below.find("big.tflite: cannot read"), std::string::npos)
        << below;
  }
}

}  // namespace
}  // namespace arenaplan
