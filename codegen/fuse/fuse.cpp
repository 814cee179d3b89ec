// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
// Segment construction: which operators run row by row (RowOpOf), and one
// run of them as a segment with its rings sized by the row schedule
// (MakeSegment, RingPairs). fuse_plan.cpp chooses and applies segments.
#include "codegen/fuse/fuse.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

#include "arenaplan/kernels/conv.hpp"
#include "codegen/tflite/geometry.hpp"

namespace arenaplan::fuse {
namespace {

using tflite::BuiltinOp;
using tflite::Tensor;
using tflite::TensorType;

/// [1, H, W, C] with positive extents and at most 2^31 - 1 elements.
bool IsRowTensor(const Tensor& t) {
  if (t.shape.size() != 4 || t.shape[0] != 1) return false;
  std::int64_t n = 1;
  for (std::int32_t d : t.shape) {
    if (d <= 0) return false;
    n *= d;
    if (n > std::numeric_limits<std::int32_t>::max()) return false;
  }
  return true;
}

bool IsClamp(tflite::Activation a) {
  return a == tflite::Activation::kNone || a == tflite::Activation::kRelu ||
         a == tflite::Activation::kReluN1To1 || a == tflite::Activation::kRelu6;
}

std::uint64_t RowBytes(const Tensor& t) {
  return static_cast<std::uint64_t>(t.shape[2]) *
         static_cast<std::uint64_t>(t.shape[3]);
}

/// Counts the schedule's rings and the output's distances (RowSchedule's
/// sink).
struct SizingSink {
  const kernels::RowSchedule* schedule = nullptr;
  const std::vector<FusableOp>* ops = nullptr;
  const std::vector<std::int32_t>* inputs = nullptr;
  const std::vector<std::uint64_t>* input_row_bytes = nullptr;
  std::vector<std::uint32_t> ring_rows;
  std::vector<std::int64_t> need;  // Per input: largest required distance.
  std::uint64_t calls = 0;
  std::uint64_t rows_moved = 0;

