// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TRANSPOSE_CONV through `compile` end to end: one-operator models built
// here, compiled, built with the host compiler and run. The expected bytes
// come from TFLite's own formulation written here: every input element
// scattered into an int64 copy of the output (the kernel gathers instead),
// TFLM's padding (ComputePaddingHeightWidth on the output's size, written
// out), per-channel multipliers in double and gemmlowp's roundings.
#include <gemmlowp/fixedpoint/fixedpoint.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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
using arenaplan::testing_util::TensorSpec;
namespace fb = arenaplan::tflite::fb;

struct Case {
  std::int32_t n, ih, iw, ic, oh, ow, oc, kh, kw, sh, sw;
  bool same;
  bool bias;
  std::int8_t activation;  ///< 0 NONE, 1 RELU, 3 RELU6.
};

constexpr float kSi = 0.05f, kSo = 0.1f;
constexpr int kZi = -7, kZo = 4;

struct Built {
  OneOpModel model;
  std::vector<std::int8_t> filter;
  std::vector<std::int32_t> bias;
  std::vector<float> w_scales;
};

Built Build(const Case& k, const std::string& name, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> byte(-127, 127);
  Built b;
  b.filter.resize(static_cast<std::size_t>(k.oc * k.kh * k.kw * k.ic));
  for (auto& v : b.filter) v = static_cast<std::int8_t>(byte(rng));
  for (std::int32_t c = 0; c < k.oc; ++c) {
    b.w_scales.push_back(0.01f + 0.003f * static_cast<float>(c));
    b.bias.push_back(std::uniform_int_distribution<int>(-3000, 3000)(rng));
  }
  OneOpModel& m = b.model;
  m.name = name;
  const std::vector<std::int32_t> shape = {k.n, k.oh, k.ow, k.oc};
  TensorSpec w{{k.oc, k.kh, k.kw, k.ic}, 9, 0.0f, 0, Bytes(b.filter)};
  w.channel_scales = b.w_scales;
  m.tensors = {TensorSpec{{4}, 2, 0.0f, 0, Bytes(shape)}, w,
               TensorSpec{{k.n, k.ih, k.iw, k.ic}, 9, kSi, kZi, {}},
               TensorSpec{shape, 9, kSo, kZo, {}}};
  m.graph_inputs = {2};
  m.graph_outputs = {3};
  m.op = arenaplan::tflite::BuiltinOp::kTransposeConv;
  m.op_inputs = {0, 1, 2};
  if (k.bias) {
    TensorSpec bt{{k.oc}, 2, 0.0f, 0, Bytes(b.bias)};
    m.tensors.push_back(bt);
    m.op_inputs.push_back(4);
  }
  m.op_outputs = {3};
  m.options = [k](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{fb::BuiltinOptions::TransposeConvOptions,
                     fb::CreateTransposeConvOptions(fbb, k.same ? 0 : 1, k.sw,
                                                    k.sh, k.activation)
                         .Union()};
  };
  return b;
}

/// TFLM's padding: ComputePaddingHeightWidth(stride, 1, out, filter).
std::int32_t Pad(bool same, std::int32_t out, std::int32_t f, std::int32_t s) {
  const std::int32_t conv_out = same ? (out + s - 1) / s : (out + s - f) / s;
  return std::max((conv_out - 1) * s + f - out, 0) / 2;
}

std::int32_t Requantize(std::int64_t acc, double real) {
  int e = 0;
  const double q = std::frexp(real, &e);
  auto m = static_cast<std::int64_t>(std::round(q * (1LL << 31)));
  if (m == (1LL << 31)) {
    m /= 2;
    ++e;
  }
  const std::int32_t left = e > 0 ? e : 0, right = e > 0 ? 0 : -e;
  return gemmlowp::RoundingDivideByPOT(
      gemmlowp::SaturatingRoundingDoublingHighMul(
          static_cast<std::int32_t>(acc) * (1 << left),
          static_cast<std::int32_t>(m)),
      right);
}

