// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// AVERAGE_POOL_2D and MAX_POOL_2D -> k::AveragePool / k::MaxPool
// (kernels/include/arenaplan/kernels/pooling.hpp): int8, the same
// quantization in and out; int16 (the same) -> k::int16::AveragePool /
// k::int16::MaxPool (kernels/.../int16/pooling.hpp); float32 (type_rules.cpp)
// -> k::f32::AveragePool / k::f32::MaxPool (kernels/.../float/pooling.hpp) with
// the fused activation's float bounds. The geometry is accepted by
// tflite::CheckPool (codegen/tflite/geometry.hpp), the same check as the
// overlap contract.
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
  StatePoolOverlap(l, in, out, g);  // float/pooling.hpp: 4-byte elements
}

void LowerPool(Lowerer& l, const tflite::Operator& op, bool max) {
  const tflite::TensorType type = CheckTypes(l, op)[0];
  if (type == tflite::TensorType::kFloat32) {
    LowerPoolF32(l, op, max);
    return;
  }
  const bool wide = type == tflite::TensorType::kInt16;
  const auto [in, out] = l.Unary(op);
  const Affine qi = wide ? l.PerTensor(in) : l.Int8Activation(in);
  const Affine qo = wide ? l.PerTensor(out) : l.Int8Activation(out);
  if (qi.scale != qo.scale || qi.zero_point != qo.zero_point) {
    l.Fail(wide ? "input and output quantization differ (int16 pooling "
                  "keeps it)"
                : "input and output quantization differ (int8 pooling keeps "
                  "it)");
  }
  const tflite::PoolGeometry g = l.Accept(tflite::CheckPool(op, in, out));
  const ActivationRange ar = l.Activation(g.activation, qo, out);
  l.Emit(Fmt("  k::%s%s(k::PoolParams{%d, %d, %d, %d, %d, %d, %d, %d},\n",
             wide ? "int16::" : "", max ? "MaxPool" : "AveragePool", g.filter_h,
             g.filter_w, g.stride_h, g.stride_w, g.pad_h.pad_before,
             g.pad_w.pad_before, ar.min, ar.max));
  if (wide) {
    l.Emit("      " + Dims4{g.in}.Code() + ", " +
           l.TypedAddr(in, "std::int16_t") + ",\n      " + Dims4{g.out}.Code() +
           ", " + l.TypedAddr(out, "std::int16_t") + ");\n");
    StatePoolOverlap(l, in, out, g);  // int16/pooling.hpp: 2-byte elements
    return;
  }
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
