// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RESHAPE, EXPAND_DIMS and SQUEEZE -> k::Reshape (kernels/include/
// arenaplan/kernels/reshape.hpp): a copy of the tensor's bytes (int8, or
// float32 per type_rules.cpp: 4 bytes an element) when the plan gives the
// output its own place.
#include <cinttypes>

#include "codegen/compile/lowering.hpp"
#include "codegen/compile/type_rules.hpp"

namespace arenaplan::compile {

void LowerReshape(Lowerer& l, const tflite::Operator& op) {
  const bool is_float = CheckTypes(l, op)[0] == tflite::TensorType::kFloat32;
  const auto [in, out] = l.Unary(op);
  if (!is_float) {
    (void)l.Int8Activation(in);
    (void)l.Int8Activation(out);
  }
  if (ElementCount(in) != ElementCount(out))
    l.Fail("input and output sizes differ");
  l.Emit(Fmt("  k::Reshape(%s, %s, %" PRId64 ");\n", l.Addr(in).c_str(),
             l.Addr(out).c_str(), ElementCount(in) * (is_float ? 4 : 1)));
  l.StateOverlap(in, out, OverlapRelation::kAlias, 0);  // reshape.hpp
}

}  // namespace arenaplan::compile
