// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The shape-manipulating operators whose data the kernels copy:
// SHAPE -> k::CopyElements of the constant dimensions (shape.hpp),
// CONCATENATION and PACK -> k::Concatenation (concatenation.hpp),
// STRIDED_SLICE -> k::StridedSlice (strided_slice.hpp), for int8, int16,
// int32 and float32 tensors (type_rules.cpp; int8 inputs quantized as the
// output, as TFLM checks; int16 ones and the int16 output of CONCATENATION
// with zero point 0, as TFLM checks; TFLM compares no int16 scales, nor
// does this).
#include <algorithm>
#include <cinttypes>
#include <climits>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

namespace {

/// The element type of a copying operator (its type rule: int8, int16,
/// int32 or float32); an int8 `t` must be a per-tensor quantized
/// activation.
const char* CopyType(const Lowerer& l, const tflite::Operator& op,
                     const Tensor& t) {
  const TensorType type = CheckTypes(l, op)[0];
  if (type == TensorType::kInt8) (void)l.Int8Activation(t);
  return Lowerer::CType(type);
}

/// An input of `out`'s type, quantized as `out` when int8; when int16 (and
/// `int16_symmetric`), it and the output have zero point 0.
void CheckLikeOutput(const Lowerer& l, const Tensor& in, const Tensor& out,
                     bool int16_symmetric) {
  if (in.type != out.type) {
    l.Fail(l.Describe(in) + " is " + tflite::TensorTypeName(in.type) +
           ", the output " + tflite::TensorTypeName(out.type));
  }
  if (in.type == TensorType::kInt16 && int16_symmetric) {
    (void)SymmetricInt16(l, in);
    (void)SymmetricInt16(l, out);
  }
  if (in.type == TensorType::kInt8) {
    const Affine a = l.Int8Activation(in), b = l.Int8Activation(out);
    if (a.scale != b.scale || a.zero_point != b.zero_point) {
      l.Fail(l.Describe(in) +
             " is not quantized as the output (TFLM refuses it)");
    }
  }
}

/// Address expression of input `t` (a constant array or a planned tensor).
std::string Source(Lowerer& l, const Tensor& t, const char* ctype,
                   const std::string& id) {
  if (!l.model().IsConstant(t)) return l.TypedAddr(t, ctype);
  if (t.type == TensorType::kInt8) return l.ConstInt8(t);
  if (t.type == TensorType::kInt16) return l.ConstInt16(t);
  if (t.type == TensorType::kFloat32) return l.ConstFloat(t);
  return l.EmitInt32Array(id, l.CommentOn(t, "int32"), l.Int32Values(t));
}

/// CONCATENATION (pack = false) or PACK (pack = true) along `axis` of the
/// output.
void LowerJoin(Lowerer& l, const tflite::Operator& op, std::int32_t axis,
               bool pack) {
  const Tensor& out = l.Output(op);
  const char* ctype = CopyType(l, op, out);
  const auto rank = static_cast<std::int32_t>(out.shape.size());
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) {
    l.Fail(Fmt("axis %d is outside the output's rank %d", axis, rank));
  }
  if (op.inputs.empty() || op.inputs.size() > 64) {
    l.Fail(Fmt("%zu inputs (1 to 64 supported)", op.inputs.size()));
  }
  const std::int64_t outer =
      Product(out.shape, 0, static_cast<std::size_t>(axis));
  std::int64_t total = 0;
  std::vector<std::int32_t> inner;
  std::string pointers;
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    const Tensor& in = l.Input(op, i);
    CheckLikeOutput(l, in, out, /*int16_symmetric=*/!pack);
    const std::int64_t count = ElementCount(in);
    if (count < 0 || outer <= 0 || count % outer != 0) {
      l.Fail(l.Describe(in) + " does not split into the output's outer " +
             "dimensions");
    }
    // The input's dimensions before the axis must be the output's.
    const std::size_t in_rank = in.shape.size();
    if (in_rank != static_cast<std::size_t>(pack ? rank - 1 : rank) ||
        Product(in.shape, 0, static_cast<std::size_t>(axis)) != outer) {
      l.Fail(l.Describe(in) + " " + tflite::ShapeText(in.shape) +
             " does not match the output " + tflite::ShapeText(out.shape));
    }
    inner.push_back(static_cast<std::int32_t>(count / outer));
    total += count;
    pointers +=
        (i ? ", " : "") +
        Source(l, in, ctype, Fmt("kOp%zuInput%zu", l.OperatorIndex(), i));
  }
  if (total != ElementCount(out)) {
    l.Fail(Fmt("the inputs hold %" PRId64 " elements, the output %" PRId64,
               total, ElementCount(out)));
  }
  const std::string inner_id = l.EmitInt32Array(
      Fmt("kOp%zuInner", l.OperatorIndex()),
      Fmt("operator %zu: elements per outer step per input", l.OperatorIndex()),
      inner);
  l.Emit(Fmt("  {\n    const %s* const inputs[] = {", ctype) + pointers +
         "};\n");
  l.Emit(Fmt("    k::Concatenation<%s>(k::ConcatenationParams{%" PRId64
             ", %zu}, inputs, %s,\n        ",
             ctype, outer, op.inputs.size(), inner_id.c_str()) +
         l.TypedAddr(out, ctype) + ");\n  }\n");
}

}  // namespace

void LowerConcatenation(Lowerer& l, const tflite::Operator& op) {
  (void)CheckTypes(l, op);  // input 0's and the output's; the others below
  const auto& o = l.OptionsOf<tflite::ConcatenationOptions>(op);
  if (o.activation != tflite::Activation::kNone) {
    l.Fail("a fused activation (TFLM refuses it)");
  }
  LowerJoin(l, op, o.axis, /*pack=*/false);
}

