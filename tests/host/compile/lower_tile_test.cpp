// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TILE through `compile` end to end: one-operator models built here,
// compiled, built with the host compiler and run; expected bytes by hand.
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

OneOpModel TileModel(std::vector<std::int32_t> in_shape,
                     std::vector<std::int32_t> out_shape,
                     std::vector<std::uint8_t> multiples,
                     std::int8_t multiples_type = 2, std::int8_t type = 9) {
  OneOpModel m;
  m.name = "tile";
  const auto n = static_cast<std::int32_t>(in_shape.size());
  m.tensors = {{in_shape, type, 0.25f, -1, {}},
               {{n}, multiples_type, 0.0f, 0, multiples},
               {out_shape, type, 0.25f, -1, {}}};
  m.graph_inputs = {0};
  m.graph_outputs = {2};
  m.op = arenaplan::tflite::BuiltinOp::kTile;
  m.op_inputs = {0, 1};
  m.op_outputs = {2};
  return m;
}

TEST(LowerTile, RepeatsAMatrixTwiceEachWay) {
  // [2,3] = {{1,2,3},{4,5,6}} tiled {2,2} -> [4,6].
  const auto r = CompileAndRun(
      TileModel({2, 3}, {4, 6}, Bytes(std::vector<std::int32_t>{2, 2})),
      {1, 2, 3, 4, 5, 6});
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.output,
            (std::vector<std::uint8_t>{1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6,
                                       1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}));
}

TEST(LowerTile, TakesInt64MultiplesAndInt16Data) {
  // int16 [1,2,1] tiled {3,1,2} (int64) -> [3,2,2]: each of the 3 blocks
  // is {{a,a},{b,b}}.
  OneOpModel m = TileModel({1, 2, 1}, {3, 2, 2},
                           Bytes(std::vector<std::int64_t>{3, 1, 2}), 4, 7);
  m.name = "tile_int64";
  const auto r = CompileAndRun(m, Bytes(std::vector<std::int16_t>{-300, 7}));
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.output,
            Bytes(std::vector<std::int16_t>{-300, -300, 7, 7, -300, -300, 7, 7,
                                            -300, -300, 7, 7}));
}

TEST(LowerTile, RefusesWhatTheKernelDoesNotTake) {
  const std::string err = CompileError(
      TileModel({2, 3}, {4, 5}, Bytes(std::vector<std::int32_t>{2, 2})));
  EXPECT_NE(err.find("operator 0 (TILE): output dimension 1 is 5, not input "
                     "3 times multiple 2"),
            std::string::npos)
      << err;
  EXPECT_EQ(err.find('\n'), std::string::npos);
  OneOpModel short_multiples =
      TileModel({2, 3}, {4, 6}, Bytes(std::vector<std::int32_t>{2}));
  short_multiples.tensors[1].shape = {1};
  const std::string short_err = CompileError(short_multiples);
  EXPECT_NE(short_err.find("1 multiples for rank 2"), std::string::npos)
      << short_err;
  EXPECT_NE(CompileError(TileModel({2, 3}, {2, 3},
                                   Bytes(std::vector<std::int32_t>{1, 0})))
                .find("not input 3 times multiple 0"),
            std::string::npos);
}

}  // namespace
