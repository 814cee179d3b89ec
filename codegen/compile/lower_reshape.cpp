// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RESHAPE, EXPAND_DIMS and SQUEEZE -> k::Reshape (kernels/include/
// arenaplan/kernels/reshape.hpp): a copy of the tensor's bytes when the plan
// gives the output its own place: int8 (per-tensor quantized), int16 or
// float32 elements (type_rules.cpp; as TFLM's reshape.cc, which copies any
// type's bytes and reads no quantization).
#include <cinttypes>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

using tflite::TensorType;

void LowerReshape(Lowerer& l, const tflite::Operator& op) {
  const TensorType type = CheckTypes(l, op)[0];
  const auto [in, out] = l.Unary(op);
  if (type == TensorType::kInt8) {
    (void)l.Int8Activation(in);
    (void)l.Int8Activation(out);
  }
  if (ElementCount(in) != ElementCount(out))
    l.Fail("input and output sizes differ");
  l.Emit(Fmt("  k::Reshape(%s, %s, %" PRId64 ");\n", l.Addr(in).c_str(),
             l.Addr(out).c_str(),
             ElementCount(in) * (type == TensorType::kInt8    ? 1
                                 : type == TensorType::kInt16 ? 2
                                                              : 4)));
  l.StateOverlap(in, out, OverlapRelation::kAlias, 0);  // reshape.hpp
}

}  // namespace arenaplan::compile
