// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// BATCH_MATMUL through `compile` end to end: one-operator models built here,
// compiled, built with the host compiler and run. Expected bytes from a
// direct evaluation written here: the operands transposed as adj_x / adj_y
// say, int64 sums, and TFLite's requantization spelled with gemmlowp's
// SaturatingRoundingDoublingHighMul and RoundingDivideByPOT.
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

using arenaplan::testing_util::CompileAndRun;
using arenaplan::testing_util::CompileError;
using arenaplan::testing_util::OneOpModel;
using arenaplan::testing_util::TensorSpec;
namespace fb = arenaplan::tflite::fb;

constexpr float kSx = 0.02f, kSy = 0.03f, kSo = 0.05f;
constexpr int kZx = 3, kZy = -4, kZo = -6;

OneOpModel MatMulModel(std::vector<std::int32_t> xs,
                       std::vector<std::int32_t> ys,
                       std::vector<std::int32_t> os, bool adj_x, bool adj_y,
                       std::vector<std::uint8_t> y_data = {}) {
  OneOpModel m;
  m.name = "batch_matmul";
  m.tensors = {TensorSpec{xs, 9, kSx, kZx, {}},
               TensorSpec{ys, 9, kSy, kZy, y_data},
               TensorSpec{os, 9, kSo, kZo, {}}};
  m.graph_inputs = {0};
  if (y_data.empty()) m.graph_inputs.push_back(1);
  m.graph_outputs = {2};
  m.op = arenaplan::tflite::BuiltinOp::kBatchMatmul;
  m.op_inputs = {0, 1};
  m.op_outputs = {2};
  m.options = [adj_x, adj_y](flatbuffers::FlatBufferBuilder& fbb) {
    return std::pair{
        fb::BuiltinOptions::BatchMatMulOptions,
        fb::CreateBatchMatMulOptions(fbb, adj_x, adj_y, false).Union()};
  };
  return m;
}

/// TFLite's QuantizeMultiplier of double(float(s_x s_y)) / s_o applied to
/// `acc` with gemmlowp's roundings.
std::int32_t Requantize(std::int64_t acc) {
  const double real = static_cast<double>(kSx * kSy) / static_cast<double>(kSo);
  int e = 0;
  const double q = std::frexp(real, &e);
  auto m = static_cast<std::int64_t>(std::round(q * (1LL << 31)));
  if (m == (1LL << 31)) {
    m /= 2;
    ++e;
  }
  const auto a = static_cast<std::int32_t>(acc);
  const std::int32_t left = e > 0 ? e : 0, right = e > 0 ? 0 : -e;
  return gemmlowp::RoundingDivideByPOT(
      gemmlowp::SaturatingRoundingDoublingHighMul(a * (1 << left),
                                                  static_cast<std::int32_t>(m)),
      right);
}

