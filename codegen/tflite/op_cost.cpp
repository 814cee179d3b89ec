// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflite/op_cost.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <vector>

#include "codegen/base/saturating.hpp"

namespace arenaplan::tflite {
namespace {

/// Tensor `t` of subgraph 0, or nullptr for -1 or an index out of range.
const Tensor* At(const Model& model, const Operator& op, std::size_t input) {
  if (input >= op.inputs.size()) return nullptr;
  const std::int32_t t = op.inputs[input];
  const auto& tensors = model.subgraphs[0].tensors;
  if (t < 0 || static_cast<std::size_t>(t) >= tensors.size()) return nullptr;
  return &tensors[static_cast<std::size_t>(t)];
}

const Tensor* Output(const Model& model, const Operator& op) {
  if (op.outputs.empty()) return nullptr;
  const std::int32_t t = op.outputs[0];
  const auto& tensors = model.subgraphs[0].tensors;
  if (t < 0 || static_cast<std::size_t>(t) >= tensors.size()) return nullptr;
  return &tensors[static_cast<std::size_t>(t)];
}

/// The product of the shape (1 for a scalar); nullopt for a negative
/// dimension.
std::optional<std::uint64_t> Elements(const Tensor* t) {
  if (t == nullptr) return std::nullopt;
  std::uint64_t n = 1;
  for (std::int32_t d : t->shape) {
    if (d < 0) return std::nullopt;
    n = SaturatingMul(n, static_cast<std::uint64_t>(d));
  }
  return n;
}

/// Dimension `i` of a tensor of rank `rank` (0 when it has another rank).
std::uint64_t Dim(const Tensor* t, std::size_t rank, std::size_t i) {
  if (t == nullptr || t->shape.size() != rank || t->shape[i] < 0) return 0;
  return static_cast<std::uint64_t>(t->shape[i]);
}

std::uint64_t Product(std::initializer_list<std::uint64_t> v) {
  std::uint64_t p = 1;
  for (std::uint64_t x : v) p = SaturatingMul(p, x);
  return p;
}

std::uint64_t Macs(const Model& model, const Operator& op) {
  const std::uint64_t out = Elements(Output(model, op)).value_or(0);
  const Tensor* w = At(model, op, 1);
  switch (op.builtin_code) {
    case BuiltinOp::kConv2D:
      return Product({out, Dim(w, 4, 1), Dim(w, 4, 2), Dim(w, 4, 3)});
    case BuiltinOp::kDepthwiseConv2D:
      return Product({out, Dim(w, 4, 1), Dim(w, 4, 2)});
    case BuiltinOp::kFullyConnected: {
      const std::size_t rank = w == nullptr ? 0 : w->shape.size();
      return rank == 2 ? Product({out, Dim(w, 2, 1)}) : 0;
    }
    case BuiltinOp::kTransposeConv: {
      const std::uint64_t in = Elements(At(model, op, 2)).value_or(0);
      return Product({in, Dim(w, 4, 0), Dim(w, 4, 1), Dim(w, 4, 2)});
    }
    case BuiltinOp::kBatchMatmul: {
      const Tensor* a = At(model, op, 0);
      if (a == nullptr || a->shape.size() < 2) return 0;
      const auto* o = std::get_if<BatchMatMulOptions>(&op.options);
      const std::size_t k = a->shape.size() - (o && o->adj_x ? 2 : 1);
      return a->shape[k] < 0
                 ? 0
                 : Product({out, static_cast<std::uint64_t>(a->shape[k])});
    }
    default:
      return 0;
  }
}

}  // namespace

OperatorCost CostOf(const Model& model, const Operator& op) {
  OperatorCost c;
  if (model.subgraphs.empty()) return c;
  c.macs = Macs(model, op);
  std::vector<std::int32_t> seen;
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    const Tensor* t = At(model, op, i);
    if (t == nullptr || !model.IsConstant(*t) ||
        std::find(seen.begin(), seen.end(), op.inputs[i]) != seen.end()) {
      continue;
    }
    seen.push_back(op.inputs[i]);
    c.constant_bytes = SaturatingAdd(
        c.constant_bytes,
        static_cast<std::uint64_t>(model.buffers[t->buffer].data.size()));
  }
  return c;
}

}  // namespace arenaplan::tflite
