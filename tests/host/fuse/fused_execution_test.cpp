// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Property test of fused execution (kernels/fused.hpp, planned by
// codegen/fuse/): random segments (CONV_2D and DEPTHWISE_CONV_2D with
// kernels 1-5, strides 1-2, a third of them dilated 2-3 per direction,
// SAME and VALID padding; pools; residual ADDs;
// a closing global pool; random channel counts and quantization) are run
// layer by layer with the whole-tensor kernels, and fused in a poisoned
// arena at the offsets `plan --fuse` plans (the planner's own, and a
// placement with the output exactly the segment's distance below its
// input), and the outputs must be byte-identical. One byte less of any ring
// makes the executor refuse and the validator reject the placement; the
// output one byte nearer its input than the distance is rejected too.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "arenaplan/kernels/fused.hpp"
#include "codegen/fuse/fuse.hpp"
#include "codegen/input/input.hpp"
#include "codegen/overlap/overlap_pairs.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/tflite/geometry.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"
#include "codegen/validator/validator.hpp"
#include "tests/host/support/fused_resolved.hpp"
#include "tests/host/support/random_window_op.hpp"

namespace arenaplan {
namespace {

namespace k = ::arenaplan::kernels;
using Rng = std::mt19937;
namespace rw = ::arenaplan::random_window_op;

std::int32_t Uniform(Rng& rng, std::int32_t lo, std::int32_t hi) {
  return std::uniform_int_distribution<std::int32_t>(lo, hi)(rng);
}

/// One operator of a random segment: its model operator and its kernel
/// call (k::FusedOp without arena offsets), and the storage it points to.
struct OpData {
  k::FusedOp op;
  std::int32_t in_tensor[2] = {-1, -1};
  std::int32_t out_tensor = -1;
  std::vector<std::int8_t> filter;
  std::vector<std::int32_t> bias;  // Folded for the fast kernels.
  std::vector<std::int32_t> multiplier;
  std::vector<std::int8_t> shift;
};

struct RandomSegment {
  tflite::Model model;
  std::vector<k::Shape4> shapes;  // Per tensor (activations only).
  std::vector<OpData> ops;        // ops[i] is model operator i.
  std::int32_t input = 0;         // Tensor index of the segment input.
};

tflite::Tensor Activation(const k::Shape4& s) {
  tflite::Tensor t;
  t.type = tflite::TensorType::kInt8;
  t.shape = {1, s.h, s.w, s.c};
  t.quantization.scale = {0.5f};
  t.quantization.zero_point = {3};
  return t;
}

std::int32_t AddActivation(RandomSegment& m, const k::Shape4& s) {
  auto& tensors = m.model.subgraphs[0].tensors;
  tensors.push_back(Activation(s));
  m.shapes.resize(tensors.size());
  m.shapes.back() = s;
  return static_cast<std::int32_t>(tensors.size() - 1);
}

void RandomQuant(Rng& rng, OpData& d, std::int32_t channels) {
  d.multiplier.resize(static_cast<std::size_t>(channels));
  d.shift.resize(static_cast<std::size_t>(channels));
  for (std::int32_t c = 0; c < channels; ++c) {
    d.multiplier[static_cast<std::size_t>(c)] =
        Uniform(rng, 1 << 30, 0x7fffffff);
    d.shift[static_cast<std::size_t>(c)] =
        static_cast<std::int8_t>(Uniform(rng, -11, -7));
  }
  d.op.quant = k::ChannelQuant{d.multiplier.data(), d.shift.data()};
}

/// A window operator (conv, depthwise, pool) on tensor `in`; false when the
/// drawn geometry leaves no output.
bool AddWindowOp(Rng& rng, RandomSegment& m, std::int32_t in) {
  const k::Shape4 is = m.shapes[static_cast<std::size_t>(in)];
  const rw::WindowDraw g = rw::DrawWindow(rng, is);
  const std::int32_t kind = static_cast<std::int32_t>(g.kind);
  const std::int32_t kh = g.kh, kw = g.kw, sh = g.sh, sw = g.sw;
  const std::int32_t dh = g.dh, dw_ = g.dw;
  const std::int32_t span_h = g.SpanH();
  const tflite::PaddedDim ph = g.ph, pw = g.pw;
  if (ph.out < 1 || pw.out < 1) return false;
  OpData d;
  tflite::Operator op;
  std::int32_t out_c = is.c;
  if (kind == 0) out_c = Uniform(rng, 1, 6);
  const std::int32_t dm = kind == 1 ? Uniform(rng, 1, 2) : 1;
  if (kind == 1) out_c = is.c * dm;
  const k::Shape4 os{1, ph.out, pw.out, out_c};
  d.op.in_shape = is;
  d.op.out_shape = os;
  d.op.row.in_h = is.h;
  d.op.row.out_h = os.h;
  d.op.row.window = span_h;
  d.op.row.stride = sh;
  d.op.row.pad = ph.pad_before;
  d.op.row.input[0] = -1;  // Set by MakeSegment; the executor uses its own.
  const std::int32_t act_min = Uniform(rng, -128, -100);
  const std::int32_t act_max = Uniform(rng, 100, 127);
  if (kind <= 1) {
    const bool dw = kind == 1;
    d.op.filter_shape =
        dw ? k::Shape4{1, kh, kw, out_c} : k::Shape4{out_c, kh, kw, is.c};
    d.filter.resize(static_cast<std::size_t>(d.op.filter_shape.Count()));
    for (auto& v : d.filter)
      v = static_cast<std::int8_t>(Uniform(rng, -127, 127));
    std::vector<std::int32_t> bias(static_cast<std::size_t>(out_c));
    for (auto& v : bias) v = Uniform(rng, -2000, 2000);
    const std::int32_t input_offset = -Uniform(rng, -20, 20);
    d.op.conv = k::DilatedConvParams{
        {input_offset, Uniform(rng, -20, 20), act_min, act_max, sh, sw,
         ph.pad_before, pw.pad_before, dm},
        dh,
        dw_};
    const bool dilated = dh != 1 || dw_ != 1;
    d.op.filter = d.filter.data();
    const bool fast = !dw || dm == 1;
    if (fast) {
      d.bias.resize(bias.size());
      (dw ? k::FoldDepthwiseBias : k::FoldConvBias)(
          input_offset, d.op.filter_shape, d.filter.data(), bias.data(),
          d.bias.data());
      d.op.kind = dw ? (dilated ? k::FusedKind::kDepthwiseConv2DDilatedFast
                                : k::FusedKind::kDepthwiseConv2DFast)
                     : (dilated ? k::FusedKind::kConv2DDilatedFast
                                : k::FusedKind::kConv2DFast);
    } else {
      d.bias = bias;
      d.op.kind = k::FusedKind::kDepthwiseConv2D;
    }
    d.op.bias = d.bias.data();
    RandomQuant(rng, d, out_c);
    const std::int32_t w =
        dw ? rw::AddTensor(m.model, tflite::TensorType::kInt8,
                           {1, kh, kw, out_c}, d.filter.size())
           : rw::AddTensor(m.model, tflite::TensorType::kInt8,
                           {out_c, kh, kw, is.c}, d.filter.size());
    const std::int32_t b = rw::AddTensor(m.model, tflite::TensorType::kInt32,
                                         {out_c}, 4 * bias.size());
    rw::SetWindowOptions(op, g, dm);
    op.inputs = {in, w, b};
  } else {
    d.op.kind = kind == 2 ? k::FusedKind::kAveragePool : k::FusedKind::kMaxPool;
    d.op.pool = k::PoolParams{
        kh, kw, sh, sw, ph.pad_before, pw.pad_before, act_min, act_max};
    rw::SetWindowOptions(op, g, 1);
    op.inputs = {in};
  }
  const std::int32_t out = AddActivation(m, os);
  op.outputs = {out};
  d.in_tensor[0] = in;
  d.out_tensor = out;
  m.model.subgraphs[0].operators.push_back(op);
  m.ops.push_back(std::move(d));
  return true;
}

void AddAddOp(Rng& rng, RandomSegment& m, std::int32_t a, std::int32_t b) {
  OpData d;
  const k::Shape4 s = m.shapes[static_cast<std::size_t>(a)];
  d.op.kind = k::FusedKind::kAdd;
  d.op.in_shape = s;
  d.op.out_shape = s;
  d.op.row.in_h = s.h;
  d.op.row.out_h = s.h;
  d.op.row.input_count = 2;
  d.op.add = k::AddParams{-Uniform(rng, -20, 20),
                          -Uniform(rng, -20, 20),
                          Uniform(rng, -20, 20),
                          20,
                          Uniform(rng, 1 << 30, 0x7fffffff),
                          -1,
                          Uniform(rng, 1 << 30, 0x7fffffff),
                          -1,
                          Uniform(rng, 1 << 30, 0x7fffffff),
                          -Uniform(rng, 17, 20),
                          -128,
                          127,
                          0};
  tflite::Operator op;
  op.builtin_code = tflite::BuiltinOp::kAdd;
  op.options = tflite::ElementwiseOptions{};
  op.inputs = {a, b};
  const std::int32_t out = AddActivation(m, s);
  op.outputs = {out};
  d.in_tensor[0] = a;
  d.in_tensor[1] = b;
  d.out_tensor = out;
  m.model.subgraphs[0].operators.push_back(op);
  m.ops.push_back(std::move(d));
}

/// A global pool (one output row: accumulated) on tensor `in`.
void AddGlobalPool(Rng& rng, RandomSegment& m, std::int32_t in) {
  const k::Shape4 is = m.shapes[static_cast<std::size_t>(in)];
  OpData d;
  const bool avg = Uniform(rng, 0, 1) == 1;
  d.op.kind = avg ? k::FusedKind::kAveragePool : k::FusedKind::kMaxPool;
  const k::Shape4 os{1, 1, 1, is.c};
  d.op.in_shape = is;
  d.op.out_shape = os;
  d.op.row.in_h = is.h;
  d.op.row.out_h = 1;
  d.op.row.window = is.h;
  d.op.row.accumulate = true;
  d.op.pool = k::PoolParams{is.h, is.w, 1, 1, 0, 0, -128, 127};
  d.op.state_bytes = 4 * static_cast<std::size_t>(is.c);
  tflite::Operator op;
  op.builtin_code =
      avg ? tflite::BuiltinOp::kAveragePool2D : tflite::BuiltinOp::kMaxPool2D;
  tflite::Pool2DOptions o;
  o.padding = tflite::Padding::kValid;
  o.stride_h = 1;
  o.stride_w = 1;
  o.filter_h = is.h;
  o.filter_w = is.w;
  op.options = o;
  op.inputs = {in};
  const std::int32_t out = AddActivation(m, os);
  op.outputs = {out};
  d.in_tensor[0] = in;
  d.out_tensor = out;
  m.model.subgraphs[0].operators.push_back(op);
  m.ops.push_back(std::move(d));
}

RandomSegment MakeRandomSegment(Rng& rng) {
  RandomSegment m;
  m.model.source = "random";
  m.model.subgraphs.emplace_back();
  m.model.buffers.emplace_back();  // Buffer 0: no data.
  const k::Shape4 xs{1, Uniform(rng, 4, 24), Uniform(rng, 1, 8),
                     Uniform(rng, 1, 6)};
  m.input = AddActivation(m, xs);
  std::vector<std::int32_t> made = {m.input};  // Skip candidates.
  std::int32_t cur = m.input;
  const std::int32_t want = Uniform(rng, 2, 6);
  while (static_cast<std::int32_t>(m.ops.size()) < want) {
    // A residual ADD over an earlier tensor of the current shape.
    if (!m.ops.empty() && Uniform(rng, 0, 3) == 0) {
      const k::Shape4 s = m.shapes[static_cast<std::size_t>(cur)];
      std::vector<std::int32_t> same;
      for (std::int32_t t : made) {
        const k::Shape4 o = m.shapes[static_cast<std::size_t>(t)];
        if (t != cur && o.h == s.h && o.w == s.w && o.c == s.c) {
          same.push_back(t);
        }
      }
      if (!same.empty()) {
        const std::int32_t skip = same[static_cast<std::size_t>(
            Uniform(rng, 0, static_cast<std::int32_t>(same.size()) - 1))];
        const bool skip_first = Uniform(rng, 0, 1) == 1;
        AddAddOp(rng, m, skip_first ? skip : cur, skip_first ? cur : skip);
        cur = m.ops.back().out_tensor;
        made.push_back(cur);
        continue;
      }
    }
    if (AddWindowOp(rng, m, cur)) {
      cur = m.ops.back().out_tensor;
      made.push_back(cur);
    }
  }
  if (Uniform(rng, 0, 2) == 0) {
    AddGlobalPool(rng, m, cur);
    cur = m.ops.back().out_tensor;
  }
  m.model.subgraphs[0].inputs = {m.input};
  m.model.subgraphs[0].outputs = {cur};
  return m;
}

/// The layer-by-layer run: every tensor its own buffer, whole-tensor calls.
std::vector<std::int8_t> RunLayers(const RandomSegment& m,
                                   const std::vector<std::int8_t>& x) {
  std::vector<std::vector<std::int8_t>> t(m.shapes.size());
  t[static_cast<std::size_t>(m.input)] = x;
  std::vector<std::int8_t> scratch;
  for (const OpData& d : m.ops) {
    const k::FusedOp& o = d.op;
    const auto& in = t[static_cast<std::size_t>(d.in_tensor[0])];
    auto& out = t[static_cast<std::size_t>(d.out_tensor)];
    out.assign(static_cast<std::size_t>(o.out_shape.Count()), 0);
    switch (o.kind) {
      case k::FusedKind::kConv2DFast:
        scratch.assign(
            static_cast<std::size_t>(k::Conv2DFastScratchBytes(o.filter_shape)),
            0x5a);
        k::Conv2DFast(o.conv, o.in_shape, in.data(), o.filter_shape, o.filter,
                      o.bias, o.quant, o.out_shape, out.data(), scratch.data());
        break;
      case k::FusedKind::kDepthwiseConv2DFast:
        scratch.assign(static_cast<std::size_t>(
                           k::DepthwiseConv2DFastScratchBytes(o.filter_shape)),
                       0x5a);
        k::DepthwiseConv2DFast(o.conv, o.in_shape, in.data(), o.filter_shape,
                               o.filter, o.bias, o.quant, o.out_shape,
                               out.data(), scratch.data());
        break;
      case k::FusedKind::kDepthwiseConv2D:
        k::DepthwiseConv2D(o.conv, o.in_shape, in.data(), o.filter_shape,
                           o.filter, o.bias, o.quant, o.out_shape, out.data());
        break;
      case k::FusedKind::kConv2DDilatedFast:
        k::Conv2DDilatedFast(o.conv, o.in_shape, in.data(), o.filter_shape,
                             o.filter, o.bias, o.quant, o.out_shape,
                             out.data());
        break;
      case k::FusedKind::kDepthwiseConv2DDilatedFast:
        scratch.assign(static_cast<std::size_t>(
                           k::DepthwiseConv2DFastScratchBytes(o.filter_shape)),
                       0x5a);
        k::DepthwiseConv2DDilatedFast(o.conv, o.in_shape, in.data(),
                                      o.filter_shape, o.filter, o.bias, o.quant,
                                      o.out_shape, out.data(), scratch.data());
        break;
      case k::FusedKind::kConv2D:
        k::Conv2D(o.conv, o.in_shape, in.data(), o.filter_shape, o.filter,
                  o.bias, o.quant, o.out_shape, out.data());
        break;
      case k::FusedKind::kAveragePool:
        k::AveragePool(o.pool, o.in_shape, in.data(), o.out_shape, out.data());
        break;
      case k::FusedKind::kMaxPool:
        k::MaxPool(o.pool, o.in_shape, in.data(), o.out_shape, out.data());
        break;
      case k::FusedKind::kAdd: {
        k::AddParams p = o.add;
        p.count = o.out_shape.Count();
        k::Add(p, in.data(), t[static_cast<std::size_t>(d.in_tensor[1])].data(),
               out.data());
        break;
      }
      default:  // The float32 kinds: fused_wide_execution_test.
        ADD_FAILURE() << "not an int8 kind";
    }
  }
  return t[static_cast<std::size_t>(m.model.subgraphs[0].outputs[0])];
}

/// A placement of the segment's step: offsets of every record of `plan`.
struct Placed {
  std::vector<std::uint64_t> offsets;
  std::uint64_t arena = 0;
};

/// Runs the fused segment 0 of `f` (one segment covering every operator)
/// in a poisoned arena at `at`; false when the executor refused. `shrink`:
/// bytes taken off ring `shrink_ring`'s capacity.
bool RunFusedAt(const RandomSegment& m, const fuse::FusePlan& f,
                const Placed& at, const std::vector<std::int8_t>& x,
                std::vector<std::int8_t>* y, Rng& rng, std::int32_t shrink_ring,
                std::size_t shrink) {
  const fuse::Segment& seg = f.segments.at(0);
  const UsageProblem& p = f.problem;
  auto offset_of_tensor = [&](std::int32_t t) -> std::uint64_t {
    for (std::size_t r = 0; r < p.ids.size(); ++r) {
      if (p.ids[r] == std::to_string(t)) return at.offsets[r];
    }
    ADD_FAILURE() << "tensor " << t << " has no record";
    return 0;
  };
  // Each Conv2DFast's scratch after the planned bytes (16-byte aligned).
  std::size_t end = (at.arena + 64 + 15) & ~std::size_t{15};
  std::vector<std::size_t> scratch_at;
  for (std::size_t i = 0; i < seg.ops.size(); ++i) {
    const k::FusedOp& o = m.ops[seg.first_op + i].op;
    scratch_at.push_back(end);
    std::int32_t bytes = 0;
    if (o.kind == k::FusedKind::kConv2DFast) {
      bytes = k::Conv2DFastScratchBytes(o.filter_shape);
    } else if (o.kind == k::FusedKind::kDepthwiseConv2DFast ||
               o.kind == k::FusedKind::kDepthwiseConv2DDilatedFast) {
      bytes = k::DepthwiseConv2DFastScratchBytes(o.filter_shape);
    }
    end += (static_cast<std::size_t>(bytes) + 15) & ~std::size_t{15};
  }
  std::vector<std::uint8_t> arena(end);
  for (auto& b : arena) b = static_cast<std::uint8_t>(Uniform(rng, 0, 255));
  std::memcpy(arena.data() + offset_of_tensor(m.input), x.data(), x.size());
  std::vector<k::FusedOp> ops;
  for (std::size_t i = 0; i < seg.ops.size(); ++i) {
    k::FusedOp o = m.ops[seg.first_op + i].op;
    o.scratch_offset = scratch_at[i];
    o.row = seg.ops[i].row;  // The planner's rows (inputs resolved),
    o.state_bytes = seg.ops[i].state_bytes;  // accumulating or not.
    const std::int32_t r = f.ring_record[0][i];
    if (r >= 0) {
      o.ring_offset = at.offsets[static_cast<std::size_t>(r)];
      o.ring_bytes = p.records[static_cast<std::size_t>(r)].size;
      if (static_cast<std::int32_t>(i) == shrink_ring) o.ring_bytes -= shrink;
    }
    ops.push_back(o);
  }
  std::vector<std::size_t> inputs;
  for (std::int32_t t : seg.input_tensors) {
    inputs.push_back(offset_of_tensor(t));
  }
  const k::FusedSegment s{ops.data(), static_cast<std::int32_t>(ops.size()),
                          inputs.data(), offset_of_tensor(seg.output_tensor)};
  const std::vector<std::uint8_t> before = arena;
  const bool ok = k::RunFused(s, arena.data());
  testing_util::ExpectResolvedRunEqual(s, before, arena, ok, at.arena);
  const std::size_t n = static_cast<std::size_t>(ops.back().out_shape.Count());
  y->assign(n, 0);
  std::memcpy(y->data(), arena.data() + s.output_offset, n);
  return ok;
}

/// One drawn segment: its fused problem (one step), a random input and the
/// layer-by-layer output.
struct SegmentCase {
  RandomSegment m;
  fuse::FusePlan f;
  std::vector<std::int8_t> x, want;
  int trial = 0;
};

/// The tight placement: the rings packed from 0 (raw bytes, alignment 1),
/// the output right after them, the input exactly the segment's distance
/// above the output.
struct Tight {
  Placed at;
  std::size_t out_record = 0, in_record = 0;
  std::uint64_t rings_end = 0;  ///< Bytes of the packed rings.
  std::uint64_t distance = 0;   ///< The segment's output-below-input bytes.
};

void PlaceTight(const SegmentCase& c, Tight* t) {
  const fuse::Segment& s = c.f.segments[0];
  const UsageProblem& p = c.f.problem;
  t->at.offsets.assign(p.records.size(), 0);
  for (std::int32_t r : c.f.ring_record[0]) {
    if (r < 0) continue;
    t->at.offsets[static_cast<std::size_t>(r)] = t->rings_end;
    t->rings_end += p.records[static_cast<std::size_t>(r)].size;
  }
  for (std::size_t r = 0; r < p.ids.size(); ++r) {
    if (p.ids[r] == std::to_string(s.output_tensor)) t->out_record = r;
    if (p.ids[r] == std::to_string(c.m.input)) t->in_record = r;
  }
  ASSERT_EQ(s.input_tensors.size(), 1u);
  ASSERT_TRUE(s.input_distance[0].has_value());
  t->distance = *s.input_distance[0];
  const std::uint64_t top = t->rings_end;
  t->at.offsets[t->out_record] = top;
  t->at.offsets[t->in_record] = top + t->distance;
  t->at.arena = std::max(top + p.records[t->out_record].size,
                         top + t->distance + p.records[t->in_record].size);
}

/// Every ring one byte short: the executor refuses, and the output (with
/// the input its distance above) placed over the ring's last byte is
/// rejected by the validator.
void CheckShortRings(const SegmentCase& c, const Tight& t, Rng& rng) {
  const fuse::Segment& s = c.f.segments[0];
  const UsageProblem& p = c.f.problem;
  std::vector<std::int8_t> got;
  for (std::size_t i = 0; i < s.ops.size(); ++i) {
    const std::int32_t r = c.f.ring_record[0][i];
    if (r < 0) continue;
    const auto ring = static_cast<std::size_t>(r);
    if (i + 1 < s.ops.size()) {
      EXPECT_FALSE(RunFusedAt(c.m, c.f, t.at, c.x, &got, rng,
                              static_cast<std::int32_t>(i), 1))
          << "trial " << c.trial << " ring " << i;
    }
    Placed over = t.at;
    const std::size_t yr = t.out_record, xr = t.in_record;
    over.offsets[yr] = t.at.offsets[ring] + p.records[ring].size - 1;
    over.offsets[xr] = over.offsets[yr] + t.distance;
    over.arena = std::max({over.offsets[yr] + p.records[yr].size,
                           over.offsets[xr] + p.records[xr].size, t.rings_end});
    EXPECT_FALSE(
        ValidateOffsets(p.records, over.offsets, over.arena, 1, p.overlaps)
            .ok())
        << "trial " << c.trial << " ring " << i;
  }
}

/// Each ring pair tight: the reader's ring exactly the pair's distance
/// below the ring it reads (both moved above everything else): valid and
/// bit-exact; one byte nearer is rejected. Adds the pairs to `*pairs`.
void CheckRingPairs(const SegmentCase& c, const Tight& t, Rng& rng,
                    int* pairs) {
  const UsageProblem& p = c.f.problem;
  std::vector<std::int8_t> got;
  for (const fuse::RingPair& q : c.f.segments[0].ring_pairs) {
    const auto src = static_cast<std::size_t>(c.f.ring_record[0][q.source]);
    const auto rdr = static_cast<std::size_t>(c.f.ring_record[0][q.reader]);
    Placed pair = t.at;
    const std::uint64_t base = t.at.arena;
    pair.offsets[rdr] = base;
    pair.offsets[src] = base + q.distance;
    pair.arena = std::max(base + p.records[rdr].size,
                          base + q.distance + p.records[src].size);
    ASSERT_LT(q.distance, p.records[rdr].size) << "trial " << c.trial;
    ASSERT_TRUE(
        ValidateOffsets(p.records, pair.offsets, pair.arena, 1, p.overlaps)
            .ok())
        << "trial " << c.trial;
    ASSERT_TRUE(RunFusedAt(c.m, c.f, pair, c.x, &got, rng, -1, 0));
    ASSERT_EQ(got, c.want) << "trial " << c.trial << " (ring of operator "
                           << q.reader << " " << q.distance
                           << " bytes below the ring it reads)";
    Placed nearer = pair;
    nearer.offsets[src] -= 1;
    EXPECT_FALSE(
        ValidateOffsets(p.records, nearer.offsets, pair.arena, 1, p.overlaps)
            .ok())
        << "trial " << c.trial;
    ++*pairs;
  }
}

/// Runs `f` (c's segment, its rings perhaps taller) at the planner's
/// offsets (alignment 16, overlap pairs): the layers' bytes.
void ExpectPlannedRun(const SegmentCase& c, const fuse::FusePlan& f, Rng& rng,
                      const char* what) {
  PlanOptions o;
  o.overlap = true;
  o.alignment = kModelAlignment;
  const PlanResult plan = Plan(f.problem, o);
  std::vector<std::int8_t> got;
  ASSERT_TRUE(RunFusedAt(c.m, f, {plan.offsets, plan.arena_bytes}, c.x, &got,
                         rng, -1, 0))
      << "trial " << c.trial << what;
  ASSERT_EQ(got, c.want) << "trial " << c.trial << what;
}

/// Every ring in no pair and holding no state 1 to 4 rows taller (as
/// `--fuse` makes them where the arena has room; kernels/fused.hpp then
/// moves its rows less often), planned again.
void CheckTallerRings(const SegmentCase& c, const tflite::TfliteProblem& pr,
                      const std::vector<OverlapPair>& pairs, Rng& rng) {
  fuse::Segment s = c.f.segments[0];
  for (std::size_t i = 0; i + 1 < s.ops.size(); ++i) {
    bool paired = false;
    for (const fuse::RingPair& q : s.ring_pairs) {
      paired = paired || q.source == i || q.reader == i;
    }
    if (s.ops[i].state_bytes != 0 || paired) continue;
    s.ring_rows[i] += static_cast<std::uint32_t>(Uniform(rng, 1, 4));
    s.ring_bytes[i] = s.ring_rows[i] * s.ops[i].out_row_bytes;
  }
  ExpectPlannedRun(c,
                   fuse::ApplySegments(c.m.model, pr, pairs, {s}, Alignment{}),
                   rng, " (taller rings)");
}

TEST(FusedExecution, RandomSegmentsMatchLayerByLayerAtPlannedOffsets) {
  Rng rng(20261126);
  int trials = 0, tight_used = 0, residual = 0, accumulated = 0, ring_pairs = 0,
      dilated = 0;
  for (int trial = 0; trial < 400; ++trial) {
    SegmentCase c;
    c.trial = trial;
    c.m = MakeRandomSegment(rng);
    const RandomSegment& m = c.m;
    const std::uint32_t n = static_cast<std::uint32_t>(m.ops.size());
    auto seg = fuse::MakeSegment(m.model, 0, n - 1);
    ASSERT_TRUE(seg.has_value()) << "trial " << trial;
    for (const OpData& d : m.ops) {
      residual += d.op.kind == k::FusedKind::kAdd;
      accumulated += d.op.row.accumulate;
      const bool conv = d.op.kind != k::FusedKind::kAveragePool &&
                        d.op.kind != k::FusedKind::kMaxPool &&
                        d.op.kind != k::FusedKind::kAdd;
      dilated +=
          conv && (d.op.conv.dilation_h != 1 || d.op.conv.dilation_w != 1);
    }
    const tflite::TfliteProblem problem =
        tflite::BuildProblem(m.model, InputOptions{});
    const auto pairs = overlap::FindOverlapPairs(m.model, problem);
    c.f = fuse::ApplySegments(m.model, problem, pairs, {*seg}, Alignment{});
    ASSERT_EQ(c.f.problem.operator_count, 1u);
    c.x.resize(static_cast<std::size_t>(m.shapes[0].h * m.shapes[0].w *
                                        m.shapes[0].c));
    for (auto& v : c.x) v = static_cast<std::int8_t>(Uniform(rng, -128, 127));
    c.want = RunLayers(m, c.x);

    // 1. The planner's offsets. 2. Tight (PlaceTight): valid, bit-exact.
    ExpectPlannedRun(c, c.f, rng, " (planned offsets)");
    Tight t;
    PlaceTight(c, &t);
    if (HasFatalFailure()) return;
    const UsageProblem& p = c.f.problem;
    std::vector<std::int8_t> got;
    const bool overlapping = t.distance < p.records[t.out_record].size;
    ASSERT_TRUE(
        ValidateOffsets(p.records, t.at.offsets, t.at.arena, 1, p.overlaps)
            .ok())
        << "trial " << trial;
    ASSERT_TRUE(RunFusedAt(m, c.f, t.at, c.x, &got, rng, -1, 0));
    ASSERT_EQ(got, c.want) << "trial " << trial << " (output " << t.distance
                           << " bytes below the input)";
    tight_used += overlapping;

    // 3. The output one byte nearer: rejected.
    if (overlapping && t.distance > 0) {
      Placed nearer = t.at;
      nearer.offsets[t.in_record] -= 1;
      EXPECT_FALSE(
          ValidateOffsets(p.records, nearer.offsets, t.at.arena, 1, p.overlaps)
              .ok())
          << "trial " << trial;
    }
    // 4., 5. and 6.
    CheckShortRings(c, t, rng);
    CheckRingPairs(c, t, rng, &ring_pairs);
    CheckTallerRings(c, problem, pairs, rng);
    if (HasFatalFailure()) return;
    ++trials;
  }
  EXPECT_EQ(trials, 400);
  EXPECT_GT(ring_pairs, 10);
  // The draw covers what it should.
  EXPECT_GT(tight_used, 100);
  EXPECT_GT(residual, 50);
  EXPECT_GT(accumulated, 50);
  EXPECT_GT(dilated, 100);
  std::printf("%d segments, %d dilated, %d ring pairs, %d tight overlaps\n",
              trials, dilated, ring_pairs, tight_used);
}

}  // namespace
}  // namespace arenaplan