void LowerPack(Lowerer& l, const tflite::Operator& op) {
  // PackOptions (values_count, axis) are not decoded by the reader: the axis
  // is the one output dimension whose size is the input count and where
  // the input's shape splits the output's (the first such, checked below).
  const Tensor& out = l.Output(op);
  const Tensor& in0 = l.Input(op, 0);
  const auto n = static_cast<std::int32_t>(op.inputs.size());
  std::int32_t axis = -1;
  for (std::size_t a = 0; a < out.shape.size() && axis < 0; ++a) {
    if (out.shape[a] != n) continue;
    std::vector<std::int32_t> s = out.shape;
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(a));
    if (s == in0.shape) axis = static_cast<std::int32_t>(a);
  }
  if (axis < 0) {
    l.Fail("the output " + tflite::ShapeText(out.shape) +
           " is not the inputs stacked along one axis");
  }
  LowerJoin(l, op, axis, /*pack=*/true);
}

void LowerShape(Lowerer& l, const tflite::Operator& op) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& out = l.Output(op);
  if (out.type != TensorType::kInt32) {
    l.Fail(l.Describe(out) + " is " + tflite::TensorTypeName(out.type) +
           "; SHAPE gives INT32");
  }
  if (ElementCount(out) != static_cast<std::int64_t>(in.shape.size())) {
    l.Fail("the output does not hold one element per input dimension");
  }
  for (std::int32_t d : in.shape) {
    if (d <= 0)
      l.Fail(l.Describe(in) + " has a dimension that is not positive");
  }
  const std::string id = l.EmitInt32Array(
      Fmt("kOp%zuShape", l.OperatorIndex()),
      "the shape of " +
          l.CommentOn(in, tflite::TensorTypeName(in.type).c_str()),
      in.shape);
  l.Emit(Fmt("  k::CopyElements<std::int32_t>(%s, ", id.c_str()) +
         l.TypedAddr(out, "std::int32_t") + Fmt(", %zu);\n", in.shape.size()));
}

void LowerStridedSlice(Lowerer& l, const tflite::Operator& op) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& out = l.Output(op);
  const char* ctype = CopyType(l, op, in);
  CheckLikeOutput(l, in, out, /*int16_symmetric=*/false);
  const auto& o = l.OptionsOf<tflite::StridedSliceOptions>(op);
  if (o.ellipsis_mask != 0 || o.new_axis_mask != 0 || o.offset) {
    l.Fail("ellipsis_mask, new_axis_mask and offset are not supported");
  }
  const auto rank = static_cast<std::int32_t>(in.shape.size());
  if (rank > 4) l.Fail(Fmt("input rank %d (at most 4)", rank));
  const auto begin = l.Int32Values(l.Input(op, 1));
  const auto end = l.Int32Values(l.Input(op, 2));
  const auto strides = l.Int32Values(l.Input(op, 3));
  if (static_cast<std::int32_t>(begin.size()) != rank ||
      end.size() != begin.size() || strides.size() != begin.size()) {
    l.Fail(Fmt("begin, end and strides must hold %d values each", rank));
  }
  std::int32_t start[4] = {0, 0, 0, 0}, stop[4] = {1, 1, 1, 1};
  std::int32_t stride[4] = {1, 1, 1, 1};
  std::int64_t count = 1;
  for (std::int32_t a = 0; a < rank; ++a) {
    const std::int32_t size = in.shape[static_cast<std::size_t>(a)];
    const std::int32_t st = strides[static_cast<std::size_t>(a)];
    if (size <= 0) l.Fail(l.Describe(in) + " has an empty dimension");
    if (st == 0) l.Fail(Fmt("stride of dimension %d is 0", a));
    // strided_slice_logic.h: StartForAxis, StopForAxis.
    std::int64_t b = begin[static_cast<std::size_t>(a)];
    if (o.begin_mask & (1 << a)) b = st > 0 ? INT_MIN : INT_MAX;
    if (b < 0) b += size;
    b = st > 0 ? std::clamp<std::int64_t>(b, 0, size)
               : std::clamp<std::int64_t>(b, -1, size - 1);
    std::int64_t e;
    if (o.shrink_axis_mask & (1 << a)) {
      e = b + 1;
    } else {
      e = end[static_cast<std::size_t>(a)];
      if (o.end_mask & (1 << a)) e = st > 0 ? INT_MAX : INT_MIN;
      if (e < 0) e += size;
      e = st > 0 ? std::clamp<std::int64_t>(e, 0, size)
                 : std::clamp<std::int64_t>(e, -1, size - 1);
    }
    const std::int64_t n = st > 0 ? (e > b ? (e - b + st - 1) / st : 0)
                                  : (b > e ? (b - e + (-st) - 1) / (-st) : 0);
    count *= n;
    start[4 - rank + a] = static_cast<std::int32_t>(b);
    stop[4 - rank + a] = static_cast<std::int32_t>(e);
    stride[4 - rank + a] = st;
  }
  if (count != ElementCount(out)) {
    l.Fail(Fmt("the slice holds %" PRId64 " elements, the output %" PRId64,
               count, ElementCount(out)));
  }
  l.Emit(Fmt("  k::StridedSlice<%s>(k::StridedSliceParams{%s, {%d, %d, %d, "
             "%d}, {%d, %d, %d, %d}, {%d, %d, %d, %d}},\n      ",
             ctype, l.Shape(in).Code().c_str(), start[0], start[1], start[2],
             start[3], stop[0], stop[1], stop[2], stop[3], stride[0], stride[1],
             stride[2], stride[3]) +
         l.TypedAddr(in, ctype) + ", " + l.TypedAddr(out, ctype) + ");\n");
}

}  // namespace arenaplan::compile
