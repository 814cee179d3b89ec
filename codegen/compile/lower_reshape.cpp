// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RESHAPE (and EXPAND_DIMS, SQUEEZE) -> k::Reshape
// (kernels/include/arenaplan/kernels/reshape.hpp): a copy of the bytes when
// the plan gives the output its own place; int8 (per-tensor quantized) or
// int16 elements (type_rules.cpp; as TFLM's reshape.cc, which copies any
// type's bytes and reads no quantization).
#include <cinttypes>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

void LowerReshape(Lowerer& l, const tflite::Operator& op) {
  const bool wide = CheckTypes(l, op)[0] == tflite::TensorType::kInt16;
  const auto [in, out] = l.Unary(op);
  if (!wide) {
    (void)l.Int8Activation(in);
    (void)l.Int8Activation(out);
  }
  if (ElementCount(in) != ElementCount(out))
    l.Fail("input and output sizes differ");
  l.Emit(Fmt("  k::Reshape(%s, %s, %" PRId64 ");\n", l.Addr(in).c_str(),
             l.Addr(out).c_str(), ElementCount(in) * (wide ? 2 : 1)));
  l.StateOverlap(in, out, OverlapRelation::kAlias, 0);  // reshape.hpp
}

}  // namespace arenaplan::compile
