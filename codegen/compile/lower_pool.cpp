// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// AVERAGE_POOL_2D and MAX_POOL_2D -> k::AveragePool / k::MaxPool
// (kernels/include/arenaplan/kernels/pooling.hpp): int8, the same
// quantization in and out; float32 (type_rules.cpp) -> k::f32::AveragePool
// / k::f32::MaxPool (kernels/.../float/pooling.hpp) with the fused
// activation's float bounds. The geometry is accepted by tflite::CheckPool
// (codegen/tflite/geometry.hpp), the same check as the overlap contract.
#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {
namespace {

void LowerPoolF32(Lowerer& l, const tflite::Operator& op, bool max) {
  const auto [in, out] = l.Unary(op);
  const tflite::PoolGeometry g = l.Accept(tflite::CheckPool(op, in, out));
  l.Emit(Fmt("  k::f32::%s(\n      k::f32::PoolParams{%d, %d, %d, %d, %d, %d, ",
             max ? "MaxPool" : "AveragePool", g.filter_h, g.filter_w,
             g.stride_h, g.stride_w, g.pad_h.pad_before, g.pad_w.pad_before) +
         FloatActivationCode(l, g.activation) + "},\n");
  l.Emit("      " + Dims4{g.in}.Code() + ", " + l.TypedAddr(in, "float") +
         ",\n      " + Dims4{g.out}.Code() + ", " + l.TypedAddr(out, "float") +
         ");\n");
}

void LowerPool(Lowerer& l, const tflite::Operator& op, bool max) {
  if (CheckTypes(l, op)[0] == tflite::TensorType::kFloat32) {
    LowerPoolF32(l, op, max);
    return;
  }
  const auto [in, out] = l.Unary(op);
  const Affine qi = l.Int8Activation(in), qo = l.Int8Activation(out);
  if (qi.scale != qo.scale || qi.zero_point != qo.zero_point) {
    l.Fail("input and output quantization differ (int8 pooling keeps it)");
  }
  const tflite::PoolGeometry g = l.Accept(tflite::CheckPool(op, in, out));
  const ActivationRange ar = l.Activation(g.activation, qo, out);
  l.Emit(Fmt("  k::%s(k::PoolParams{%d, %d, %d, %d, %d, %d, %d, %d},\n",
             max ? "MaxPool" : "AveragePool", g.filter_h, g.filter_w,
             g.stride_h, g.stride_w, g.pad_h.pad_before, g.pad_w.pad_before,
             ar.min, ar.max));
  l.Emit("      " + l.Operand(g.in, in) + ",\n      " + l.Operand(g.out, out) +
         ");\n");
  StatePoolOverlap(l, in, out, g);
}

}  // namespace

void LowerAveragePool2D(Lowerer& lowerer, const tflite::Operator& op) {
  LowerPool(lowerer, op, /*max=*/false);
}

void LowerMaxPool2D(Lowerer& lowerer, const tflite::Operator& op) {
  LowerPool(lowerer, op, /*max=*/true);
}

}  // namespace arenaplan::compile
