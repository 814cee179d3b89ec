// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Slices of real models (one operator each, tests/host/support/
// model_slice.hpp), as the compile fuzz target's seeds are made: each
// slice is written and read back, and where the whole model compiles, every
// one of its operators compiles on its own too.
#include "tests/host/support/model_slice.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"
#include "tests/host/support/model_builder.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan::testing_util {
namespace {

/// The error `compile` gives for `model`, or "" when it lowers.
std::string LowerError(const tflite::Model& model) {
  try {
    compile::CheckLowers(model, model.source);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ModelSlice, PersonDetectsFirstConvKeepsItsTensors) {
  const tflite::Model m =
      tflite::ReadModelFile(kModels + "person_detect.tflite");
  const auto& op = m.subgraphs[0].operators[0];
  const auto slice = SliceOperator(m, 0);
  ASSERT_TRUE(slice.has_value());
  const tflite::Subgraph& s = slice->subgraphs[0];
  ASSERT_EQ(s.operators.size(), 1u);
  // Input, filter, bias and output: the filter and the bias are constants,
  // the input is the only graph input, the output the only graph output.
  EXPECT_EQ(s.tensors.size(), op.inputs.size() + op.outputs.size());
  EXPECT_EQ(s.inputs, std::vector<std::int32_t>{0});
  EXPECT_EQ(s.outputs, std::vector<std::int32_t>{3});
  EXPECT_TRUE(slice->IsConstant(s.tensors[1]));
  EXPECT_EQ(slice->buffers[s.tensors[1].buffer].data,
            m.buffers[m.subgraphs[0].tensors[op.inputs[1]].buffer].data);
}

TEST(ModelSlice, EveryOperatorOfACompilingModelCompilesAlone) {
  std::vector<std::string> files;
  for (const char* name : {"person_detect", "vww_96_int8", "kws_ref_model",
                           "pretrainedResnet_quant", "ad01_int8",
                           "keyword_scrambled", "micro_speech_quantized"}) {
    files.push_back(kModels + name + ".tflite");
  }
  const std::filesystem::path corpus =
      std::filesystem::path(kModels).parent_path().parent_path() / "corpus";
  for (const auto& e : std::filesystem::directory_iterator(corpus)) {
    if (e.path().extension() == ".tflite" &&
        std::filesystem::file_size(e.path()) < 400000) {
      files.push_back(e.path().string());
    }
  }
  int sliced = 0;
  for (const std::string& file : files) {
    const tflite::Model m = tflite::ReadModelFile(file);
    const bool whole = LowerError(m).empty();
    for (std::size_t i = 0; i < m.subgraphs[0].operators.size(); ++i) {
      const auto slice = SliceOperator(m, i);
      if (!slice) continue;
      const tflite::Model back =
          tflite::ReadModel(SerializeModel(*slice), "slice.tflite");
      ++sliced;
      if (whole) {
        EXPECT_EQ(LowerError(back), "")
            << file << " operator " << i << " ("
            << m.subgraphs[0].operators[i].builtin_name << ")";
      }
    }
  }
  EXPECT_GT(sliced, 500);
}

}  // namespace
}  // namespace arenaplan::testing_util