void Check(const Case& k, const std::string& name, unsigned seed) {
  const Built b = Build(k, name, seed);
  std::mt19937 rng(seed + 1);
  std::vector<std::int8_t> in(
      static_cast<std::size_t>(k.n * k.ih * k.iw * k.ic));
  for (auto& v : in) {
    v = static_cast<std::int8_t>(
        std::uniform_int_distribution<int>(-128, 127)(rng));
  }
  const auto run =
      CompileAndRun(b.model, std::vector<std::uint8_t>(in.begin(), in.end()));
  ASSERT_EQ(run.error, "") << name;
  // Scatter, as reference/integer_ops/transpose_conv.h does.
  const std::int32_t ph = Pad(k.same, k.oh, k.kh, k.sh);
  const std::int32_t pw = Pad(k.same, k.ow, k.kw, k.sw);
  std::vector<std::int64_t> acc(
      static_cast<std::size_t>(k.n * k.oh * k.ow * k.oc), 0);
  for (std::int32_t bb = 0; bb < k.n; ++bb)
    for (std::int32_t iy = 0; iy < k.ih; ++iy)
      for (std::int32_t ix = 0; ix < k.iw; ++ix)
        for (std::int32_t ic = 0; ic < k.ic; ++ic)
          for (std::int32_t ky = 0; ky < k.kh; ++ky)
            for (std::int32_t kx = 0; kx < k.kw; ++kx)
              for (std::int32_t oc = 0; oc < k.oc; ++oc) {
                const std::int32_t oy = iy * k.sh - ph + ky;
                const std::int32_t ox = ix * k.sw - pw + kx;
                if (oy < 0 || oy >= k.oh || ox < 0 || ox >= k.ow) continue;
                const std::int32_t v =
                    in[static_cast<std::size_t>(
                        ((bb * k.ih + iy) * k.iw + ix) * k.ic + ic)] -
                    kZi;
                const std::int32_t f = b.filter[static_cast<std::size_t>(
                    ((oc * k.kh + ky) * k.kw + kx) * k.ic + ic)];
                acc[static_cast<std::size_t>(
                    ((bb * k.oh + oy) * k.ow + ox) * k.oc + oc)] += v * f;
              }
  // RELU's lower bound is the zero point; RELU6's upper is zp + 6 / s_out.
  const int lo = k.activation == 0 ? -128 : kZo;
  const int hi = k.activation == 3 ? kZo + 60 : 127;
  ASSERT_EQ(run.output.size(), acc.size());
  for (std::size_t i = 0; i < acc.size(); ++i) {
    const std::int32_t oc = static_cast<std::int32_t>(i) % k.oc;
    const std::int64_t a =
        acc[i] + (k.bias ? b.bias[static_cast<std::size_t>(oc)] : 0);
    const double real =
        static_cast<double>(kSi) *
        static_cast<double>(b.w_scales[static_cast<std::size_t>(oc)]) /
        static_cast<double>(kSo);
    const int expect = std::clamp(kZo + Requantize(a, real), lo, hi);
    EXPECT_EQ(static_cast<std::int8_t>(run.output[i]), expect)
        << name << " element " << i;
  }
}

TEST(LowerTransposeConv, UpsamplesTwiceWithSamePadding) {
  // A U-Net decoder step: 3x3 filter, stride 2, SAME, bias, RELU.
  Check({1, 3, 4, 3, 6, 8, 2, 3, 3, 2, 2, true, true, 1}, "transpose_conv", 11);
}

TEST(LowerTransposeConv, ComputesValidPaddingWithoutBias) {
  // 2x2 filter, stride 2, VALID (the stamps tile the output exactly).
  Check({1, 2, 3, 4, 4, 6, 3, 2, 2, 2, 2, false, false, 0},
        "transpose_conv_valid", 12);
  // 3x2 filter, stride 1x2, VALID: (4 - 1) * 1 + 3 = 6 rows, (2 - 1) * 2 +
  // 2 = 4 columns; RELU6; two batches.
  Check({2, 4, 2, 2, 6, 4, 2, 3, 2, 1, 2, false, true, 3},
        "transpose_conv_valid_2", 13);
}

TEST(LowerTransposeConv, PadsOddSameOutputsAsTflm) {
  // SAME, filter 5, stride 2, output 6: the convolution of 6 gives 3, total
  // padding (3 - 1) * 2 + 5 - 6 = 3, odd: 1 before (the smaller half).
  Check({1, 3, 3, 1, 6, 6, 2, 5, 5, 2, 2, true, true, 0},
        "transpose_conv_odd", 14);
}

TEST(LowerTransposeConv, RefusesWhatTheKernelDoesNotTake) {
  Built b = Build({1, 3, 4, 3, 7, 8, 2, 3, 3, 2, 2, true, true, 0},
                  "transpose_conv_bad", 1);
  // Output 7 rows: a SAME stride-2 convolution of 7 gives 4, not 3.
  b.model.tensors[0].data = Bytes(std::vector<std::int32_t>{1, 7, 8, 2});
  const std::string err = CompileError(b.model);
  EXPECT_NE(err.find("operator 0 (TRANSPOSE_CONV): output 7x8 is not a "
                     "transpose of input 3x4"),
            std::string::npos)
      << err;
  EXPECT_EQ(err.find('\n'), std::string::npos);
  Built shape = Build({1, 3, 4, 3, 6, 8, 2, 3, 3, 2, 2, true, true, 0},
                      "transpose_conv_shape", 1);
  shape.model.tensors[0].data = Bytes(std::vector<std::int32_t>{1, 6, 8, 3});
  EXPECT_NE(CompileError(shape.model)
                .find("the output shape input does not match the output"),
            std::string::npos);
}

}  // namespace
