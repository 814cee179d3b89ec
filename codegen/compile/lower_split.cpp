// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// SPLIT, SPLIT_V and UNPACK -> k::Split (kernels/include/arenaplan/kernels/
// split.hpp), int8, int16, int32 or float32 data (type_rules.cpp) copied
// to several outputs. The
// axis is a constant input (SPLIT: input 0, SPLIT_V: input 2, as TFLM
// requires) or UNPACK's option; the outputs' own shapes give each share,
// as TFLM's kernels read them. Int8 outputs must be quantized as the input
// (the bytes are copied).
#include <cinttypes>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

namespace {

/// The single value of a constant int32 axis tensor.
std::int32_t AxisValue(Lowerer& l, const Tensor& t) {
  if (!l.model().IsConstant(t)) {
    l.Fail(l.Describe(t) +
           ": the axis must be a constant (TFLM refuses "
           "another)");
  }
  const std::vector<std::int32_t> v = l.Int32Values(t);
  if (v.size() != 1) l.Fail(l.Describe(t) + ": the axis must be one value");
  return v[0];
}

/// `in` dealt out along `axis` to every output of `op`; `unpack`: the
/// outputs lack the axis (UNPACK) instead of sharing it (SPLIT, SPLIT_V).
void LowerDeal(Lowerer& l, const tflite::Operator& op, const Tensor& in,
               std::int32_t axis, bool unpack) {
  const char* ctype = Lowerer::CType(CheckTypes(l, op)[0]);
  const auto rank = static_cast<std::int32_t>(in.shape.size());
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) {
    l.Fail(Fmt("axis %d is outside the input's rank %d", axis, rank));
  }
  if (op.outputs.empty() || op.outputs.size() > 64) {
    l.Fail(Fmt("%zu outputs (1 to 64 supported)", op.outputs.size()));
  }
  for (std::int32_t d : in.shape) {
    if (d <= 0)
      l.Fail(l.Describe(in) + " has a dimension that is not positive");
  }
  const auto a = static_cast<std::size_t>(axis);
  const std::int64_t outer = Product(in.shape, 0, a);
  const std::int64_t after = Product(in.shape, a + 1, in.shape.size());
  std::int64_t along = 0;  // Sum of the outputs' sizes along the axis.
  std::vector<std::int32_t> inner;
  std::string pointers;
  for (std::size_t k = 0; k < op.outputs.size(); ++k) {
    if (op.outputs[k] < 0) l.Fail(Fmt("output %zu is missing", k));
    const Tensor& out =
        l.model().subgraphs[0].tensors[static_cast<std::size_t>(op.outputs[k])];
    if (out.type != in.type) {
      l.Fail(l.Describe(out) + " is " + tflite::TensorTypeName(out.type) +
             ", the input " + tflite::TensorTypeName(in.type));
    }
    if (in.type == TensorType::kInt8) {
      const Affine qi = l.Int8Activation(in), qo = l.Int8Activation(out);
      if (qi.scale != qo.scale || qi.zero_point != qo.zero_point) {
        l.Fail(l.Describe(out) + " is not quantized as the input");
      }
    }
    // The output's shape: the input's with the axis removed (UNPACK) or
    // with another size along it (SPLIT, SPLIT_V).
    std::vector<std::int32_t> expect = in.shape;
    std::int32_t size = 1;
    if (unpack) {
      expect.erase(expect.begin() + axis);
    } else {
      if (out.shape.size() != in.shape.size()) {
        l.Fail(l.Describe(out) + " " + tflite::ShapeText(out.shape) +
               " does not match the input " + tflite::ShapeText(in.shape));
      }
      size = out.shape[a];
      expect[a] = size;
    }
    if (out.shape != expect || size <= 0) {
      l.Fail(l.Describe(out) + " " + tflite::ShapeText(out.shape) +
             " is not a share of the input " + tflite::ShapeText(in.shape) +
             Fmt(" along axis %d", axis));
    }
    along += size;
    inner.push_back(static_cast<std::int32_t>(size * after));
    pointers += (k ? ", " : "") + l.TypedAddr(out, ctype);
  }
  if (along != in.shape[a]) {
    l.Fail(Fmt("the outputs hold %" PRId64 " of the input's %d along axis %d",
               along, in.shape[a], axis));
  }
  const std::string inner_id =
      l.EmitInt32Array(Fmt("kOp%zuInner", l.OperatorIndex()),
                       Fmt("operator %zu: elements per outer step per output",
                           l.OperatorIndex()),
                       inner);
  l.Emit(Fmt("  {\n    %s* const outputs[] = {", ctype) + pointers + "};\n");
  l.Emit(Fmt("    k::Split<%s>(k::SplitParams{%" PRId64 ", %zu}, ", ctype,
             outer, op.outputs.size()) +
         l.TypedAddr(in, ctype) +
         Fmt(",\n        %s, outputs);\n  }\n", inner_id.c_str()));
}

}  // namespace

void LowerSplit(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 2) l.Fail("expected 2 inputs (axis, data)");
  const Tensor& in = l.Input(op, 1);
  if (l.model().IsConstant(in)) l.Fail("a constant input is not supported");
  LowerDeal(l, op, in, AxisValue(l, l.Input(op, 0)), /*unpack=*/false);
}

void LowerSplitV(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 3) {
    l.Fail("expected 3 inputs (data, size_splits, axis)");
  }
  const Tensor& in = l.Input(op, 0);
  if (l.model().IsConstant(in)) l.Fail("a constant input is not supported");
  LowerDeal(l, op, in, AxisValue(l, l.Input(op, 2)), /*unpack=*/false);
}

void LowerUnpack(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 1) l.Fail("expected 1 input");
  const Tensor& in = l.Input(op, 0);
  if (l.model().IsConstant(in)) l.Fail("a constant input is not supported");
  const auto& o = l.OptionsOf<tflite::UnpackOptions>(op);
  if (o.num != static_cast<std::int32_t>(op.outputs.size())) {
    l.Fail(
        Fmt("num %d differs from the %zu outputs", o.num, op.outputs.size()));
  }
  LowerDeal(l, op, in, o.axis, /*unpack=*/true);
}

}  // namespace arenaplan::compile
