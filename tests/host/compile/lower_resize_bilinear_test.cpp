// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RESIZE_BILINEAR through `compile` end to end: one-operator models built
// here, compiled, built with the host compiler and run. The expected bytes
// come from a direct per-element evaluation of TFLite's integer definition
// (reference/resize_bilinear.h ResizeBilinearInteger: 1/1024 positions,
// int64 accumulation, round half away from zero at 2^20) written here
// without the generator's tables, and on a 2x2 -> 3x3 case from hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tests/host/support/op_model.hpp"

namespace {

using arenaplan::testing_util::Bytes;
using arenaplan::testing_util::CompileAndRun;
using arenaplan::testing_util::CompileError;
using arenaplan::testing_util::OneOpModel;
namespace fb = arenaplan::tflite::fb;

struct Case {
  std::int32_t n, ih, iw, c, oh, ow;
  bool align_corners, half_pixel_centers;
};

OneOpModel ResizeModel(const Case& k, std::int8_t type = 9) {
  OneOpModel m;
  m.name = "resize_bilinear";
  const std::vector<std::int32_t> size = {k.oh, k.ow};
  m.tensors = {{{k.n, k.ih, k.iw, k.c}, type, 0.05f, 3, {}},
               {{2}, 2, 0.0f, 0, Bytes(size)},
               {{k.n, k.oh, k.ow, k.c}, type, 0.05f, 3, {}}};
  m.graph_inputs = {0};
  m.graph_outputs = {2};
  m.op = arenaplan::tflite::BuiltinOp::kResizeBilinear;
  m.op_inputs = {0, 1};
  m.op_outputs = {2};
  m.options = [k](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::ResizeBilinearOptions,
                     fb::CreateResizeBilinearOptions(fbb, k.align_corners,
                                                     k.half_pixel_centers)
                         .Union()};
  };
  return m;
}

/// TFLite's integer bilinear resize of one output element.
std::int8_t Expected(const Case& k, const std::vector<std::int8_t>& in,
                     std::int32_t b, std::int32_t y, std::int32_t x,
                     std::int32_t ch) {
  auto scale = [&](std::int32_t i, std::int32_t o) {
    if (k.align_corners && o > 1)
      return (1024 * (i - 1) + (o - 1) / 2) / (o - 1);
    return (1024 * i + o / 2) / o;
  };
  auto pos = [&](std::int32_t v, std::int32_t s) {
    return k.half_pixel_centers ? v * s + s / 2 - 512 : v * s;
  };
  const std::int32_t sy = pos(y, scale(k.ih, k.oh));
  const std::int32_t sx = pos(x, scale(k.iw, k.ow));
  const std::int32_t y0 = std::max(sy / 1024, 0);
  const std::int32_t y1 = std::min((sy + 1023) / 1024, k.ih - 1);
  const std::int32_t x0 = std::max(sx / 1024, 0);
  const std::int32_t x1 = std::min((sx + 1023) / 1024, k.iw - 1);
  auto v = [&](std::int32_t yy, std::int32_t xx) -> std::int64_t {
    return in[static_cast<std::size_t>(((b * k.ih + yy) * k.iw + xx) * k.c +
                                       ch)];
  };
  const std::int64_t dy = sy - 1024 * y0, dx = sx - 1024 * x0;
  const std::int64_t acc = v(y0, x0) * (1024 - dy) * (1024 - dx) +
                           v(y1, x0) * dy * (1024 - dx) +
                           v(y0, x1) * (1024 - dy) * dx + v(y1, x1) * dy * dx;
  const std::int64_t round = acc > 0 ? (1 << 19) : -(1 << 19);
  return static_cast<std::int8_t>((acc + round) / (1 << 20));
}

TEST(LowerResizeBilinear, UpscalesTwoByTwoByHand) {
  // 2x2 -> 3x3, no options: scale (2048 + 1) / 3 = 683; rows and columns
  // at 0, 683, 1366 / 1024: {0,0,0}, {0,1,683}, {1,1,342}.
  // Input {{0, 100}, {-100, 50}}. Row 0: 0; 0 * 341/1024 + 100 * 683/1024
  // = 66.70 -> 67 (exactly 68300 * 1024 / 2^20); 100.
  // Row 1 (fy 683): col 0: -100 * 683 / 1024 = -66.70 -> -67; col 1:
  // (0 * 341 * 341 + (-100) * 683 * 341 + 100 * 341 * 683 + 50 * 683 *
  // 683) / 2^20 = 23324450 / 1048576 = 22.24 -> 22; col 2 (fx 342 on
  // column 1 only): 100 * 341 / 1024 + 50 * 683 / 1024 = 66.65 -> 67.
  // Row 2 (y lo = hi = 1): -100, (-100 * 341 + 50 * 683) / 1024 = 0.05 ->
  // 0, 50.
  const Case k{1, 2, 2, 1, 3, 3, false, false};
  const auto r = CompileAndRun(ResizeModel(k),
                               {0, 100, static_cast<std::uint8_t>(-100), 50});
  ASSERT_EQ(r.error, "");
  std::vector<std::int8_t> got(r.output.begin(), r.output.end());
  EXPECT_EQ(got,
            (std::vector<std::int8_t>{0, 67, 100, -67, 22, 67, -100, 0, 50}));
}

