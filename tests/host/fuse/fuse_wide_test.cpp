// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `--fuse` on int16 and float32 models: the row operators of
// codegen/fuse/ stream int8 and float32 rows (docs/fuse.md); an int16
// operator is no row operator (planned unfused, with the overlap pairs
// --fuse implies). face_detection_short_range (float32) is streamed in four
// segments, its arena derived by hand below.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
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

TEST(FuseWide, StreamsFaceDetectionInLessThanItsOverlapArena) {
  const std::string path =
      testing_util::kModels + "face_detection_short_range.tflite";
  const tflite::Model model = tflite::ReadModelFile(path);
  compile::CompileOptions fused;
  fused.namespace_name = "fd";
  fused.fuse = true;
  compile::CompileOptions overlap;
  overlap.namespace_name = "fd";
  overlap.input.overlap = true;  // As `compile --overlap` sets them.
  overlap.plan.overlap = true;
  const compile::CompiledModel a = compile::CompileModel(model, path, fused);
  const compile::CompiledModel b = compile::CompileModel(model, path, overlap);
  EXPECT_NE(a.model_source.find("RunResolved"), std::string::npos);
  // --overlap: the largest step is the ADD of the second block, its two
  // inputs and its output of [1, 64, 64, 28] float32 (458,752 bytes each)
  // alive at once, the output written over one input (the element-wise
  // contract the float lowering states): two tensors' bytes.
  EXPECT_EQ(b.plan.arena_bytes, 2u * 64 * 64 * 28 * 4);
  // --fuse: the first segment (operators 0 .. 15: the 5x5 CONV_2D, three
  // blocks, to the first ADD at 32 rows) holds the whole input [1, 128,
  // 128, 3] (196,608 bytes), its rings, and the output inside the input's
  // bytes (a distance-0 pair). Rings, rows x row bytes: at 64 rows and 24
  // channels (6,144 B a row) 1 + 3 + 1 + 1 + 1 + 3 + 1 rows (a RELU read
  // by a 3x3 depthwise holds 3, every other ring 1); at 64 rows and 28
  // channels (7,168 B) 1 + 1 + 1 + 3; at 32 rows 28 channels (3,584 B)
  // 1 + 1 and 32 channels (4,096 B) 1 + 1: 125,952 bytes, all multiples of
  // 16. That step is the fused lower bound, and the plan reaches it.
  const std::uint64_t rings = 11u * 6144 + 6u * 7168 + 2u * 3584 + 2u * 4096;
  EXPECT_EQ(rings, 125952u);
  EXPECT_EQ(a.plan.arena_bytes, 128u * 128 * 3 * 4 + rings);  // 322,560
  EXPECT_NE(a.model_source.find("operators 0 .. 15: fused segment"),
            std::string::npos);
}

TEST(FuseWide, RefusesAFaceDetectionHeaderWithAFloatRingShrunk) {
  // The generated code compiles; with the ring of the first CONV_2D (one
  // row of [1, 64, 64, 24] float32: 6,144 bytes) edited to 6,128 bytes in
  // the arena header, its static_assert stops the build.
  const std::string path =
      testing_util::kModels + "face_detection_short_range.tflite";
  compile::CompileOptions o;
  o.namespace_name = "fd";
  o.fuse = true;
  const compile::CompiledModel out =
      compile::CompileModel(tflite::ReadModelFile(path), path, o);
  const std::string assert_text =
      "].size >= 6144, \"arenaplan: ring of "
      "operator 0 smaller than its 6144 bytes\")";
  const std::size_t at = out.model_source.find(assert_text);
  ASSERT_NE(at, std::string::npos);
  const std::size_t open = out.model_source.rfind('[', at);
  const std::string record = out.model_source.substr(open + 1, at - open - 1);
  const testing_util::ScopedTempDir tmp{"arenaplan_fuse_wide_"};
  const std::filesystem::path dir = tmp.path();
  const auto compile = [&](const std::string& header) {
    testing_util::WriteFile(dir / out.arena_header_name, header);
    testing_util::WriteFile(dir / out.model_header_name, out.model_header);
    testing_util::WriteFile(dir / out.model_source_name, out.model_source);
    return testing_util::RunCommand(
        testing_util::HostCompileCommand(
            "c++20", "-fsyntax-only -Wall -Wextra -Werror") +
        "-I" ARENAPLAN_SOURCE_DIR "/kernels/include -I" + dir.string() + " " +
        (dir / out.model_source_name).string());
  };
  const testing_util::CommandResult good = compile(out.arena_header);
  EXPECT_EQ(good.status, 0) << good.output;
  std::string h = out.arena_header;
  for (const auto& [from, to] :
       {std::pair{", 6144, 0, 0},  // " + record + " ",
                  ", 6128, 0, 0},  // " + record + " "},
        std::pair{"    6144,  // " + record + "\n",
                  "    6128,  // " + record + "\n"}}) {
    const std::size_t k = h.find(from);
    ASSERT_NE(k, std::string::npos) << from;
    h.replace(k, from.size(), to);
  }
  const testing_util::CommandResult bad = compile(h);
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.output.find("ring of operator 0 smaller than its 6144 bytes"),
            std::string::npos)
      << bad.output;
}

}  // namespace
}  // namespace arenaplan
