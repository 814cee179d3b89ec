// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// RESHAPE -> k::Reshape (kernels/include/arenaplan/kernels/reshape.hpp): a
// copy of the int8 bytes when the plan gives the output its own place.
#include <cinttypes>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

void LowerReshape(Lowerer& l, const tflite::Operator& op) {
  const auto [in, out] = l.Unary(op);
  (void)l.Int8Activation(in);
  (void)l.Int8Activation(out);
  if (ElementCount(in) != ElementCount(out))
    l.Fail("input and output sizes differ");
  l.Emit(Fmt("  k::Reshape(%s, %s, %" PRId64 ");\n", l.Addr(in).c_str(),
             l.Addr(out).c_str(), ElementCount(in)));
  l.StateOverlap(in, out, OverlapRelation::kAlias, 0);  // reshape.hpp
}

}  // namespace arenaplan::compile
