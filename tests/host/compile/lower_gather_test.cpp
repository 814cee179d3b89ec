// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// GATHER through `compile` end to end: one-operator models built here,
// compiled, built with the host compiler and run; the output bytes are
// checked against values written out by hand. Unsupported options are
// refused with one line naming the operator.
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

/// GATHER of tensor 0 at positions tensor 1 into tensor 2 along `axis`.
OneOpModel GatherModel(TensorSpec in, TensorSpec pos, TensorSpec out,
                       std::int32_t axis, std::int32_t batch_dims = 0) {
  OneOpModel m;
  m.name = "gather";
  m.tensors = {in, pos, out};
  m.graph_inputs = {0};
  if (pos.data.empty()) m.graph_inputs.push_back(1);
  if (!in.data.empty()) m.graph_inputs = {1};
  m.graph_outputs = {2};
  m.op = arenaplan::tflite::BuiltinOp::kGather;
  m.op_inputs = {0, 1};
  m.op_outputs = {2};
  m.options = [axis, batch_dims](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::GatherOptions,
                     fb::CreateGatherOptions(fbb, axis, batch_dims).Union()};
  };
  return m;
}

TEST(LowerGather, GathersColumnsWithConstantPositions) {
  // int8 [2,4] = {{0,1,2,3},{4,5,6,7}} + 1 each, axis 1, positions {3,0,3}:
  // out [2,3] = {{4,1,4},{8,5,8}}.
  const std::vector<std::int32_t> pos = {3, 0, 3};
  const OneOpModel m =
      GatherModel({{2, 4}, 9, 0.5f, -3, {}}, {{3}, 2, 0.0f, 0, Bytes(pos)},
                  {{2, 3}, 9, 0.5f, -3, {}}, 1);
  const std::vector<std::uint8_t> in = {1, 2, 3, 4, 5, 6, 7, 8};
  for (bool overlap : {false, true}) {
    const auto r = CompileAndRun(m, in, overlap);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.output, (std::vector<std::uint8_t>{4, 1, 4, 8, 5, 8}));
  }
}

TEST(LowerGather, LooksUpAConstantTableAtComputedPositions) {
  // An embedding lookup: table int8 [4,2] constant, positions int32 [3]
  // a graph input {2,2,0}, out [3,2] = rows 2, 2, 0 of the table.
  const std::vector<std::int8_t> table = {10, 11, 20, 21, 30, 31, 40, 41};
  OneOpModel m =
      GatherModel({{4, 2}, 9, 0.1f, 0, Bytes(table)}, {{3}, 2, 1.0f, 0, {}},
                  {{3, 2}, 9, 0.1f, 0, {}}, 0);
  m.name = "gather_table";
  const std::vector<std::int32_t> pos = {2, 2, 0};
  const auto r = CompileAndRun(m, Bytes(pos));
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.output, (std::vector<std::uint8_t>{30, 31, 30, 31, 10, 11}));
}

TEST(LowerGather, GathersInt32WithBatchDims) {
  // batch_dims 1, axis 1: input [2,3] int32, positions [2,1] = {{2},{0}}
  // (a second graph input): out [2,1] = {in[0][2], in[1][0]}. Graph
  // inputs and outputs carry a quantization (compile requires one).
  OneOpModel m = GatherModel({{2, 3}, 2, 1.0f, 0, {}}, {{2, 1}, 2, 1.0f, 0, {}},
                             {{2, 1}, 2, 1.0f, 0, {}}, 1, 1);
  m.name = "gather_batch";
  std::vector<std::uint8_t> in =
      Bytes(std::vector<std::int32_t>{100, 101, -102, -200, 201, 202});
  const auto pos = Bytes(std::vector<std::int32_t>{2, 0});
  in.insert(in.end(), pos.begin(), pos.end());
  const auto r = CompileAndRun(m, in);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.output, Bytes(std::vector<std::int32_t>{-102, -200}));
}

TEST(LowerGather, RefusesWhatTheKernelDoesNotTake) {
  const std::vector<std::int32_t> bad = {4};
  EXPECT_NE(CompileError(GatherModel({{2, 4}, 9, 0.5f, 0, {}},
                                     {{1}, 2, 0.0f, 0, Bytes(bad)},
                                     {{2, 1}, 9, 0.5f, 0, {}}, 1))
                .find("operator 0 (GATHER): position 0 is 4, outside [0, 4)"),
            std::string::npos);
  EXPECT_NE(CompileError(GatherModel({{2, 4}, 9, 0.5f, 0, {}},
                                     {{1}, 2, 0.0f, 0, Bytes(bad)},
                                     {{2, 1}, 9, 0.5f, 0, {}}, 2))
                .find("(GATHER): axis 2 is outside the input's 2 dimensions"),
            std::string::npos);
  // int64 positions are not taken (TFLM takes int32 only).
  const std::vector<std::int64_t> wide = {1};
  EXPECT_NE(CompileError(GatherModel({{2, 4}, 9, 0.5f, 0, {}},
                                     {{1}, 4, 0.0f, 0, Bytes(wide)},
                                     {{2, 1}, 9, 0.5f, 0, {}}, 1))
                .find("is INT64; GATHER takes INT32 positions"),
            std::string::npos);
  // Output shape other than the gathered one.
  const std::vector<std::int32_t> one = {1};
  const std::string err = CompileError(
      GatherModel({{2, 4}, 9, 0.5f, 0, {}}, {{1}, 2, 0.0f, 0, Bytes(one)},
                  {{2, 2}, 9, 0.5f, 0, {}}, 1));
  EXPECT_NE(err.find("output shape [2,2] is not the gathered [2,1]"),
            std::string::npos)
      << err;
  EXPECT_EQ(err.find('\n'), std::string::npos);
}

}  // namespace
