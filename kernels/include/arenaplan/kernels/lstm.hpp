// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// UNIDIRECTIONAL_SEQUENCE_LSTM with int8 activations, int8 weights, int32
// biases and an int16 cell state, the arithmetic of TensorFlow Lite Micro's
// reference kernel (tensorflow/lite/micro/kernels/lstm_eval.h and
// lstm_eval.cc: EvalLstm<int8_t, int8_t, int16_t, int32_t>, parameters from
// lstm_eval_common.cc; the int16 sigmoid and tanh are
// tensorflow/lite/kernels/internal/reference/integer_ops/logistic.h and
// tanh.h, interpolating in a 256-entry table of sigmoid(i / 24)).
//
// The standard LSTM only (no peephole, projection, layer norm or CIFG).
// For every sequence row (batch b, time t) and every unit j, with h the
// hidden state (int8) and c the cell state (int16) before the step:
//   gate_g[j] = act_g(sat16(FC_in_g(x)[j]) +sat sat16(FC_rec_g(h)[j]))
//     for g = input, forget, cell, output; FC_in_g(x)[j] =
//     (bias_g[j] + sum_i w_g[j][i] * (x[i] - zp_x)) requantized to Q3.12
//     (scale 2^-12), FC_rec_g likewise on h with zp_h and no bias; act is
//     the int16 sigmoid (Q3.12 -> Q0.15) for input, forget and output, the
//     int16 tanh for the cell gate;
//   c[j] = clip(sat16(forget[j] * c[j] -> cell scale) +sat
//               sat16(input[j] * cell[j] -> cell scale));
//   h[j] = sat8(output[j] * tanh_c(c[j]) -> hidden scale, + zp_h);
//   output row = the new h.
// +sat is int16 addition saturated to [-32768, 32767]. Every unit's gates
// read the hidden state of the previous step, so the new hidden values go
// to the output row first and are copied into h after the last unit; each
// unit reads and writes only its own cell element, so c is updated in
// place. TFLM computes each gate for all units into scratch buffers before
// combining them; the values are the same element by element, so this
// kernel needs no scratch memory. Batches are independent (each has its own
// rows of h and c), so a time-major input gives the same values batch by
// batch as TFLM's step over all batches at once.
// Freestanding: no heap, no exceptions, no libc.
#ifndef ARENAPLAN_KERNELS_LSTM_HPP_
#define ARENAPLAN_KERNELS_LSTM_HPP_

#include <cstdint>

#include "arenaplan/kernels/int16/sigmoid.hpp"
#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

/// The int16 sigmoid of a Q3.12 value x (real x / 4096) as Q0.15 (real
/// result / 32768, in [1, 32767]): int16/sigmoid.hpp's SigmoidInt16 with
/// TFLite's Logistic multiplier 0 and shift 0 (3 and 0).
[[nodiscard]] constexpr std::int16_t SigmoidQ312(std::int16_t x) {
  return int16::SigmoidInt16(x, 3, 0);
}

// int16/sigmoid.hpp's table and tanh, by the names the LSTM uses.
using int16::kSigmoidTable;
using int16::TanhInt16;

/// a + b saturated to int16.
[[nodiscard]] constexpr std::int16_t SaturatingAddInt16(std::int16_t a,
                                                        std::int16_t b) {
  const std::int32_t s = static_cast<std::int32_t>(a) + b;
  return static_cast<std::int16_t>(s < -32768 ? -32768
                                              : (s > 32767 ? 32767 : s));
}

/// One LSTM gate's weights and requantizations (to Q3.12).
struct LstmGate {
  const std::int8_t* input_weights;      ///< [units][input_size]; not owned.
  const std::int8_t* recurrent_weights;  ///< [units][units]; not owned.
  const std::int32_t* bias;              ///< [units] or nullptr; not owned.
  /// in_scale * w_scale / 2^-12 and hidden_scale * rec_scale / 2^-12 as
  /// Q0.31 multiplier * 2^(shift - 31).
  std::int32_t input_multiplier, input_shift;
  std::int32_t recurrent_multiplier, recurrent_shift;
};

/// A requantized element-wise product of two int16 values.
struct LstmMul {
  std::int32_t multiplier, shift;
};

struct SequenceLstmParams {
  std::int32_t batches, time_steps, input_size, units;
  /// Input [time, batch, input] (true) or [batch, time, input]; the output
  /// has the same layout with `units` in the last dimension.
  bool time_major;
  std::int32_t input_offset;   ///< Minus the input zero point.
  std::int32_t hidden_offset;  ///< Minus the hidden state's zero point.
  std::int32_t hidden_zero_point;
  /// Gates in TFLite's order: input, forget, cell, output.
  LstmGate gate[4];
  /// tanh of the cell state: TanhInt16's (multiplier, shift) for a cell
  /// scale 2^p: shift 15 + p - 3 with multiplier 0 when that is >= 0, else
  /// shift -(15 + p - 3) with multiplier 3.
  std::int32_t cell_tanh_multiplier, cell_tanh_shift;
  /// Cell values are clamped to [-cell_clip, cell_clip] when clip is true.
  bool clip;
  std::int16_t cell_clip;
  /// forget x cell -> cell scale; input x cell gate -> cell scale;
  /// output gate x tanh(cell) -> hidden scale (plus the zero point).
  LstmMul forget_cell, input_cell_gate, output_hidden;
};

