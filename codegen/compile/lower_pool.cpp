// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// AVERAGE_POOL_2D and MAX_POOL_2D -> k::AveragePool / k::MaxPool
// (kernels/include/arenaplan/kernels/pooling.hpp): int8, the same
// quantization in and out.
#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {
namespace {

using tflite::Tensor;

void LowerPool(Lowerer& l, const tflite::Operator& op, bool max) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& out = l.Output(op);
  const Affine qi = l.Int8Activation(in), qo = l.Int8Activation(out);
  if (qi.scale != qo.scale || qi.zero_point != qo.zero_point) {
    l.Fail("input and output quantization differ (int8 pooling keeps it)");
  }
  const auto& o = l.OptionsOf<tflite::Pool2DOptions>(op);
  l.CheckStride(o.stride_h, o.stride_w);
  if (o.filter_h <= 0 || o.filter_w <= 0) l.Fail("filter size is not positive");
  if (in.shape.size() != 4 || out.shape.size() != 4)
    l.Fail("input and output must be 4-D");
  const Dims4 is = l.Shape(in), os = l.Shape(out);
  const auto ph = ComputePadding(o.padding, is.h, o.filter_h, o.stride_h);
  const auto pw = ComputePadding(o.padding, is.w, o.filter_w, o.stride_w);
  l.CheckOutputShape(os, Dims4{is.n, ph.out, pw.out, is.c});
  const ActivationRange ar = l.Activation(o.activation, qo, out);
  l.Emit(Fmt("  k::%s(k::PoolParams{%d, %d, %d, %d, %d, %d, %d, %d},\n",
             max ? "MaxPool" : "AveragePool", o.filter_h, o.filter_w,
             o.stride_h, o.stride_w, ph.pad_before, pw.pad_before, ar.min,
             ar.max));
  l.Emit("      " + is.Code() + ", " + l.Addr(in) + ",\n");
  l.Emit("      " + os.Code() + ", " + l.Addr(out) + ");\n");
}

}  // namespace

void LowerAveragePool2D(Lowerer& lowerer, const tflite::Operator& op) {
  LowerPool(lowerer, op, /*max=*/false);
}

void LowerMaxPool2D(Lowerer& lowerer, const tflite::Operator& op) {
  LowerPool(lowerer, op, /*max=*/true);
}

}  // namespace arenaplan::compile
