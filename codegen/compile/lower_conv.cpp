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
  // A depthwise convolution of one input channel is a convolution whose
  // output channel oc has the depthwise filter's channel oc as its
  // [kh, kw, 1] filter: the filter transposed here (the same bytes of
  // flash), then Conv2DFast (whose reads after each output byte are a
  // subset of the depthwise reference's: the depthwise overlap contract
  // holds).
  const bool as_conv = depthwise && g.in.c == 1;
  std::vector<std::int8_t> wv = l.Int8Values(w);
  std::string filter;
  if (as_conv) {
    const std::int32_t taps = g.filter.h * g.filter.w;
    std::vector<std::int8_t> t(wv.size());
    for (std::int32_t oc = 0; oc < out_c; ++oc) {
      for (std::int32_t k = 0; k < taps; ++k) {
        t[static_cast<std::size_t>(oc * taps + k)] =
            wv[static_cast<std::size_t>(k * out_c + oc)];
      }
    }
    wv = t;
    filter = l.EmitInt8Array(
        Fmt("kConvFilter%zu", l.OperatorIndex()),
        Fmt("operator %zu: depthwise filter as [out_c, kh, kw, 1]",
            l.OperatorIndex()),
        wv);
  } else {
    filter = l.ConstInt8(w);
  }
  // The fast kernels take bias + input offset * (filter sums), one int32
  // per output channel: the same flash as the bias it replaces (4 * out_c
  // bytes more when the operator has no bias).
  const bool fast =
      !depthwise || as_conv ||
      (g.depth_multiplier == 1 &&
       g.filter.h * g.filter.w <= arenaplan::kernels::kMaxDepthwiseTaps);
  std::string bias;
  if (fast) {
    const std::vector<std::int32_t> bv = l.BiasValues(op, out_c);
    std::vector<std::int32_t> folded(static_cast<std::size_t>(out_c));
    const arenaplan::kernels::Shape4 f =
        as_conv ? arenaplan::kernels::Shape4{out_c, g.filter.h, g.filter.w, 1}
                : arenaplan::kernels::Shape4{g.filter.n, g.filter.h, g.filter.w,
                                             g.filter.c};
    (depthwise && !as_conv ? arenaplan::kernels::FoldDepthwiseBias
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
  const char* kernel = depthwise && !as_conv
                           ? (fast ? "DepthwiseConv2DFast" : "DepthwiseConv2D")
                           : "Conv2DFast";
  l.Emit(Fmt("  k::%s(k::ConvParams{%d, %d, %d, %d, %d, %d, %d, %d, %d},\n",
             kernel, -qi.zero_point, qo.zero_point, ar.min, ar.max, g.stride_h,
             g.stride_w, g.pad_h.pad_before, g.pad_w.pad_before,
             as_conv ? 1 : g.depth_multiplier));
  l.Emit("      " + l.Operand(g.in, in) + ",\n");
  const std::string filter_shape =
      as_conv ? Fmt("k::Shape4{%d, %d, %d, 1}", out_c, g.filter.h, g.filter.w)
              : Dims4{g.filter}.Code();
  l.Emit("      " + filter_shape + ", " + filter + ", " + bias + ",\n");
  l.Emit("      " + quant + ",\n");
  l.Emit("      " + l.Operand(g.out, out) + ");\n");
  StateConvOverlap(l, in, out, g, depthwise);
}

}  // namespace

void LowerConv2D(Lowerer& lowerer, const tflite::Operator& op) {
  LowerConv(lowerer, op, /*depthwise=*/false);
}

void LowerDepthwiseConv2D(Lowerer& lowerer, const tflite::Operator& op) {
  LowerConv(lowerer, op, /*depthwise=*/true);
}

}  // namespace arenaplan::compile
