// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// CONV_2D and DEPTHWISE_CONV_2D on float32 tensors (the (FLOAT32, FLOAT32,
// FLOAT32) lines of type_rules.cpp) -> k::f32::Conv2D / DepthwiseConv2D
// (kernels/include/arenaplan/kernels/float/conv.hpp), as TFLM's conv.cc and
// depthwise_conv.cc run them: a constant float filter, an optional float
// bias, strides, padding and dilation from tflite::CheckConv (the int8
// layers' check), the fused activation's float bounds. The constants are
// written exactly (lowering_float.cpp).
#include <string>

#include "codegen/compile/lowering.hpp"
#include "codegen/tflite/geometry.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

void LowerConvF32(Lowerer& l, const tflite::Operator& op, bool depthwise) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& w = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  if (!l.model().IsConstant(w)) {
    l.Fail(l.Describe(w) + ": the filter must be a constant FLOAT32 tensor");
  }
  const tflite::ConvGeometry g =
      l.Accept(tflite::CheckConv(op, in, w, out, depthwise));
  const std::string act = FloatActivationCode(l, g.activation);
  const std::string filter = l.ConstFloat(w);
  const std::string bias = l.FloatBias(op, g.out.c);
  l.Emit("  k::f32::" + std::string(depthwise ? "DepthwiseConv2D" : "Conv2D") +
         "(\n      k::f32::ConvParams{" + act +
         Fmt(", %d, %d, %d, %d, %d, %d, %d},\n", g.stride_h, g.stride_w,
             g.pad_h.pad_before, g.pad_w.pad_before, g.dilation_h, g.dilation_w,
             depthwise ? g.depth_multiplier : 1));
  l.Emit("      " + Dims4{g.in}.Code() + ", " + l.TypedAddr(in, "float") +
         ",\n");
  l.Emit("      " + Dims4{g.filter}.Code() + ", " + filter + ", " + bias +
         ",\n");
  l.Emit("      " + Dims4{g.out}.Code() + ", " + l.TypedAddr(out, "float") +
         ");\n");
  StateConvOverlap(l, in, out, g, depthwise);  // float/conv.hpp
}

}  // namespace arenaplan::compile
