// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// CONV_2D and DEPTHWISE_CONV_2D -> k::Conv2DFast / k::DepthwiseConv2DFast
// (kernels/include/arenaplan/kernels/fast_conv.hpp; the same bytes as
// conv.hpp's reference kernels) with the input offset folded into the bias
// here; a depthwise convolution with depth multiplier > 1 ->
// k::DepthwiseConv2D (conv.hpp). int8 activations, int8 symmetric
// per-channel filters, int32 bias, dilation 1.
#include <vector>

#include "arenaplan/kernels/fast_conv.hpp"
#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {
namespace {

using tflite::Tensor;

void LowerConv(Lowerer& l, const tflite::Operator& op, bool depthwise) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& w = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  const Affine qi = l.Int8Activation(in), qo = l.Int8Activation(out);
  std::int32_t sh = 0, sw = 0, dh = 1, dw = 1, dm = 1;
  tflite::Padding pad = tflite::Padding::kSame;
  tflite::Activation act = tflite::Activation::kNone;
  std::int32_t options_dm = 0;
  if (depthwise) {
    const auto& o = l.OptionsOf<tflite::DepthwiseConv2DOptions>(op);
    sh = o.stride_h, sw = o.stride_w, dh = o.dilation_h, dw = o.dilation_w;
    pad = o.padding, act = o.activation, options_dm = o.depth_multiplier;
  } else {
    const auto& o = l.OptionsOf<tflite::Conv2DOptions>(op);
    sh = o.stride_h, sw = o.stride_w, dh = o.dilation_h, dw = o.dilation_w;
    pad = o.padding, act = o.activation;
  }
  if (dh != 1 || dw != 1) {
    l.Fail(Fmt("dilation %dx%d is not supported (the kernels support 1x1)", dh,
               dw));
  }
  l.CheckStride(sh, sw);
  if (in.shape.size() != 4 || w.shape.size() != 4 || out.shape.size() != 4) {
    l.Fail("input, filter and output must be 4-D (NHWC)");
  }
  const Dims4 is = l.Shape(in), fs = l.Shape(w), os = l.Shape(out);
  const std::int32_t out_c = depthwise ? fs.c : fs.n;
  if (depthwise) {
    if (fs.n != 1)
      l.Fail(l.Describe(w) + ": a depthwise filter must be [1,H,W,C]");
    if (out_c % is.c != 0)
      l.Fail("output channels are not a multiple of input channels");
    dm = out_c / is.c;
    if (options_dm != 0 && options_dm != dm) {
      l.Fail(Fmt("depth_multiplier %d does not match the shapes (%d)",
                 options_dm, dm));
    }
  } else if (fs.c != is.c) {
    l.Fail(
        Fmt("filter depth %d differs from input depth %d (grouped convolution)",
            fs.c, is.c));
  }
  const auto ph = ComputePadding(pad, is.h, fs.h, sh);
  const auto pw = ComputePadding(pad, is.w, fs.w, sw);
  l.CheckOutputShape(os, Dims4{is.n, ph.out, pw.out, out_c});
  const ActivationRange ar = l.Activation(act, qo, out);
  const std::string filter = l.ConstInt8(w);
  // The fast kernels take bias + input offset * (filter sums), one int32
  // per output channel: the same flash as the bias it replaces (4 * out_c
  // bytes more when the operator has no bias).
  const bool fast = !depthwise || dm == 1;
  std::string bias;
  if (fast) {
    const std::vector<std::int8_t> wv = l.Int8Values(w);
    const std::vector<std::int32_t> bv = l.BiasValues(op, out_c);
    std::vector<std::int32_t> folded(static_cast<std::size_t>(out_c));
    const arenaplan::kernels::Shape4 f{fs.n, fs.h, fs.w, fs.c};
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
             kernel, -qi.zero_point, qo.zero_point, ar.min, ar.max, sh, sw,
             ph.pad_before, pw.pad_before, dm));
  l.Emit("      " + is.Code() + ", " + l.Addr(in) + ",\n");
  l.Emit("      " + fs.Code() + ", " + filter + ", " + bias + ",\n");
  l.Emit("      " + quant + ",\n");
  l.Emit("      " + os.Code() + ", " + l.Addr(out) + ");\n");
}

}  // namespace

void LowerConv2D(Lowerer& lowerer, const tflite::Operator& op) {
  LowerConv(lowerer, op, /*depthwise=*/false);
}

void LowerDepthwiseConv2D(Lowerer& lowerer, const tflite::Operator& op) {
  LowerConv(lowerer, op, /*depthwise=*/true);
}

}  // namespace arenaplan::compile
