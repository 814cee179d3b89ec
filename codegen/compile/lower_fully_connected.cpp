// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// FULLY_CONNECTED -> k::FullyConnectedFast
// (kernels/include/arenaplan/kernels/fast_fully_connected.hpp; the same
// bytes as fully_connected.hpp's reference kernel) with the input offset
// folded into the bias here: int8 input and output, int8 symmetric weights
// [units, depth] (per-tensor or per-unit), int32 bias; the input is read as
// batches x depth. Per-unit weights with negative scales (negative
// requantization multipliers, which TFLite runs and the fast output stage
// does not take): those units' weights, biases and multipliers negated
// where that gives the same bytes (NegateNegativeChannels, quantize.hpp),
// else k::FullyConnected (fully_connected.hpp), whose
// MultiplyByQuantizedMultiplier takes any multiplier, with the bias as it
// is. TFLite refuses a negative per-tensor scale, and so does
// ChannelMultipliers.
#include <algorithm>
#include <cinttypes>
#include <vector>

#include "arenaplan/kernels/fast_fully_connected.hpp"
#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

FullyConnectedShape CheckFullyConnected(const Lowerer& l,
                                        const tflite::Operator& op) {
  const tflite::Tensor& in = l.Input(op, 0);
  const tflite::Tensor& w = l.Input(op, 1);
  const tflite::Tensor& out = l.Output(op);
  const auto& o = l.OptionsOf<tflite::FullyConnectedOptions>(op);
  if (o.weights_format != 0) l.Fail("shuffled weights are not supported");
  if (w.shape.size() != 2)
    l.Fail(l.Describe(w) + " must be 2-D [units, depth]");
  const std::int32_t units = w.shape[0], depth = w.shape[1];
  if (units <= 0 || depth <= 0)
    l.Fail(l.Describe(w) + " has an empty dimension");
  const std::int64_t in_count = ElementCount(in);
  if (in_count <= 0 || in_count % depth != 0) {
    l.Fail(Fmt("input elements (%" PRId64
               ") are not a multiple of the depth %d",
               in_count, depth));
  }
  const std::int64_t batches = in_count / depth;
  if (ElementCount(out) != batches * units)
    l.Fail("output size does not match batches x units");
  return {batches, depth, units};
}

void LowerFullyConnected(Lowerer& l, const tflite::Operator& op) {
  const tflite::TensorType type = CheckTypes(l, op)[0];
  if (type == tflite::TensorType::kFloat32) {
    LowerFullyConnectedF32(l, op);
    return;
  }
  if (type == tflite::TensorType::kInt16) {
    LowerFullyConnected16x8(l, op);  // lower_conv16x8.cpp
    return;
  }
  const auto [in, w, out, qi, qo] = l.Layer(op);
  const auto& o = l.OptionsOf<tflite::FullyConnectedOptions>(op);
  const auto [batches, depth, units] = CheckFullyConnected(l, op);
  const ActivationRange ar = l.Activation(o.activation, qo, out);
  // TFLite forms a per-tensor FULLY_CONNECTED multiplier from the float
  // product of the scales (and refuses a negative one), a per-channel one in
  // double.
  const auto product = w.quantization.scale.size() == 1
                           ? Lowerer::ScaleProduct::kFloat
                           : Lowerer::ScaleProduct::kDouble;
  std::vector<QuantizedMultiplier> mq =
      l.ChannelMultipliers(w, units, 0, qi.scale, qo.scale, product);
  std::vector<std::int8_t> wv = l.Int8Values(w);
  std::vector<std::int32_t> bv = l.BiasValues(op, units);
  const bool negative = std::any_of(
      mq.begin(), mq.end(),
      [](const QuantizedMultiplier& m) { return m.multiplier < 0; });
  const bool fast = !negative || NegateNegativeChannels(wv, true, bv, mq);
  const std::string weights =
      fast && negative
          ? l.EmitInt8Array(Fmt("kWeights%zu", l.OperatorIndex()),
                            Fmt("operator %zu: weights, negative-scale units "
                                "negated",
                                l.OperatorIndex()),
                            wv)
          : l.ConstInt8(w);
  std::string bias;
  if (fast) {
    // bias + input offset * (weight row sums): the flash of the bias it
    // replaces (4 * units bytes more when the operator has none).
    std::vector<std::int32_t> folded(static_cast<std::size_t>(units));
    arenaplan::kernels::FoldFullyConnectedBias(
        -qi.zero_point, units, depth, wv.data(),
        bv.empty() ? nullptr : bv.data(), folded.data());
    bias = l.EmitInt32Array(
        Fmt("kFoldedBias%zu", l.OperatorIndex()),
        Fmt("operator %zu: bias + input offset * weight row sums%s",
            l.OperatorIndex(),
            negative ? ", negative-scale units negated" : ""),
        folded);
  } else {
    bias = l.Bias(op, units);
  }
  const std::string quant = l.EmitChannelQuant(mq);
  l.Emit(Fmt("  k::%s(k::FullyConnectedParams{%d, %d, %d, %d, %" PRId64
             ", %d, %d},\n",
             fast ? "FullyConnectedFast" : "FullyConnected", -qi.zero_point,
             qo.zero_point, ar.min, ar.max, batches, depth, units));
  // A constant input (e.g. a zero state folded at generation time,
  // codegen/tflite/fold.hpp) is read from its array.
  const std::string input =
      l.model().IsConstant(in) ? l.ConstInt8(in) : l.Addr(in);
  l.Emit("      " + input + ", " + weights + ", " + bias + ", " + quant +
         ",\n      " + l.Addr(out) + ");\n");
}

}  // namespace arenaplan::compile
