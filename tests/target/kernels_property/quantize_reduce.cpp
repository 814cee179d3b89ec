// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The kernels' property test (tests/target/kernels_property.cpp):
// quantization and type changes (QUANTIZE, DEQUANTIZE, CAST), the
// reductions (MEAN) and the recurrent operators (SVDF, LSTM).
#include <cstdint>

#include "tests/target/kernels_property/cases.hpp"
#include "tests/target/kernels_property/harness.hpp"

namespace arenaplan::kernels_property {

namespace {

template <class In, class Out>
void RequantizeCase(Rng& r, Digest& dg, std::int32_t in_zp,
                    std::int32_t out_zp) {
  // s_in / s_out: shifts in [-8, 6].
  const k::RequantizeParams p{-in_zp, out_zp, r.Multiplier(), r.In(-8, 6),
                              r.In(1, 300)};
  In* input = scratch.Get<In>(p.count);
  const std::int32_t lo =
      sizeof(In) == 1 ? (static_cast<In>(-1) < 0 ? -128 : 0) : -32768;
  const std::int32_t hi = sizeof(In) == 1 ? lo + 255 : 32767;
  for (std::int32_t i = 0; i < p.count; ++i)
    input[i] = static_cast<In>(r.In(lo, hi));
  Out* out = Filled<Out>(p.count, 0xaa);
  k::Requantize(p, input, out);
  dg.Fold(out, p.count);
}

}  // namespace

void TestQuantize(std::int32_t cases) {
  Run("QUANTIZE", 0x4001, cases, [](Rng& r, Digest& dg, std::int32_t) {
    const std::int32_t kind = r.In(0, 5);
    const std::int32_t zp1 = r.Zp(), zp2 = r.Zp(), uzp = r.In(0, 255);
    switch (kind) {
      case 0:
        RequantizeCase<std::int8_t, std::int8_t>(r, dg, zp1, zp2);
        break;
      case 1:
        RequantizeCase<std::uint8_t, std::int8_t>(r, dg, uzp, zp2);
        break;
      case 2:
        RequantizeCase<std::int8_t, std::uint8_t>(r, dg, zp1, uzp);
        break;
      case 3:
        RequantizeCase<std::int16_t, std::int8_t>(r, dg, 0, zp2);
        break;
      case 4:
        RequantizeCase<std::int8_t, std::int16_t>(r, dg, zp1, 0);
        break;
      default:
        RequantizeCase<std::int8_t, std::int32_t>(r, dg, zp1, 0);
        break;
    }
  });
}

namespace {

template <class T>
void FloatQuantizeCase(Rng& r, Digest& dg, std::int32_t zp) {
  const k::FloatQuantizeParams p{RandomScale(r, -12, 0), zp, r.In(1, 200)};
  const float* input = RandomFloats(r, p.count);
  T* out = Filled<T>(p.count, 0xaa);
  k::QuantizeFromFloat(p, input, out);
  dg.Fold(out, p.count);
}

template <class T>
void DequantizeCase(Rng& r, Digest& dg, std::int32_t zp) {
  const k::FloatQuantizeParams p{RandomScale(r, -12, 0), zp, r.In(1, 200)};
  const T* input = Random<T>(r, p.count);
  float* out = Filled<float>(p.count, 0xaa);
  k::DequantizeToFloat(p, input, out);
  dg.Fold(out, p.count);
}

}  // namespace

void TestFloatQuantize(std::int32_t cases) {
  Run("QUANTIZE float", 0x4002, cases, [](Rng& r, Digest& dg, std::int32_t) {
    switch (r.In(0, 2)) {
      case 0:
        FloatQuantizeCase<std::int8_t>(r, dg, r.Zp());
        break;
      case 1:
        FloatQuantizeCase<std::uint8_t>(r, dg, r.In(0, 255));
        break;
      default:
        FloatQuantizeCase<std::int16_t>(r, dg, 0);
        break;
    }
  });
  Run("DEQUANTIZE", 0x4003, cases, [](Rng& r, Digest& dg, std::int32_t) {
    switch (r.In(0, 2)) {
      case 0:
        DequantizeCase<std::int8_t>(r, dg, r.Zp());
        break;
      case 1:
        DequantizeCase<std::uint8_t>(r, dg, r.In(0, 255));
        break;
      default:
        DequantizeCase<std::int16_t>(r, dg, 0);
        break;
    }
  });
}

namespace {

template <class From, class To>
void CastCase(Rng& r, Digest& dg) {
  const std::int32_t count = r.In(1, 200);
  From* input = scratch.Get<From>(count);
  for (std::int32_t i = 0; i < count; ++i) {
    if constexpr (static_cast<From>(0.5) != 0) {
      input[i] = static_cast<From>(RandomFloat(r));
    } else {
      input[i] = RandomValue<From>(r);
    }
  }
  To* out = Filled<To>(count, 0xaa);
  k::Cast<From, To>(input, out, count);
  dg.Fold(out, count);
}

}  // namespace

void TestCast(std::int32_t cases) {
  Run("CAST", 0x4004, cases, [](Rng& r, Digest& dg, std::int32_t) {
    switch (r.In(0, 9)) {
      case 0:
        CastCase<std::int8_t, std::int16_t>(r, dg);
        break;
      case 1:
        CastCase<std::int8_t, std::int32_t>(r, dg);
        break;
      case 2:
        CastCase<std::int8_t, float>(r, dg);
        break;
      case 3:
        CastCase<std::int16_t, std::int8_t>(r, dg);
        break;
      case 4:
        CastCase<std::int32_t, std::int8_t>(r, dg);
        break;
      case 5:
        CastCase<std::int32_t, float>(r, dg);
        break;
      case 6:
        CastCase<float, std::int8_t>(r, dg);
        break;
      case 7:
        CastCase<float, std::int16_t>(r, dg);
        break;
      case 8:
        CastCase<float, std::int32_t>(r, dg);
        break;
      default:
        CastCase<std::int16_t, float>(r, dg);
        break;
    }
  });
}

void TestMean(std::int32_t cases) {
  Run("MEAN", 0x5001, cases, [](Rng& r, Digest& dg, std::int32_t) {
    k::MeanParams p{};
    p.input = RandomShape(r, 2, 7, 12);
    p.reduced = r.OneIn(2) ? 6 : r.In(1, 15);  // 6: h and w (global pool)
    std::int32_t num = 1, out_count = 1;
    const std::int32_t dims[4] = {p.input.n, p.input.h, p.input.w, p.input.c};
    for (int d = 0; d < 4; ++d) {
      if (p.reduced & (8 >> d)) {
        num *= dims[d];
      } else {
        out_count *= dims[d];
      }
    }
    const std::int32_t zp_in = r.Zp();
    p.input_zero_point_times_count = zp_in * num;
    // s_in / (s_out num): shifts in [-14, 0].
    p.multiplier = r.Multiplier();
    p.shift = r.In(-14, 0);
    p.output_zero_point = r.Zp();
    const std::int8_t* input = Random<std::int8_t>(r, p.input.Count());
    std::int8_t* out = Filled<std::int8_t>(out_count, 0xaa);
    k::Mean(p, input, out);
    dg.Fold(out, out_count);
  });
}

namespace {

template <class T>
void SvdfCase(Rng& r, Digest& dg, std::int32_t state_zp) {
  k::SvdfParams p{};
  p.input_offset = -r.Zp();
  p.state_zero_point = state_zp;
  p.output_offset = r.Zp();
  const Range act = RandomAct(r);
  p.act_min = act.lo;
  p.act_max = act.hi;
  p.batches = r.In(1, 2);
  p.input_size = r.In(1, 20);
  p.rank = r.In(1, 2);
  const std::int32_t units = r.In(1, 6);
  p.filters = units * p.rank;
  p.memory = r.In(1, 8);
  // s_in s_wf / s_state (shifts [-12, -2]); s_state s_time / s_out (shifts
  // [-22, -6]).
  p.feature_multiplier = r.Multiplier();
  p.feature_shift = r.In(-12, -2);
  p.output_multiplier = r.Multiplier();
  p.output_shift = r.In(-22, -6);
  const std::int8_t* input = Random<std::int8_t>(r, p.batches * p.input_size);
  const std::int8_t* wf = Random<std::int8_t>(r, p.filters * p.input_size);
  const T* wt = Random<T>(r, p.filters * p.memory);
  const std::int32_t* bias = nullptr;
  if (!r.OneIn(3)) {
    std::int32_t* b = scratch.Get<std::int32_t>(units);
    for (std::int32_t u = 0; u < units; ++u) b[u] = r.In(-(1 << 16), 1 << 16);
    bias = b;
  }
  const std::int32_t state_n = p.batches * p.filters * p.memory;
  T* state = Random<T>(r, state_n);
  std::int8_t* out = Filled<std::int8_t>(p.batches * units, 0xaa);
  for (int step = 0; step < 3; ++step) {  // the state shifts between steps
    k::Svdf<T>(p, input, wf, wt, bias, state, out);
    dg.Fold(out, p.batches * units);
  }
  dg.Fold(state, state_n);
}

}  // namespace

void TestSvdf(std::int32_t cases) {
  Run("SVDF", 0x5002, cases, [](Rng& r, Digest& dg, std::int32_t) {
    if (r.OneIn(2)) {
      SvdfCase<std::int8_t>(r, dg, r.Zp());
    } else {
      SvdfCase<std::int16_t>(r, dg, 0);
    }
  });
}

void TestLstm(std::int32_t cases) {
  Run("UNIDIRECTIONAL_SEQUENCE_LSTM", 0x5003, cases,
      [](Rng& r, Digest& dg, std::int32_t) {
        k::SequenceLstmParams p{};
        p.batches = r.In(1, 2);
        p.time_steps = r.In(1, 3);
        p.input_size = r.In(1, 8);
        p.units = r.In(1, 6);
        p.time_major = r.OneIn(2);
        p.input_offset = -r.Zp();
        p.hidden_zero_point = r.Zp();
        p.hidden_offset = -p.hidden_zero_point;
        for (k::LstmGate& g : p.gate) {
          g.input_weights = Random<std::int8_t>(r, p.units * p.input_size);
          g.recurrent_weights = Random<std::int8_t>(r, p.units * p.units);
          g.bias = nullptr;
          if (!r.OneIn(3)) {
            std::int32_t* b = scratch.Get<std::int32_t>(p.units);
            for (std::int32_t j = 0; j < p.units; ++j)
              b[j] = r.In(-(1 << 12), 1 << 12);
            g.bias = b;
          }
          // s_x s_w / 2^-12 and s_h s_r / 2^-12: shifts in [-6, 1].
          g.input_multiplier = r.Multiplier();
          g.input_shift = r.In(-6, 1);
          g.recurrent_multiplier = r.Multiplier();
          g.recurrent_shift = r.In(-6, 1);
        }
        // Cell scale 2^c, c in [-15, -8] (lstm.hpp's rule for tanh).
        const std::int32_t c = r.In(-15, -8);
        const std::int32_t e = 15 + c - 3;
        p.cell_tanh_multiplier = e >= 0 ? 0 : 3;
        p.cell_tanh_shift = e >= 0 ? e : -e;
        p.clip = r.OneIn(2);
        p.cell_clip = static_cast<std::int16_t>(r.In(1000, 32767));
        // forget (Q0.15) x cell -> cell: 2^-15; input x cell gate (Q0.15 x
        // Q0.15) -> cell: 2^(-30 - c); output x tanh -> hidden: 2^-30 / s_h.
        p.forget_cell = {1 << 30, -14};
        p.input_cell_gate = {1 << 30, -30 - c + 1};
        p.output_hidden = {r.Multiplier(), r.In(-24, -21)};
        const std::int32_t rows = p.batches * p.time_steps;
        const std::int8_t* input = Random<std::int8_t>(r, rows * p.input_size);
        std::int8_t* hidden = Random<std::int8_t>(r, p.batches * p.units);
        std::int16_t* cell = Random<std::int16_t>(r, p.batches * p.units);
        std::int8_t* out = Filled<std::int8_t>(rows * p.units, 0xaa);
        k::SequenceLstm(p, input, hidden, cell, out);
        dg.Fold(out, rows * p.units);
        dg.Fold(hidden, p.batches * p.units);
        dg.Fold(cell, p.batches * p.units);
      });
}

}  // namespace arenaplan::kernels_property
