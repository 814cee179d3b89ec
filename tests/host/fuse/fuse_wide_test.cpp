// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `--fuse` on int16 and float32 models: the row operators of
// codegen/fuse/ stream int8 rows only (kernels/row_schedule.hpp's kernels),
// so an int16 or float32 operator is no row operator and such a model is
// planned unfused, with the overlap pairs --fuse implies (docs/fuse.md):
// no segment in its code, the --overlap plan's arena.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/compile/generate.hpp"
#include "codegen/fuse/fuse.hpp"
#include "codegen/tflite/model.hpp"
#include "tests/host/support/op_model.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

using testing_util::kI16;
using testing_util::kI8;
using testing_util::OneOpModel;
using testing_util::TensorSpec;
namespace fb = tflite::fb;

/// A 1x1 CONV_2D on [1, 4, 4, 2] -> [1, 4, 4, 2] of `type` (int16 with an
/// int8 filter, or int8).
std::vector<std::uint8_t> PointwiseConv(std::int8_t type) {
  OneOpModel m;
  m.name = "pointwise";
  const std::vector<std::int8_t> filter = {1, 2, 3, 4};
  TensorSpec f{{2, 1, 1, 2}, kI8, 0.01f, 0, testing_util::Bytes(filter)};
  m.tensors = {TensorSpec{{1, 4, 4, 2}, type, 0.002f, 0, {}}, f,
               TensorSpec{{1, 4, 4, 2}, type, 0.004f, 0, {}}};
  m.graph_inputs = {0};
  m.graph_outputs = {2};
  m.op = tflite::BuiltinOp::kConv2D;
  m.op_inputs = {0, 1};
  m.op_outputs = {2};
  m.options = [](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::Conv2DOptions,
                     fb::CreateConv2DOptions(fbb, 0, 1, 1, 0).Union()};
  };
  return m.Serialize();
}

TEST(FuseWide, TakesInt8ConvolutionsAsRowOperatorsButNotInt16Ones) {
  const std::vector<std::uint8_t> i8 = PointwiseConv(kI8);
  const std::vector<std::uint8_t> i16 = PointwiseConv(kI16);
  const tflite::Model m8 = tflite::ReadModel(i8, "pointwise_int8.tflite");
  const tflite::Model m16 = tflite::ReadModel(i16, "pointwise_int16.tflite");
  EXPECT_TRUE(fuse::RowOpOf(m8, 0).has_value());  // The check can pass.
  EXPECT_FALSE(fuse::RowOpOf(m16, 0).has_value());
}

TEST(FuseWide, PlansAFloatModelUnfusedWithTheOverlapArena) {
  // face_detection_short_range: float32 CONV_2D / DEPTHWISE_CONV_2D / ADD /
  // MAX_POOL_2D chains, none a row operator.
  const std::string path =
      testing_util::kModels + "face_detection_short_range.tflite";
  const tflite::Model model = tflite::ReadModelFile(path);
  for (std::size_t k = 0; k < model.subgraphs[0].operators.size(); ++k) {
    EXPECT_FALSE(fuse::RowOpOf(model, k).has_value()) << "operator " << k;
  }
  compile::CompileOptions fused;
  fused.namespace_name = "fd";
  fused.fuse = true;
  compile::CompileOptions overlap;
  overlap.namespace_name = "fd";
  overlap.input.overlap = true;  // As `compile --overlap` sets them.
  overlap.plan.overlap = true;
  const compile::CompiledModel a = compile::CompileModel(model, path, fused);
  const compile::CompiledModel b = compile::CompileModel(model, path, overlap);
  EXPECT_EQ(a.model_source.find("RunFused"), std::string::npos);
  EXPECT_EQ(a.plan.arena_bytes, b.plan.arena_bytes);
  EXPECT_TRUE(a.model_source == b.model_source);  // Not printed: 2 MB.
}

}  // namespace
}  // namespace arenaplan
