// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// A graph output that graph folding turns into an alias (a RESHAPE or
// SQUEEZE of a tensor A, codegen/tflite/fold.hpp) is one buffer with A:
// one lifetime, from A's producer to the end, and protected as a graph
// output under either name (tflite::HoldsGraphOutput). Each shape below
// gave wrong bytes, an internal error or a larger arena before that rule
// (issue 34, items 1-4); the expected bytes are the same code run with every
// tensor in its own buffer (`--strategy naive`), the expected arenas those
// of the same model without the RESHAPE.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "codegen/compile/generate.hpp"
#include "codegen/tflite/fold_model.hpp"
#include "codegen/tflite/problem.hpp"
#include "tests/host/support/model_builder.hpp"
#include "tests/host/support/op_model.hpp"

namespace arenaplan {
namespace {

using tflite::BuiltinOp;

/// Small int8 models of convolutions, pools and RESHAPEs (every activation
/// scale 0.5, zero point 0; filters per-tensor, seeded random values).
struct Net : testing_util::ModelBuilder {
  std::mt19937 rng{7};

  std::int32_t Act(std::vector<std::int32_t> shape) {
    return Tensor(std::move(shape), tflite::TensorType::kInt8, 0.5f, 0);
  }
  /// A 3x3 SAME convolution of `in` (NHWC, c channels) to `out_c` channels.
  std::int32_t Conv(std::int32_t in, std::int32_t out_c) {
    const auto& s = graph().tensors[static_cast<std::size_t>(in)].shape;
    const std::int32_t h = s[1], w = s[2], c = s[3];
    std::vector<std::uint8_t> wb(static_cast<std::size_t>(out_c * 9 * c));
    for (auto& b : wb) b = static_cast<std::uint8_t>(rng() % 7 + 253);
    const std::int32_t f =
        Constant({out_c, 3, 3, c}, tflite::TensorType::kInt8, wb, 0.25f, 0);
    std::vector<std::int32_t> bias(static_cast<std::size_t>(out_c));
    for (auto& v : bias) v = static_cast<std::int32_t>(rng() % 64) - 32;
    const std::int32_t b = Int32Constant(bias);
    const std::int32_t out = Act({1, h, w, out_c});
    tflite::Conv2DOptions o;
    o.padding = tflite::Padding::kSame;
    o.stride_h = o.stride_w = 1;
    Op(BuiltinOp::kConv2D, {in, f, b}, {out}, o);
    return out;
  }
  /// RESHAPE of `in` to [1, elements].
  std::int32_t Flatten(std::int32_t in) {
    std::int32_t n = 1;
    for (std::int32_t d : graph().tensors[static_cast<std::size_t>(in)].shape) {
      n *= d;
    }
    const std::int32_t shape = Int32Constant({1, n});
    const std::int32_t out = Act({1, n});
    tflite::ReshapeOptions o;
    o.new_shape = {1, n};
    Op(BuiltinOp::kReshape, {in, shape}, {out}, o);
    return out;
  }
  std::int32_t LeakyRelu(std::int32_t in) {
    const std::int32_t out =
        Act(graph().tensors[static_cast<std::size_t>(in)].shape);
    tflite::LeakyReluOptions o;
    o.alpha = 0.25f;
    Op(BuiltinOp::kLeakyRelu, {in}, {out}, o);
    return out;
  }
  /// A 2x2 stride-2 VALID max pool.
  std::int32_t MaxPool(std::int32_t in) {
    auto s = graph().tensors[static_cast<std::size_t>(in)].shape;
    s[1] /= 2;
    s[2] /= 2;
    const std::int32_t out = Act(s);
    tflite::Pool2DOptions o;
    o.padding = tflite::Padding::kValid;
    o.stride_h = o.stride_w = 2;
    o.filter_h = o.filter_w = 2;
    Op(BuiltinOp::kMaxPool2D, {in}, {out}, o);
    return out;
  }
  [[nodiscard]] std::vector<std::uint8_t> Bytes(
      std::vector<std::int32_t> inputs, std::vector<std::int32_t> outputs) {
    return testing_util::SerializeModel(
        Finish(std::move(inputs), std::move(outputs)));
  }
};

enum class Mode { kNaive, kDefault, kOverlap, kFuse };

compile::CompileOptions OptionsFor(Mode mode) {
  compile::CompileOptions o;
  if (mode == Mode::kNaive) o.plan.strategy = "naive";
  o.input.overlap = mode == Mode::kOverlap;
  o.fuse = mode == Mode::kFuse;
  return o;
}

std::vector<std::uint8_t> RandomInput(std::size_t bytes) {
  std::mt19937 rng(11);
  std::vector<std::uint8_t> v(bytes);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

/// Runs `model` in `mode` and with every tensor in its own buffer (poisons
/// differ) and expects the same output bytes.
void ExpectSameAsNaive(const std::vector<std::uint8_t>& model,
                       std::size_t input_bytes, Mode mode) {
  const std::vector<std::uint8_t> in = RandomInput(input_bytes);
  const testing_util::RunResult naive = testing_util::CompileAndRunBytes(
      model, "aliased.tflite", in, OptionsFor(Mode::kNaive), 0x5A);
  ASSERT_EQ(naive.error, "");
  const testing_util::RunResult got = testing_util::CompileAndRunBytes(
      model, "aliased.tflite", in, OptionsFor(mode), 0xA5);
  ASSERT_EQ(got.error, "");
  ASSERT_EQ(got.output.size(), naive.output.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < got.output.size(); ++i) {
    differ += got.output[i] != naive.output[i];
  }
  EXPECT_EQ(differ, 0u) << "of " << got.output.size() << " output bytes";
}

// Item 1: CONV_2D -> A; graph outputs RESHAPE(A) and LEAKY_RELU(A), the last
// operator. LEAKY_RELU may write over its input, which is also the RESHAPE's
// bytes: it must not.
TEST(AliasedOutput, SurvivesAnElementwiseLastReaderUnderOverlap) {
  Net n;
  const std::int32_t x = n.Act({1, 8, 8, 8});
  const std::int32_t a = n.Conv(x, 8);
  const std::int32_t r = n.Flatten(a);
  const std::int32_t l = n.LeakyRelu(a);
  const auto model = n.Bytes({x}, {r, l});
  ExpectSameAsNaive(model, 512, Mode::kOverlap);
  ExpectSameAsNaive(model, 512, Mode::kFuse);
}

// Item 1 with a pool as the last reader (an output smaller than A, placed a
// distance below it under --overlap).
TEST(AliasedOutput, SurvivesAPoolLastReaderUnderOverlap) {
  Net n;
  const std::int32_t x = n.Act({1, 8, 8, 8});
  const std::int32_t a = n.Conv(x, 8);
  const std::int32_t r = n.Flatten(a);
  const std::int32_t p = n.MaxPool(a);
  const auto model = n.Bytes({x}, {r, p});
  ExpectSameAsNaive(model, 512, Mode::kOverlap);
  ExpectSameAsNaive(model, 512, Mode::kFuse);
}

// Item 2: CONV_2D -> A; output RESHAPE(A); CONV_2D -> CONV_2D reading A, a
// fusable chain whose output may not be placed over A.
TEST(AliasedOutput, SurvivesAFusedSegmentThatReadsIt) {
  Net n;
  const std::int32_t x = n.Act({1, 8, 8, 4});
  const std::int32_t a = n.Conv(x, 8);
  const std::int32_t r = n.Flatten(a);
  const std::int32_t b = n.Conv(a, 8);
  const std::int32_t c = n.Conv(b, 8);
  const auto model = n.Bytes({x}, {r, c});
  ExpectSameAsNaive(model, 256, Mode::kFuse);
  ExpectSameAsNaive(model, 256, Mode::kOverlap);
}

// Item 3: a chain ending in a folded RESHAPE (the graph's only output)
// compiles with --fuse and gives the naive bytes. MAX_POOL_2D -> CONV_2D ->
// MAX_POOL_2D -> RESHAPE stopped with an internal error: the fused
// problem's pair into the pool's output, whose record started at step 0.
TEST(AliasedOutput, EndsAFusedChain) {
  Net n;
  const std::int32_t x = n.Act({1, 8, 8, 4});
  const std::int32_t c = n.MaxPool(n.Conv(n.MaxPool(x), 8));
  const std::int32_t r = n.Flatten(c);
  const auto model = n.Bytes({x}, {r});
  ExpectSameAsNaive(model, 256, Mode::kFuse);
  ExpectSameAsNaive(model, 256, Mode::kOverlap);
  ExpectSameAsNaive(model, 256, Mode::kDefault);
}

/// Operators 0-2 convolutions X -> Y -> Z -> A; with `reshape`, operator 3
/// a RESHAPE of A that is the graph output (else A is).
std::vector<std::uint8_t> ChainModel(bool reshape) {
  Net n;
  const std::int32_t x = n.Act({1, 16, 16, 8});
  const std::int32_t a = n.Conv(n.Conv(n.Conv(x, 16), 16), 8);
  return n.Bytes({x}, {reshape ? n.Flatten(a) : a});
}

// Item 4: the folded RESHAPE writes nothing, yet its home A lives from its
// producer (operator 2, by construction above), not from step 0.
TEST(AliasedOutput, HomeLivesFromItsProducer) {
  const tflite::Model file = tflite::ReadModel(ChainModel(true), "c.tflite");
  const tflite::FoldedModel fold = tflite::FoldModel(file, InputOptions());
  ASSERT_EQ(fold.graph.reshapes, 1u);
  const tflite::TfliteProblem p =
      tflite::BuildProblem(fold.model, InputOptions());
  const tflite::Subgraph& sg = fold.model.subgraphs[0];
  const std::int32_t r = sg.outputs[0];
  const std::int32_t a = sg.tensors[static_cast<std::size_t>(r)].alias_of;
  ASSERT_GE(a, 0);
  const auto& home = p.tensors[static_cast<std::size_t>(a)];
  EXPECT_EQ(home.first_op, 2);
  EXPECT_EQ(home.last_op, 3);
  EXPECT_EQ(tflite::HomeOf(sg, r), a);
  EXPECT_TRUE(tflite::HoldsGraphOutput(sg, a));
  EXPECT_FALSE(tflite::HoldsGraphOutput(sg, sg.inputs[0]));
}

// Item 4: the same arena as the model without the RESHAPE, in every mode.
TEST(AliasedOutput, CostsNoArena) {
  const auto with = ChainModel(true), without = ChainModel(false);
  for (Mode mode : {Mode::kDefault, Mode::kOverlap, Mode::kFuse}) {
    compile::CompileOptions o = OptionsFor(mode);
    o.input_sha256 = std::string(64, '0');
    const auto arena = [&](const std::vector<std::uint8_t>& bytes) {
      return compile::CompileModel(tflite::ReadModel(bytes, "c.tflite"),
                                   "c.tflite", o)
          .plan.arena_bytes;
    };
    EXPECT_EQ(arena(with), arena(without)) << "mode " << static_cast<int>(mode);
  }
}

}  // namespace
}  // namespace arenaplan
