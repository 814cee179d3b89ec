// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// UNIDIRECTIONAL_SEQUENCE_LSTM -> k::SequenceLstm
// (kernels/include/arenaplan/kernels/lstm.hpp), the integer case TFLM's
// reference kernel runs (tensorflow/lite/micro/kernels/
// unidirectional_sequence_lstm.cc, parameters as lstm_eval_common.cc's
// PrepareGateParametersInteger forms them): int8 input, output and hidden
// state, int16 cell state, int8 per-tensor symmetric weights, int32 biases,
// cell gate activation TANH, no peephole, projection, layer norm or CIFG
// (inputs 9-11, 16, 17, 20-23 left out; TFLM refuses them too). float32
// (every tensor, type_rules.cpp): k::f32::SequenceLstm
// (kernels/include/arenaplan/kernels/float/lstm.hpp), float32 states kept
// as below.
//
// State: the hidden state (input 18, int8) and the cell state (input 19,
// int16) are variable tensors, kept in static buffers outside the arena
// (Lowerer::StateInt8 / State). They start as TFLM's ResetVariableTensors
// leaves them (hidden at its zero point, cell at 0), persist from one
// Invoke() to the next (each Invoke() continues the sequence), and
// ResetState() restores them. The kernel needs no scratch memory.
//
// No overlap contract: the input row of time step t is read at step t while
// output rows 0 .. t-1 are already written, and an output row (units
// elements) is longer than an input row whenever units > input_size, so an
// output sharing bytes with the input could overwrite input rows before
// they are read; the kernel promises nothing.
#include <cmath>

#include "codegen/compile/edge_types.hpp"
#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::ShapeText;
using tflite::Tensor;
using tflite::TensorType;

