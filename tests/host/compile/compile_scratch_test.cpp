// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Kernel scratch in the plan (codegen/scratch/, Lowerer::Scratch) through
// `compile`: a chain of three CONV_2D and a DEPTHWISE_CONV_2D built here. Each
// fast convolution's scratch record has the bytes derived by hand from
// fast_conv.hpp's layout, lives at its operator's step only, shares no byte
// with that operator's operands, and passes the independent validator; the
// model compiled (plain, --overlap, --fuse) and run on arenas poisoned with
// two bytes (0x00, 0xFF) gives the bytes of TFLite's reference integer formula
// written here (the multipliers of tests/host/support/requant_oracle.hpp);
// and an arena header edited so that a scratch record overlaps a live
// tensor does not compile (the core's compile-time proof).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "codegen/compile/generate.hpp"
#include "codegen/validator/validator.hpp"
#include "tests/host/support/model_builder.hpp"
#include "tests/host/support/op_model.hpp"
#include "tests/host/support/requant_oracle.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

using testing_util::CompileAndRunBytes;
using testing_util::ModelBuilder;
using testing_util::OracleQuantize;
using testing_util::OracleRequantize;
using testing_util::RunOptions;
using testing_util::SerializeModel;

/// One CONV_2D (or DEPTHWISE_CONV_2D, multiplier 1) of the chain: stride
/// 1, SAME, no activation.
struct Layer {
  bool depthwise;
  std::int32_t k, in_c, out_c;
  float out_scale;
  std::int32_t out_zero;
  std::vector<std::int8_t> filter;  ///< [out_c, k, k, in_c] ([1, k, k, c])
  std::vector<std::int32_t> bias;
  std::vector<float> filter_scales;
};

constexpr std::int32_t kH = 6, kW = 7;
constexpr float kInScale = 0.05f;
constexpr std::int32_t kInZero = -7;

/// The chain [1, 6, 7, 3] -> 3x3 (8) -> 3x3 (8) -> depthwise 3x3 -> 1x1 (5).
std::vector<Layer> Layers() {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> w(-127, 127), b(-3000, 3000);
  std::vector<Layer> layers = {{false, 3, 3, 8, 0.08f, -20, {}, {}, {}},
                               {false, 3, 8, 8, 0.06f, 3, {}, {}, {}},
                               {true, 3, 8, 8, 0.07f, -5, {}, {}, {}},
                               {false, 1, 8, 5, 0.1f, 4, {}, {}, {}}};
  for (Layer& l : layers) {
    l.filter.resize(static_cast<std::size_t>(l.out_c * l.k * l.k *
                                             (l.depthwise ? 1 : l.in_c)));
    for (auto& v : l.filter) v = static_cast<std::int8_t>(w(rng));
    for (std::int32_t c = 0; c < l.out_c; ++c) {
      l.bias.push_back(b(rng));
      l.filter_scales.push_back(0.004f + 0.0007f * static_cast<float>(c % 5));
    }
  }
  return layers;
}

std::vector<std::uint8_t> ChainModel(const std::vector<Layer>& layers) {
  ModelBuilder b("scratch_chain.tflite");
  const std::int32_t x =
      b.Tensor({1, kH, kW, 3}, tflite::TensorType::kInt8, kInScale, kInZero);
  std::int32_t y = x;
  for (const Layer& l : layers) {
    const std::int32_t f = b.Constant(
        l.depthwise ? std::vector<std::int32_t>{1, l.k, l.k, l.out_c}
                    : std::vector<std::int32_t>{l.out_c, l.k, l.k, l.in_c},
        tflite::TensorType::kInt8,
        std::vector<std::uint8_t>(l.filter.begin(), l.filter.end()));
    tflite::Quantization& q =
        b.graph().tensors[static_cast<std::size_t>(f)].quantization;
    q.scale = l.filter_scales;
    q.zero_point.assign(static_cast<std::size_t>(l.out_c), 0);
    q.quantized_dimension = l.depthwise ? 3 : 0;
    const std::int32_t bias = b.Int32Constant(l.bias);
    const std::int32_t out =
        b.Tensor({1, kH, kW, l.out_c}, tflite::TensorType::kInt8, l.out_scale,
                 l.out_zero);
    tflite::DepthwiseConv2DOptions o;
    o.padding = tflite::Padding::kSame;
    o.stride_h = o.stride_w = 1;
    o.depth_multiplier = 1;
    if (l.depthwise) {
      b.Op(tflite::BuiltinOp::kDepthwiseConv2D, {y, f, bias}, {out}, o);
    } else {
      b.Op(tflite::BuiltinOp::kConv2D, {y, f, bias}, {out},
           static_cast<tflite::Conv2DOptions>(o));
    }
    y = out;
  }
  return SerializeModel(b.Finish({x}, {y}));
}

