// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// CAST through `compile` end to end: one-operator models built here,
// compiled, built with the host compiler and run; expected bytes by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tests/host/support/op_model.hpp"

namespace {

using arenaplan::testing_util::Bytes;
using arenaplan::testing_util::CompileAndRun;
using arenaplan::testing_util::CompileError;
using arenaplan::testing_util::OneOpModel;

OneOpModel CastModel(std::int8_t from, std::int8_t to,
                     std::vector<std::int32_t> shape = {2, 3}) {
  OneOpModel m;
  m.name = "cast";
  // Graph inputs and outputs carry a quantization (compile requires one
  // for integer edges); CAST ignores it.
  m.tensors = {{shape, from, from == 0 ? 0.0f : 0.5f, 0, {}},
               {shape, to, to == 0 ? 0.0f : 1.0f, 0, {}}};
  m.graph_inputs = {0};
  m.graph_outputs = {1};
  m.op = arenaplan::tflite::BuiltinOp::kCast;
  m.op_inputs = {0};
  m.op_outputs = {1};
  return m;
}

TEST(LowerCast, WidensInt8ToInt32) {
  const std::vector<std::int8_t> in = {-128, -1, 0, 1, 100, 127};
  const auto r = CompileAndRun(CastModel(9, 2), Bytes(in));
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.output,
            Bytes(std::vector<std::int32_t>{-128, -1, 0, 1, 100, 127}));
}

TEST(LowerCast, NarrowsInt32ToInt16ModuloTwoToTheSixteen) {
  OneOpModel m = CastModel(2, 7);
  m.name = "cast_narrow";
  const std::vector<std::int32_t> in = {70000, -70000, 32767, -32768, 5, -1};
  const auto r = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(r.error, "");
  // 70000 - 65536 = 4464; -70000 + 65536 = -4464.
  EXPECT_EQ(r.output, Bytes(std::vector<std::int16_t>{4464, -4464, 32767,
                                                      -32768, 5, -1}));
}

TEST(LowerCast, TruncatesFloatInputTowardZero) {
  OneOpModel m = CastModel(0, 9);
  m.name = "cast_float";
  const std::vector<float> in = {1.75f, -1.75f, 300.0f, -300.0f, 0.0f, 99.9f};
  const auto r = CompileAndRun(m, Bytes(in));
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.output, Bytes(std::vector<std::int8_t>{1, -1, 127, -128, 0, 99}));
}

TEST(LowerCast, RefusesTypesTheKernelDoesNotTake) {
  const std::string err = CompileError(CastModel(9, 6));  // BOOL output
  EXPECT_NE(err.find("operator 0 (CAST): tensor 1 't1' is BOOL; CAST takes "
                     "INT8, INT16, INT32 or FLOAT32"),
            std::string::npos)
      << err;
  OneOpModel shape = CastModel(9, 2);
  shape.tensors[1].shape = {3, 2};
  EXPECT_NE(CompileError(shape).find("differs from the input's [2,3]"),
            std::string::npos);
}

}  // namespace
