// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// PAD and PADV2 -> k::Pad (kernels/include/arenaplan/kernels/pad.hpp), for
// int8, int16, int32 and float32 tensors (type_rules.cpp) of at most 4
// dimensions with constant int32 paddings. The pad value, as TFLM's pad.cc:
// PAD pads int8 with the output zero point and wider types with 0 (0.0f
// for float32); PADV2 with its constant third input (an int8 one quantized
// as the output; a float32 one written exactly).
#include <cinttypes>

#include "codegen/compile/edge_types.hpp"
#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

void LowerPad(Lowerer& l, const tflite::Operator& op) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& paddings = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  (void)CheckTypes(l, op);  // the input's type, the output's the same
  const char* ctype = Lowerer::CType(in.type);
  const Affine qo =
      in.type == TensorType::kInt8 ? l.Int8Activation(out) : Affine{1.0f, 0};
  if (in.type == TensorType::kInt8) (void)l.Int8Activation(in);
  const std::size_t rank = in.shape.size();
  if (rank > 4 || out.shape.size() != rank) {
    l.Fail(Fmt("input rank %zu (output %zu): PAD takes ranks up to 4, equal",
               rank, out.shape.size()));
  }
  const std::vector<std::int32_t> pads = l.Int32Values(paddings);
  if (pads.size() != 2 * rank) {
    l.Fail(l.Describe(paddings) +
           Fmt(" holds %zu values, not 2 x rank %zu", pads.size(), rank));
  }
  std::int32_t before[4] = {0, 0, 0, 0}, after[4] = {0, 0, 0, 0};
  for (std::size_t d = 0; d < rank; ++d) {
    const std::int32_t b = pads[2 * d], a = pads[2 * d + 1];
    if (b < 0 || a < 0 || b > (1 << 24) || a > (1 << 24)) {
      l.Fail(Fmt("padding [%d, %d] of dimension %zu is negative or too large",
                 b, a, d));
    }
    if (static_cast<std::int64_t>(in.shape[d]) + b + a != out.shape[d]) {
      l.Fail(Fmt("output dimension %zu is %d, not %d + %d + %d", d,
                 out.shape[d], in.shape[d], b, a));
    }
    before[4 - rank + d] = b;
    after[4 - rank + d] = a;
  }
  const Dims4 is = l.Shape(in);
  (void)l.Shape(out);
  std::int64_t pad_value = in.type == TensorType::kInt8 ? qo.zero_point : 0;
  std::string what = in.type == TensorType::kInt8 ? "output zero point" : "0";
  std::string pad_value_text;                        // a float's exact literal
  if (op.inputs.size() >= 3 && op.inputs[2] >= 0) {  // PADV2
    const Tensor& value = l.Input(op, 2);
    if (value.type != in.type || !l.model().IsConstant(value) ||
        ElementCount(value) != 1) {
      l.Fail(l.Describe(value) +
             ": the pad value must be one constant of the input's type");
    }
    if (in.type == TensorType::kInt8) {
      const Affine qv = l.Int8Activation(value);
      if (qv.zero_point != qo.zero_point || qv.scale != qo.scale) {
        l.Fail(l.Describe(value) +
               ": the pad value is not quantized as the "
               "output (TFLM refuses it)");
      }
      pad_value =
          static_cast<std::int8_t>(l.model().buffers[value.buffer].data.at(0));
    } else if (in.type == TensorType::kFloat32) {
      pad_value_text = ExactFloatLiteral(l.FloatValues(value).at(0));
    } else if (in.type == TensorType::kInt16) {
      const auto& data = l.model().buffers[value.buffer].data;
      if (data.size() != 2) l.Fail(l.Describe(value) + " has no data");
      pad_value = static_cast<std::int16_t>(data[0] | (data[1] << 8));
    } else {
      pad_value = l.Int32Values(value).at(0);
    }
    what = "constant input";
  }
  l.Emit(
      Fmt("  k::Pad<%s>(k::PadParams{%s, k::Shape4{%d, %d, %d, %d}, "
          "k::Shape4{%d, %d, %d, %d}},\n",
          ctype, is.Code().c_str(), before[0], before[1], before[2], before[3],
          after[0], after[1], after[2], after[3]));
  if (pad_value_text.empty()) pad_value_text = Fmt("%" PRId64, pad_value);
  l.Emit("      " + pad_value_text + ", " + l.TypedAddr(in, ctype) + ", " +
         l.TypedAddr(out, ctype) + ");  // pad value: " + what + "\n");
  StatePadOverlap(l, in, out, is, before, after);  // pad.hpp, any type
}

}  // namespace arenaplan::compile
