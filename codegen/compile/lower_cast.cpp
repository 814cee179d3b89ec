// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// CAST between int8, int16, int32 and float32 -> k::Cast
// (kernels/include/arenaplan/kernels/cast.hpp). TFLM's cast.cc also reads
// uint32 and bool; those types are not planned by arenaplan's kernels.
#include <cinttypes>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

void LowerCast(Lowerer& l, const tflite::Operator& op) {
  const auto [in, out] = l.Unary(op);
  for (const Tensor* t : {&in, &out}) {
    if (t->type != TensorType::kInt8 && t->type != TensorType::kInt16 &&
        t->type != TensorType::kInt32 && t->type != TensorType::kFloat32) {
      l.Fail(l.Describe(*t) + " is " + tflite::TensorTypeName(t->type) +
             "; CAST takes INT8, INT16, INT32 or FLOAT32");
    }
  }
  if (in.shape != out.shape) {
    l.Fail("output shape " + tflite::ShapeText(out.shape) +
           " differs from the input's " + tflite::ShapeText(in.shape));
  }
  const std::int64_t count = ElementCount(in);
  if (count < 0) l.Fail(l.Describe(in) + " has a dynamic dimension");
  const char* from = Lowerer::CType(in.type);
  const char* to = Lowerer::CType(out.type);
  l.Emit(Fmt("  k::Cast<%s, %s>(", from, to) + l.TypedAddr(in, from) + ", " +
         l.TypedAddr(out, to) + Fmt(", %" PRId64 ");\n", count));
}

}  // namespace arenaplan::compile
