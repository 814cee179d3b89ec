// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflite/fold.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <variant>

#include "codegen/base/alignment.hpp"
#include "codegen/base/errors.hpp"
#include "codegen/records.hpp"
#include "codegen/tflite/geometry.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan::tflite {
namespace {

/// The graph being folded and what the rules ask of its tensors.
class Folder {
 public:
  Folder(Model& model, const InputOptions& options)
      : model_(model),
        g_(model.subgraphs[0]),
        options_(options),
        io_(g_.tensors.size(), false),
        input_(g_.tensors.size(), false),
        output_(g_.tensors.size(), false),
        members_(g_.tensors.size()) {
    for (std::int32_t t : g_.inputs) {
      io_[Idx(t)] = true;
      input_[Idx(t)] = true;
    }
    for (std::int32_t t : g_.outputs) {
      io_[Idx(t)] = true;
      output_[Idx(t)] = true;
    }
  }

  FoldReport Run() {
    for (std::size_t k = 0; k < g_.operators.size(); ++k) {
      const BuiltinOp c = g_.operators[k].builtin_code;
      if (c == BuiltinOp::kReshape || c == BuiltinOp::kSqueeze ||
          c == BuiltinOp::kExpandDims) {
        FoldReshape(k);
      }
    }
    for (std::size_t k = 0; k < g_.operators.size(); ++k) {
      const BuiltinOp c = g_.operators[k].builtin_code;
      if (c == BuiltinOp::kPad || c == BuiltinOp::kPadv2) FoldPad(k);
    }
    for (std::size_t k = 0; k < g_.operators.size(); ++k) {
      if (g_.operators[k].builtin_code == BuiltinOp::kConcatenation) {
        FoldConcatenation(k);
      }
    }
    return report_;
  }

 private:
  static std::size_t Idx(std::int32_t t) { return static_cast<std::size_t>(t); }
  Tensor& T(std::int32_t t) { return g_.tensors[Idx(t)]; }

  /// The bytes of a planned activation whose size is its shape's (every
  /// dimension positive, not changed by --assume-dim); nullopt for a
  /// constant, a variable, a dynamic or empty shape, an unsized type.
  std::optional<std::uint64_t> StaticBytes(std::int32_t t) {
    const Tensor& ten = T(t);
    if (model_.IsConstant(ten) || ten.is_variable) return std::nullopt;
    const auto es = ElementSize(ten.type);
    if (!es) return std::nullopt;
    std::uint64_t n = 1;
    for (std::int32_t d : ten.shape) {
      if (d <= 0) return std::nullopt;
      n *= static_cast<std::uint64_t>(d);
      if (n > (std::uint64_t{1} << 40)) return std::nullopt;
    }
    try {
      if (TensorBytes(ten, options_, "") != n * *es) return std::nullopt;
    } catch (const InputError&) {
      return std::nullopt;
    }
    return n * *es;
  }

  std::int32_t Root(std::int32_t t) {
    return T(t).alias_of >= 0 ? T(t).alias_of : t;
  }

  /// True when the bytes of root `r` also hold a graph input or output.
  bool ClassHasIo(std::int32_t r) {
    if (io_[Idx(r)]) return true;
    return std::any_of(members_[Idx(r)].begin(), members_[Idx(r)].end(),
                       [&](std::int32_t m) { return io_[Idx(m)]; });
  }

  /// Reads of `t` by operators not folded (each input slot counts).
  std::size_t Uses(std::int32_t t) const {
    std::size_t n = 0;
    for (const Operator& op : g_.operators) {
      if (!op.folded.empty()) continue;
      n += static_cast<std::size_t>(
          std::count(op.inputs.begin(), op.inputs.end(), t));
    }
    return n;
  }

  void Alias(std::int32_t t, std::int32_t root, std::uint64_t offset) {
    T(t).alias_of = root;
    T(t).alias_offset = offset;
    members_[Idx(root)].push_back(t);
  }

  std::string Name(std::size_t k) const {
    return "operator " + std::to_string(k) + " " + g_.operators[k].builtin_name;
  }

  // Rule 1.
  void FoldReshape(std::size_t k) {
    Operator& op = g_.operators[k];
    if (!op.folded.empty() || op.inputs.empty() || op.outputs.size() != 1) {
      return;
    }
    const std::int32_t in = op.inputs[0], out = op.outputs[0];
    if (in < 0 || out < 0 || in == out) return;
    const auto bi = StaticBytes(in), bo = StaticBytes(out);
    if (!bi || !bo || *bi != *bo || T(in).type != T(out).type) return;
    if (input_[Idx(out)] || T(out).alias_of >= 0 ||
        !members_[Idx(out)].empty()) {
      return;
    }
    const std::int32_t root = Root(in);
    if (output_[Idx(out)] && ClassHasIo(root)) return;
    Alias(out, root, T(in).alias_offset);
    op.folded = "alias: tensor " + std::to_string(out) + " is tensor " +
                std::to_string(in) + "'s bytes";
    ++report_.reshapes;
  }

