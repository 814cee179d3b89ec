// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// GATHER of int8 / int16 / int32 / float32 tensors along one axis with
// int32 positions (constant or computed), batch_dims as in TFLite ->
// k::Gather (kernels/include/arenaplan/kernels/gather.hpp). Constant
// positions are checked against the axis here.
#include <cinttypes>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

std::string MovedOperand(Lowerer& l, const Tensor& t, const char* ctype) {
  if (!l.model().IsConstant(t)) return l.TypedAddr(t, ctype);
  switch (t.type) {
    case TensorType::kInt8:
      return l.ConstInt8(t);
    case TensorType::kInt16:
      return l.ConstInt16(t);
    case TensorType::kInt32:
      return l.EmitInt32Array(
          Fmt("kOp%zuConst%d", l.OperatorIndex(), l.Index(t)),
          l.CommentOn(t, "int32"), l.Int32Values(t));
    case TensorType::kFloat32:
      return l.ConstFloat(t);  // written exactly (lowering_float.cpp)
    default:
      l.Fail(l.Describe(t) + " is a constant " +
             tflite::TensorTypeName(t.type) +
             "; constant data of this type is not supported");
  }
}

void LowerGather(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 2) l.Fail("expected 2 inputs");
  const Tensor& in = l.Input(op, 0);
  const Tensor& pos = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  const auto& o = l.OptionsOf<tflite::GatherOptions>(op);
  const char* ctype = "float";
  if (in.type != TensorType::kFloat32 || out.type != TensorType::kFloat32) {
    ctype = MovedElementType(l, in, out);
  }
  if (pos.type != TensorType::kInt32) {
    l.Fail(l.Describe(pos) + " is " + tflite::TensorTypeName(pos.type) +
           "; GATHER takes INT32 positions");
  }
  const auto rank = static_cast<std::int32_t>(in.shape.size());
  const auto pos_rank = static_cast<std::int32_t>(pos.shape.size());
  std::int32_t axis = o.axis < 0 ? o.axis + rank : o.axis;
  std::int32_t batch_dims =
      o.batch_dims < 0 ? o.batch_dims + pos_rank : o.batch_dims;
  if (axis < 0 || axis >= rank) {
    l.Fail(Fmt("axis %d is outside the input's %d dimensions", o.axis, rank));
  }
  if (batch_dims < 0 || batch_dims > axis || batch_dims > pos_rank) {
    l.Fail(
        Fmt("batch_dims %d is outside [0, min(axis %d, positions' rank "
            "%d)]",
            o.batch_dims, axis, pos_rank));
  }
  std::vector<std::int32_t> expect;
  std::int32_t batch = 1, outer = 1, inner = 1, coords = 1;
  for (std::int32_t i = 0; i < rank; ++i) {
    const std::int32_t d = in.shape[static_cast<std::size_t>(i)];
    if (d <= 0) l.Fail(l.Describe(in) + " has a dynamic or empty dimension");
    if (i < batch_dims) {
      if (pos.shape[static_cast<std::size_t>(i)] != d) {
        l.Fail(
            Fmt("batch dimension %d differs between input and positions", i));
      }
      batch *= d;
    } else if (i < axis) {
      outer *= d;
    } else if (i > axis) {
      inner *= d;
    }
    if (i == axis) {
      for (std::int32_t j = batch_dims; j < pos_rank; ++j) {
        const std::int32_t c = pos.shape[static_cast<std::size_t>(j)];
        if (c < 0) l.Fail(l.Describe(pos) + " has a dynamic dimension");
        expect.push_back(c);
        coords *= c;
      }
    } else {
      expect.push_back(d);
    }
  }
  if (out.shape != expect) {
    l.Fail("output shape " + tflite::ShapeText(out.shape) +
           " is not the gathered " + tflite::ShapeText(expect));
  }
  const std::int32_t axis_size = in.shape[static_cast<std::size_t>(axis)];
  std::string positions;
  if (l.model().IsConstant(pos)) {
    const auto v = l.Int32Values(pos);
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] < 0 || v[i] >= axis_size) {
        l.Fail(Fmt("position %zu is %d, outside [0, %d)", i, v[i], axis_size));
      }
    }
    const std::size_t k = l.OperatorIndex();
    positions = l.EmitInt32Array(Fmt("kOp%zuPositions", k),
                                 Fmt("operator %zu: gathered positions", k), v);
  } else {
    positions = l.TypedAddr(pos, "std::int32_t");
  }
  l.Emit(Fmt("  k::Gather<%s>(k::GatherParams{%d, %d, %d, %d, %d},\n      ",
             ctype, batch, outer, axis_size, coords, inner) +
         MovedOperand(l, in, ctype) + ", " + positions + ", " +
         l.TypedAddr(out, ctype) + ");\n");
}

}  // namespace arenaplan::compile