/// TFLite's reference integer formula of the chain on `x`.
std::vector<std::uint8_t> Expected(const std::vector<Layer>& layers,
                                   std::vector<std::int8_t> x) {
  float in_scale = kInScale;
  std::int32_t in_zero = kInZero;
  for (const Layer& l : layers) {
    std::vector<std::int8_t> y;
    const std::int32_t pad = (l.k - 1) / 2;
    for (std::int32_t oy = 0; oy < kH; ++oy)
      for (std::int32_t ox = 0; ox < kW; ++ox)
        for (std::int32_t c = 0; c < l.out_c; ++c) {
          std::int32_t acc = l.bias[static_cast<std::size_t>(c)];
          for (std::int32_t ky = 0; ky < l.k; ++ky)
            for (std::int32_t kx = 0; kx < l.k; ++kx) {
              const std::int32_t iy = oy - pad + ky, ix = ox - pad + kx;
              if (iy < 0 || iy >= kH || ix < 0 || ix >= kW) continue;
              if (l.depthwise) {
                acc +=
                    (x[static_cast<std::size_t>((iy * kW + ix) * l.in_c + c)] -
                     in_zero) *
                    l.filter[static_cast<std::size_t>(
                        (ky * l.k + kx) * l.out_c + c)];
                continue;
              }
              for (std::int32_t ic = 0; ic < l.in_c; ++ic) {
                acc +=
                    (x[static_cast<std::size_t>((iy * kW + ix) * l.in_c + ic)] -
                     in_zero) *
                    l.filter[static_cast<std::size_t>(
                        ((c * l.k + ky) * l.k + kx) * l.in_c + ic)];
              }
            }
          const auto q =
              OracleQuantize(static_cast<double>(in_scale) *
                             static_cast<double>(
                                 l.filter_scales[static_cast<std::size_t>(c)]) /
                             static_cast<double>(l.out_scale));
          y.push_back(static_cast<std::int8_t>(std::clamp(
              OracleRequantize(acc, q.multiplier, q.shift) + l.out_zero, -128,
              127)));
        }
    x = y;
    in_scale = l.out_scale;
    in_zero = l.out_zero;
  }
  return std::vector<std::uint8_t>(x.begin(), x.end());
}

std::vector<std::int8_t> Input() {
  std::mt19937 rng(9);
  std::vector<std::int8_t> v(kH * kW * 3);
  for (auto& b : v) {
    b = static_cast<std::int8_t>(
        std::uniform_int_distribution<int>(-128, 127)(rng));
  }
  return v;
}

compile::CompiledModel Compile(const std::vector<std::uint8_t>& bytes) {
  compile::CompileOptions o;
  o.namespace_name = "sc";
  o.input_sha256 = std::string(64, '0');
  return compile::CompileModel(tflite::ReadModel(bytes, "scratch_chain"),
                               "scratch_chain.tflite", o);
}