  /// True when no output window of `g` (the consumer reading the PAD's
  /// input with the extra padding) covers an element the PAD added: rows
  /// [-before, 0) and [in, in + after) in the kernel's coordinates.
  static bool WindowsMissPadding(std::int32_t out, std::int32_t stride,
                                 std::int32_t filter, std::int32_t pad_before,
                                 std::int32_t in, std::int32_t before,
                                 std::int32_t after) {
    for (std::int32_t o = 0; o < out; ++o) {
      const std::int64_t y0 = std::int64_t{o} * stride - pad_before;
      const std::int64_t y1 = y0 + filter;  // end excluded
      if (y0 < 0 && y1 > -std::int64_t{before}) return false;
      if (y1 > in && y0 < std::int64_t{in} + after) return false;
    }
    return true;
  }

  // Rule 2.
  void FoldPad(std::size_t k) {
    Operator& op = g_.operators[k];
    if (!op.folded.empty() || op.inputs.size() < 2 || op.outputs.size() != 1) {
      return;
    }
    const std::int32_t in = op.inputs[0], pads = op.inputs[1],
                       out = op.outputs[0];
    if (in < 0 || pads < 0 || out < 0 || in == out) return;
    const Tensor& ti = T(in);
    const Tensor& to = T(out);
    if (ti.type != TensorType::kInt8 || to.type != TensorType::kInt8) return;
    const auto& qi = ti.quantization;
    const auto& qo = to.quantization;
    if (qi.scale.size() != 1 || qi.zero_point.size() != 1 ||
        qi.scale != qo.scale || qi.zero_point != qo.zero_point) {
      return;
    }
    const std::int64_t zp = qo.zero_point[0];
    if (zp < -128 || zp > 127) return;
    if (!StaticBytes(in) || !StaticBytes(out)) return;
    if (ti.shape.size() != 4 || to.shape.size() != 4) return;
    if (io_[Idx(out)] || T(out).alias_of >= 0 || !members_[Idx(out)].empty()) {
      return;
    }
    const Tensor& tp = T(pads);
    if (!model_.IsConstant(tp) || tp.type != TensorType::kInt32) return;
    const auto& data = model_.buffers[tp.buffer].data;
    if (data.size() != 32) return;
    std::int32_t p[8];
    std::memcpy(p, data.data(), 32);  // little-endian host, as the reader
    if (p[0] != 0 || p[1] != 0 || p[6] != 0 || p[7] != 0) return;
    for (int d = 0; d < 4; ++d) {
      if (p[2 * d] < 0 || p[2 * d + 1] < 0 ||
          std::int64_t{ti.shape[d]} + p[2 * d] + p[2 * d + 1] != to.shape[d]) {
        return;
      }
    }
    std::int64_t value = zp;
    if (op.inputs.size() >= 3 && op.inputs[2] >= 0) {  // PADV2
      const Tensor& tv = T(op.inputs[2]);
      if (!model_.IsConstant(tv) || tv.type != TensorType::kInt8 ||
          tv.quantization.scale != qo.scale ||
          tv.quantization.zero_point != qo.zero_point) {
        return;
      }
      const auto& v = model_.buffers[tv.buffer].data;
      if (v.size() != 1) return;
      value = static_cast<std::int8_t>(v[0]);
    }
    // The one reader of the output, at its input 0.
    if (Uses(out) != 1) return;
    std::size_t c = 0;
    while (
        c < g_.operators.size() &&
        (!g_.operators[c].folded.empty() ||
         std::find(g_.operators[c].inputs.begin(), g_.operators[c].inputs.end(),
                   out) == g_.operators[c].inputs.end())) {
      ++c;
    }
    if (c <= k || c >= g_.operators.size()) return;
    Operator& consumer = g_.operators[c];
    if (consumer.inputs[0] != out || consumer.outputs.size() != 1 ||
        consumer.outputs[0] < 0) {
      return;
    }
    const Operator::ExtraPadding& e0 = consumer.extra_padding;
    if (e0.top != 0 || e0.bottom != 0 || e0.left != 0 || e0.right != 0) return;
    Operator trial = consumer;
    trial.inputs[0] = in;
    trial.extra_padding = {p[2], p[3], p[4], p[5]};
    const Tensor& tc = T(consumer.outputs[0]);
    const BuiltinOp code = consumer.builtin_code;
    if (code == BuiltinOp::kConv2D || code == BuiltinOp::kDepthwiseConv2D) {
      if (consumer.inputs.size() < 2 || consumer.inputs[1] < 0) return;
      const bool dw = code == BuiltinOp::kDepthwiseConv2D;
      const Tensor& tw = T(consumer.inputs[1]);
      if (!std::holds_alternative<ConvGeometry>(
              CheckConv(consumer, to, tw, tc, dw)) ||
          !std::holds_alternative<ConvGeometry>(
              CheckConv(trial, ti, tw, tc, dw))) {
        return;
      }
      if (value != zp) return;
    } else if (code == BuiltinOp::kMaxPool2D ||
               code == BuiltinOp::kAveragePool2D) {
      const auto before = CheckPool(consumer, to, tc);
      const auto after = CheckPool(trial, ti, tc);
      const auto* g = std::get_if<PoolGeometry>(&after);
      if (!std::holds_alternative<PoolGeometry>(before) || g == nullptr) return;
      if (code == BuiltinOp::kMaxPool2D) {
        const bool relu = g->activation == Activation::kRelu ||
                          g->activation == Activation::kRelu6;
        if (value != -128 && !(relu && value <= zp)) return;
      } else if (!WindowsMissPadding(g->out.h, g->stride_h, g->filter_h,
                                     g->pad_h.pad_before, g->in.h, p[2],
                                     p[3]) ||
                 !WindowsMissPadding(g->out.w, g->stride_w, g->filter_w,
                                     g->pad_w.pad_before, g->in.w, p[4],
                                     p[5])) {
        return;
      }
    } else {
      return;
    }
    consumer.inputs[0] = in;
    consumer.extra_padding = trial.extra_padding;
    op.folded = "folded into " + Name(c) + " (padding " + std::to_string(p[2]) +
                "," + std::to_string(p[3]) + "," + std::to_string(p[4]) + "," +
                std::to_string(p[5]) + " top,bottom,left,right)";
    ++report_.pads;
  }

