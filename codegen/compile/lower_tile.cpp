// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TILE of int8 / int16 / int32 / float32 tensors of at most 4 dimensions
// with constant int32 or int64 multiples -> k::Tile
// (kernels/include/arenaplan/kernels/tile.hpp).
#include <cinttypes>
#include <cstring>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

void LowerTile(Lowerer& l, const tflite::Operator& op) {
  if (op.inputs.size() != 2) l.Fail("expected 2 inputs");
  const Tensor& in = l.Input(op, 0);
  const Tensor& mult = l.Input(op, 1);
  const Tensor& out = l.Output(op);
  const char* ctype = "float";
  if (in.type != TensorType::kFloat32 || out.type != TensorType::kFloat32) {
    ctype = MovedElementType(l, in, out);
  }
  const std::size_t rank = in.shape.size();
  if (rank > 4 || out.shape.size() != rank) {
    l.Fail(
        Fmt("input rank %zu, output rank %zu: TILE takes equal ranks up "
            "to 4",
            rank, out.shape.size()));
  }
  if (!l.model().IsConstant(mult)) l.Fail("the multiples are not constant");
  std::vector<std::int64_t> m;
  if (mult.type == TensorType::kInt32) {
    for (std::int32_t v : l.Int32Values(mult)) m.push_back(v);
  } else if (mult.type == TensorType::kInt64) {
    const auto& b = l.model().buffers[mult.buffer].data;
    m.resize(b.size() / 8);
    std::memcpy(m.data(), b.data(), m.size() * 8);  // little-endian host
  } else {
    l.Fail(l.Describe(mult) + " is " + tflite::TensorTypeName(mult.type) +
           "; the multiples must be INT32 or INT64");
  }
  if (m.size() != rank) {
    l.Fail(Fmt("%zu multiples for rank %zu", m.size(), rank));
  }
  for (std::size_t i = 0; i < rank; ++i) {
    if (m[i] < 1 ||
        static_cast<std::int64_t>(in.shape[i]) * m[i] != out.shape[i]) {
      l.Fail(
          Fmt("output dimension %zu is %d, not input %d times multiple "
              "%" PRId64,
              i, out.shape[i], in.shape[i], m[i]));
    }
  }
  const Dims4 is = l.Shape(in), os = l.Shape(out);
  l.Emit(Fmt("  k::Tile<%s>(k::TileParams{%s, %s},\n      ", ctype,
             is.Code().c_str(), os.Code().c_str()) +
         MovedOperand(l, in, ctype) + ", " + l.TypedAddr(out, ctype) + ");\n");
}

}  // namespace arenaplan::compile
