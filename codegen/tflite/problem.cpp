// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflite/problem.hpp"

#include <algorithm>
#include <limits>

#include "codegen/base/errors.hpp"

namespace arenaplan::tflite {
namespace {

constexpr std::int64_t kUnset = std::numeric_limits<std::int64_t>::max();

bool HasDynamicDim(const std::vector<std::int32_t>& dims) {
  return std::find(dims.begin(), dims.end(), -1) != dims.end();
}

}  // namespace

std::int32_t HomeOf(const Subgraph& graph, std::int32_t t) {
  const std::int32_t a = graph.tensors[static_cast<std::size_t>(t)].alias_of;
  return a >= 0 && static_cast<std::size_t>(a) < graph.tensors.size() ? a : t;
}

bool HoldsGraphOutput(const Subgraph& graph, std::int32_t t) {
  const std::int32_t home = HomeOf(graph, t);
  return std::any_of(
      graph.outputs.begin(), graph.outputs.end(), [&](std::int32_t o) {
        return o >= 0 && static_cast<std::size_t>(o) < graph.tensors.size() &&
               HomeOf(graph, o) == home;
      });
}

const char* TensorRoleName(TensorRole role) {
  switch (role) {
    case TensorRole::kPlanned:
      return "planned";
    case TensorRole::kConstant:
      return "constant";
    case TensorRole::kVariable:
      return "variable";
    case TensorRole::kEmpty:
      return "empty";
    case TensorRole::kUnused:
      return "unused";
    case TensorRole::kAlias:
      return "alias";
  }
  return "?";
}

std::uint64_t TensorBytes(const Tensor& tensor, const InputOptions& options,
                          const std::string& place) {
  // The shape TFLM allocates is `shape`; it never reads shape_signature,
  // where the converter marks a dimension only known at run time (usually
  // the batch) with -1 while writing the size it was given (usually 1) into
  // `shape`. So `shape` is used when it is fully known. --assume-dim N
  // overrides: N replaces every -1, in the signature (which then holds the
  // model's intended rank) or else in the shape. A -1 in `shape` itself
  // leaves no size to allocate: an error without --assume-dim.
  std::vector<std::int32_t> dims = tensor.shape;
  const bool dynamic_shape = HasDynamicDim(tensor.shape);
  const bool dynamic = options.assume_dim &&
                       (dynamic_shape || HasDynamicDim(tensor.shape_signature));
  if (dynamic_shape && !options.assume_dim) {
    throw InputError(place + ": dynamic dimension in shape " +
                     ShapeText(tensor.shape) + " (shape_signature " +
                     ShapeText(tensor.shape_signature) +
                     "); give --assume-dim N");
  }
  if (dynamic && !tensor.shape_signature.empty() &&
      (tensor.shape.empty() ||
       tensor.shape_signature.size() == tensor.shape.size())) {
    dims = tensor.shape_signature;
  }
  std::uint64_t elements = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    std::uint64_t d = 0;
    if (dims[i] == -1 && dynamic) {
      d = *options.assume_dim;
    } else if (dims[i] < 0) {
      throw InputError(place + ": negative dimension " +
                       std::to_string(dims[i]) + " at axis " +
                       std::to_string(i));
    } else {
      d = static_cast<std::uint64_t>(dims[i]);
    }
    if (d != 0 && elements > std::numeric_limits<std::uint64_t>::max() / d) {
      throw InputError(place + ": byte size overflows 64 bits");
    }
    elements *= d;
  }
  std::uint64_t element_size = 4;
  if (!options.fp32) {
    const auto size = ElementSize(tensor.type);
    if (!size) {
      throw InputError(place + ": type " + TensorTypeName(tensor.type) +
                       " has no static element size");
    }
    element_size = *size;
  }
  if (elements > std::numeric_limits<std::uint64_t>::max() / element_size) {
    throw InputError(place + ": byte size overflows 64 bits");
  }
  return elements * element_size;
}

