// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// CONV_2D and DEPTHWISE_CONV_2D -> k::Conv2DFast / k::DepthwiseConv2DFast
// (kernels/include/arenaplan/kernels/fast_conv.hpp; the same bytes as
// conv.hpp's reference kernels) with the input offset folded into the bias
// here; a depthwise convolution with depth multiplier > 1 or more than
// k::kMaxDepthwiseTaps taps ->
// k::DepthwiseConv2D (conv.hpp). A filter with negative scales (negative
// requantization multipliers, which TFLite runs and the fast output stage
// does not take): those channels' weights, biases and multipliers negated
// where that gives the same bytes (NegateNegativeChannels, quantize.hpp),
// else k::Conv2D / k::DepthwiseConv2D (conv.hpp), whose
// MultiplyByQuantizedMultiplier takes any multiplier. A dilated layer (a
// factor above 1) takes the dilated kernels instead of the fast ones:
// k::Conv2DDilatedFast (dilated_conv.hpp) for Conv2DFast,
// k::DepthwiseConv2DDilatedFast for DepthwiseConv2DFast; the reference
// kernels take the factors themselves. Their parameters are
// k::DilatedConvParams{{the nine ConvParams fields}, dh, dw} (undilated
// layers: k::ConvParams, as before). Conv2DFast and the fast depthwise
// kernels take one more argument: their scratch record's address
// (Lowerer::Scratch). int8 activations, int8 symmetric per-channel
// filters, int32 bias; int16 activations (type_rules.cpp) go to
// lower_conv16x8.cpp, float32 tensors to lower_conv_f32.cpp. The operator's
// geometry is accepted by tflite::CheckConv (codegen/tflite/geometry.hpp), the
// same check as its overlap contract.
#include <algorithm>
#include <vector>

#include "arenaplan/kernels/dilated_conv.hpp"
#include "arenaplan/kernels/fast_conv.hpp"
#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {
namespace {

void LowerConv(Lowerer& l, const tflite::Operator& op, bool depthwise) {
  const tflite::TensorType type = CheckTypes(l, op)[0];
  if (type == tflite::TensorType::kInt16) {
    LowerConv16x8(l, op, depthwise);  // lower_conv16x8.cpp
    return;
  }
  if (type == tflite::TensorType::kFloat32) {
    LowerConvF32(l, op, depthwise);  // lower_conv_f32.cpp
    return;
  }
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
  std::vector<std::int8_t> wv = l.Int8Values(w);
  std::vector<QuantizedMultiplier> mq =
      l.ChannelMultipliers(w, out_c, depthwise ? 3 : 0, qi.scale, qo.scale);
  // The fast kernels: any convolution, a depthwise one of one input channel
  // or of depth multiplier 1 and at most k::kMaxDepthwiseTaps taps; with
  // non-negative multipliers only (negative weight scales: the channels
  // negated when that is exact, NegateNegativeChannels, else the reference
  // kernel).
  const bool negative = std::any_of(
      mq.begin(), mq.end(),
      [](const QuantizedMultiplier& m) { return m.multiplier < 0; });
  bool fast = !depthwise || g.in.c == 1 ||
              arenaplan::kernels::DepthwiseConv2DFastTakes(
                  g.depth_multiplier, g.filter.h, g.filter.w);
  std::vector<std::int32_t> bv;
  if (fast) {
    bv = l.BiasValues(op, out_c);
    if (negative) fast = NegateNegativeChannels(wv, !depthwise, bv, mq);
  }
  const bool as_conv = depthwise && g.in.c == 1 && fast;
  const char* negated =
      fast && negative ? ", negative-scale channels negated" : "";
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
        Fmt("operator %zu: depthwise filter as [out_c, kh, kw, 1]%s",
            l.OperatorIndex(), negated),
        wv);
  } else if (fast && negative) {
    filter = l.EmitInt8Array(
        Fmt("kFilter%zu", l.OperatorIndex()),
        Fmt("operator %zu: filter%s", l.OperatorIndex(), negated), wv);
  } else {
    filter = l.ConstInt8(w);
  }
  // The fast kernels take bias + input offset * (filter sums), one int32
  // per output channel: the same flash as the bias it replaces (4 * out_c
  // bytes more when the operator has no bias).
  std::string bias;
  const arenaplan::kernels::Shape4 f =
      as_conv ? arenaplan::kernels::Shape4{out_c, g.filter.h, g.filter.w, 1}
              : arenaplan::kernels::Shape4{g.filter.n, g.filter.h, g.filter.w,
                                           g.filter.c};
  if (fast) {
    std::vector<std::int32_t> folded(static_cast<std::size_t>(out_c));
    (depthwise && !as_conv ? arenaplan::kernels::FoldDepthwiseBias
                           : arenaplan::kernels::FoldConvBias)(
        -qi.zero_point, f, wv.data(), bv.empty() ? nullptr : bv.data(),
        folded.data());
    bias = l.EmitInt32Array(
        Fmt("kFoldedBias%zu", l.OperatorIndex()),
        Fmt("operator %zu: bias + input offset * filter sums%s",
            l.OperatorIndex(), negated),
        folded);
  } else {
    bias = l.Bias(op, out_c);
  }
  const std::string quant = l.EmitChannelQuant(mq);
  const bool dilated = g.dilation_h != 1 || g.dilation_w != 1;
  const char* kernel =
      depthwise && !as_conv
          ? (fast ? (dilated ? "DepthwiseConv2DDilatedFast"
                             : "DepthwiseConv2DFast")
                  : "DepthwiseConv2D")
          : (fast ? (dilated ? "Conv2DDilatedFast" : "Conv2DFast") : "Conv2D");
  const std::string fields =
      Fmt("{%d, %d, %d, %d, %d, %d, %d, %d, %d}", -qi.zero_point, qo.zero_point,
          ar.min, ar.max, g.stride_h, g.stride_w, g.pad_h.pad_before,
          g.pad_w.pad_before, as_conv ? 1 : g.depth_multiplier);
  const std::string params =
      dilated ? Fmt("k::DilatedConvParams{%s, %d, %d}", fields.c_str(),
                    g.dilation_h, g.dilation_w)
              : "k::ConvParams" + fields;
  l.Emit("  k::" + std::string(kernel) + "(" + params + ",\n");
  l.Emit("      " + l.Operand(g.in, in) + ",\n");
  const std::string filter_shape =
      as_conv ? Fmt("k::Shape4{%d, %d, %d, 1}", out_c, g.filter.h, g.filter.w)
              : Dims4{g.filter}.Code();
  l.Emit("      " + filter_shape + ", " + filter + ", " + bias + ",\n");
  l.Emit("      " + quant + ",\n");
  // The fast kernels' buffers: their scratch record in the arena
  // (codegen/scratch/kernel_scratch.hpp sizes it by the same functions).
  const std::string k_name = kernel;
  std::string scratch;
  if (k_name == "Conv2DFast") {
    scratch = ", " + l.Scratch(static_cast<std::uint64_t>(
                         arenaplan::kernels::Conv2DFastScratchBytes(f)));
  } else if (k_name == "DepthwiseConv2DFast" ||
             k_name == "DepthwiseConv2DDilatedFast") {
    scratch =
        ", " + l.Scratch(static_cast<std::uint64_t>(
                   arenaplan::kernels::DepthwiseConv2DFastScratchBytes(f)));
  }
  l.Emit("      " + l.Operand(g.out, out) +
         (scratch.empty() ? "" : ",\n     " + scratch.substr(1)) + ");\n");
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