TEST(CompileScratch, PlansOneRecordPerFastConvolutionSizedByHand) {
  const compile::CompiledModel out = Compile(ChainModel(Layers()));
  const UsageProblem& p = out.plan.problem;
  // Tensors 0 .. 4 planned (input, four outputs), then the scratch.
  // fast_conv.hpp's layout: a gathered window of kh * kw * in_c <= 256
  // bytes, paired (even out_c): 4 x (window & ~3) widened + the window
  // rounded to 4, twice + out_c; of at most 64 bytes, in triples: 6 x
  // (window & ~3) widened + the window rounded to 4, three times + out_c
  // twice when the window is not a multiple of 4; a 1x1 window with odd
  // out_c: no pairs, the 64 zero-point bytes only. Helium's window (27,
  // 72, 0) is smaller.
  // The depthwise kernel: two tables of 9 tap addresses (8 bytes each on
  // this 64-bit host) and 64 zero points.
  struct Want {
    std::uint32_t op;
    std::uint64_t bytes;
  };
  static_assert(sizeof(std::uintptr_t) == 8);
  const Want want[] = {{0, 6 * 24 + 3 * 28 + 2 * 8},  // 3x3x3: 244
                       {1, 4 * 72 + 72 + 72 + 8},     // 3x3x8: 440
                       {2, 2 * 9 * 8 + 64},           // depthwise 3x3: 208
                       {3, 64}};                      // 1x1x8 -> 5
  ASSERT_EQ(p.records.size(), 5u + std::size(want));
  for (std::size_t i = 0; i < std::size(want); ++i) {
    const std::size_t r = 5 + i;
    SCOPED_TRACE("scratch " + std::to_string(i));
    EXPECT_EQ(p.names[r], "scratch of operator " + std::to_string(want[i].op) +
                              (i == 2 ? " DEPTHWISE_CONV_2D" : " CONV_2D"));
    EXPECT_EQ(p.records[r].first_op, want[i].op);
    EXPECT_EQ(p.records[r].last_op, want[i].op);
    EXPECT_EQ(p.records[r].size, (want[i].bytes + 15) / 16 * 16);
    // Not over the operator's input (record op) or output (record op + 1).
    for (const std::size_t t :
         {std::size_t{want[i].op}, std::size_t{want[i].op} + 1}) {
      const bool apart =
          out.plan.offsets[r] + p.records[r].size <= out.plan.offsets[t] ||
          out.plan.offsets[t] + p.records[t].size <= out.plan.offsets[r];
      EXPECT_TRUE(apart) << "record " << t;
    }
  }
  EXPECT_TRUE(ValidateOffsets(p.records, out.plan.offsets, out.plan.arena_bytes,
                              out.plan.alignment)
                  .ok());
  // The call passes its record's address.
  EXPECT_NE(out.model_source.find("arena + kPlan[6].offset);"),
            std::string::npos);
}

TEST(CompileScratch, RunsOnPoisonedArenasAsTheIntegerFormula) {
  const std::vector<Layer> layers = Layers();
  const std::vector<std::uint8_t> bytes = ChainModel(layers);
  const std::vector<std::int8_t> x = Input();
  const std::vector<std::uint8_t> expect = Expected(layers, x);
  const std::vector<std::uint8_t> input(x.begin(), x.end());
  for (const RunOptions run :
       {RunOptions{}, RunOptions{true, false}, RunOptions{false, true}}) {
    for (const std::uint8_t poison : {0x00, 0xFF}) {
      SCOPED_TRACE(std::string(run.overlap ? "overlap" : "") +
                   (run.fuse ? "fuse" : "") + " poison " +
                   std::to_string(poison));
      const auto r =
          CompileAndRunBytes(bytes, "scratch_chain", input, run, poison);
      ASSERT_EQ(r.error, "");
      EXPECT_EQ(r.output, expect);
    }
  }
}

// The scratch of operator 1 (record 6) moved onto its input, tensor 1
// (record 1, alive at operators 0 .. 1): the header's static_assert refuses
// it as it refuses two overlapping tensors.
TEST(CompileScratch, HeaderWithScratchOverALiveTensorDoesNotCompile) {
  const compile::CompiledModel out = Compile(ChainModel(Layers()));
  const std::string line =
      "    {" + std::to_string(out.plan.offsets[6]) + ", " +
      std::to_string(out.plan.problem.records[6].size) + ", 1, 1},  // 6 ";
  std::string header = out.arena_header;
  const std::size_t at = header.find(line);
  ASSERT_NE(at, std::string::npos) << header;
  header.replace(at, line.size(),
                 "    {" + std::to_string(out.plan.offsets[1]) + ", " +
                     std::to_string(out.plan.problem.records[6].size) +
                     ", 1, 1},  // 6 ");
  const testing_util::ScopedTempDir scoped("arenaplan_scratch_fail_");
  const std::filesystem::path tmp(scoped.path());
  testing_util::WriteFile(tmp / "edited.hpp", header);
  testing_util::WriteFile(tmp / "use.cpp", "#include \"edited.hpp\"\n");
  testing_util::WriteFile(tmp / "ok.hpp", out.arena_header);
  testing_util::WriteFile(tmp / "use_ok.cpp", "#include \"ok.hpp\"\n");
  const std::string cc = testing_util::HostCompileCommand(
                             "c++17", "-fsyntax-only -Wall -Wextra -Werror") +
                         "-I" + tmp.string() + " ";
  const auto ok = testing_util::RunCommand(cc + (tmp / "use_ok.cpp").string());
  EXPECT_EQ(ok.status, 0) << ok.output;
  const auto run = testing_util::RunCommand(cc + (tmp / "use.cpp").string());
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("two tensors alive at a common operator overlap "
                            "in the arena"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("ValidationResult::kOverlap, 1, 6>"),
            std::string::npos)
      << run.output;
}

}  // namespace
}  // namespace arenaplan
