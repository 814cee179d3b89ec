// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// CONV_2D and DEPTHWISE_CONV_2D -> k::Conv2D / k::DepthwiseConv2D
// (kernels/include/arenaplan/kernels/conv.hpp): int8 activations, int8
// symmetric per-channel filters, int32 bias, dilation 1. The operator's
// geometry is accepted by tflite::CheckConv (codegen/tflite/geometry.hpp),
// the same check as its overlap contract.
#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {
namespace {

void LowerConv(Lowerer& l, const tflite::Operator& op, bool depthwise) {
  const auto [in, w, out, qi, qo] = l.Layer(op);
  const tflite::ConvGeometry g =
      l.Accept(tflite::CheckConv(op, in, w, out, depthwise));
  const std::int32_t out_c = g.out.c;
  const ActivationRange ar = l.Activation(g.activation, qo, out);
  const std::string filter = l.ConstInt8(w);
  const std::string bias = l.Bias(op, out_c);
  const std::string quant =
      l.ChannelQuant(w, out_c, depthwise ? 3 : 0, qi.scale, qo.scale);
  l.Emit(Fmt("  k::%s(k::ConvParams{%d, %d, %d, %d, %d, %d, %d, %d, %d},\n",
             depthwise ? "DepthwiseConv2D" : "Conv2D", -qi.zero_point,
             qo.zero_point, ar.min, ar.max, g.stride_h, g.stride_w,
             g.pad_h.pad_before, g.pad_w.pad_before, g.depth_multiplier));
  l.Emit("      " + l.Operand(g.in, in) + ",\n");
  l.Emit("      " + Dims4{g.filter}.Code() + ", " + filter + ", " + bias +
         ",\n");
  l.Emit("      " + quant + ",\n");
  l.Emit("      " + l.Operand(g.out, out) + ");\n");
}

}  // namespace

void LowerConv2D(Lowerer& lowerer, const tflite::Operator& op) {
  LowerConv(lowerer, op, /*depthwise=*/false);
}

void LowerDepthwiseConv2D(Lowerer& lowerer, const tflite::Operator& op) {
  LowerConv(lowerer, op, /*depthwise=*/true);
}

}  // namespace arenaplan::compile
