// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TRANSPOSE_CONV, int8 -> k::TransposeConv
// (kernels/include/arenaplan/kernels/transpose_conv.hpp), int16 activations
// with int8 weights -> k::int16::TransposeConv (kernels/.../int16/
// transpose_conv.hpp); the types as type_rules.cpp lists them. Inputs as
// TFLite orders them: 0 the output shape (int32 [4]; TFLM takes the output
// tensor's shape and never reads its values, so it may be a graph input;
// when constant it must equal the output's shape), 1 the filter [out_c, kh,
// kw, in_c] (constant, symmetric, per-tensor or per output channel;
// negative scales give negative multipliers, as in TFLM, which the kernel's
// MultiplyByQuantizedMultiplier takes), 2 the input, 3 the optional bias
// (int8: INT32; int16: INT64, or INT16 widened to int64 as TFLM does). The
// padding is TFLM's: ComputePaddingHeightWidth applied to the output's size.
// float32 tensors (a FLOAT32 filter and bias) -> k::f32::TransposeConv.
#include <cinttypes>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"
#include "codegen/tflite/geometry.hpp"

namespace arenaplan::compile {
namespace {

using tflite::Tensor;

struct TransposeGeometry {
  Dims4 in, filter, out;
  tflite::PaddedDim pad_h, pad_w;
};

/// The shapes, options and padding both kernels rely on; fails otherwise.
TransposeGeometry CheckTransposeConv(const Lowerer& l,
                                     const tflite::Operator& op) {
  if (op.inputs.size() != 3 && op.inputs.size() != 4) {
    l.Fail("expected 3 or 4 inputs");
  }
  const Tensor& shape = l.Input(op, 0);
  const Tensor& w = l.Input(op, 1);
  const Tensor& in = l.Input(op, 2);
  const Tensor& out = l.Output(op);
  const auto& o = l.OptionsOf<tflite::TransposeConvOptions>(op);
  if (!l.model().IsConstant(w)) {
    l.Fail(l.Describe(w) + ": the filter must be a constant tensor");
  }
  l.CheckStride(o.stride_h, o.stride_w);
  if (in.shape.size() != 4 || w.shape.size() != 4 || out.shape.size() != 4) {
    l.Fail("input, filter and output must be 4-D (NHWC)");
  }
  const Dims4 is = l.Shape(in), fs = l.Shape(w), os = l.Shape(out);
  if (shape.type != tflite::TensorType::kInt32 || shape.shape.size() != 1 ||
      shape.shape[0] != 4) {
    l.Fail(l.Describe(shape) + ": the output shape input must be INT32 [4]");
  }
  if (l.model().IsConstant(shape)) {
    const auto sv = l.Int32Values(shape);
    if (sv.size() != 4 || sv[0] != os.n || sv[1] != os.h || sv[2] != os.w ||
        sv[3] != os.c) {
      l.Fail("the output shape input does not match the output tensor");
    }
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
  return {is, fs, os, ph, pw};
}

/// TRANSPOSE_CONV of float32 tensors -> k::f32::TransposeConv (float/
/// conv.hpp): the constant filter and the optional FLOAT32 bias written
/// exactly, the fused activation's float bounds.
void LowerTransposeConvF32(Lowerer& l, const tflite::Operator& op,
                           const TransposeGeometry& g) {
  const auto& o = l.OptionsOf<tflite::TransposeConvOptions>(op);
  const std::string act = FloatActivationCode(l, o.activation);
  const std::string filter = l.ConstFloat(l.Input(op, 1));
  const std::string bias = l.FloatBias(op, g.out.c, 3);
  l.Emit("  k::f32::TransposeConv(\n      k::f32::ConvParams{" + act +
         Fmt(", %d, %d, %d, %d, 1, 1, 1},\n", o.stride_h, o.stride_w,
             g.pad_h.pad_before, g.pad_w.pad_before));
  l.Emit("      " + g.in.Code() + ", " + l.TypedAddr(l.Input(op, 2), "float") +
         ",\n");
  l.Emit("      " + g.filter.Code() + ", " + filter + ", " + bias + ",\n");
  l.Emit("      " + g.out.Code() + ", " + l.TypedAddr(l.Output(op), "float") +
         ");\n");
}

}  // namespace

void LowerTransposeConv(Lowerer& l, const tflite::Operator& op) {
  const tflite::TensorType type = CheckTypes(l, op)[0];
  const bool wide = type == tflite::TensorType::kInt16;
  const TransposeGeometry g = CheckTransposeConv(l, op);
  if (type == tflite::TensorType::kFloat32) {
    LowerTransposeConvF32(l, op, g);
    return;
  }
  const Tensor& w = l.Input(op, 1);
  const Tensor& in = l.Input(op, 2);
  const Tensor& out = l.Output(op);
  const auto& o = l.OptionsOf<tflite::TransposeConvOptions>(op);
  const Affine qi = wide ? SymmetricInt16(l, in) : l.Int8Activation(in);
  const Affine qo = wide ? SymmetricInt16(l, out) : l.Int8Activation(out);
  const ActivationRange ar = l.Activation(o.activation, qo, out);
  const std::string filter = l.ConstInt8(w);
  const std::string bias =
      wide ? l.Int64Bias(op, g.out.c, 3, true) : l.Bias(op, g.out.c, 3);
  const std::string quant =
      wide ? Quant16x8(l, w, g.out.c, 0, qi, qo, true)
           : l.ChannelQuant(w, g.out.c, 0, qi.scale, qo.scale);
  l.Emit(
      Fmt("  k::%sTransposeConv(k::ConvParams{%d, %d, %d, %d, %d, %d, %d, "
          "%d, 1},\n",
          wide ? "int16::" : "", -qi.zero_point, qo.zero_point, ar.min, ar.max,
          o.stride_h, o.stride_w, g.pad_h.pad_before, g.pad_w.pad_before));
  const char* ctype = wide ? "std::int16_t" : "std::int8_t";
  l.Emit("      " + g.in.Code() + ", " + l.TypedAddr(in, ctype) + ",\n");
  l.Emit("      " + g.filter.Code() + ", " + filter + ", " + bias + ",\n");
  l.Emit("      " + quant + ",\n");
  l.Emit("      " + g.out.Code() + ", " + l.TypedAddr(out, ctype) + ");\n");
}

}  // namespace arenaplan::compile
