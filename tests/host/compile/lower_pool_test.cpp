// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// AVERAGE_POOL_2D and MAX_POOL_2D through `compile` end to end, with every
// padding: one-operator models built here, compiled, built with the host
// compiler and run (with and without --overlap). The expected bytes come
// from TFLM's reference pooling written here (reference/integer_ops/
// pooling.h: window clipped to the input, average over the in-bounds count
// rounded half away from zero, then the activation clamp), with TFLM's
// padding (ComputePaddingHeightWidth: the smaller half before).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tests/host/support/op_model.hpp"

namespace {

using arenaplan::testing_util::CompileAndRun;
using arenaplan::testing_util::OneOpModel;
using arenaplan::testing_util::TensorSpec;
namespace fb = arenaplan::tflite::fb;

struct Case {
  bool max;
  std::int32_t n, ih, iw, c, fh, fw, sh, sw;
  bool same;
  std::int8_t activation;  ///< 0 NONE, 1 RELU, 3 RELU6.
};

constexpr float kScale = 0.1f;
constexpr int kZp = -5;

std::int32_t OutSize(bool same, std::int32_t in, std::int32_t f,
                     std::int32_t s) {
  return same ? (in + s - 1) / s : (in - f + s) / s;
}

std::int32_t PadBefore(bool same, std::int32_t in, std::int32_t f,
                       std::int32_t s) {
  const std::int32_t out = OutSize(same, in, f, s);
  return std::max((out - 1) * s + f - in, 0) / 2;
}

void Check(const Case& k, const std::string& name) {
  const std::int32_t oh = OutSize(k.same, k.ih, k.fh, k.sh);
  const std::int32_t ow = OutSize(k.same, k.iw, k.fw, k.sw);
  OneOpModel m;
  m.name = name;
  m.tensors = {TensorSpec{{k.n, k.ih, k.iw, k.c}, 9, kScale, kZp, {}},
               TensorSpec{{k.n, oh, ow, k.c}, 9, kScale, kZp, {}}};
  m.graph_inputs = {0};
  m.graph_outputs = {1};
  m.op = k.max ? arenaplan::tflite::BuiltinOp::kMaxPool2D
               : arenaplan::tflite::BuiltinOp::kAveragePool2D;
  m.op_inputs = {0};
  m.op_outputs = {1};
  m.options = [k](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::Pool2DOptions,
                     fb::CreatePool2DOptions(fbb, k.same ? 0 : 1, k.sw, k.sh,
                                             k.fw, k.fh, k.activation)
                         .Union()};
  };
  std::mt19937 rng(static_cast<unsigned>(name.size() * 131 + k.ih));
  std::vector<std::int8_t> in(
      static_cast<std::size_t>(k.n * k.ih * k.iw * k.c));
  for (auto& v : in) {
    v = static_cast<std::int8_t>(
        std::uniform_int_distribution<int>(-128, 127)(rng));
  }
  const std::int32_t ph = PadBefore(k.same, k.ih, k.fh, k.sh);
  const std::int32_t pw = PadBefore(k.same, k.iw, k.fw, k.sw);
  // Activation range on the int8 output: RELU from zp, RELU6 to zp + 60.
  const int lo = k.activation == 0 ? -128 : kZp;
  const int hi = k.activation == 3 ? kZp + 60 : 127;
  std::vector<std::uint8_t> expect;
  for (std::int32_t b = 0; b < k.n; ++b)
    for (std::int32_t oy = 0; oy < oh; ++oy)
      for (std::int32_t ox = 0; ox < ow; ++ox)
        for (std::int32_t c = 0; c < k.c; ++c) {
          const std::int32_t y0 = oy * k.sh - ph, x0 = ox * k.sw - pw;
          std::int32_t acc = k.max ? -128 : 0, count = 0;
          for (std::int32_t y = std::max(y0, 0); y < std::min(y0 + k.fh, k.ih);
               ++y)
            for (std::int32_t x = std::max(x0, 0);
                 x < std::min(x0 + k.fw, k.iw); ++x) {
              const std::int32_t v = in[static_cast<std::size_t>(
                  ((b * k.ih + y) * k.iw + x) * k.c + c)];
              acc = k.max ? std::max(acc, v) : acc + v;
              ++count;
            }
          if (!k.max) {
            acc =
                acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
          }
          expect.push_back(static_cast<std::uint8_t>(
              static_cast<std::int8_t>(std::clamp(acc, lo, hi))));
        }
  for (bool overlap : {false, true}) {
    const auto r = CompileAndRun(
        m, std::vector<std::uint8_t>(in.begin(), in.end()), overlap);
    ASSERT_EQ(r.error, "") << name;
    EXPECT_EQ(r.output, expect) << name << (overlap ? " --overlap" : "");
  }
}

TEST(LowerPool, AveragesWithSamePaddingOfOddAndEvenTotals) {
  // 3x3 stride 2 on 5x6: rows total (3-1)*2+3-5 = 2 (1 before), columns
  // (3-1)*2+3-6 = 1 (0 before).
  Check({false, 1, 5, 6, 3, 3, 3, 2, 2, true, 0}, "average_pool_same");
  // 2x2 stride 1 on 4x3: total 1 both ways (0 before, 1 after); RELU6.
  Check({false, 2, 4, 3, 2, 2, 2, 1, 1, true, 3}, "average_pool_same_relu6");
}

TEST(LowerPool, AveragesWithValidPadding) {
  Check({false, 1, 7, 5, 4, 3, 2, 2, 2, false, 1}, "average_pool_valid");
}

TEST(LowerPool, TakesTheMaximumWithEveryPadding) {
  Check({true, 1, 5, 5, 3, 2, 2, 2, 2, true, 0}, "max_pool_same");
  Check({true, 1, 6, 7, 2, 3, 3, 2, 3, true, 1}, "max_pool_same_wide");
  Check({true, 2, 6, 6, 2, 3, 3, 3, 3, false, 0}, "max_pool_valid");
}

}  // namespace