namespace {

/// TFLM's CheckedLog2 (quantize.hpp), its rounded value only (the cell
/// state's scale is meant to be a power of two).
std::int32_t RoundedLog2(float x) {
  std::int32_t log2 = 0;
  (void)CheckedLog2(x, &log2);
  return log2;
}

/// Refuses the inputs and options the kernel does not run (peephole,
/// projection, layer norm, CIFG; a cell activation other than TANH).
void CheckLstmOptions(Lowerer& l, const tflite::Operator& op,
                      const tflite::SequenceLstmOptions& o) {
  for (std::size_t i : {9, 10, 11, 16, 17, 20, 21, 22, 23}) {
    if (op.inputs[i] >= 0) {
      l.Fail(
          Fmt("input %zu is present: peephole, projection and layer-norm "
              "LSTMs are not supported (TFLM refuses them too)",
              i));
    }
  }
  if (o.activation != tflite::Activation::kTanh) {
    l.Fail(Fmt("cell activation %d (only TANH is supported)",
               static_cast<int>(o.activation)));
  }
}

/// Batches, time steps, input size and units (elements) of an LSTM.
struct LstmSizes {
  std::int32_t batches = 0, steps = 0, input_size = 0, units = 0;
};

/// The sizes of input `in` (3-D), hidden state `hidden` (2-D), cell state
/// `cell` and output `out` (3-D), checked to agree.
LstmSizes LstmSizesOf(Lowerer& l, const tflite::SequenceLstmOptions& o,
                      const Tensor& in, const Tensor& hidden,
                      const Tensor& cell, const Tensor& out) {
  if (in.shape.size() != 3 || out.shape.size() != 3 ||
      hidden.shape.size() != 2) {
    l.Fail("input and output must be 3-D and the hidden state 2-D (input " +
           ShapeText(in.shape) + ", output " + ShapeText(out.shape) +
           ", hidden state " + ShapeText(hidden.shape) + ")");
  }
  // TFLM's CreateLstmSizeInfo.
  const std::int32_t batches = o.time_major ? in.shape[1] : in.shape[0];
  const std::int32_t steps = o.time_major ? in.shape[0] : in.shape[1];
  const std::int32_t input_size = in.shape[2];
  const std::int32_t units = hidden.shape[1];
  if (batches <= 0 || steps <= 0 || input_size <= 0 || units <= 0)
    l.Fail("empty or dynamic dimension");
  const std::int64_t state_count = std::int64_t{batches} * units;
  if (ElementCount(hidden) != state_count ||
      ElementCount(cell) != state_count || out.shape[0] != in.shape[0] ||
      out.shape[1] != in.shape[1] || out.shape[2] != units) {
    l.Fail("shapes of input " + ShapeText(in.shape) + ", hidden state " +
           ShapeText(hidden.shape) + ", cell state " + ShapeText(cell.shape) +
           " and output " + ShapeText(out.shape) + " do not agree");
  }
  return {batches, steps, input_size, units};
}

/// The four k::LstmGate literals (weights, bias, multipliers), one a line;
/// `qi` and `qh`: the input's and the hidden state's quantization.
std::string LstmGatesText(Lowerer& l, const tflite::Operator& op,
                          std::int32_t units, std::int32_t input_size,
                          const Affine& qi, const Affine& qh) {
  // Gates in TFLite's order input, forget, cell, output: input weights
  // 1-4, recurrent weights 5-8, biases 12-15.
  constexpr float kGateScale = 1.0f / 4096.0f;  // Q3.12, 2^-12
  std::string gates;
  static const char* const kNames[4] = {"input", "forget", "cell", "output"};
  for (std::size_t g = 0; g < 4; ++g) {
    const Tensor& wi = l.Input(op, 1 + g);
    const Tensor& wr = l.Input(op, 5 + g);
    for (const Tensor* w : {&wi, &wr}) {
      if (w->type != TensorType::kInt8 || !l.model().IsConstant(*w)) {
        l.Fail(l.Describe(*w) + " must be constant int8 weights");
      }
    }
    if (wi.shape != std::vector<std::int32_t>{units, input_size} ||
        wr.shape != std::vector<std::int32_t>{units, units}) {
      l.Fail(l.Describe(wi) + " " + ShapeText(wi.shape) + " or " +
             l.Describe(wr) + " " + ShapeText(wr.shape) +
             Fmt(" is not [%d,%d] / [%d,%d]", units, input_size, units, units));
    }
    // TFLM's LSTM applies one multiplier per gate FC (per-tensor): a
    // per-channel scale would be ignored there, so refuse it.
    const float si = l.SymmetricScale(wi), sr = l.SymmetricScale(wr);
    // GetQuantizedConvolutionMultipler: the float product of the scales,
    // widened, divided by the output scale in double.
    const QuantizedMultiplier mi = l.Multiplier(
        static_cast<double>(qi.scale * si) / static_cast<double>(kGateScale),
        std::string(kNames[g]) + " gate input multiplier");
    const QuantizedMultiplier mr = l.Multiplier(
        static_cast<double>(qh.scale * sr) / static_cast<double>(kGateScale),
        std::string(kNames[g]) + " gate recurrent multiplier");
    const std::string bias = l.Bias(op, units, 12 + g);
    gates += Fmt("          k::LstmGate{%s, %s, %s, %d, %d, %d, %d},\n",
                 l.ConstInt8(wi).c_str(), l.ConstInt8(wr).c_str(), bias.c_str(),
                 mi.multiplier, mi.shift, mr.multiplier, mr.shift);
  }
  return gates;
}

/// The float32 LSTM (kernels/float/lstm.hpp): every tensor FLOAT32, the
/// states variable, weights and biases constant.
void LowerSequenceLstmF32(Lowerer& l, const tflite::Operator& op,
                          const tflite::SequenceLstmOptions& o) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& hidden = l.Input(op, 18);
  const Tensor& cell = l.Input(op, 19);
  const Tensor& out = l.Output(op);
  for (const Tensor* s : {&hidden, &cell}) {
    if (s->type != TensorType::kFloat32)
      l.Fail(l.Describe(*s) + " is " + tflite::TensorTypeName(s->type) +
             "; a float32 LSTM needs float32 states");
    if (!s->is_variable || l.model().IsConstant(*s))
      l.Fail(l.Describe(*s) + " must be a variable (state) tensor");
  }
  const LstmSizes z = LstmSizesOf(l, o, in, hidden, cell, out);
  std::string gates;
  for (std::size_t g = 0; g < 4; ++g) {
    const Tensor& wi = l.Input(op, 1 + g);
    const Tensor& wr = l.Input(op, 5 + g);
    for (const Tensor* w : {&wi, &wr}) {
      if (w->type != TensorType::kFloat32 || !l.model().IsConstant(*w))
        l.Fail(l.Describe(*w) + " must be constant float32 weights");
    }
    if (wi.shape != std::vector<std::int32_t>{z.units, z.input_size} ||
        wr.shape != std::vector<std::int32_t>{z.units, z.units}) {
      l.Fail(l.Describe(wi) + " " + ShapeText(wi.shape) + " or " +
             l.Describe(wr) + " " + ShapeText(wr.shape) +
             Fmt(" is not [%d,%d] / [%d,%d]", z.units, z.input_size, z.units,
                 z.units));
    }
    gates += Fmt("          k::f32::LstmGate{%s, %s, %s},\n",
                 l.ConstFloat(wi).c_str(), l.ConstFloat(wr).c_str(),
                 l.FloatBias(op, z.units, 12 + g).c_str());
  }
  l.Emit(Fmt("  k::f32::SequenceLstm(\n      k::f32::SequenceLstmParams{%d, "
             "%d, %d, %d, %s,\n        {\n",
             z.batches, z.steps, z.input_size, z.units,
             o.time_major ? "true" : "false") +
         gates +
         Fmt("        },\n        %s},\n",
             ExactFloatLiteral(o.cell_clip).c_str()));
  l.Emit("      " + l.TypedAddr(in, "float") + ", " + l.StateFloat(hidden) +
         ", " + l.StateFloat(cell) + ", " + l.TypedAddr(out, "float") + ");\n");
}

}  // namespace