/// (x * y) requantized by `m`, plus `offset`, clamped to [lo, hi].
[[nodiscard]] constexpr std::int32_t LstmProduct(std::int16_t x, std::int16_t y,
                                                 const LstmMul& m,
                                                 std::int32_t offset,
                                                 std::int32_t lo,
                                                 std::int32_t hi) {
  const std::int32_t v =
      offset + MultiplyByQuantizedMultiplier(static_cast<std::int32_t>(x) * y,
                                             m.multiplier, m.shift);
  return v < lo ? lo : (v > hi ? hi : v);
}

/// Dot product of `n` weights with (x[i] + offset), plus `bias`,
/// requantized, clamped to int16 (TFLite's integer FULLY_CONNECTED with an
/// int16 output of zero point 0). The sum wraps modulo 2^32 instead of
/// being undefined.
[[nodiscard]] constexpr std::int16_t LstmDot(
    const std::int8_t* w, const std::int8_t* x, std::int32_t n,
    std::int32_t offset, std::int32_t bias, std::int32_t multiplier,
    std::int32_t shift) {
  std::uint32_t acc = 0;
  for (std::int32_t i = 0; i < n; ++i) {
    acc +=
        static_cast<std::uint32_t>(static_cast<std::int32_t>(w[i]) *
                                   (static_cast<std::int32_t>(x[i]) + offset));
  }
  acc += static_cast<std::uint32_t>(bias);
  const std::int32_t v = MultiplyByQuantizedMultiplier(
      static_cast<std::int32_t>(acc), multiplier, shift);
  return static_cast<std::int16_t>(v < -32768 ? -32768
                                              : (v > 32767 ? 32767 : v));
}

/// Runs the whole sequence. `hidden` (batches * units int8) and `cell`
/// (batches * units int16) are the persistent state, read and updated,
/// owned by the caller; TFLM starts them at the hidden zero point and 0.
/// `output` must not overlap `input`, `hidden` or `cell`.
inline void SequenceLstm(const SequenceLstmParams& p, const std::int8_t* input,
                         std::int8_t* hidden, std::int16_t* cell,
                         std::int8_t* output) {
  const std::int32_t n_in = p.input_size, n = p.units;
  for (std::int32_t b = 0; b < p.batches; ++b) {
    std::int8_t* h = hidden + b * n;
    std::int16_t* c = cell + b * n;
    for (std::int32_t t = 0; t < p.time_steps; ++t) {
      const std::int32_t row =
          p.time_major ? t * p.batches + b : b * p.time_steps + t;
      const std::int8_t* x = input + row * n_in;
      std::int8_t* out = output + row * n;
      for (std::int32_t j = 0; j < n; ++j) {
        std::int16_t g[4];
        for (int k = 0; k < 4; ++k) {
          const LstmGate& q = p.gate[k];
          const std::int16_t from_input =
              LstmDot(q.input_weights + j * n_in, x, n_in, p.input_offset,
                      q.bias != nullptr ? q.bias[j] : 0, q.input_multiplier,
                      q.input_shift);
          const std::int16_t from_hidden =
              LstmDot(q.recurrent_weights + j * n, h, n, p.hidden_offset, 0,
                      q.recurrent_multiplier, q.recurrent_shift);
          const std::int16_t sum = SaturatingAddInt16(from_input, from_hidden);
          // The cell gate's tanh takes Q3.12: TFLM's scale power -12
          // gives shift 0 and multiplier 3.
          g[k] = k == 2 ? TanhInt16(sum, 0, 0) : SigmoidQ312(sum);
        }
        const auto kept = static_cast<std::int16_t>(
            LstmProduct(g[1], c[j], p.forget_cell, 0, -32768, 32767));
        const auto added = static_cast<std::int16_t>(
            LstmProduct(g[0], g[2], p.input_cell_gate, 0, -32768, 32767));
        std::int16_t cj = SaturatingAddInt16(kept, added);
        if (p.clip) {
          if (cj > p.cell_clip) cj = p.cell_clip;
          if (cj < -p.cell_clip) cj = static_cast<std::int16_t>(-p.cell_clip);
        }
        c[j] = cj;
        const std::int16_t tanh_c =
            TanhInt16(cj, p.cell_tanh_multiplier, p.cell_tanh_shift);
        out[j] = static_cast<std::int8_t>(LstmProduct(
            tanh_c, g[3], p.output_hidden, p.hidden_zero_point, -128, 127));
      }
      for (std::int32_t j = 0; j < n; ++j) h[j] = out[j];
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_LSTM_HPP_
