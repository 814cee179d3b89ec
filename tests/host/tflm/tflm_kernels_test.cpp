// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Scratch requests of TFLM's reference kernels (codegen/tflite/
// tflm_kernels.hpp), expected values worked out by hand from the kernels'
// rules and the models' shapes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflm/kernels.hpp"

namespace arenaplan::tflm {
namespace {

using tflite::FullyConnectedOptions;
using tflite::Model;
using tflite::Operator;
using tflite::Subgraph;
using tflite::Tensor;
using tflite::TensorType;

const std::string kModels = std::string(ARENAPLAN_SHARED_DIR) + "/models/";

std::vector<std::pair<std::uint32_t, std::uint64_t>> Pairs(
    const std::vector<ScratchRequest>& r) {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
  for (const ScratchRequest& s : r) out.emplace_back(s.op, s.bytes);
  return out;
}

// keyword_scrambled: seven int8 SVDF operators (svdf_common.cc, PrepareSvdf)
// each asking for batch x num_filters and batch x num_units int32 buffers.
// From `arenaplan inspect`: batch 1 (input [1,N]); operators 1, 3, 5, 7 have
// weights_feature [64,*] (64 filters) and output [1,64] (64 units, rank 1):
// 256 + 256 bytes; operators 9, 10, 11 have weights_feature [32,*] and
// output [1,32]: 128 + 128 bytes. 14 buffers, as TFLM reports.
TEST(TflmKernels, SvdfRequestsTwoInt32BuffersPerInt8Kernel) {
  const Model m = tflite::ReadModelFile(kModels + "keyword_scrambled.tflite");
  const std::vector<std::pair<std::uint32_t, std::uint64_t>> want = {
      {1, 256}, {1, 256}, {3, 256}, {3, 256},  {5, 256},  {5, 256},  {7, 256},
      {7, 256}, {9, 128}, {9, 128}, {10, 128}, {10, 128}, {11, 128}, {11, 128}};
  EXPECT_EQ(Pairs(TflmScratchRequests(m, {}, nullptr)), want);
}

TEST(TflmKernels, ModelsWithoutSvdfOrInt4RequestNoScratch) {
  InputOptions one;
  one.assume_dim = 1;
  for (const char* name :
       {"hello_world_int8", "hello_world_float", "micro_speech_quantized",
        "person_detect", "vww_96_int8", "kws_ref_model",
        "pretrainedResnet_quant", "ad01_int8"}) {
    SCOPED_TRACE(name);
    const Model m = tflite::ReadModelFile(kModels + name + ".tflite");
    std::vector<std::string> not_modelled;
    EXPECT_TRUE(TflmScratchRequests(m, one, &not_modelled).empty());
    EXPECT_TRUE(not_modelled.empty());
  }
}

/// A one-operator model: FULLY_CONNECTED of an int8 [1,6] input with a
/// constant filter of `filter_type` [4,6] into an int8 [1,4] output.
Model FullyConnectedModel(TensorType filter_type) {
  Model m;
  m.source = "fc.tflite";
  m.buffers.resize(2);
  m.buffers[1].data.assign(12, 0);
  Subgraph g;
  Tensor in{"in", TensorType::kInt8, {1, 6}, {}, 0, false, {}};
  Tensor filter{"filter", filter_type, {4, 6}, {}, 1, false, {}};
  Tensor out{"out", TensorType::kInt8, {1, 4}, {}, 0, false, {}};
  g.tensors = {in, filter, out};
  g.inputs = {0};
  g.outputs = {2};
  Operator op;
  op.builtin_code = tflite::BuiltinOp::kFullyConnected;
  op.builtin_name = "FULLY_CONNECTED";
  op.inputs = {0, 1, -1};
  op.outputs = {2};
  op.options = FullyConnectedOptions{};
  g.operators = {op};
  m.subgraphs = {g};
  return m;
}

// fully_connected.cc (FullyConnectedPrepare): an int4 filter is unpacked
// into a scratch buffer of its element count, 4 x 6 = 24 bytes; an int8
// filter needs none.
TEST(TflmKernels, Int4FilterRequestsItsElementCount) {
  EXPECT_EQ(Pairs(TflmScratchRequests(FullyConnectedModel(TensorType::kInt4),
                                      {}, nullptr)),
            (std::vector<std::pair<std::uint32_t, std::uint64_t>>{{0, 24}}));
  EXPECT_TRUE(
      TflmScratchRequests(FullyConnectedModel(TensorType::kInt8), {}, nullptr)
          .empty());
}

// A dynamic batch resolved by a huge --assume-dim: the SVDF scratch size
// (batch x 64 filters x 4) passes 2^48 bytes and is refused, naming the
// operator, instead of wrapping.
TEST(TflmKernels, HugeScratchIsRefused) {
  Model m = FullyConnectedModel(TensorType::kInt8);
  Subgraph& g = m.subgraphs[0];
  g.tensors[0].shape = {-1, 6};
  g.tensors[1].shape = {64, 6};
  g.tensors[2].shape = {-1, 64};
  g.operators[0].builtin_code = tflite::BuiltinOp::kSvdf;
  g.operators[0].builtin_name = "SVDF";
  g.operators[0].options = tflite::SvdfOptions{1};
  InputOptions huge;
  huge.assume_dim = std::uint64_t{1} << 46;
  try {
    (void)TflmScratchRequests(m, huge, nullptr);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("operator 0 SVDF"), std::string::npos)
        << e.what();
  }
}

TEST(TflmKernels, OperatorWithoutRuleIsReported) {
  Model m = FullyConnectedModel(TensorType::kInt8);
  m.subgraphs[0].operators[0].builtin_code = tflite::BuiltinOp::kAddN;
  m.subgraphs[0].operators[0].builtin_name = "ADD_N";
  std::vector<std::string> not_modelled;
  EXPECT_TRUE(TflmScratchRequests(m, {}, &not_modelled).empty());
  ASSERT_EQ(not_modelled.size(), 1u);
  EXPECT_NE(not_modelled[0].find("operator 0 ADD_N"), std::string::npos);
  EXPECT_NE(not_modelled[0].find("--scratch"), std::string::npos);
}

}  // namespace
}  // namespace arenaplan::tflm
