// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TRANSPOSE of int8 / int16 / int32 / float32 tensors (type_rules.cpp) of
// at most 4 dimensions with a constant permutation -> k::Transpose
// (kernels/.../transpose.hpp).
#include <cinttypes>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

const char* MovedElementType(Lowerer& l, const Tensor& in, const Tensor& out) {
  if (in.type != out.type) l.Fail("input and output types differ");
  const char* ctype = Lowerer::CType(in.type);
  if (in.type == TensorType::kInt8) {
    const Affine a = l.Int8Activation(in), b = l.Int8Activation(out);
    if (a.scale != b.scale || a.zero_point != b.zero_point) {
      l.Fail("input and output quantization differ");
    }
  } else if (in.type != TensorType::kInt16 && in.type != TensorType::kInt32) {
    l.Fail(l.Describe(in) + " is " + tflite::TensorTypeName(in.type) +
           "; expected INT8, INT16 or INT32");
  }
  return ctype;
}

const char* RuledMovedType(Lowerer& l, const tflite::Operator& op,
                           const Tensor& in, const Tensor& out) {
  if (CheckTypes(l, op)[0] == TensorType::kFloat32) return "float";
  return MovedElementType(l, in, out);
}

void LowerTranspose(Lowerer& l, const tflite::Operator& op) {
  const Tensor& in = l.Input(op, 0);
  const Tensor& out = l.Output(op);
  const char* ctype = RuledMovedType(l, op, in, out);
  const auto rank = static_cast<std::int32_t>(in.shape.size());
  if (rank > 4 || static_cast<std::int32_t>(out.shape.size()) != rank) {
    l.Fail(
        Fmt("input rank %d, output rank %zu: TRANSPOSE takes equal ranks "
            "up to 4",
            rank, out.shape.size()));
  }
  const auto perm = l.Int32Values(l.Input(op, 1));
  if (static_cast<std::int32_t>(perm.size()) != rank) {
    l.Fail(
        Fmt("the permutation holds %zu values for rank %d", perm.size(), rank));
  }
  const Dims4 is = l.Shape(in);
  (void)l.Shape(out);
  const std::int32_t dims[4] = {is.n, is.h, is.w, is.c};
  const std::int32_t in_stride[4] = {is.h * is.w * is.c, is.w * is.c, is.c, 1};
  std::int32_t out_dims[4] = {1, 1, 1, 1}, stride[4] = {0, 0, 0, 0};
  bool seen[4] = {false, false, false, false};
  const std::int32_t pad = 4 - rank;
  for (std::int32_t i = 0; i < pad; ++i) stride[i] = in_stride[i];
  for (std::int32_t i = 0; i < rank; ++i) {
    const std::int32_t pi = perm[static_cast<std::size_t>(i)];
    if (pi < 0 || pi >= rank || seen[pi]) {
      l.Fail("the permutation is not a permutation of the dimensions");
    }
    seen[pi] = true;
    out_dims[pad + i] = dims[pad + pi];
    stride[pad + i] = in_stride[pad + pi];
    if (out.shape[static_cast<std::size_t>(i)] != out_dims[pad + i]) {
      l.Fail(Fmt("output dimension %d is %d, the permuted input's %d", i,
                 out.shape[static_cast<std::size_t>(i)], out_dims[pad + i]));
    }
  }
  l.Emit(Fmt("  k::Transpose<%s>(k::TransposeParams{k::Shape4{%d, %d, %d, "
             "%d}, {%d, %d, %d, %d}},\n      ",
             ctype, out_dims[0], out_dims[1], out_dims[2], out_dims[3],
             stride[0], stride[1], stride[2], stride[3]) +
         l.TypedAddr(in, ctype) + ", " + l.TypedAddr(out, ctype) + ");\n");
}

}  // namespace arenaplan::compile