  void Drop(std::int32_t i, std::int32_t new_lo) {
    const std::int32_t kept = schedule->Next(i) - new_lo;
    if (kept > 0) rows_moved += static_cast<std::uint64_t>(kept);
  }
  void Written(std::int32_t i, std::int32_t j) {
    ++calls;
    const std::int32_t last = static_cast<std::int32_t>(ops->size()) - 1;
    if (i != last) {
      const std::int32_t held = j + 1 - schedule->HeldLo(i);
      ring_rows[static_cast<std::size_t>(i)] =
          std::max(ring_rows[static_cast<std::size_t>(i)],
                   static_cast<std::uint32_t>(held));
      return;
    }
    // Output row j occupies [Y + j R_Y, Y + (j + 1) R_Y); input k's bytes
    // from X_k + e_k R_k on are still to be read (e_k its earliest row), so
    // Y = X_k - e needs e >= (j + 1) R_Y - e_k R_k.
    const std::int64_t end = static_cast<std::int64_t>(
        static_cast<std::uint64_t>(j + 1) *
        (*ops)[static_cast<std::size_t>(i)].out_row_bytes);
    for (std::size_t k = 0; k < inputs->size(); ++k) {
      const std::int32_t e =
          schedule->EarliestOfInput(static_cast<std::int32_t>(k));
      if (e < 0) continue;
      const std::int64_t live = static_cast<std::int64_t>(
          static_cast<std::uint64_t>(e) * (*input_row_bytes)[k]);
      need[k] = std::max(need[k], end - live);
    }
  }
  void Compute(std::int32_t i, std::int32_t j) { Written(i, j); }
  void Accumulate(std::int32_t, std::int32_t) { ++calls; }
  void Finish(std::int32_t i) { Written(i, 0); }
};

/// The rings of `s` that may overlap (docs/fuse.md, "A ring over the ring
/// it reads"): operator i (not the last, one input, not accumulating, a
/// row distance) reads the ring of operator a, a ring of one row with no
/// state read by i alone, and i's own ring holds one row. Then i reads a's
/// row y while writing its row y, a's row y + 1 is written only after
/// every reader of i's row y is past it: the record of i's ring (no state,
/// i does not accumulate) may start the kernel's row distance below a's.
std::vector<RingPair> RingPairs(const Segment& s) {
  std::vector<RingPair> pairs;
  const std::size_t n = s.ops.size();
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const FusableOp& f = s.ops[i];
    if (f.row.input_count != 1 || f.row.accumulate || f.row_distance < 0 ||
        f.row.input[0] < 0 || s.ring_rows[i] != 1) {
      continue;
    }
    const auto a = static_cast<std::size_t>(f.row.input[0]);
    if (s.ring_rows[a] != 1 || s.ops[a].state_bytes != 0) continue;
    bool alone = true;
    for (std::size_t c = a + 1; c < n; ++c) {
      for (std::int32_t q = 0; q < s.ops[c].row.input_count; ++q) {
        if (c != i && s.ops[c].row.input[q] == static_cast<std::int32_t>(a)) {
          alone = false;
        }
      }
    }
    if (!alone ||
        static_cast<std::uint64_t>(f.row_distance) >= f.out_row_bytes) {
      continue;
    }
    pairs.push_back({static_cast<std::uint32_t>(a),
                     static_cast<std::uint32_t>(i),
                     static_cast<std::uint64_t>(f.row_distance)});
  }
  return pairs;
}

/// The float32 row operators (docs/fuse.md): CONV_2D and
/// DEPTHWISE_CONV_2D with a constant float32 filter, pools with more than
/// one output row (an accumulating pool would need a float state: not
/// streamed), ADD of two equal shapes, RELU, and PAD of W and C only (one
/// output row from one input row). Fills f's rows; false when refused.
bool RowOpOfFloat(const tflite::Model& model, const tflite::Operator& op,
                  const Tensor& in, const Tensor& out, FusableOp& f) {
  const tflite::Subgraph& sg = model.subgraphs[0];
  switch (op.builtin_code) {
    case BuiltinOp::kConv2D:
    case BuiltinOp::kDepthwiseConv2D: {
      const bool dw = op.builtin_code == BuiltinOp::kDepthwiseConv2D;
      if (op.inputs.size() < 2 || op.inputs[1] < 0) return false;
      const Tensor& w = sg.tensors[static_cast<std::size_t>(op.inputs[1])];
      if (!model.IsConstant(w) || w.type != TensorType::kFloat32) return false;
      const auto checked = tflite::CheckConv(op, in, w, out, dw);
      const auto* g = std::get_if<tflite::ConvGeometry>(&checked);
      if (g == nullptr || !IsClamp(g->activation)) return false;
      f.row.window = (g->filter.h - 1) * g->dilation_h + 1;
      f.row.stride = g->stride_h;
      f.row.pad = g->pad_h.pad_before;
      break;
    }
    case BuiltinOp::kAveragePool2D:
    case BuiltinOp::kMaxPool2D: {
      const auto checked = tflite::CheckPool(op, in, out);
      const auto* g = std::get_if<tflite::PoolGeometry>(&checked);
      if (g == nullptr || !IsClamp(g->activation) || f.row.out_h == 1) {
        return false;
      }
      f.row.window = g->filter_h;
      f.row.stride = g->stride_h;
      f.row.pad = g->pad_h.pad_before;
      break;
    }
    case BuiltinOp::kAdd: {
      if (op.inputs.size() != 2 || op.inputs[1] < 0) return false;
      const Tensor& b = sg.tensors[static_cast<std::size_t>(op.inputs[1])];
      const auto* o = std::get_if<tflite::ElementwiseOptions>(&op.options);
      if (b.type != TensorType::kFloat32 || model.IsConstant(b) ||
          in.shape != b.shape || in.shape != out.shape || o == nullptr ||
          !IsClamp(o->activation)) {
        return false;
      }
      f.row.input_count = 2;
      f.input_tensor[1] = op.inputs[1];
      f.in_row_bytes[1] = f.in_row_bytes[0];
      break;
    }
    case BuiltinOp::kRelu:
      if (in.shape != out.shape) return false;
      break;
    case BuiltinOp::kPad:
    case BuiltinOp::kPadv2:
      // Rows map one to one: no padding of H (N is 1 on both sides).
      if (in.shape[1] != out.shape[1]) return false;
      break;
    default:
      return false;
  }
  return f.row.window >= 1 && f.row.stride >= 1 && f.row.pad >= 0;
}

}  // namespace

