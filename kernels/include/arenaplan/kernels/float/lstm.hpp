// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// UNIDIRECTIONAL_SEQUENCE_LSTM on float32 (input, weights, biases, hidden
// and cell state), the arithmetic of TensorFlow Lite Micro's reference
// kernel (lstm_eval.h EvalLstm<float, float, float, float>): the standard
// LSTM only (no peephole, projection, layer norm or CIFG). For every
// sequence row (batch b, time t) and unit j, with h and c the states before
// the step, every operation rounded to float in this order:
//   fc_in  = (sum_i x[i] w_g[j][i], from 0.0f, i ascending) + bias_g[j]
//            (0.0f without a bias), clamped to [lowest, max];
//   fc_rec = (sum_k h[k] r_g[j][k], from 0.0f, k ascending) + 0.0f, clamped;
//   gate_g = act_g(fc_in + fc_rec): logistic (TFLite's cut-offs) for input,
//            forget and output, tanh for the cell gate;
//   c[j] = clamp(forget * c[j]) + clamp(input * cell); then
//          min(max(c[j], -clip), clip) when clip > 0;
//   h[j] = clamp(tanh(c[j]) * output); the output row is the new h.
// clamp is the fused-activation clamp to [lowest, max] TFLM applies
// (activation.hpp's Activate: infinities become +-FLT_MAX, NaN passes).
// exp and tanh are math.hpp's (within 1-3 ULP of glibc, not bit-exact), so
// gates, states and outputs can differ from TFLM's by a few ULP, and the
// difference can grow over time steps through the recurrence (the
// lowering's test bounds it).
//
// The new h values go to the output row first and are copied into h after
// the row's last unit (every unit reads the previous h); each unit reads
// and writes only its own cell element. No scratch memory. Batches are
// independent, so a time-major input gives the same values batch by batch.
// No overlap contract (as lstm.hpp).
#ifndef ARENAPLAN_KERNELS_FLOAT_LSTM_HPP_
#define ARENAPLAN_KERNELS_FLOAT_LSTM_HPP_

#include <cstdint>

#include "arenaplan/kernels/float/activation.hpp"
#include "arenaplan/kernels/float/math.hpp"
#include "arenaplan/kernels/float/transcendental.hpp"

namespace arenaplan::kernels::f32 {

/// One gate's constants (flash, not owned).
struct LstmGate {
  const float* input_weights;      ///< [units][input_size].
  const float* recurrent_weights;  ///< [units][units].
  const float* bias;               ///< [units], or nullptr (adds 0.0f).
};

struct SequenceLstmParams {
  std::int32_t batches, steps, input_size, units;
  bool time_major;    ///< Input [steps][batches][input_size] when true,
                      ///< else [batches][steps][input_size].
  LstmGate gates[4];  ///< input, forget, cell, output (TFLite's order).
  float cell_clip;    ///< Applied when > 0.
};

namespace detail {

/// The clamp of TFLite's float activation NONE: [lowest, max].
inline constexpr ActivationRange kNoActivation = {-0x1.fffffep+127f,
                                                  0x1.fffffep+127f};

/// Gate g of unit j before its activation (header comment).
inline float LstmGateInput(const SequenceLstmParams& p, const LstmGate& g,
                           std::int32_t j, const float* x, const float* h) {
  float in = 0.0f;
  const float* w = g.input_weights + j * p.input_size;
  for (std::int32_t i = 0; i < p.input_size; ++i) in += x[i] * w[i];
  in = Activate(in + (g.bias != nullptr ? g.bias[j] : 0.0f), kNoActivation);
  float rec = 0.0f;
  const float* r = g.recurrent_weights + j * p.units;
  for (std::int32_t k = 0; k < p.units; ++k) rec += h[k] * r[k];
  rec = Activate(rec + 0.0f, kNoActivation);
  return in + rec;
}

}  // namespace detail

/// UNIDIRECTIONAL_SEQUENCE_LSTM on float32 (header comment). `hidden` and
/// `cell` ([batches][units]) carry the state from one call to the next.
inline void SequenceLstm(const SequenceLstmParams& p, const float* input,
                         float* hidden, float* cell, float* output) {
  const ActivationRange none = detail::kNoActivation;
  for (std::int32_t b = 0; b < p.batches; ++b) {
    float* h = hidden + b * p.units;
    float* c = cell + b * p.units;
    for (std::int32_t t = 0; t < p.steps; ++t) {
      const std::int32_t row =
          p.time_major ? t * p.batches + b : b * p.steps + t;
      const float* x = input + row * p.input_size;
      float* out = output + row * p.units;
      for (std::int32_t j = 0; j < p.units; ++j) {
        const float ig =
            LogisticOf(detail::LstmGateInput(p, p.gates[0], j, x, h));
        const float fg =
            LogisticOf(detail::LstmGateInput(p, p.gates[1], j, x, h));
        const float cg = Tanh(detail::LstmGateInput(p, p.gates[2], j, x, h));
        const float og =
            LogisticOf(detail::LstmGateInput(p, p.gates[3], j, x, h));
        float cj = Activate(fg * c[j], none) + Activate(ig * cg, none);
        if (p.cell_clip > 0.0f) {
          // TFLite's max(min(clip, c), -clip), NaN included.
          cj = cj < p.cell_clip ? cj : p.cell_clip;
          cj = cj < -p.cell_clip ? -p.cell_clip : cj;
        }
        c[j] = cj;
        out[j] = Activate(Tanh(cj) * og, none);
      }
      for (std::int32_t j = 0; j < p.units; ++j) h[j] = out[j];
    }
  }
}

}  // namespace arenaplan::kernels::f32

#endif  // ARENAPLAN_KERNELS_FLOAT_LSTM_HPP_
