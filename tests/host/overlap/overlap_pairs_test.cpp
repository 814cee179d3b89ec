// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The allowed-overlap list of real models (codegen/overlap/): every pair
// meets the lifetime conditions, and the pair counts and distances equal
// figures derived here by hand from each model's operator list and shapes
// (`arenaplan inspect MODEL`) with the kernels' formulas
// (kernels/include/arenaplan/kernels/conv.hpp, pooling.hpp): for a window
// kernel, M = (N - 1) max(0, OH*OW*OC - H*W*C) + max_oy g(oy) +
// max_ox h(ox), g(oy) = oy*OW*OC - max(0, oy*sh - ph)*W*C, h(ox) =
// (ox + 1)*OC - max(0, ox*sw - pw)*C; d = M - 1 (CONV_2D), M - C
// (DEPTHWISE_CONV_2D, pooling); 0 for ADD; RESHAPE aliases.
#include "codegen/overlap/overlap_pairs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/input/input.hpp"
#include "codegen/load/load_problem.hpp"
#include "codegen/records.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"
#include "tests/host/support/model_builder.hpp"

namespace arenaplan {
namespace {

const std::string kModels = std::string(ARENAPLAN_SHARED_DIR) + "/models/";

struct Loaded {
  tflite::Model model;
  tflite::TfliteProblem problem;
  std::vector<OverlapPair> pairs;
};

Loaded Load(const std::string& name) {
  Loaded l{tflite::ReadModelFile(kModels + name + ".tflite"), {}, {}};
  InputOptions o;
  o.overlap = true;
  l.problem = tflite::BuildProblem(l.model, o);
  l.pairs = overlap::FindOverlapPairs(l.model, l.problem);
  return l;
}

/// The pair of operator `op` (and its input tensor `tensor`, or the only
/// one); nullptr when none.
const OverlapPair* PairAt(const Loaded& l, std::uint32_t op,
                          std::int32_t tensor = -1) {
  for (const OverlapPair& p : l.pairs) {
    if (p.op == op &&
        (tensor < 0 || l.problem.record_tensor[p.input] == tensor)) {
      return &p;
    }
  }
  return nullptr;
}

/// The lifetime conditions of codegen/overlap/overlap_pairs.hpp, checked
/// against the model itself.
void ExpectLifetimeConditions(const Loaded& l) {
  const tflite::Subgraph& sg = l.model.subgraphs[0];
  const auto& records = l.problem.problem.records;
  for (const OverlapPair& p : l.pairs) {
    SCOPED_TRACE("operator " + std::to_string(p.op));
    ASSERT_LT(p.input, records.size());
    ASSERT_LT(p.output, records.size());
    ASSERT_LT(p.op, sg.operators.size());
    EXPECT_NE(p.input, p.output);
    EXPECT_EQ(records[p.input].last_op, p.op);
    EXPECT_EQ(records[p.output].first_op, p.op);
    const std::int32_t in_t = l.problem.record_tensor[p.input];
    const std::int32_t out_t = l.problem.record_tensor[p.output];
    ASSERT_GE(in_t, 0);  // Not scratch.
    ASSERT_GE(out_t, 0);
    const tflite::Operator& op = sg.operators[p.op];
    EXPECT_NE(std::find(op.inputs.begin(), op.inputs.end(), in_t),
              op.inputs.end());
    ASSERT_EQ(op.outputs.size(), 1u);
    EXPECT_EQ(op.outputs[0], out_t);
    EXPECT_EQ(std::find(sg.outputs.begin(), sg.outputs.end(), in_t),
              sg.outputs.end());
    EXPECT_FALSE(
        l.model.IsConstant(sg.tensors[static_cast<std::size_t>(in_t)]));
    if (p.relation == OverlapRelation::kAlias) {
      EXPECT_EQ(p.distance, 0u);
      EXPECT_EQ(records[p.input].size, records[p.output].size);
    } else {
      EXPECT_LT(p.distance, records[p.output].size);
    }
  }
}

/// Operator breadth (unaligned bytes of the records alive) at every
/// operator.
std::vector<std::uint64_t> Breadths(const Loaded& l) {
  std::vector<std::uint64_t> b(l.model.subgraphs[0].operators.size(), 0);
  for (const TensorUsageRecord& r : l.problem.problem.records) {
    for (std::uint32_t op = r.first_op; op <= r.last_op && op < b.size(); ++op)
      b[op] += r.size;
  }
  return b;
}

/// Prints the count and the pairs at the operators of largest breadth.
void PrintPeak(const std::string& name, const Loaded& l) {
  const auto b = Breadths(l);
  const std::uint64_t peak =
      b.empty() ? 0 : *std::max_element(b.begin(), b.end());
  std::printf("%s: %zu pairs; peak breadth %llu B at operator(s)", name.c_str(),
              l.pairs.size(), static_cast<unsigned long long>(peak));
  for (std::size_t op = 0; op < b.size(); ++op) {
    if (b[op] != peak) continue;
    std::printf(" %zu", op);
    for (const OverlapPair& p : l.pairs) {
      if (p.op != op) continue;
      std::printf(" [in %llu B, out %llu B, %s %llu]",
                  static_cast<unsigned long long>(
                      l.problem.problem.records[p.input].size),
                  static_cast<unsigned long long>(
                      l.problem.problem.records[p.output].size),
                  p.relation == OverlapRelation::kAlias ? "alias" : "d",
                  static_cast<unsigned long long>(p.distance));
    }
  }
  std::printf("\n");
}

TEST(OverlapPairs, PersonDetectMatchesHandFigures) {
  const Loaded l = Load("person_detect");
  ExpectLifetimeConditions(l);
  PrintPeak("person_detect", l);
  // A chain of 31 operators, each activation read once; every operator but
  // the final SOFTMAX has a contract: 30 pairs.
  EXPECT_EQ(l.pairs.size(), 30u);
  EXPECT_EQ(PairAt(l, 30), nullptr);
  // Operator 0, DEPTHWISE_CONV_2D 96x96x1 -> 48x48x8 (multiplier 8), 3x3
  // stride 2 SAME (padding (48-1)*2+3-96 = 1, none before): g(oy) = 384 oy -
  // 192 oy, largest 9024; h(ox) = 8 (ox+1) - 2 ox, largest 290: d = 9024 +
  // 290 - 1 = 9313.
  ASSERT_NE(PairAt(l, 0), nullptr);
  EXPECT_EQ(PairAt(l, 0)->distance, 9313u);
  // Operator 1, DEPTHWISE_CONV_2D 48x48x8 -> 48x48x8, 3x3 stride 1 SAME:
  // (W + 1) * C = 49 * 8 = 392.
  ASSERT_NE(PairAt(l, 1), nullptr);
  EXPECT_EQ(PairAt(l, 1)->distance, 392u);
  // Operator 2, the peak: 1x1 CONV_2D 48x48x8 (18,432 B) -> 48x48x16
  // (36,864 B): g(oy) = 768 oy - 384 oy, largest 18048; h(ox) = 16 (ox+1) -
  // 8 ox, largest 392: d = 18048 + 392 - 1 = 18439. The pair then spans
  // max(36864, 18439 + 18432) = 36,871 B instead of 55,296.
  const OverlapPair* peak = PairAt(l, 2);
  ASSERT_NE(peak, nullptr);
  EXPECT_EQ(peak->relation, OverlapRelation::kOutputBelowBy);
  EXPECT_EQ(peak->distance, 18439u);
  EXPECT_EQ(l.problem.problem.records[peak->input].size, 18432u);
  EXPECT_EQ(l.problem.problem.records[peak->output].size, 36864u);
  const auto b = Breadths(l);
  EXPECT_EQ(b[2], 55296u);
  EXPECT_EQ(*std::max_element(b.begin(), b.end()), 55296u);
  // Operator 3, DEPTHWISE_CONV_2D 48x48x16 -> 24x24x16 stride 2 (padding
  // (24-1)*2+3-48 = 1, none before): g(oy) = 384 oy - 1536 oy, largest 0;
  // h(ox) = 16 (ox+1) - 32 ox, largest 16: d = 0 + 16 - 16 = 0.
  ASSERT_NE(PairAt(l, 3), nullptr);
  EXPECT_EQ(PairAt(l, 3)->distance, 0u);
  // Operator 27, AVERAGE_POOL_2D 3x3x256 -> 1x1x256: g(0) = 0, h(0) = 256:
  // d = 256 - 256 = 0. Operator 28, 1x1 CONV_2D 1x1x256 -> 1x1x2: M =
  // h(0) = 2, d = 1. Operator 29, RESHAPE: alias.
  ASSERT_NE(PairAt(l, 27), nullptr);
  EXPECT_EQ(PairAt(l, 27)->distance, 0u);
  ASSERT_NE(PairAt(l, 28), nullptr);
  EXPECT_EQ(PairAt(l, 28)->distance, 1u);
  ASSERT_NE(PairAt(l, 29), nullptr);
  EXPECT_EQ(PairAt(l, 29)->relation, OverlapRelation::kAlias);
}

TEST(OverlapPairs, Vww96MatchesHandFigures) {
  const Loaded l = Load("vww_96_int8");
  ExpectLifetimeConditions(l);
  PrintPeak("vww_96_int8", l);
  // A chain of 31 operators ending AVERAGE_POOL_2D, RESHAPE,
  // FULLY_CONNECTED, SOFTMAX: operators 0 .. 28 have contracts.
  EXPECT_EQ(l.pairs.size(), 29u);
  // Operator 0, CONV_2D 96x96x3 -> 48x48x8, 3x3 stride 2 SAME (none
  // before): g(oy) = 384 oy - 576 oy, largest 0; h(ox) = 8 (ox+1) - 6 ox,
  // largest 102 at ox = 47: d = 101 (output byte 47*8+6 = 382 before the
  // re-read of input (0, 94), byte 282).
  ASSERT_NE(PairAt(l, 0), nullptr);
  EXPECT_EQ(PairAt(l, 0)->distance, 101u);
  // Operator 2 is person_detect's 1x1 convolution again: 18439.
  ASSERT_NE(PairAt(l, 2), nullptr);
  EXPECT_EQ(PairAt(l, 2)->distance, 18439u);
}

TEST(OverlapPairs, ResnetMatchesHandFigures) {
  const Loaded l = Load("pretrainedResnet_quant");
  ExpectLifetimeConditions(l);
  PrintPeak("pretrainedResnet_quant", l);
  // Operators whose streamed input dies there: 0, 2, 3 (ADD: both inputs),
  // 5, 6, 7 (both), 9, 10, 11 (both), 12 (pool), 13 (RESHAPE); 1, 4, 8 feed
  // a residual ADD later, 14 and 15 (FULLY_CONNECTED, SOFTMAX) have no
  // contract: 14 pairs.
  EXPECT_EQ(l.pairs.size(), 14u);
  EXPECT_EQ(PairAt(l, 1), nullptr);
  EXPECT_EQ(PairAt(l, 4), nullptr);
  EXPECT_EQ(PairAt(l, 8), nullptr);
  // Operator 0, CONV_2D 32x32x3 -> 32x32x16, 3x3 stride 1 SAME (1 before):
  // g(oy) = 512 oy - 96 (oy - 1), largest 12992 at oy = 31; h(ox) =
  // 16 (ox+1) - 3 (ox - 1), largest 422 at 31: d = 13413.
  ASSERT_NE(PairAt(l, 0), nullptr);
  EXPECT_EQ(PairAt(l, 0)->distance, 13413u);
  // Operator 2, CONV_2D 32x32x16 -> 32x32x16 3x3 SAME: g = 512, h = 32
  // (rows / columns >= 1): d = 543.
  ASSERT_NE(PairAt(l, 2), nullptr);
  EXPECT_EQ(PairAt(l, 2)->distance, 543u);
  // Operator 3, ADD of tensors 22 and 24 (both die there): in place.
  ASSERT_NE(PairAt(l, 3, 22), nullptr);
  ASSERT_NE(PairAt(l, 3, 24), nullptr);
  EXPECT_EQ(PairAt(l, 3, 22)->distance, 0u);
  EXPECT_EQ(PairAt(l, 3, 24)->distance, 0u);
}

TEST(OverlapPairs, KwsMatchesHandFigures) {
  const Loaded l = Load("kws_ref_model");
  ExpectLifetimeConditions(l);
  PrintPeak("kws_ref_model", l);
  // Operators 0 .. 10 in a chain have contracts; FULLY_CONNECTED and
  // SOFTMAX do not: 11 pairs.
  EXPECT_EQ(l.pairs.size(), 11u);
  // Operator 0, CONV_2D 49x10x1 -> 25x5x64, 10x4 filter, stride 2 SAME:
  // padding rows 24*2+10-49 = 9 (4 before), columns 4*2+4-10 = 2 (1
  // before). g(oy) = 320 oy - 10 (2 oy - 4), largest 7240 at 24; h(ox) =
  // 64 (ox+1) - (2 ox - 1), largest 313 at 4: d = 7552.
  ASSERT_NE(PairAt(l, 0), nullptr);
  EXPECT_EQ(PairAt(l, 0)->distance, 7552u);
  // Operator 1, DEPTHWISE_CONV_2D 25x5x64 3x3 stride 1 SAME: (5 + 1) * 64.
  ASSERT_NE(PairAt(l, 1), nullptr);
  EXPECT_EQ(PairAt(l, 1)->distance, 384u);
  // Operator 2, 1x1 CONV_2D 64 -> 64 channels: g = 0, h = 64: d = 63.
  ASSERT_NE(PairAt(l, 2), nullptr);
  EXPECT_EQ(PairAt(l, 2)->distance, 63u);
}

TEST(OverlapPairs, FullyConnectedModelHasNone) {
  // ad01_int8 is ten FULLY_CONNECTED layers: no contract, no pair.
  const Loaded l = Load("ad01_int8");
  PrintPeak("ad01_int8", l);
  EXPECT_TRUE(l.pairs.empty());
}

TEST(OverlapPairs, EveryModelMeetsTheLifetimeConditions) {
  for (const char* name :
       {"hello_world_int8", "micro_speech_quantized", "keyword_scrambled",
        "face_detection_short_range", "hello_world_float"}) {
    SCOPED_TRACE(name);
    InputOptions o;
    o.assume_dim = 1;
    const tflite::Model m = tflite::ReadModelFile(kModels + name + ".tflite");
    Loaded l{m, tflite::BuildProblem(m, o), {}};
    l.pairs = overlap::FindOverlapPairs(l.model, l.problem);
    ExpectLifetimeConditions(l);
  }
}

TEST(OverlapPairs, LoadProblemFillsThemOnlyWhenAsked) {
  const std::string path = kModels + "person_detect.tflite";
  InputOptions o;
  EXPECT_TRUE(LoadProblem(path, o).overlaps.empty());
  o.overlap = true;
  // Folded (the default), the RESHAPE is an alias instead of a pair.
  const Loaded l = Load("person_detect");
  const auto is_alias = [](const OverlapPair& q) {
    return q.relation == OverlapRelation::kAlias;
  };
  const UsageProblem folded = LoadProblem(path, o);
  EXPECT_EQ(std::count_if(l.pairs.begin(), l.pairs.end(), is_alias), 1);
  EXPECT_EQ(folded.overlaps.size(), l.pairs.size() - 1);
  EXPECT_EQ(
      std::count_if(folded.overlaps.begin(), folded.overlaps.end(), is_alias),
      0);
  o.fold = false;
  const UsageProblem p = LoadProblem(path, o);
  ASSERT_EQ(p.overlaps.size(), l.pairs.size());
  for (std::size_t i = 0; i < p.overlaps.size(); ++i) {
    EXPECT_EQ(p.overlaps[i].input, l.pairs[i].input);
    EXPECT_EQ(p.overlaps[i].output, l.pairs[i].output);
    EXPECT_EQ(p.overlaps[i].op, l.pairs[i].op);
    EXPECT_EQ(p.overlaps[i].relation, l.pairs[i].relation);
    EXPECT_EQ(p.overlaps[i].distance, l.pairs[i].distance);
  }
}

TEST(OverlapPairs, RecordsWithoutKernelsAreRefused) {
  InputOptions o;
  o.overlap = true;
  const std::string csv = std::string(ARENAPLAN_SHARED_DIR) +
                          "/benchmarks/minimalloc-challenging/example.12.csv";
  try {
    (void)LoadProblem(csv, o);
    ADD_FAILURE() << "CSV accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              csv +
                  ": --overlap needs a .tflite model (CSV records carry no "
                  "kernels)");
  }
  EXPECT_THROW((void)LoadProblem("zoo:mobilenet_v1", o), InputError);
  o.fp32 = true;
  EXPECT_THROW((void)LoadProblem(kModels + "person_detect.tflite", o),
               InputError);
}

// --- synthetic models: what the finder refuses ------------------------------

/// A small model built in memory (tests/host/support/model_builder.hpp):
/// tensors are int8 activations (scale 0.5, zero point 0) unless changed.
struct Builder : testing_util::ModelBuilder {
  /// A constant int8 filter of `shape` (data all ones).
  std::int32_t Filter(std::vector<std::int32_t> shape) {
    std::size_t count = 1;
    for (std::int32_t d : shape) count *= static_cast<std::size_t>(d);
    return Constant(std::move(shape), tflite::TensorType::kInt8,
                    std::vector<std::uint8_t>(count, 1));
  }
  /// The model's pairs; checks them against the firmware code generator's
  /// lowering of the same model: a pair only where the lowering succeeds
  /// (its refusals give no pair).
  Loaded Build(std::vector<std::int32_t> inputs,
               std::vector<std::int32_t> outputs) {
    Loaded l{Finish(std::move(inputs), std::move(outputs)), {}, {}};
    l.problem = tflite::BuildProblem(l.model, InputOptions());
    l.pairs = overlap::FindOverlapPairs(l.model, l.problem);
    // Whether `compile` lowers the model (its kernels' scratch planned
    // too); the file's hash is given, the model is not read from a file.
    bool lowers = true;
    try {
      compile::CompileOptions options;
      options.input_sha256 = std::string(64, '0');
      (void)compile::CompileModel(l.model, l.model.source, options);
    } catch (const InputError&) {
      lowers = false;
    }
    if (!lowers) {
      EXPECT_TRUE(l.pairs.empty()) << "a pair the lowering refuses";
    }
    return l;
  }
};

constexpr tflite::BuiltinOp kConv = tflite::BuiltinOp::kConv2D,
                            kAdd = tflite::BuiltinOp::kAdd,
                            kQuantize = tflite::BuiltinOp::kQuantize,
                            kReshape = tflite::BuiltinOp::kReshape,
                            kMaxPool = tflite::BuiltinOp::kMaxPool2D;

tflite::Conv2DOptions ConvOptions(std::int32_t dilation = 1) {
  tflite::Conv2DOptions o;
  o.padding = tflite::Padding::kSame;
  o.stride_h = o.stride_w = 1;
  o.dilation_h = o.dilation_w = dilation;
  return o;
}

TEST(OverlapPairs, SyntheticConvGetsItsDistanceOnlyWhenTheLoweringWould) {
  // 1x1 CONV_2D 4x4x2 -> 4x4x3: g(oy) = 12 oy - 8 oy, largest 12; h(ox) =
  // 3 (ox + 1) - 2 ox, largest 6: d = 12 + 6 - 1 = 17.
  {
    Builder b;
    const auto x = b.Tensor({1, 4, 4, 2}), w = b.Filter({3, 1, 1, 2}),
               y = b.Tensor({1, 4, 4, 3});
    b.Op(kConv, {x, w}, {y}, ConvOptions());
    const Loaded l = b.Build({x}, {y});
    ASSERT_EQ(l.pairs.size(), 1u);
    EXPECT_EQ(l.pairs[0].distance, 17u);
    ExpectLifetimeConditions(l);
  }
  // 3x3 taps dilated 2x2 (span 5, SAME: padding 2 before): first tap rows
  // Y(oy) = (0, 1, 0, 1), likewise X; g(oy) = 12 oy - 8 Y(oy), largest 28
  // at oy = 3; h(ox) = 3 (ox + 1) - 2 X(ox), largest 10 at ox = 3:
  // d = 28 + 10 - 1 = 37.
  {
    Builder b;
    const auto x = b.Tensor({1, 4, 4, 2}), w = b.Filter({3, 3, 3, 2}),
               y = b.Tensor({1, 4, 4, 3});
    b.Op(kConv, {x, w}, {y}, ConvOptions(2));
    const Loaded l = b.Build({x}, {y});
    ASSERT_EQ(l.pairs.size(), 1u);
    EXPECT_EQ(l.pairs[0].distance, 37u);
  }
  // An output shape the padding does not give: no pair.
  {
    Builder b;
    const auto x = b.Tensor({1, 4, 4, 2}), w = b.Filter({3, 1, 1, 2}),
               y = b.Tensor({1, 4, 3, 3});
    b.Op(kConv, {x, w}, {y}, ConvOptions());
    EXPECT_TRUE(b.Build({x}, {y}).pairs.empty());
  }
  // A float model: no pair.
  {
    Builder b;
    const auto x = b.Tensor({1, 4, 4, 2}, tflite::TensorType::kFloat32);
    const auto w = b.Filter({3, 1, 1, 2});
    const auto y = b.Tensor({1, 4, 4, 3}, tflite::TensorType::kFloat32);
    b.Op(kConv, {x, w}, {y}, ConvOptions());
    EXPECT_TRUE(b.Build({x}, {y}).pairs.empty());
  }
  // A filter that is not constant: no pair.
  {
    Builder b;
    const auto x = b.Tensor({1, 4, 4, 2}), w = b.Tensor({3, 1, 1, 2}),
               y = b.Tensor({1, 4, 4, 3});
    b.Op(kConv, {x, w}, {y}, ConvOptions());
    EXPECT_TRUE(b.Build({x, w}, {y}).pairs.empty());
  }
}

TEST(OverlapPairs, SyntheticLifetimesDecide) {
  // x -> QUANTIZE -> y -> QUANTIZE -> z, and x is also read by operator 1
  // (an ADD of y and x): operator 0's input survives it, so no pair there;
  // operator 1's inputs y and x both die there (pairs, d = 0).
  {
    Builder b;
    const auto x = b.Tensor({1, 8}), y = b.Tensor({1, 8}), z = b.Tensor({1, 8});
    b.Op(kQuantize, {x}, {y});
    b.Op(kAdd, {y, x}, {z}, tflite::ElementwiseOptions{});
    const Loaded l = b.Build({x}, {z});
    ExpectLifetimeConditions(l);
    ASSERT_EQ(l.pairs.size(), 2u);
    EXPECT_EQ(l.pairs[0].op, 1u);
    EXPECT_EQ(l.pairs[1].op, 1u);
    EXPECT_EQ(l.problem.record_tensor[l.pairs[0].input], y);
    EXPECT_EQ(l.problem.record_tensor[l.pairs[1].input], x);
  }
  // The input is a graph output: it must survive, no pair.
  {
    Builder b;
    const auto x = b.Tensor({1, 8}), y = b.Tensor({1, 8});
    b.Op(kQuantize, {x}, {y});
    EXPECT_TRUE(b.Build({x}, {x, y}).pairs.empty());
  }
  // x + x: one pair, not two.
  {
    Builder b;
    const auto x = b.Tensor({1, 8}), y = b.Tensor({1, 8});
    b.Op(kAdd, {x, x}, {y}, tflite::ElementwiseOptions{});
    EXPECT_EQ(b.Build({x}, {y}).pairs.size(), 1u);
  }
}

TEST(OverlapPairs, SyntheticTypesDecide) {
  // QUANTIZE int8 -> int16 over 8 elements: output element 6 (bytes 12,
  // 13) is written before input element 7 (byte 7) is read, so 13 - d < 7:
  // d = 7 bytes; the wider output ends 1 byte past the input.
  {
    Builder b;
    const auto x = b.Tensor({1, 8});
    const auto y = b.Tensor({1, 8}, tflite::TensorType::kInt16);
    b.Op(kQuantize, {x}, {y});
    const Loaded l = b.Build({x}, {y});
    ASSERT_EQ(l.pairs.size(), 1u);
    EXPECT_EQ(l.pairs[0].relation, OverlapRelation::kOutputBelowBy);
    EXPECT_EQ(l.pairs[0].distance, 7u);
  }
  // QUANTIZE int8 -> int32: no kernel contract is listed for int32.
  {
    Builder b;
    const auto x = b.Tensor({1, 8});
    const auto y = b.Tensor({1, 8}, tflite::TensorType::kInt32);
    b.Op(kQuantize, {x}, {y});
    EXPECT_TRUE(b.Build({x}, {y}).pairs.empty());
  }
  // RESHAPE int8: alias.
  {
    Builder b;
    const auto x = b.Tensor({1, 2, 4}), y = b.Tensor({1, 8});
    b.Op(kReshape, {x}, {y});
    const Loaded l = b.Build({x}, {y});
    ASSERT_EQ(l.pairs.size(), 1u);
    EXPECT_EQ(l.pairs[0].relation, OverlapRelation::kAlias);
    EXPECT_EQ(l.pairs[0].distance, 0u);
  }
  // MAX_POOL_2D whose output is quantized differently: the lowering
  // refuses it, no pair; with equal quantization, 2x2 stride 2 VALID over
  // 4x4x1: g(oy) = 2 oy - 8 oy, h(ox) = (ox + 1) - 2 ox, both largest at 0:
  // d = 0 + 1 - 1 = 0.
  for (const float out_scale : {0.25f, 0.5f}) {
    Builder b;
    const auto x = b.Tensor({1, 4, 4, 1}), y = b.Tensor({1, 2, 2, 1});
    b.graph().tensors[static_cast<std::size_t>(y)].quantization.scale = {
        out_scale};
    tflite::Pool2DOptions o;
    o.padding = tflite::Padding::kValid;
    o.stride_h = o.stride_w = 2;
    o.filter_h = o.filter_w = 2;
    b.Op(kMaxPool, {x}, {y}, o);
    const Loaded l = b.Build({x}, {y});
    if (out_scale == 0.5f) {
      ASSERT_EQ(l.pairs.size(), 1u);
      EXPECT_EQ(l.pairs[0].distance, 0u);
    } else {
      EXPECT_TRUE(l.pairs.empty());
    }
  }
}

}  // namespace
}  // namespace arenaplan