std::optional<FusableOp> RowOpOf(const tflite::Model& model, std::size_t k) {
  if (model.subgraphs.empty()) return std::nullopt;
  const tflite::Subgraph& sg = model.subgraphs[0];
  if (k >= sg.operators.size()) return std::nullopt;
  const tflite::Operator& op = sg.operators[k];
  if (op.outputs.size() != 1 || op.outputs[0] < 0 || op.inputs.empty() ||
      op.inputs[0] < 0) {
    return std::nullopt;
  }
  const Tensor& in = sg.tensors[static_cast<std::size_t>(op.inputs[0])];
  const Tensor& out = sg.tensors[static_cast<std::size_t>(op.outputs[0])];
  // int8 activations, or float32 ones (4 bytes an element; no ring pairs).
  const bool f32 =
      in.type == TensorType::kFloat32 && out.type == TensorType::kFloat32;
  if ((!f32 &&
       (!tflite::IsInt8Activation(in) || !tflite::IsInt8Activation(out))) ||
      !IsRowTensor(in) || !IsRowTensor(out) || model.IsConstant(in)) {
    return std::nullopt;
  }
  const std::uint64_t elem = f32 ? 4 : 1;
  FusableOp f;
  f.input_tensor[0] = op.inputs[0];
  f.output_tensor = op.outputs[0];
  f.elem_bytes = elem;
  f.in_row_bytes[0] = elem * RowBytes(in);
  f.out_row_bytes = elem * RowBytes(out);
  f.row.in_h = in.shape[1];
  f.row.out_h = out.shape[1];
  if (f32 && !RowOpOfFloat(model, op, in, out, f)) return std::nullopt;
  if (f32) return f;
  switch (op.builtin_code) {
    case BuiltinOp::kConv2D:
    case BuiltinOp::kDepthwiseConv2D: {
      const bool dw = op.builtin_code == BuiltinOp::kDepthwiseConv2D;
      if (op.inputs.size() < 2 || op.inputs[1] < 0) return std::nullopt;
      const Tensor& w = sg.tensors[static_cast<std::size_t>(op.inputs[1])];
      if (!model.IsConstant(w) || w.type != TensorType::kInt8) {
        return std::nullopt;
      }
      const auto checked = tflite::CheckConv(op, in, w, out, dw);
      const auto* g = std::get_if<tflite::ConvGeometry>(&checked);
      if (g == nullptr || !IsClamp(g->activation)) return std::nullopt;
      // A dilated window reads every dilation_h-th row of its span: the
      // ring holds the whole span (rows between taps included).
      f.row.window = (g->filter.h - 1) * g->dilation_h + 1;
      f.row.stride = g->stride_h;
      f.row.pad = g->pad_h.pad_before;
      if (g->filter.h == 1 && g->stride_h == 1 && g->pad_h.pad_before == 0) {
        // The kernel's own contract on one input row and one output row
        // (conv.hpp), as the fused call runs it.
        const kernels::DilatedConvParams p{
            {0, 0, -128, 127, 1, g->stride_w, 0, g->pad_w.pad_before,
             g->depth_multiplier},
            1,
            g->dilation_w};
        const kernels::Shape4 is{1, 1, g->in.w, g->in.c};
        const kernels::Shape4 fs{g->filter.n, 1, g->filter.w, g->filter.c};
        const kernels::Shape4 os{1, 1, g->out.w, g->out.c};
        f.row_distance =
            dw ? kernels::DepthwiseConv2DOverlapDistance(p, is, fs, os)
               : kernels::Conv2DOverlapDistance(p, is, fs, os);
      }
      break;
    }
    case BuiltinOp::kAveragePool2D:
    case BuiltinOp::kMaxPool2D: {
      const auto g = tflite::ClampingPool(op, in, out);
      if (!g) return std::nullopt;
      f.row.window = g->filter_h;
      f.row.stride = g->stride_h;
      f.row.pad = g->pad_h.pad_before;
      if (f.row.out_h == 1) {
        f.row.accumulate = true;
        f.state_bytes = 4 * static_cast<std::uint64_t>(out.shape[2]) *
                        static_cast<std::uint64_t>(out.shape[3]);
      }
      break;
    }
    case BuiltinOp::kAdd: {
      if (op.inputs.size() != 2 || op.inputs[1] < 0) return std::nullopt;
      const Tensor& b = sg.tensors[static_cast<std::size_t>(op.inputs[1])];
      if (!tflite::IsInt8Activation(b) || model.IsConstant(b) ||
          in.shape != b.shape || in.shape != out.shape) {
        return std::nullopt;
      }
      const auto* o = std::get_if<tflite::ElementwiseOptions>(&op.options);
      if (o == nullptr || !IsClamp(o->activation)) return std::nullopt;
      f.row.input_count = 2;
      f.input_tensor[1] = op.inputs[1];
      f.in_row_bytes[1] = RowBytes(b);
      break;
    }
    default:
      return std::nullopt;
  }
  if (f.row.window < 1 || f.row.stride < 1 || f.row.pad < 0) {
    return std::nullopt;
  }
  return f;
}

