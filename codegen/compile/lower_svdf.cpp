// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// SVDF -> k::Svdf (kernels/include/arenaplan/kernels/svdf.hpp): int8 input
// and output, int8 feature weights, and time weights and state both int16
// (state zero point 0) or both int8 (any state zero point); the state is
// kept in a static buffer outside the arena, starting as TFLM's
// ResetVariableTensors leaves it: int16 all 0, int8 all the zero point.
#include <cmath>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::ShapeText;
using tflite::Tensor;
using tflite::TensorType;

void LowerSvdf(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 5) l.Fail("expected 5 inputs");
  const Tensor& in = l.Input(op, 0);
  const Tensor& wf = l.Input(op, 1);
  const Tensor& wt = l.Input(op, 2);
  const Tensor& state = l.Input(op, 4);
  const Tensor& out = l.Output(op);
  const auto& o = l.OptionsOf<tflite::SvdfOptions>(op);
  const Affine qi = l.Int8Activation(in), qo = l.Int8Activation(out);
  const bool int8_state =
      wt.type == TensorType::kInt8 && state.type == TensorType::kInt8;
  const bool int16_state =
      wt.type == TensorType::kInt16 && state.type == TensorType::kInt16;
  if (wf.type != TensorType::kInt8 || !(int8_state || int16_state)) {
    l.Fail(
        "only int8 feature weights with time weights and state both int16 or "
        "both int8 are supported (" +
        l.Describe(wf) + " is " + tflite::TensorTypeName(wf.type) + ", " +
        l.Describe(wt) + " " + tflite::TensorTypeName(wt.type) + ", " +
        l.Describe(state) + " " + tflite::TensorTypeName(state.type) + ")");
  }
  if (!state.is_variable || l.model().IsConstant(state))
    l.Fail(l.Describe(state) + " must be a variable (state) tensor");
  if (in.shape.size() != 2 || wf.shape.size() != 2 || wt.shape.size() != 2 ||
      state.shape.size() != 2 || out.shape.size() != 2) {
    l.Fail("input, weights, state and output must be 2-D");
  }
  const std::int32_t batches = in.shape[0], input_size = in.shape[1];
  const std::int32_t filters = wf.shape[0], memory = wt.shape[1];
  const std::int32_t rank = o.rank;
  if (batches <= 0 || input_size <= 0 || filters <= 0 || memory <= 0)
    l.Fail("empty or dynamic dimension");
  if (rank <= 0 || filters % rank != 0)
    l.Fail(Fmt("rank %d does not divide the %d filters", rank, filters));
  const std::int32_t units = filters / rank;
  if (wf.shape[1] != input_size || wt.shape[0] != filters ||
      state.shape[0] != batches || state.shape[1] != filters * memory ||
      out.shape[0] != batches || out.shape[1] != units) {
    l.Fail("shapes of input " + ShapeText(in.shape) + ", feature weights " +
           ShapeText(wf.shape) + ", time weights " + ShapeText(wt.shape) +
           ", state " + ShapeText(state.shape) + " and output " +
           ShapeText(out.shape) + " do not agree");
  }
  const Affine qs = l.PerTensor(state);
  if (int16_state && qs.zero_point != 0) {
    // TFLM resets an int16 state to 0 whatever its zero point; the kernel
    // subtracts the zero point, so only 0 gives TFLM's first invocation.
    l.Fail(l.Describe(state) + " has a non-zero zero point");
  }
  const double s_wf = l.SymmetricScale(wf), s_wt = l.SymmetricScale(wt);
  const double s_state = qs.scale;
  std::string bias = "nullptr";
  if (op.inputs[3] >= 0) {
    const Tensor& b = l.Input(op, 3);
    // The kernel adds the bias at scale s_state * s_time.
    const double bs = l.SymmetricScale(b);
    if (std::abs(bs - s_state * s_wt) > 1e-3 * s_state * s_wt) {
      l.Fail(l.Describe(b) + Fmt(": bias scale %.9g differs from state scale "
                                 "x time-weight scale %.9g",
                                 bs, s_state * s_wt));
    }
    bias = l.Bias(op, units, 3);
  }
  // TFLM's PrepareSvdf forms both products in float (the tensors' float
  // scales), then widens them to double for QuantizeMultiplier.
  const float f_state = qs.scale;
  const QuantizedMultiplier m1 = l.Multiplier(
      static_cast<double>(qi.scale * static_cast<float>(s_wf) / f_state),
      "feature multiplier");
  const QuantizedMultiplier m2 = l.Multiplier(
      static_cast<double>(f_state * static_cast<float>(s_wt) / qo.scale),
      "output multiplier");
  // TFLite's integer SVDF clamps only to int8 and ignores the fused
  // activation (the converter picks an output range that already
  // expresses it); clamping to the activation's range as well gives the
  // same bytes whenever that range is all of int8 (RELU with zero point
  // -128, as in keyword_scrambled) and follows the model otherwise.
  const ActivationRange ar = l.Activation(o.activation, qo, out);
  const std::string wf_id = l.ConstInt8(wf);
  const std::string wt_id = int8_state ? l.ConstInt8(wt) : l.ConstInt16(wt);
  const std::string state_id = int8_state ? l.StateInt8(state, qs.zero_point)
                                          : l.State(state, qs.zero_point);
  l.Emit(
      Fmt("  k::Svdf(k::SvdfParams{%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, "
          "%d, %d, %d},\n",
          -qi.zero_point, qs.zero_point, qo.zero_point, ar.min, ar.max, batches,
          input_size, filters, memory, rank, m1.multiplier, m1.shift,
          m2.multiplier, m2.shift));
  l.Emit("      " + l.Addr(in) + ", " + wf_id + ", " + wt_id + ", " + bias +
         ", " + state_id + ",\n      " + l.Addr(out) + ");\n");
}

}  // namespace arenaplan::compile
