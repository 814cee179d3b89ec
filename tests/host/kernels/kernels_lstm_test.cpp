// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// UNIDIRECTIONAL_SEQUENCE_LSTM (lstm.hpp): the int16 sigmoid and tanh at
// points derived by hand from the table and against the real functions
// over every input; a two-step sequence of one unit derived by hand; and
// random sequences against a float LSTM on the dequantized values (within
// a few output steps), with time-major and batch-major layouts agreeing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "arenaplan/kernels/kernels.hpp"

namespace {

namespace k = arenaplan::kernels;

TEST(LstmSigmoid, TableIsTheSigmoidOfStepsOfOneTwentyFourth) {
  // Entries are sigmoid(i / 24) in 0.16 fixed point; TFLite's published
  // table is not the rounded real value everywhere (up to 1.11 units off,
  // entry 35), so the check allows 1.5 units; it rises monotonically.
  for (int i = 0; i < 256; ++i) {
    const double real = 65536.0 / (1.0 + std::exp(-i / 24.0));
    EXPECT_LE(std::fabs(k::kSigmoidTable[i] - real), 1.5) << i;
    if (i > 0) {
      EXPECT_GE(k::kSigmoidTable[i], k::kSigmoidTable[i - 1]) << i;
    }
  }
  EXPECT_EQ(k::kSigmoidTable[0], 32768);
  EXPECT_EQ(k::kSigmoidTable[255], 65535);
}

TEST(LstmSigmoid, MatchesHandDerivedValues) {
  // x = 0: table[0] << 9 = 2^24, plus 2^9, >> 10 = 16384 (0.5).
  EXPECT_EQ(k::SigmoidQ312(0), 16384);
  // x = 4096 (1.0): 3x = 12288 = 24 * 2^9, no fraction: (47911 * 2^9 +
  // 2^9) >> 10 = 23956.
  EXPECT_EQ(k::SigmoidQ312(4096), 23956);
  // x = -4096: (2^25 - 47911 * 2^9 + 2^9 - 1) >> 10 = 9024511 >> 10 = 8812
  // (8813 * 1024 = 9024512): not 32768 - 23956, the two sides round apart.
  EXPECT_EQ(k::SigmoidQ312(-4096), 8812);
  // x = 4113: 3x = 12339 = 24 * 512 + 51: 47911 * 512 + 51 * (48443 -
  // 47911) = 24557564; + 512, >> 10 = 23982.
  EXPECT_EQ(k::SigmoidQ312(4113), 23982);
}

TEST(LstmSigmoid, IsWithinTwoStepsOfTheRealSigmoid) {
  for (int x = -32768; x <= 32767; ++x) {
    const double real = 32768.0 / (1.0 + std::exp(-x / 4096.0));
    ASSERT_LE(std::fabs(k::SigmoidQ312(static_cast<std::int16_t>(x)) -
                        std::min(real, 32767.0)),
              2.0)
        << x;
  }
}

TEST(LstmTanh, MatchesHandDerivedValues) {
  // Q3.12 (multiplier 0, shift 0 -> 3): x = 4096 (1.0): 3x >> 8 = 48, no
  // fraction: 57724 * 256 - 2^23 + 2^7 = 6388864, >> 8 = 24956.
  EXPECT_EQ(k::TanhInt16(4096, 0, 0), 24956);
  EXPECT_EQ(k::TanhInt16(0, 0, 0), 0);
  // Cell scale 2^-11: shift 15 - 11 - 3 = 1, multiplier 0 -> 6: x = 1140:
  // 6840 = 26 * 256 + 184: 48964 * 256 + 184 * 511 = 12628808;
  // - 2^23 + 2^7 = 4240328, >> 8 = 16563.
  EXPECT_EQ(k::TanhInt16(1140, 0, 1), 16563);
  // Multiplier 3 with a right shift of 4: (-1000 * 3 + 8) >> 4 = -187
  // (floor of -187.0): 187 = 0 * 256 + 187: 32768 * 256 + 187 * 683 =
  // 8516449; negative: -8516449 + 2^23 + 2^7 - 1 = -127714, >> 8 = -499.
  EXPECT_EQ(k::TanhInt16(-1000, 3, 4), -499);
}

TEST(LstmTanh, IsWithinThreeStepsOfTheRealTanh) {
  for (int x = -32768; x <= 32767; ++x) {
    const double real = 32768.0 * std::tanh(x / 4096.0);
    ASSERT_LE(std::fabs(k::TanhInt16(static_cast<std::int16_t>(x), 0, 0) -
                        std::clamp(real, -32767.0, 32767.0)),
              3.0)
        << x;
  }
}

/// A real multiplier 1 (2^30 * 2^(1 - 31)).
constexpr std::int32_t kOne = 1 << 30;

TEST(SequenceLstm, OneUnitTwoStepsMatchHandDerivation) {
  // One unit, one input, batch-major [1, 2, 1]. FC multipliers 1 (the
  // accumulator is the Q3.12 gate input), cell scale 2^-11, hidden scale
  // 2^-7, zero points 0.
  const std::int8_t w_in[4] = {64, 0, 64, -64};  // input, forget, cell, out
  const std::int8_t w_rec[4] = {0, 1, 0, 0};
  const std::int32_t bias[4] = {0, 4096, 0, 0};
  k::SequenceLstmParams p{};
  p.batches = 1;
  p.time_steps = 2;
  p.input_size = 1;
  p.units = 1;
  for (int g = 0; g < 4; ++g) {
    p.gate[g] = k::LstmGate{&w_in[g], &w_rec[g], &bias[g], kOne, 1, kOne, 1};
  }
  p.cell_tanh_multiplier = 0;
  p.cell_tanh_shift = 1;
  p.forget_cell = {kOne, -14};      // 2^-15
  p.input_cell_gate = {kOne, -18};  // 2^-30 / 2^-11 = 2^-19
  p.output_hidden = {kOne, -22};    // 2^-30 / 2^-7 = 2^-23
  const std::int8_t input[2] = {64, 0};
  std::int8_t hidden[1] = {0};
  std::int16_t cell[1] = {0};
  std::int8_t output[2] = {99, 99};
  k::SequenceLstm(p, input, hidden, cell, output);
  // Step 0 (h = 0): gate inputs 64 * 64 = 4096, bias 4096, 4096, -4096:
  // input and forget sigmoid(4096) = 23956, cell tanh(4096) = 24956,
  // output sigmoid(-4096) = 8812.
  //   kept = 23956 * 0 = 0; added = 23956 * 24956 = 597845936 / 2^19 =
  //   1140.3 -> 1140; c = 1140; tanh_c(1140) = 16563;
  //   h = 8812 * 16563 = 145953156 / 2^23 = 17.4 -> 17.
  // Step 1: x = 0, h = 17: forget 4096 + 17 = 4113 -> 23982; input
  //   sigmoid(0) = 16384; cell tanh(0) = 0; output sigmoid(0) = 16384.
  //   kept = 23982 * 1140 = 27339480 / 2^15 = 834.3 -> 834; added 0;
  //   c = 834; tanh_c(834): 6 * 834 = 5004 = 19 * 256 + 140: 45102 * 256
  //   + 140 * 581 - 2^23 + 2^7 = 3238972 >> 8 = 12652;
  //   h = 16384 * 12652 = 207290368 / 2^23 = 24.7 -> 25.
  EXPECT_EQ(output[0], 17);
  EXPECT_EQ(output[1], 25);
  EXPECT_EQ(hidden[0], 25);
  EXPECT_EQ(cell[0], 834);
  // The forget gate of step 0 did not matter (cell 0); with clipping at
  // 1000 step 0's cell would be 1000 instead of 1140.
  hidden[0] = 0;
  cell[0] = 0;
  p.clip = true;
  p.cell_clip = 1000;
  k::SequenceLstm(p, input, hidden, cell, output);
  // c = 1000: 6000 = 23 * 256 + 112: 47369 * 256 + 112 * 542 = 12187168;
  // - 2^23 + 2^7 = 3798688 >> 8 = 14838; h = 8812 * 14838 = 130752456 /
  // 2^23 = 15.59 -> 16.
  EXPECT_EQ(output[0], 16);
}

/// Quantization of a random LSTM: scales, zero points, weights.
struct RandomLstm {
  std::int32_t batches, steps, in, units;
  float s_in, s_h, s_c;
  std::int32_t zp_in, zp_h;
  float s_w[8];
  std::vector<std::int8_t> w[8];  // input 0-3, recurrent 4-7
  std::vector<std::int32_t> bias[4];
  std::vector<std::int32_t> mult[8], shift[8];
};

/// QuantizeMultiplier for the test (frexp; real in (0, 1)).
void Quantize(double real, std::int32_t* m, std::int32_t* shift) {
  int e = 0;
  const double q = std::frexp(real, &e);
  auto r = static_cast<std::int64_t>(std::llround(q * (1LL << 31)));
  if (r == (1LL << 31)) {
    r /= 2;
    ++e;
  }
  *m = static_cast<std::int32_t>(r);
  *shift = e;
}

TEST(SequenceLstm, FollowsAFloatLstmAndLayoutsAgree) {
  std::mt19937 rng(26);
  for (int trial = 0; trial < 20; ++trial) {
    RandomLstm r{};
    r.batches = 1 + trial % 3;
    r.steps = 1 + trial % 4;
    r.in = 2 + trial % 5;
    r.units = 1 + trial % 6;
    r.s_in = 1.0f / 64;
    r.s_h = 1.0f / 128;
    r.s_c = 1.0f / 2048;
    r.zp_in = static_cast<std::int32_t>(rng() % 21) - 10;
    r.zp_h = static_cast<std::int32_t>(rng() % 21) - 10;
    std::uniform_int_distribution<int> wd(-127, 127);
    k::SequenceLstmParams p{};
    p.batches = r.batches;
    p.time_steps = r.steps;
    p.input_size = r.in;
    p.units = r.units;
    p.input_offset = -r.zp_in;
    p.hidden_offset = -r.zp_h;
    p.hidden_zero_point = r.zp_h;
    for (int g = 0; g < 8; ++g) {
      r.s_w[g] = 1.0f / 256;
      r.w[g].resize(
          static_cast<std::size_t>(r.units * (g < 4 ? r.in : r.units)));
      for (auto& v : r.w[g]) v = static_cast<std::int8_t>(wd(rng));
    }
    std::uniform_int_distribution<int> bd(-3000, 3000);
    for (int g = 0; g < 4; ++g) {
      r.bias[g].resize(static_cast<std::size_t>(r.units));
      for (auto& v : r.bias[g]) v = bd(rng);
      std::int32_t mi, si, mr, sr;
      Quantize(double(r.s_in * r.s_w[g]) * 4096.0, &mi, &si);
      Quantize(double(r.s_h * r.s_w[4 + g]) * 4096.0, &mr, &sr);
      p.gate[g] = k::LstmGate{
          r.w[g].data(), r.w[4 + g].data(), r.bias[g].data(), mi, si, mr, sr};
    }
    p.cell_tanh_multiplier = 0;
    p.cell_tanh_shift = 1;  // 15 - 11 - 3
    Quantize(1.0 / 32768, &p.forget_cell.multiplier, &p.forget_cell.shift);
    Quantize(1.0 / 32768 / 32768 / r.s_c, &p.input_cell_gate.multiplier,
             &p.input_cell_gate.shift);
    Quantize(1.0 / 32768 / 32768 / r.s_h, &p.output_hidden.multiplier,
             &p.output_hidden.shift);
    const std::int32_t rows = r.batches * r.steps;
    std::vector<std::int8_t> x(static_cast<std::size_t>(rows * r.in));
    for (auto& v : x) v = static_cast<std::int8_t>(wd(rng));
    std::vector<std::int8_t> h(static_cast<std::size_t>(r.batches * r.units),
                               static_cast<std::int8_t>(r.zp_h));
    std::vector<std::int16_t> c(h.size(), 0);
    std::vector<std::int8_t> out(static_cast<std::size_t>(rows * r.units));
    k::SequenceLstm(p, x.data(), h.data(), c.data(), out.data());

    // The same sequence time-major: rows (t, b) instead of (b, t).
    std::vector<std::int8_t> xt(x.size()), out_t(out.size());
    for (int b = 0; b < r.batches; ++b) {
      for (int t = 0; t < r.steps; ++t) {
        std::copy_n(&x[static_cast<std::size_t>((b * r.steps + t) * r.in)],
                    r.in,
                    &xt[static_cast<std::size_t>((t * r.batches + b) * r.in)]);
      }
    }
    std::vector<std::int8_t> h2(h.size(), static_cast<std::int8_t>(r.zp_h));
    std::vector<std::int16_t> c2(c.size(), 0);
    p.time_major = true;
    k::SequenceLstm(p, xt.data(), h2.data(), c2.data(), out_t.data());
    EXPECT_EQ(h2, h) << trial;
    EXPECT_EQ(c2, c) << trial;

    // A float LSTM on the dequantized inputs and weights.
    for (int b = 0; b < r.batches; ++b) {
      std::vector<double> hf(static_cast<std::size_t>(r.units), 0.0);
      std::vector<double> cf(static_cast<std::size_t>(r.units), 0.0);
      for (int t = 0; t < r.steps; ++t) {
        const std::int32_t row = b * r.steps + t;
        std::vector<double> g(static_cast<std::size_t>(4 * r.units));
        for (int gi = 0; gi < 4; ++gi) {
          for (int j = 0; j < r.units; ++j) {
            double acc = r.bias[gi][static_cast<std::size_t>(j)] *
                         double(r.s_in) * r.s_w[gi];
            for (int i = 0; i < r.in; ++i) {
              acc += r.w[gi][static_cast<std::size_t>(j * r.in + i)] *
                     double(r.s_w[gi]) *
                     (x[static_cast<std::size_t>(row * r.in + i)] - r.zp_in) *
                     r.s_in;
            }
            for (int i = 0; i < r.units; ++i) {
              acc += r.w[4 + gi][static_cast<std::size_t>(j * r.units + i)] *
                     double(r.s_w[4 + gi]) * hf[static_cast<std::size_t>(i)];
            }
            acc = std::clamp(acc, -8.0, 8.0);  // Q3.12
            g[static_cast<std::size_t>(gi * r.units + j)] =
                gi == 2 ? std::tanh(acc) : 1.0 / (1.0 + std::exp(-acc));
          }
        }
        for (int j = 0; j < r.units; ++j) {
          const auto u = static_cast<std::size_t>(j);
          cf[u] = g[static_cast<std::size_t>(r.units) + u] * cf[u] +
                  g[u] * g[static_cast<std::size_t>(2 * r.units) + u];
          cf[u] = std::clamp(cf[u], -16.0, 16.0);  // int16 at 2^-11
          double hv =
              g[static_cast<std::size_t>(3 * r.units) + u] * std::tanh(cf[u]);
          const double q =
              std::clamp(std::round(hv / r.s_h) + r.zp_h, -128.0, 127.0);
          hf[u] = (q - r.zp_h) * r.s_h;  // the quantized hidden state
          const int got = out[static_cast<std::size_t>(row * r.units + j)];
          EXPECT_LE(std::fabs(got - q), 3.0)
              << "trial " << trial << " b " << b << " t " << t << " j " << j;
          // Time-major row (t, b) holds the same value.
          EXPECT_EQ(out_t[static_cast<std::size_t>(
                        (t * r.batches + b) * r.units + j)],
                    got);
        }
      }
    }
  }
}

}  // namespace