namespace {

/// Fills out.problem.traffic: a tensor's bytes times the operator inputs
/// and outputs of subgraph 0 that name it; a scratch buffer's bytes twice
/// (its operator writes and reads it). Saturates at 2^64 - 1.
void AddTraffic(const Model& model, TfliteProblem& out) {
  const Subgraph& sg = model.subgraphs[0];
  std::vector<std::uint64_t> accesses(sg.tensors.size(), 0);
  for (const Operator& op : sg.operators) {
    if (!op.folded.empty()) continue;
    for (const std::vector<std::int32_t>* list : {&op.inputs, &op.outputs}) {
      for (std::int32_t t : *list) {
        if (t >= 0 && static_cast<std::size_t>(t) < accesses.size()) {
          // An alias is accessed where it lives (fold.hpp).
          const std::int32_t a =
              sg.tensors[static_cast<std::size_t>(t)].alias_of;
          ++accesses[static_cast<std::size_t>(a >= 0 ? a : t)];
        }
      }
    }
  }
  UsageProblem& p = out.problem;
  p.traffic.assign(p.records.size(), 0);
  for (std::size_t i = 0; i < p.records.size(); ++i) {
    const std::int32_t t = out.record_tensor[i];
    if (t < 0) {
      const std::uint64_t bytes = p.records[i].size;
      p.traffic[i] = bytes > std::numeric_limits<std::uint64_t>::max() / 2
                         ? std::numeric_limits<std::uint64_t>::max()
                         : 2 * bytes;
    } else {
      const auto k = static_cast<std::size_t>(t);
      const std::uint64_t bytes = out.tensors[k].bytes;
      p.traffic[i] = accesses[k] != 0 &&
                             bytes > std::numeric_limits<std::uint64_t>::max() /
                                         accesses[k]
                         ? std::numeric_limits<std::uint64_t>::max()
                         : bytes * accesses[k];
    }
  }
}

/// sum += v; InputError naming `place` when it overflows 64 bits.
void AddChecked(std::uint64_t& sum, std::uint64_t v, const std::string& place) {
  if (sum > std::numeric_limits<std::uint64_t>::max() - v) {
    throw InputError(place + ": total byte size overflows 64 bits");
  }
  sum += v;
}

/// The first and last operator step touching each tensor of `graph`
/// (inclusive; kUnset / -1 when none does).
struct Steps {
  std::vector<std::int64_t> first, last;
  std::vector<bool> touched;
};

Steps TouchSteps(const Subgraph& graph) {
  const std::size_t n = graph.tensors.size();
  const auto last_step = static_cast<std::int64_t>(graph.operators.size()) - 1;
  Steps st{std::vector<std::int64_t>(n, kUnset),
           std::vector<std::int64_t>(n, -1), std::vector<bool>(n, false)};
  auto touch = [&](std::int32_t t, std::int64_t lo, std::int64_t hi) {
    const auto i = static_cast<std::size_t>(t);
    st.touched[i] = true;
    st.first[i] = std::min(st.first[i], lo);
    st.last[i] = std::max(st.last[i], hi);
  };
  // Every access touches the tensor named and its home (HomeOf): an alias
  // and its home are one buffer with one lifetime (fold.hpp).
  auto touch_both = [&](std::int32_t t, std::int64_t lo, std::int64_t hi) {
    touch(t, lo, hi);
    const std::int32_t home = HomeOf(graph, t);
    if (home != t) touch(home, lo, hi);
  };
  for (std::int32_t t : graph.inputs) touch_both(t, 0, 0);
  for (std::size_t k = 0; k < graph.operators.size(); ++k) {
    const auto step = static_cast<std::int64_t>(k);
    const Operator& op = graph.operators[k];
    if (!op.folded.empty()) continue;  // Removed by FoldGraph.
    for (std::int32_t t : op.outputs) touch_both(t, step, step);
    // An input lives until its last reader. A tensor read before any
    // operator writes it (TFLM rejects such graphs) is taken to live from
    // its first reader, which keeps the plan sound.
    for (std::int32_t t : op.inputs) {
      if (t >= 0) touch_both(t, step, step);
    }
  }
  // A graph output lives to the last step. One that no operator writes
  // under any of its buffer's names exists from the start (as in TFLM); a
  // folded RESHAPE's output starts where its home is first written.
  for (std::int32_t t : graph.outputs) {
    const std::int32_t home = HomeOf(graph, t);
    const auto h = static_cast<std::size_t>(home);
    const std::int64_t first = st.first[h] == kUnset ? 0 : st.first[h];
    touch(t, std::min(first, st.first[static_cast<std::size_t>(t)]), last_step);
    if (home != t) touch(home, first, last_step);
  }
  return st;
}

/// The warning for `count` tensors sized from `shape` although their
/// signature is dynamic (see TensorBytes), naming the first by index (not
/// by name: untrusted text that may hold a line break).
std::string SignatureWarning(const std::string& sp, const Subgraph& graph,
                             std::size_t first, std::size_t count) {
  const Tensor& t = graph.tensors[first];
  const std::size_t more = count - 1;
  return sp + ": tensor " + std::to_string(first) + ": shape_signature " +
         ShapeText(t.shape_signature) + " has a dynamic dimension" +
         (more == 0 ? std::string()
                    : " (and " + std::to_string(more) + " more tensor" +
                          (more == 1 ? "" : "s") + ")") +
         "; planned with shape " + ShapeText(t.shape) +
         " as TFLM does (--assume-dim N for another size)";
}

/// Each tensor of subgraph 0: its role and bytes, and a record for each
/// planned one; `total` sums the planned bytes.
void ClassifyTensors(const Model& model, const InputOptions& options,
                     const Steps& st, TfliteProblem& out,
                     std::uint64_t& total) {
  const Subgraph& graph = model.subgraphs[0];
  const std::string sp = model.source + ": subgraph 0";
  UsageProblem& p = out.problem;
  std::size_t signature_dynamic = 0;
  std::size_t first_signature_dynamic = 0;
  out.tensors.resize(graph.tensors.size());
  for (std::size_t i = 0; i < graph.tensors.size(); ++i) {
    const Tensor& t = graph.tensors[i];
    TensorLifetime& life = out.tensors[i];
    const std::string place = sp + ": tensor " + std::to_string(i);
    if (!options.assume_dim && !model.IsConstant(t) &&
        (st.touched[i] || t.is_variable) && HasDynamicDim(t.shape_signature)) {
      if (signature_dynamic++ == 0) first_signature_dynamic = i;
    }
    if (t.is_variable) {
      life.role = TensorRole::kVariable;
      life.bytes = TensorBytes(t, options, place);
      AddChecked(p.persistent_bytes, life.bytes, sp);
      continue;
    }
    if (model.IsConstant(t)) {
      life.role = TensorRole::kConstant;
      life.bytes = model.buffers[t.buffer].data.size();
      continue;
    }
    if (!st.touched[i]) {
      life.role = TensorRole::kUnused;
      continue;
    }
    life.bytes = TensorBytes(t, options, place);
    if (t.alias_of >= 0) {
      const auto a = static_cast<std::size_t>(t.alias_of);
      if (a >= graph.tensors.size() || graph.tensors[a].alias_of >= 0 ||
          model.IsConstant(graph.tensors[a]) ||
          t.alias_offset > TensorBytes(graph.tensors[a], options, place) ||
          life.bytes >
              TensorBytes(graph.tensors[a], options, place) - t.alias_offset) {
        throw InternalError(place + ": alias outside tensor " +
                            std::to_string(a));
      }
      life.role = TensorRole::kAlias;
      life.first_op = st.first[i];
      life.last_op = st.last[i];
      continue;
    }
    if (life.bytes == 0) {
      life.role = TensorRole::kEmpty;
      continue;
    }
    life.role = TensorRole::kPlanned;
    life.first_op = st.first[i];
    life.last_op = st.last[i];
    AddChecked(total, life.bytes, sp);
    p.records.push_back({static_cast<std::uint32_t>(st.first[i]),
                         static_cast<std::uint32_t>(st.last[i]), life.bytes});
    p.ids.push_back(std::to_string(i));
    p.names.push_back(t.name);
    out.record_tensor.push_back(static_cast<std::int32_t>(i));
  }
  if (signature_dynamic != 0) {
    p.warnings.push_back(SignatureWarning(sp, graph, first_signature_dynamic,
                                          signature_dynamic));
  }
}

/// One record per --scratch OP:BYTES (0 bytes: none), alive at its
/// operator's step.
void AddScratchRecords(const Model& model, const InputOptions& options,
                       TfliteProblem& out, std::uint64_t& total) {
  UsageProblem& p = out.problem;
  const std::size_t op_count = model.subgraphs[0].operators.size();
  for (std::size_t k = 0; k < options.scratch.size(); ++k) {
    const auto [op, bytes] = options.scratch[k];
    if (op >= op_count) {
      throw InputError(model.source + ": --scratch " + std::to_string(op) +
                       ":" + std::to_string(bytes) + ": operator " +
                       std::to_string(op) + " out of range (" +
                       std::to_string(op_count) + " operators)");
    }
    if (bytes == 0) continue;
    AddChecked(total, bytes, model.source + ": subgraph 0");
    p.records.push_back({op, op, bytes});
    p.ids.push_back("scratch" + std::to_string(k));
    p.names.push_back("scratch of operator " + std::to_string(op) + " " +
                      p.operator_names[op]);
    out.record_tensor.push_back(-1);
  }
}

/// The other subgraphs: counted, and one "not planned" line each.
void NoteOtherSubgraphs(const Model& model, TfliteProblem& out) {
  for (const Subgraph& s : model.subgraphs) {
    out.total_tensor_count += s.tensors.size();
  }
  for (std::size_t s = 1; s < model.subgraphs.size(); ++s) {
    const Subgraph& g = model.subgraphs[s];
    std::size_t activations = 0;
    for (const Tensor& t : g.tensors) {
      if (!t.is_variable && !model.IsConstant(t)) ++activations;
    }
    out.not_planned.push_back(
        "subgraph " + std::to_string(s) +
        (g.name.empty() ? std::string() : " (" + g.name + ")") + ": " +
        std::to_string(g.operators.size()) + " operators, " +
        std::to_string(activations) +
        " non-constant tensors: not planned (only subgraph 0 is; TFLM plans "
        "these at run time)");
  }
}

}  // namespace

