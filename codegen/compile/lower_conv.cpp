// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// CONV_2D and DEPTHWISE_CONV_2D -> k::Conv2DFast / k::DepthwiseConv2DFast
// (kernels/include/arenaplan/kernels/fast_conv.hpp; the same bytes as
// conv.hpp's reference kernels) with the input offset folded into the bias
// here; a depthwise convolution with depth multiplier > 1 or more than
// k::kMaxDepthwiseTaps taps ->
// k::DepthwiseConv2D (conv.hpp). int8 activations, int8 symmetric
// per-channel filters, int32 bias, dilation 1. The operator's geometry is
// accepted by tflite::CheckConv (codegen/tflite/geometry.hpp), the same
// check as its overlap contract.
#include <vector>

#include "arenaplan/kernels/fast_conv.hpp"
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
  // The fast kernels take bias + input offset * (filter sums), one int32
  // per output channel: the same flash as the bias it replaces (4 * out_c
  // bytes more when the operator has no bias).
  const bool fast = !depthwise || (g.depth_multiplier == 1 &&
                                   g.filter.h * g.filter.w <=
                                       arenaplan::kernels::kMaxDepthwiseTaps);
  std::string bias;
  if (fast) {
    const std::vector<std::int8_t> wv = l.Int8Values(w);
    const std::vector<std::int32_t> bv = l.BiasValues(op, out_c);
    std::vector<std::int32_t> folded(static_cast<std::size_t>(out_c));
    const arenaplan::kernels::Shape4 f{g.filter.n, g.filter.h, g.filter.w,
                                       g.filter.c};
    (depthwise ? arenaplan::kernels::FoldDepthwiseBias
               : arenaplan::kernels::FoldConvBias)(
        -qi.zero_point, f, wv.data(), bv.empty() ? nullptr : bv.data(),
        folded.data());
    bias =
        l.EmitInt32Array(Fmt("kFoldedBias%zu", l.OperatorIndex()),
                         Fmt("operator %zu: bias + input offset * filter sums",
                             l.OperatorIndex()),
                         folded);
  } else {
    bias = l.Bias(op, out_c);
  }
  const std::string quant =
      l.ChannelQuant(w, out_c, depthwise ? 3 : 0, qi.scale, qo.scale);
  const char* kernel = depthwise
                           ? (fast ? "DepthwiseConv2DFast" : "DepthwiseConv2D")
                           : "Conv2DFast";
  l.Emit(Fmt("  k::%s(k::ConvParams{%d, %d, %d, %d, %d, %d, %d, %d, %d},\n",
             kernel, -qi.zero_point, qo.zero_point, ar.min, ar.max, g.stride_h,
             g.stride_w, g.pad_h.pad_before, g.pad_w.pad_before,
             g.depth_multiplier));
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