TEST(LowerResizeBilinear, EqualsTheIntegerDefinitionForEveryOption) {
  std::mt19937 rng(23);
  const Case cases[] = {
      {1, 3, 4, 3, 5, 7, false, true},   // half-pixel upscale
      {1, 4, 4, 2, 7, 3, true, false},   // align corners, mixed
      {2, 6, 5, 2, 3, 2, false, false},  // downscale, two batches
      {1, 5, 3, 1, 10, 6, false, true},  // half-pixel x2
      {1, 1, 1, 4, 3, 2, false, false},  // a single pixel
  };
  int index = 0;
  for (const Case& k : cases) {
    std::vector<std::int8_t> in(
        static_cast<std::size_t>(k.n * k.ih * k.iw * k.c));
    for (auto& v : in) {
      v = static_cast<std::int8_t>(
          std::uniform_int_distribution<int>(-128, 127)(rng));
    }
    OneOpModel m = ResizeModel(k);
    m.name = "resize_bilinear_" + std::to_string(index++);
    const auto r =
        CompileAndRun(m, std::vector<std::uint8_t>(in.begin(), in.end()));
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.output.size(),
              static_cast<std::size_t>(k.n * k.oh * k.ow * k.c));
    std::size_t at = 0;
    for (std::int32_t b = 0; b < k.n; ++b)
      for (std::int32_t y = 0; y < k.oh; ++y)
        for (std::int32_t x = 0; x < k.ow; ++x)
          for (std::int32_t c = 0; c < k.c; ++c) {
            EXPECT_EQ(static_cast<std::int8_t>(r.output[at++]),
                      Expected(k, in, b, y, x, c))
                << index << " " << b << " " << y << " " << x << " " << c;
          }
  }
}

TEST(LowerResizeBilinear, RefusesWhatTheKernelDoesNotTake) {
  const std::string both =
      CompileError(ResizeModel({1, 2, 2, 1, 3, 3, true, true}));
  EXPECT_NE(both.find("operator 0 (RESIZE_BILINEAR): align_corners and "
                      "half_pixel_centers are both set"),
            std::string::npos)
      << both;
  EXPECT_NE(CompileError(ResizeModel({1, 2, 2, 1, 3, 3, false, false}, 7))
                .find("is INT16; RESIZE_BILINEAR accepts (input, output) as "
                      "(INT8, INT8), (FLOAT32, FLOAT32)"),
            std::string::npos);
  // 3 -> 2048 columns: scale (3072 + 1024) / 2048 = 2 (1.5 rounded up),
  // so column 1536 sits at 3072 / 1024 = 3: input column 3 of 3.
  const std::string over =
      CompileError(ResizeModel({1, 1, 3, 1, 1, 2048, false, false}));
  EXPECT_NE(over.find("output index 1536 reads input index 3 of 3"),
            std::string::npos)
      << over;
  // 2^21 columns: TFLite's scale 1024 x 2^21 = 2^31 leaves int32.
  const std::string wide =
      CompileError(ResizeModel({1, 1, 1 << 21, 1, 1, 1, false, false}));
  EXPECT_NE(wide.find("2097152 input and 1 output positions overflow "
                      "TFLite's 32-bit integer scale"),
            std::string::npos)
      << wide;
  // 2^20 - 1 columns fit (1024 x in + out = 2^30 - 1023), one row of output.
  EXPECT_EQ(
      CompileError(ResizeModel({1, 1, (1 << 20) - 1, 1, 1, 1, false, false})),
      "");
  OneOpModel size = ResizeModel({1, 2, 2, 1, 3, 3, false, false});
  size.tensors[1].data = Bytes(std::vector<std::int32_t>{3, 4});
  EXPECT_NE(CompileError(size).find(
                "the size input does not match the output's shape"),
            std::string::npos);
}

}  // namespace