TfliteProblem BuildProblem(const Model& model, const InputOptions& options) {
  if (model.subgraphs.empty()) {
    throw InputError(model.source + ": model: no subgraphs");
  }
  const Subgraph& graph = model.subgraphs[0];
  const std::string sp = model.source + ": subgraph 0";
  const std::size_t op_count = graph.operators.size();
  if (op_count == 0) throw InputError(sp + ": no operators");
  if (op_count > std::numeric_limits<std::uint32_t>::max() / 2) {
    throw InputError(sp + ": too many operators");
  }
  const Steps steps = TouchSteps(graph);

  TfliteProblem out;
  UsageProblem& p = out.problem;
  p.source = model.source;
  p.default_alignment = kModelAlignment;
  p.operator_count = static_cast<std::uint32_t>(op_count);
  for (const Operator& op : graph.operators) {
    p.operator_names.push_back(op.builtin_code == BuiltinOp::kCustom &&
                                       !op.custom_code.empty()
                                   ? op.custom_code
                                   : op.builtin_name);
  }
  std::uint64_t total = 0;
  ClassifyTensors(model, options, steps, out, total);
  AddScratchRecords(model, options, out, total);
  NoteOtherSubgraphs(model, out);
  AddTraffic(model, out);
  return out;
}

}  // namespace arenaplan::tflite
