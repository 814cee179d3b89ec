// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TRANSPOSE_CONV, int8 -> k::TransposeConv
// (kernels/include/arenaplan/kernels/transpose_conv.hpp). Inputs as TFLite
// orders them: 0 the output shape (constant int32 [4]), 1 the filter
// [out_c, kh, kw, in_c] (constant, symmetric, per-tensor or per output
// channel; negative scales give negative multipliers, as in TFLM, which the
// kernel's MultiplyByQuantizedMultiplier takes), 2 the input, 3 the
// optional int32 bias. The padding is TFLM's:
// ComputePaddingHeightWidth applied to the output's size.
#include <cinttypes>

#include "codegen/compile/lowering.hpp"
#include "codegen/tflite/geometry.hpp"

namespace arenaplan::compile {

using tflite::Tensor;

void LowerTransposeConv(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 3 && op.inputs.size() != 4) {
    l.Fail("expected 3 or 4 inputs");
  }
  const Tensor& shape = l.Input(op, 0);
  const Tensor& w = l.Input(op, 1);
  const Tensor& in = l.Input(op, 2);
  const Tensor& out = l.Output(op);
  const auto& o = l.OptionsOf<tflite::TransposeConvOptions>(op);
  const Affine qi = l.Int8Activation(in), qo = l.Int8Activation(out);
  if (w.type != tflite::TensorType::kInt8 || !l.model().IsConstant(w)) {
    l.Fail(l.Describe(w) + ": the filter must be a constant INT8 tensor");
  }
  l.CheckStride(o.stride_h, o.stride_w);
  if (in.shape.size() != 4 || w.shape.size() != 4 || out.shape.size() != 4) {
    l.Fail("input, filter and output must be 4-D (NHWC)");
  }
  const Dims4 is = l.Shape(in), fs = l.Shape(w), os = l.Shape(out);
  if (!l.model().IsConstant(shape)) {
    l.Fail("the output shape input is not constant");
  }
  const auto sv = l.Int32Values(shape);
  if (sv.size() != 4 || sv[0] != os.n || sv[1] != os.h || sv[2] != os.w ||
      sv[3] != os.c) {
    l.Fail("the output shape input does not match the output tensor");
  }
  if (fs.c != is.c || fs.n != os.c || is.n != os.n) {
    l.Fail("filter " + tflite::ShapeText(w.shape) + " does not map input " +
           tflite::ShapeText(in.shape) + " to output " +
           tflite::ShapeText(out.shape));
  }
  // A CONV_2D with the same options maps the output's size back to the
  // input's (what TensorFlow requires of conv2d_transpose; TFLM trusts it).
  const tflite::PaddedDim ph =
      tflite::ComputePadding(o.padding, os.h, fs.h, o.stride_h);
  const tflite::PaddedDim pw =
      tflite::ComputePadding(o.padding, os.w, fs.w, o.stride_w);
  if (ph.out != is.h || pw.out != is.w) {
    l.Fail(
        Fmt("output %dx%d is not a transpose of input %dx%d with filter "
            "%dx%d, stride %dx%d (the convolution gives %dx%d)",
            os.h, os.w, is.h, is.w, fs.h, fs.w, o.stride_h, o.stride_w, ph.out,
            pw.out));
  }
  const ActivationRange ar = l.Activation(o.activation, qo, out);
  const std::string filter = l.ConstInt8(w);
  const std::string bias = l.Bias(op, os.c, 3);
  const std::string quant = l.ChannelQuant(w, os.c, 0, qi.scale, qo.scale);
  l.Emit(
      Fmt("  k::TransposeConv(k::ConvParams{%d, %d, %d, %d, %d, %d, %d, "
          "%d, 1},\n",
          -qi.zero_point, qo.zero_point, ar.min, ar.max, o.stride_h, o.stride_w,
          ph.pad_before, pw.pad_before));
  l.Emit("      " + l.Operand(is, in) + ",\n");
  l.Emit("      " + fs.Code() + ", " + filter + ", " + bias + ",\n");
  l.Emit("      " + quant + ",\n");
  l.Emit("      " + l.Operand(os, out) + ");\n");
}

}  // namespace arenaplan::compile