std::optional<Segment> MakeSegment(const tflite::Model& model,
                                   std::uint32_t first_op,
                                   std::uint32_t last_op) {
  if (model.subgraphs.empty() || last_op <= first_op ||
      last_op - first_op + 1 >
          static_cast<std::uint32_t>(kernels::kMaxSegmentOps)) {
    return std::nullopt;
  }
  const tflite::Subgraph& sg = model.subgraphs[0];
  if (last_op >= sg.operators.size()) return std::nullopt;
  Segment s;
  s.first_op = first_op;
  s.last_op = last_op;
  for (std::uint32_t k = first_op; k <= last_op; ++k) {
    auto f = RowOpOf(model, k);
    if (!f) return std::nullopt;
    s.ops.push_back(*f);
  }
  // Which segment operator makes each tensor; segment inputs otherwise.
  auto maker = [&](std::int32_t t) -> std::int32_t {
    for (std::size_t i = 0; i < s.ops.size(); ++i) {
      if (s.ops[i].output_tensor == t) return static_cast<std::int32_t>(i);
    }
    return -1;
  };
  std::vector<std::uint64_t> input_row_bytes;
  for (std::size_t i = 0; i < s.ops.size(); ++i) {
    FusableOp& f = s.ops[i];
    for (std::int32_t q = 0; q < f.row.input_count; ++q) {
      const std::int32_t t = f.input_tensor[q];
      const std::int32_t m = maker(t);
      if (m >= static_cast<std::int32_t>(i)) return std::nullopt;
      if (m >= 0) {
        f.row.input[q] = m;
        continue;
      }
      auto it = std::find(s.input_tensors.begin(), s.input_tensors.end(), t);
      if (it == s.input_tensors.end()) {
        s.input_tensors.push_back(t);
        input_row_bytes.push_back(f.in_row_bytes[q]);
        it = s.input_tensors.end() - 1;
      }
      f.row.input[q] =
          -1 - static_cast<std::int32_t>(it - s.input_tensors.begin());
    }
  }
  s.output_tensor = s.ops.back().output_tensor;
  // The output is written whole into its own record: not an alias inside
  // another tensor (an input of a CONCATENATION written in place).
  if (tflite::HomeOf(sg, s.output_tensor) != s.output_tensor) {
    return std::nullopt;
  }
  // A tensor made inside (not the output) becomes a ring: its buffer must
  // be its own (no alias inside another tensor), hold no graph output and
  // be read only inside, under every name (tflite::HomeOf: a folded
  // RESHAPE of it is read where the RESHAPE's output is).
  for (std::size_t i = 0; i + 1 < s.ops.size(); ++i) {
    const std::int32_t t = s.ops[i].output_tensor;
    if (tflite::HomeOf(sg, t) != t || tflite::HoldsGraphOutput(sg, t)) {
      return std::nullopt;
    }
    for (std::size_t k = 0; k < sg.operators.size(); ++k) {
      if (k >= first_op && k <= last_op) continue;
      for (std::int32_t u : sg.operators[k].inputs) {
        if (u >= 0 && tflite::HomeOf(sg, u) == t) return std::nullopt;
      }
    }
  }
  std::vector<kernels::RowOp> rows;
  for (const FusableOp& f : s.ops) rows.push_back(f.row);
  if (!kernels::WellFormed(rows.data(), static_cast<std::int32_t>(rows.size())))
    return std::nullopt;
  kernels::RowSchedule schedule(rows.data(),
                                static_cast<std::int32_t>(rows.size()));
  SizingSink sink;
  sink.schedule = &schedule;
  sink.ops = &s.ops;
  sink.inputs = &s.input_tensors;
  sink.input_row_bytes = &input_row_bytes;
  sink.ring_rows.assign(s.ops.size(), 0);
  sink.need.assign(s.input_tensors.size(), 0);
  schedule.Run(sink);
  s.ring_rows = sink.ring_rows;
  s.calls = sink.calls;
  s.rows_moved = sink.rows_moved;
  for (std::size_t i = 0; i < s.ops.size(); ++i) {
    const bool last = i + 1 == s.ops.size();
    s.ring_bytes.push_back(
        (last ? 0 : s.ring_rows[i] * s.ops[i].out_row_bytes) +
        s.ops[i].state_bytes);
  }
  for (std::size_t k = 0; k < s.input_tensors.size(); ++k) {
    s.input_distance.push_back(static_cast<std::uint64_t>(sink.need[k]));
  }
  s.ring_pairs = RingPairs(s);
  return s;
}

}  // namespace arenaplan::fuse
