// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The shape operators on float32 tensors through `compile` end to end:
// TRANSPOSE, SPLIT, CONCATENATION, STRIDED_SLICE, RESHAPE, PACK (a float
// constant among its inputs), RESIZE_NEAREST_NEIGHBOR, UNPACK and SPLIT_V
// chained in models built here, and GATHER from a float constant table.
// They move elements only, so each output
// element is one input element: the expected outputs are the same moves
// done here with plain index arithmetic, compared bit for bit.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tests/host/support/float_oracle.hpp"
#include "tests/host/support/model_builder.hpp"
#include "tests/host/support/op_model.hpp"

namespace {

using arenaplan::testing_util::Bits;
using arenaplan::testing_util::Bytes;
using arenaplan::testing_util::CompileAndRunBytes;
using arenaplan::testing_util::ModelBuilder;
using arenaplan::testing_util::RandomFloats;
using arenaplan::testing_util::RunOptions;
using arenaplan::testing_util::SerializeModel;
using arenaplan::testing_util::WordsOf;
namespace tflite = arenaplan::tflite;
using tflite::BuiltinOp;

constexpr auto kF32 = tflite::TensorType::kFloat32;

std::vector<std::uint32_t> BitsOf(const std::vector<float>& v) {
  std::vector<std::uint32_t> b;
  for (float x : v) b.push_back(Bits(x));
  return b;
}

TEST(LowerFloatShapes, MovesFloatElementsThroughAChainOfShapeOperators) {
  // x [2, 3, 4] -> TRANSPOSE {2, 0, 1} -> t [4, 2, 3] -> SPLIT along axis
  // 0 -> s0, s1 [2, 2, 3] -> CONCATENATION (s1, s0) along axis 2 -> c
  // [2, 2, 6] -> STRIDED_SLICE [0:2, 1:2, 0:6:2] -> ss [2, 1, 3] ->
  // RESHAPE [6] -> PACK (r, constant k [6]) -> p [2, 6] -> RESHAPE
  // [1, 2, 6, 1] -> RESIZE_NEAREST_NEIGHBOR to 4 x 3 -> y [1, 4, 3, 1].
  const auto x = RandomFloats(24, 21);
  const auto k = RandomFloats(6, 22);
  ModelBuilder b("shapes_f32.tflite");
  const std::int32_t in = b.Tensor({2, 3, 4}, kF32, 0.0f);
  const std::int32_t t = b.Tensor({4, 2, 3}, kF32, 0.0f);
  b.Op(BuiltinOp::kTranspose, {in, b.Int32Constant({2, 0, 1})}, {t});
  const std::int32_t s0 = b.Tensor({2, 2, 3}, kF32, 0.0f);
  const std::int32_t s1 = b.Tensor({2, 2, 3}, kF32, 0.0f);
  b.Op(BuiltinOp::kSplit, {b.Int32Constant({0}), t}, {s0, s1});
  const std::int32_t c = b.Tensor({2, 2, 6}, kF32, 0.0f);
  b.Op(BuiltinOp::kConcatenation, {s1, s0}, {c},
       tflite::ConcatenationOptions{2, tflite::Activation::kNone});
  const std::int32_t ss = b.Tensor({2, 1, 3}, kF32, 0.0f);
  b.Op(BuiltinOp::kStridedSlice,
       {c, b.Int32Constant({0, 1, 0}), b.Int32Constant({2, 2, 6}),
        b.Int32Constant({1, 1, 2})},
       {ss}, tflite::StridedSliceOptions{});
  const std::int32_t r = b.Tensor({6}, kF32, 0.0f);
  b.Op(BuiltinOp::kReshape, {ss, b.Int32Constant({6})}, {r},
       tflite::ReshapeOptions{{6}});
  const std::int32_t kc = b.Constant({6}, kF32, Bytes(k), 0.0f);
  const std::int32_t p = b.Tensor({2, 6}, kF32, 0.0f);
  b.Op(BuiltinOp::kPack, {r, kc}, {p});
  const std::int32_t p4 = b.Tensor({1, 2, 6, 1}, kF32, 0.0f);
  b.Op(BuiltinOp::kReshape, {p, b.Int32Constant({1, 2, 6, 1})}, {p4},
       tflite::ReshapeOptions{{1, 2, 6, 1}});
  const std::int32_t y = b.Tensor({1, 4, 3, 1}, kF32, 0.0f);
  b.Op(BuiltinOp::kResizeNearestNeighbor, {p4, b.Int32Constant({4, 3})}, {y},
       tflite::ResizeNearestNeighborOptions{});
  const auto bytes = SerializeModel(b.Finish({in}, {y}));
  const auto run =
      CompileAndRunBytes(bytes, "shapes_f32", Bytes(x), RunOptions{});
  ASSERT_EQ(run.error, "");

  // The same moves here. t[i][j][l] = x[j][l][i].
  auto X = [&](int j, int l, int i) { return x[(j * 3 + l) * 4 + i]; };
  auto T = [&](int i, int j, int l) { return X(j, l, i); };
  // s0 = t[0:2], s1 = t[2:4]; c[a][j][m] = s1 for m < 3, s0 after.
  auto C = [&](int a, int j, int m) {
    return m < 3 ? T(a + 2, j, m) : T(a, j, m - 3);
  };
  std::vector<float> packed;
  for (int a = 0; a < 2; ++a) {
    for (int m = 0; m < 6; m += 2) packed.push_back(C(a, 1, m));
  }
  packed.insert(packed.end(), k.begin(), k.end());  // p [2, 6]
  // Nearest neighbour, no corner alignment: source row floor(oy * 2 / 4),
  // column floor(ox * 6 / 3).
  std::vector<float> expect;
  for (int oy = 0; oy < 4; ++oy) {
    for (int ox = 0; ox < 3; ++ox) {
      expect.push_back(packed[static_cast<std::size_t>(oy / 2 * 6 + ox * 2)]);
    }
  }
  EXPECT_EQ(WordsOf(run.output), BitsOf(expect));
}

TEST(LowerFloatShapes, UnpacksAndSplitsFloatTensors) {
  // x [2, 3] -> UNPACK along axis 1 -> u0, u1, u2 [2]; x2 [2, 5] ->
  // SPLIT_V sizes {1, 4} along axis 1 -> v0 [2, 1], v1 [2, 4]. Graph
  // outputs u2, u0, u1, v1, v0.
  const auto x = RandomFloats(6, 23), x2 = RandomFloats(10, 24);
  ModelBuilder b("unpack_f32.tflite");
  const std::int32_t in = b.Tensor({2, 3}, kF32, 0.0f);
  const std::int32_t in2 = b.Tensor({2, 5}, kF32, 0.0f);
  const std::int32_t u0 = b.Tensor({2}, kF32, 0.0f),
                     u1 = b.Tensor({2}, kF32, 0.0f),
                     u2 = b.Tensor({2}, kF32, 0.0f);
  b.Op(BuiltinOp::kUnpack, {in}, {u0, u1, u2}, tflite::UnpackOptions{3, 1});
  const std::int32_t v0 = b.Tensor({2, 1}, kF32, 0.0f),
                     v1 = b.Tensor({2, 4}, kF32, 0.0f);
  b.Op(BuiltinOp::kSplitV, {in2, b.Int32Constant({1, 4}), b.Int32Constant({1})},
       {v0, v1});
  const auto bytes = SerializeModel(b.Finish({in, in2}, {u2, u0, u1, v1, v0}));
  std::vector<std::uint8_t> input = Bytes(x);
  const auto tail = Bytes(x2);
  input.insert(input.end(), tail.begin(), tail.end());
  const auto run = CompileAndRunBytes(bytes, "unpack_f32", input, RunOptions{});
  ASSERT_EQ(run.error, "");
  const std::vector<float> expect = {x[2],  x[5],  x[0],  x[3],  x[1],  x[4],
                                     x2[1], x2[2], x2[3], x2[4], x2[6], x2[7],
                                     x2[8], x2[9], x2[0], x2[5]};
  EXPECT_EQ(WordsOf(run.output), BitsOf(expect));
}

TEST(LowerFloatShapes, GathersRowsOfAFloatConstantTable) {
  // An embedding lookup: a constant [4, 3] float table (-0.0 and a
  // subnormal among its values, kept exactly), positions {3, 0, 3} as the
  // graph input -> [3, 3]: rows 3, 0, 3.
  std::vector<float> table = RandomFloats(12, 33);
  table[9] = -0.0f;
  table[10] = 0x1p-140f;
  ModelBuilder b("gather_f32.tflite");
  const std::int32_t t = b.Constant({4, 3}, kF32, Bytes(table), 0.0f);
  const std::int32_t pos = b.Tensor({3}, tflite::TensorType::kInt32, 0.0f);
  const std::int32_t out = b.Tensor({3, 3}, kF32, 0.0f);
  b.Op(BuiltinOp::kGather, {t, pos}, {out}, tflite::GatherOptions{0, 0});
  const auto bytes = SerializeModel(b.Finish({pos}, {out}));
  const auto run = CompileAndRunBytes(bytes, "gather_f32",
                                      Bytes(std::vector<std::int32_t>{3, 0, 3}),
                                      RunOptions{});
  ASSERT_EQ(run.error, "");
  std::vector<float> expect;
  for (const int r : {3, 0, 3}) {
    for (int c = 0; c < 3; ++c) {
      expect.push_back(table[static_cast<std::size_t>(r * 3 + c)]);
    }
  }
  EXPECT_EQ(WordsOf(run.output), BitsOf(expect));
}

}  // namespace
