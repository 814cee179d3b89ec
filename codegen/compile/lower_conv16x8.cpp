// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV and FULLY_CONNECTED with int16
// activations and int8 weights ("16x8", the (INT16, INT8, INT16) line of
// type_rules.cpp) -> k::int16::Conv2D / DepthwiseConv2D / TransposeConv /
// FullyConnected (kernels/include/arenaplan/kernels/int16/). As TFLM's conv.cc,
// depthwise_conv.cc and transpose_conv.cc run them: symmetric int16
// activations (zero point 0: TFLM's 16x8 kernels read no offset, so a
// non-zero one is refused), int8 symmetric filters per tensor or per output
// channel (multipliers as the int8 layers', in double), and the bias type
// choosing the accumulator: CONV_2D / DEPTHWISE_CONV_2D an INT64 bias or
// none -> 64 bits, an INT32 bias -> 32 bits; TRANSPOSE_CONV always 64 bits,
// with an INT64 or INT16 bias (widened here). FULLY_CONNECTED as TFLM's
// fully_connected.cc: an INT64 bias -> 64 bits, an INT32 bias -> 32 bits,
// no bias -> the options' quantized_bias_type (INT32: 32 bits, else 64);
// its activations may have zero points (TFLM reads its offsets), its
// per-tensor multiplier is formed from the float product of the scales (as
// the int8 layer's). The output range is the fused activation's within
// int16.
#include <string>

#include "codegen/compile/lowering.hpp"
#include "codegen/tflite/geometry.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

Affine SymmetricInt16(const Lowerer& l, const Tensor& t) {
  const Affine q = l.PerTensor(t);
  if (q.zero_point != 0) {
    l.Fail(l.Describe(t) +
           Fmt(" has zero point %d; int16 activations of a 16x8 layer must "
               "have zero point 0",
               q.zero_point));
  }
  return q;
}

std::string Quant16x8(Lowerer& l, const Tensor& w, std::int32_t channels,
                      std::int32_t dimension, const Affine& qi,
                      const Affine& qo, bool wide_acc,
                      Lowerer::ScaleProduct product) {
  const auto m =
      l.ChannelMultipliers(w, channels, dimension, qi.scale, qo.scale, product);
  for (const QuantizedMultiplier& q : m) {
    if (wide_acc && q.shift > 7) {
      l.Fail(l.Describe(w) +
             Fmt(": requantization shift %d is above 7 (the 64-bit output "
                 "stage takes -31..7)",
                 q.shift));
    }
  }
  return l.EmitChannelQuant(m);
}

void LowerConv16x8(Lowerer& l, const tflite::Operator& op, bool depthwise) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& w = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  const Affine qi = SymmetricInt16(l, in), qo = SymmetricInt16(l, out);
  if (!l.model().IsConstant(w)) {
    l.Fail(l.Describe(w) + ": the filter must be a constant INT8 tensor");
  }
  const tflite::ConvGeometry g =
      l.Accept(tflite::CheckConv(op, in, w, out, depthwise));
  const std::int32_t out_c = g.out.c;
  const ActivationRange ar = l.Activation(g.activation, qo, out);
  // TFLM: an INT32 bias accumulates in 32 bits; an INT64 bias or none in 64.
  const bool has_bias = op.inputs.size() > 2 && op.inputs[2] >= 0;
  const bool acc32 = has_bias && l.Input(op, 2).type == TensorType::kInt32;
  const std::string filter = l.ConstInt8(w);
  const std::string bias =
      acc32 ? l.Bias(op, out_c) : l.Int64Bias(op, out_c, 2, false);
  const std::string quant =
      Quant16x8(l, w, out_c, depthwise ? 3 : 0, qi, qo, !acc32);
  const bool dilated = g.dilation_h != 1 || g.dilation_w != 1;
  const std::string fields =
      Fmt("{0, 0, %d, %d, %d, %d, %d, %d, %d}", ar.min, ar.max, g.stride_h,
          g.stride_w, g.pad_h.pad_before, g.pad_w.pad_before,
          depthwise ? g.depth_multiplier : 1);
  const std::string params =
      dilated ? Fmt("k::DilatedConvParams{%s, %d, %d}", fields.c_str(),
                    g.dilation_h, g.dilation_w)
              : "k::ConvParams" + fields;
  l.Emit(
      "  k::int16::" + std::string(depthwise ? "DepthwiseConv2D" : "Conv2D") +
      "(" + params + ",\n");
  l.Emit("      " + Dims4{g.in}.Code() + ", " +
         l.TypedAddr(in, "std::int16_t") + ",\n");
  l.Emit("      " + Dims4{g.filter}.Code() + ", " + filter + ", " + bias +
         ",\n");
  l.Emit("      " + quant + ",\n");
  l.Emit("      " + Dims4{g.out}.Code() + ", " +
         l.TypedAddr(out, "std::int16_t") + ");\n");
  StateConvOverlap(l, in, out, g, depthwise);  // int16/conv.hpp
}

void LowerFullyConnected16x8(Lowerer& l, const tflite::Operator& op) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& w = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  const Affine qi = l.PerTensor(in), qo = l.PerTensor(out);
  if (!l.model().IsConstant(w)) {
    l.Fail(l.Describe(w) + ": the weights must be a constant INT8 tensor");
  }
  const auto& o = l.OptionsOf<tflite::FullyConnectedOptions>(op);
  const auto [batches, depth, units] = CheckFullyConnected(l, op);
  const ActivationRange ar = l.Activation(o.activation, qo, out);
  const bool has_bias = op.inputs.size() > 2 && op.inputs[2] >= 0;
  const bool acc32 = has_bias
                         ? l.Input(op, 2).type == TensorType::kInt32
                         : o.quantized_bias_type ==
                               static_cast<std::int8_t>(TensorType::kInt32);
  const std::string weights = l.ConstInt8(w);
  std::string bias =
      acc32 ? l.Bias(op, units) : l.Int64Bias(op, units, 2, false);
  if (bias == "nullptr") bias = "static_cast<const std::int32_t*>(nullptr)";
  const auto product = w.quantization.scale.size() == 1
                           ? Lowerer::ScaleProduct::kFloat
                           : Lowerer::ScaleProduct::kDouble;
  const std::string quant = Quant16x8(l, w, units, 0, qi, qo, !acc32, product);
  l.Emit(Fmt(
      "  k::int16::FullyConnected(k::FullyConnectedParams{%d, %d, "
      "%d, %d, %d, %d, %d},\n",
      -qi.zero_point, qo.zero_point, ar.min, ar.max, static_cast<int>(batches),
      static_cast<int>(depth), static_cast<int>(units)));
  const std::string input = l.model().IsConstant(in)
                                ? l.ConstInt16(in)
                                : l.TypedAddr(in, "std::int16_t");
  l.Emit("      " + input + ", " + weights + ", " + bias + ", " + quant +
         ",\n      " + l.TypedAddr(out, "std::int16_t") + ");\n");
}

}  // namespace arenaplan::compile