void LowerUnidirectionalSequenceLstm(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 24) l.Fail("expected 24 inputs");
  const auto& o = l.OptionsOf<tflite::SequenceLstmOptions>(op);
  CheckLstmOptions(l, op, o);
  if (CheckTypes(l, op)[0] == TensorType::kFloat32) {
    LowerSequenceLstmF32(l, op, o);
    return;
  }
  const Tensor& in = l.Input(op, 0);
  const Tensor& hidden = l.Input(op, 18);
  const Tensor& cell = l.Input(op, 19);
  const Tensor& out = l.Output(op);
  const Affine qi = l.Int8Activation(in);
  const Affine qh = l.Int8Activation(hidden);
  (void)l.Int8Activation(out);
  if (cell.type != TensorType::kInt16) {
    l.Fail(l.Describe(cell) + " is " + tflite::TensorTypeName(cell.type) +
           "; only an int16 cell state is supported");
  }
  const Affine qc = l.PerTensor(cell);
  for (const Tensor* s : {&hidden, &cell}) {
    if (!s->is_variable || l.model().IsConstant(*s))
      l.Fail(l.Describe(*s) + " must be a variable (state) tensor");
  }
  const LstmSizes z = LstmSizesOf(l, o, in, hidden, cell, out);
  const std::int32_t batches = z.batches, steps = z.steps,
                     input_size = z.input_size, units = z.units;
  const std::string gates = LstmGatesText(l, op, units, input_size, qi, qh);
  // CreateLstmCellStateInfo and the inter-gate multiplications of
  // PrepareGateParametersInteger (gate outputs are Q0.15, 2^-15).
  const std::int32_t power = RoundedLog2(qc.scale);
  std::int32_t tanh_shift = 15 + power - 3, tanh_multiplier = 0;
  if (tanh_shift < 0) {
    tanh_shift = -tanh_shift;
    tanh_multiplier = 3;
  }
  // TanhInt16 multiplies the int16 cell value by 3 << shift in int32 when
  // the multiplier is 0: 32768 * 3 * 2^14 < 2^31, so a shift of at most 14
  // there (a cell scale up to 4).
  if ((tanh_multiplier == 0 && tanh_shift > 14) || tanh_shift > 16) {
    l.Fail(l.Describe(cell) + Fmt(": cell scale %.9g is out of range",
                                  static_cast<double>(qc.scale)));
  }
  const bool clip = o.cell_clip > 0.0f;
  std::int32_t cell_clip = 0;
  if (clip) {
    const double q =
        static_cast<double>(o.cell_clip) / static_cast<double>(qc.scale);
    cell_clip =
        static_cast<std::int16_t>(std::fmin(std::fmax(q, -32768.0), 32767.0));
  }
  const double gate_out = 1.0 / 32768.0;
  const double cs = qc.scale;
  const QuantizedMultiplier m_forget =
      l.Multiplier(gate_out * cs / cs, "forget x cell multiplier");
  const QuantizedMultiplier m_input =
      l.Multiplier(gate_out * gate_out / cs, "input x cell gate multiplier");
  const QuantizedMultiplier m_output =
      l.Multiplier(gate_out * gate_out / static_cast<double>(qh.scale),
                   "output x tanh(cell) multiplier");
  // The kernel adds the hidden zero point to the rescaled product of two
  // int16 values (|x * y| <= 32767^2 < 2^30): with a multiplier below 2
  // (shift <= 1) the result stays below 2^31 - 2^17, so the sum cannot
  // overflow.
  if (m_output.shift > 1) {
    l.Fail(l.Describe(hidden) +
           Fmt(": scale %.9g makes the output x tanh(cell) multiplier 2 or "
               "more",
               static_cast<double>(qh.scale)));
  }
  const std::string hidden_id = l.StateInt8(hidden, qh.zero_point);
  // TFLM resets a variable int16 tensor to 0 whatever its zero point (the
  // kernel treats the cell state as symmetric).
  const std::string cell_id = l.State(cell, 0);
  l.Emit(Fmt("  k::SequenceLstm(\n      k::SequenceLstmParams{%d, %d, %d, "
             "%d, %s, %d, %d, %d,\n        {\n",
             batches, steps, input_size, units, o.time_major ? "true" : "false",
             -qi.zero_point, -qh.zero_point, qh.zero_point) +
         gates +
         Fmt("        },\n        %d, %d, %s, %d, {%d, %d}, {%d, %d}, {%d, "
             "%d}},\n",
             tanh_multiplier, tanh_shift, clip ? "true" : "false", cell_clip,
             m_forget.multiplier, m_forget.shift, m_input.multiplier,
             m_input.shift, m_output.multiplier, m_output.shift));
  l.Emit("      " + l.Addr(in) + ", " + hidden_id + ", " + cell_id + ", " +
         l.Addr(out) + ");\n");
}

}  // namespace arenaplan::compile
