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

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

/// sigmoid(i / 24) in unsigned 0.16 fixed point for i = 0 .. 255 (the last
/// entry 65535): the table TFLite's int16 LOGISTIC and TANH interpolate in
/// (tensorflow/lite/kernels/internal/common.h, sigmoid_table_uint16).
inline constexpr std::uint16_t kSigmoidTable[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498,
    40149, 40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255,
    46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865,
    52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174,
    56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544, 58800, 59048, 59288,
    59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279, 61441,
    61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886,
    62990, 63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835,
    63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450,
    64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845,
    64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097,
    65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
    65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425,
    65429, 65433, 65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465,
    65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508,
    65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516, 65517, 65517, 65518,
    65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524, 65525,
    65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529,
    65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531,
    65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533,
    65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65535};

/// The int16 sigmoid of a Q3.12 value x (real x / 4096) as Q0.15 (real
/// result / 32768, in [1, 32767]), TFLite's reference_integer_ops::Logistic
/// with multiplier 0 and shift 0: 3|x| / 2^9 is |x| in steps of 1/24
/// (2^9 / 3 / 2^12 = 1/24), its high bits index the table, its low 9 bits
/// interpolate between two entries; sigmoid(-x) = 1 - sigmoid(x).
[[nodiscard]] constexpr std::int16_t SigmoidQ312(std::int16_t x) {
  const std::int32_t v = static_cast<std::int32_t>(x) * 3;
  const std::uint32_t a = static_cast<std::uint32_t>(v < 0 ? -v : v);
  const std::uint32_t index = a >> 9;
  std::uint32_t r = 0;
  if (index >= 255) {
    r = std::uint32_t{0x7FFF} << 10;
  } else {
    const std::uint32_t lo = kSigmoidTable[index];
    const std::uint32_t hi = kSigmoidTable[index + 1];
    r = (lo << 9) + (a & 0x1FFu) * (hi - lo);
  }
  // sigmoid(-x) = 1 - sigmoid(x); round to nearest and drop 10 bits.
  r = v >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
  return static_cast<std::int16_t>(r >> 10);
}

/// The int16 tanh of TFLite's reference_integer_ops::Tanh with its
/// (input_multiplier, input_left_shift): multiplier 0 means 3 << shift and
/// no shift; otherwise x * multiplier is shifted right by `shift`, rounding
/// half up. The scaled |v| / 2^8 is 2|x| in steps of 1/24 (for a Q3.12 x:
/// multiplier 3, shift 0, as 2^8 / 3 / 2^12 = 1/48), since tanh(y) =
/// 2 sigmoid(2y) - 1; high bits index the table, the low 8 bits
/// interpolate. Result Q0.15 in [-32767, 32767].
[[nodiscard]] constexpr std::int16_t TanhInt16(std::int16_t x,
                                               std::int32_t multiplier,
                                               std::int32_t shift) {
  if (multiplier == 0) {
    multiplier = 3 << shift;
    shift = 0;
  }
  const std::int32_t round = shift > 0 ? (1 << (shift - 1)) : 0;
  const std::int32_t v =
      (static_cast<std::int32_t>(x) * multiplier + round) >> shift;
  const std::uint32_t a = static_cast<std::uint32_t>(v < 0 ? -v : v);
  const std::uint32_t index = a >> 8;
  std::int32_t r = 0;
  if (index >= 255) {
    r = static_cast<std::int32_t>(std::uint32_t{0xFFFF} << 8);
  } else {
    const std::uint32_t lo = kSigmoidTable[index];
    const std::uint32_t hi = kSigmoidTable[index + 1];
    r = static_cast<std::int32_t>((lo << 8) + (a & 0xFFu) * (hi - lo));
  }
  r = v >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
  return static_cast<std::int16_t>(r >> 8);
}

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