/// Runs [B..., R, D] x [B'..., D, C] (before adjoints) and checks each
/// output against the direct evaluation. Batch dimensions: x's `bx`, y's
/// `by` (same rank, 1 broadcast).
void Check(std::vector<std::int32_t> bx, std::vector<std::int32_t> by,
           std::int32_t r, std::int32_t d, std::int32_t c, bool adj_x,
           bool adj_y, bool y_const, const std::string& name) {
  std::mt19937 rng(static_cast<unsigned>(name.size() * 7 + r * 31 + c));
  std::uniform_int_distribution<int> byte(-128, 127);
  std::vector<std::int32_t> bo;
  std::int32_t nbx = 1, nby = 1, nbo = 1;
  for (std::size_t i = 0; i < bx.size(); ++i) {
    bo.push_back(std::max(bx[i], by[i]));
    nbx *= bx[i];
    nby *= by[i];
    nbo *= bo.back();
  }
  auto with = [](std::vector<std::int32_t> v, std::int32_t a, std::int32_t b) {
    v.push_back(a);
    v.push_back(b);
    return v;
  };
  std::vector<std::int8_t> x(static_cast<std::size_t>(nbx * r * d)),
      y(static_cast<std::size_t>(nby * d * c));
  for (auto& v : x) v = static_cast<std::int8_t>(byte(rng));
  for (auto& v : y) v = static_cast<std::int8_t>(byte(rng));
  // Stored layouts: x is [.., d, r] when adj_x, y is [.., c, d] when adj_y.
  auto xv = [&](std::int32_t b, std::int32_t i, std::int32_t kk) {
    const std::size_t base = static_cast<std::size_t>(b * r * d);
    return adj_x ? x[base + static_cast<std::size_t>(kk * r + i)]
                 : x[base + static_cast<std::size_t>(i * d + kk)];
  };
  auto yv = [&](std::int32_t b, std::int32_t kk, std::int32_t j) {
    const std::size_t base = static_cast<std::size_t>(b * d * c);
    return adj_y ? y[base + static_cast<std::size_t>(j * d + kk)]
                 : y[base + static_cast<std::size_t>(kk * c + j)];
  };
  std::vector<std::uint8_t> y_bytes(y.begin(), y.end());
  OneOpModel m = MatMulModel(adj_x ? with(bx, d, r) : with(bx, r, d),
                             adj_y ? with(by, c, d) : with(by, d, c),
                             with(bo, r, c), adj_x, adj_y,
                             y_const ? y_bytes : std::vector<std::uint8_t>{});
  m.name = name;
  std::vector<std::uint8_t> input(x.begin(), x.end());
  if (!y_const) input.insert(input.end(), y.begin(), y.end());
  const auto run = CompileAndRun(m, input);
  ASSERT_EQ(run.error, "") << name;
  ASSERT_EQ(run.output.size(), static_cast<std::size_t>(nbo * r * c));
  std::size_t at = 0;
  for (std::int32_t b = 0; b < nbo; ++b) {
    // Batch index of each operand: coordinates of b over bo, 0 where the
    // operand's dimension is 1.
    std::int32_t rem = b, b_x = 0, b_y = 0, sx = 1, sy = 1;
    for (std::size_t i = bo.size(); i-- > 0;) {
      const std::int32_t coord = rem % bo[i];
      rem /= bo[i];
      b_x += (bx[i] == 1 ? 0 : coord) * sx;
      b_y += (by[i] == 1 ? 0 : coord) * sy;
      sx *= bx[i];
      sy *= by[i];
    }
    for (std::int32_t i = 0; i < r; ++i) {
      for (std::int32_t j = 0; j < c; ++j) {
        std::int64_t acc = 0;
        for (std::int32_t kk = 0; kk < d; ++kk) {
          acc += static_cast<std::int64_t>(xv(b_x, i, kk) - kZx) *
                 (yv(b_y, kk, j) - kZy);
        }
        const int expect = std::clamp(kZo + Requantize(acc), -128, 127);
        EXPECT_EQ(static_cast<std::int8_t>(run.output[at++]), expect)
            << name << " b " << b << " i " << i << " j " << j;
      }
    }
  }
}

TEST(LowerBatchMatmul, MultipliesTwoComputedMatrices) {
  Check({}, {}, 3, 5, 4, false, false, false, "batch_matmul");
}

TEST(LowerBatchMatmul, BroadcastsAConstantRightOperandOverBatches) {
  Check({2, 3}, {1, 1}, 2, 4, 3, false, false, true, "batch_matmul_const");
}

TEST(LowerBatchMatmul, ReadsAdjointOperandsAndBroadcastsTheLeft) {
  Check({1, 2}, {3, 2}, 4, 3, 2, true, true, false, "batch_matmul_adj");
  Check({2}, {2}, 2, 6, 3, false, true, false, "batch_matmul_adj_y");
}

TEST(LowerBatchMatmul, RefusesWhatTheKernelDoesNotTake) {
  const std::string inner =
      CompileError(MatMulModel({2, 3}, {4, 2}, {2, 2}, false, false));
  EXPECT_NE(inner.find("operator 0 (BATCH_MATMUL): the operands' inner "
                       "dimensions differ (3 and 4)"),
            std::string::npos)
      << inner;
  EXPECT_NE(
      CompileError(MatMulModel({2, 2, 3}, {3, 3, 2}, {3, 2, 2}, false, false))
          .find("batch dimension 0 does not broadcast (2 and 3)"),
      std::string::npos);
  EXPECT_NE(CompileError(MatMulModel({2, 3}, {3, 2}, {2, 3}, false, false))
                .find("output shape [2,3] is not [2,2]"),
            std::string::npos);
}

}  // namespace