  /// The offsets lower bound (largest operator breadth) of the graph as
  /// folded so far, sizes rounded up to kModelAlignment; UINT64_MAX when
  /// the model gives no records (the error comes later, unfolded).
  std::uint64_t Breadth() const {
    try {
      TfliteProblem p = BuildProblem(model_, options_);
      const std::uint64_t a = kModelAlignment.bytes();
      for (TensorUsageRecord& r : p.problem.records) {
        r.size = (r.size + a - 1) / a * a;
      }
      return SummarizeProfiles(p.problem.records).offsets_lower_bound;
    } catch (const InputError&) {
      return UINT64_MAX;
    }
  }

  // Rule 3.
  void FoldConcatenation(std::size_t k) {
    Operator& op = g_.operators[k];
    if (!op.folded.empty() || op.inputs.empty() || op.outputs.size() != 1) {
      return;
    }
    const auto* o = std::get_if<ConcatenationOptions>(&op.options);
    if (o == nullptr || o->activation != Activation::kNone) return;
    const std::int32_t out = op.outputs[0];
    if (out < 0 || input_[Idx(out)] || T(out).alias_of >= 0) return;
    const auto bytes_out = StaticBytes(out);
    if (!bytes_out) return;
    const Tensor& to = T(out);
    const auto rank = static_cast<std::int32_t>(to.shape.size());
    const std::int32_t axis = o->axis < 0 ? o->axis + rank : o->axis;
    if (axis < 0 || axis >= rank) return;
    for (std::int32_t d = 0; d < axis; ++d) {
      if (to.shape[Idx(d)] != 1) return;
    }
    std::vector<std::pair<std::int32_t, std::uint64_t>> place;
    std::uint64_t offset = 0;
    for (std::int32_t t : op.inputs) {
      if (t < 0 || t == out) return;
      const Tensor& ti = T(t);
      if (ti.type != to.type ||
          ti.quantization.scale != to.quantization.scale ||
          ti.quantization.zero_point != to.quantization.zero_point ||
          ti.shape.size() != to.shape.size()) {
        return;
      }
      for (std::int32_t d = 0; d < rank; ++d) {
        if (d != axis && ti.shape[Idx(d)] != to.shape[Idx(d)]) return;
      }
      const auto b = StaticBytes(t);
      if (!b || ti.alias_offset != 0) return;
      const std::int32_t r = Root(t);
      if (r == out || StaticBytes(r) != b || ClassHasIo(r)) return;
      for (const auto& [other, off] : place) {
        if (other == r) return;  // the same bytes twice
      }
      // The bytes are read by this operator alone.
      std::size_t uses = Uses(r);
      for (std::int32_t m : members_[Idx(r)]) uses += Uses(m);
      if (uses != 1) return;
      place.emplace_back(r, offset);
      offset += *b;
    }
    if (offset != *bytes_out) return;
    // Tentatively; kept unless the largest operator breadth grows.
    const std::uint64_t before = Breadth();
    const std::vector<Tensor> tensors = g_.tensors;
    const auto members = members_;
    for (const auto& [r, off] : place) {
      for (std::int32_t m : members_[Idx(r)]) {
        Alias(m, out, T(m).alias_offset + off);
      }
      members_[Idx(r)].clear();
      Alias(r, out, off);
    }
    op.folded = "written in place: its " + std::to_string(op.inputs.size()) +
                " inputs are aliases inside tensor " + std::to_string(out);
    if (Breadth() > before) {
      g_.tensors = tensors;
      members_ = members;
      op.folded.clear();
      return;
    }
    ++report_.concatenations;
  }

  Model& model_;
  Subgraph& g_;
  const InputOptions& options_;
  std::vector<bool> io_, input_, output_;
  /// members_[r]: the tensors aliased to root r.
  std::vector<std::vector<std::int32_t>> members_;
  FoldReport report_;
};

}  // namespace

FoldReport FoldGraph(Model& model, const InputOptions& options) {
  if (options.fp32 || model.subgraphs.empty()) return {};
  return Folder(model, options).Run();
}

}  // namespace arenaplan::tflite
