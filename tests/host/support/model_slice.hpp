// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// One operator of a real model as a model of its own: the operator, the
// tensors it reads and writes (constants keep their data), its non-constant
// inputs as the graph's inputs and its outputs as the graph's outputs. The
// compile fuzz target is seeded with one such slice per builtin operator
// found in the shared models (tests/fuzz/fuzz_seed_models.cpp), so every
// lowering is reached from its first input, with real shapes, options and
// quantization.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_MODEL_SLICE_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_MODEL_SLICE_HPP_

#include <cstdint>
#include <map>
#include <optional>
#include <variant>
#include <vector>

#include "codegen/tflite/model.hpp"

namespace arenaplan::testing_util {

/// Operator `op` of `model`'s main graph as a one-operator model; nullopt
/// for operators that call other subgraphs (control flow) or read no
/// tensor.
[[nodiscard]] inline std::optional<tflite::Model> SliceOperator(
    const tflite::Model& model, std::size_t op) {
  const tflite::Subgraph& g = model.subgraphs.at(0);
  const tflite::Operator& source = g.operators.at(op);
  if (std::holds_alternative<tflite::ControlFlowOptions>(source.options)) {
    return std::nullopt;
  }
  tflite::Model out;
  out.source = model.source;
  out.version = model.version;
  out.buffers.emplace_back();  // Buffer 0: no data.
  out.subgraphs.emplace_back();
  tflite::Subgraph& s = out.subgraphs[0];
  s.name = g.name;
  std::map<std::int32_t, std::int32_t> index;  // old tensor -> new tensor
  // `input`: a non-constant, non-variable tensor becomes a graph input.
  const auto take = [&](std::int32_t t, bool input) -> std::int32_t {
    if (t < 0) return t;  // an optional input left out
    auto [it, added] =
        index.emplace(t, static_cast<std::int32_t>(s.tensors.size()));
    if (!added) return it->second;
    tflite::Tensor copy = g.tensors.at(static_cast<std::size_t>(t));
    if (model.IsConstant(copy)) {
      out.buffers.push_back(model.buffers[copy.buffer]);
      copy.buffer = static_cast<std::uint32_t>(out.buffers.size() - 1);
    } else {
      copy.buffer = 0;
      // A variable tensor (state) is read and written by its operator but
      // is no graph input; every other non-constant input is one.
      if (input && !copy.is_variable) s.inputs.push_back(it->second);
    }
    s.tensors.push_back(std::move(copy));
    return it->second;
  };
  tflite::Operator o = source;
  for (std::int32_t& t : o.inputs) t = take(t, true);
  for (std::int32_t& t : o.outputs) {
    t = take(t, false);
    if (t >= 0) s.outputs.push_back(t);
  }
  // Intermediates carry quantization some kernels read (LSTM's gates).
  for (std::int32_t& t : o.intermediates) t = take(t, false);
  if (s.inputs.empty() && s.tensors.empty()) return std::nullopt;
  s.operators.push_back(std::move(o));
  return out;
}

}  // namespace arenaplan::testing_util

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_MODEL_SLICE_HPP_
