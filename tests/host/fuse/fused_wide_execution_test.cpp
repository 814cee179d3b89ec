// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Property test of fused execution of float32 segments (kernels/fused.hpp's
// f32 kinds, planned by codegen/fuse/): random chains of CONV_2D and
// DEPTHWISE_CONV_2D (kernels 1-5, strides 1-2, a third dilated 2-3 in each
// direction, SAME and VALID), average and max pools, residual ADDs, RELU
// and PAD of W and C, on random float inputs, run layer by layer with the
// whole-tensor float kernels and fused in a poisoned arena at the offsets
// `plan --fuse` plans: the output bytes must be identical (the row call
// sums the same products in the same order, docs/fuse.md). One byte less
// of any ring makes the executor refuse; the output one byte nearer its
// input than the segment's distance is rejected by the validator.
#include <gtest/gtest.h>

#include <cstdint>
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
using tflite::BuiltinOp;
using tflite::TensorType;

std::int32_t Uniform(Rng& rng, std::int32_t lo, std::int32_t hi) {
  return std::uniform_int_distribution<std::int32_t>(lo, hi)(rng);
}

float Real(Rng& rng) {
  return std::uniform_real_distribution<float>(-2.0f, 2.0f)(rng);
}

/// One operator: its kernel record (k::FusedOp and its f32 parameters,
/// without arena offsets), the storage they point to, its tensors.
struct OpData {
  k::FusedOp op;
  k::FusedF32 f;
  std::vector<float> filter, bias;
  std::int32_t in_tensor[2] = {-1, -1};
  std::int32_t out_tensor = -1;
};

struct RandomSegment {
  tflite::Model model;
  std::vector<k::Shape4> shapes;  // Per tensor (activations only).
  std::vector<OpData> ops;        // ops[i] is model operator i.
  std::int32_t input = 0;
};

std::int32_t AddTensor(RandomSegment& m, TensorType type,
                       std::vector<std::int32_t> shape, std::size_t bytes) {
  const std::int32_t t = rw::AddTensor(m.model, type, shape, bytes);
  m.shapes.resize(m.model.subgraphs[0].tensors.size());
  if (shape.size() == 4) m.shapes.back() = {1, shape[1], shape[2], shape[3]};
  return t;
}

std::int32_t AddActivation(RandomSegment& m, const k::Shape4& s) {
  return AddTensor(m, TensorType::kFloat32, {1, s.h, s.w, s.c}, 0);
}

/// Appends operator `op` (inputs set, output made of shape `os`) and `d`.
void Push(RandomSegment& m, tflite::Operator op, OpData d,
          const k::Shape4& os) {
  const std::int32_t out = AddActivation(m, os);
  op.outputs = {out};
  d.op.out_shape = os;
  d.op.row.out_h = os.h;
  d.op.elem_bytes = 4;
  d.in_tensor[0] = op.inputs[0];
  if (d.op.row.input_count == 2) d.in_tensor[1] = op.inputs[1];
  d.out_tensor = out;
  m.model.subgraphs[0].operators.push_back(op);
  m.ops.push_back(std::move(d));
}

/// A convolution or a pool on `in`; false when the drawn geometry leaves
/// no output row, or (pools) only one (an accumulating pool: not streamed).
bool AddWindowOp(Rng& rng, RandomSegment& m, std::int32_t in) {
  const k::Shape4 is = m.shapes[static_cast<std::size_t>(in)];
  const rw::WindowDraw g = rw::DrawWindow(rng, is);
  const std::int32_t kind = static_cast<std::int32_t>(g.kind);
  const std::int32_t kh = g.kh, kw = g.kw, sh = g.sh, sw = g.sw;
  const std::int32_t dh = g.dh, dw_ = g.dw;
  const tflite::PaddedDim ph = g.ph, pw = g.pw;
  if (ph.out < 1 || pw.out < 1 || (kind >= 2 && ph.out < 2)) return false;
  OpData d;
  tflite::Operator op;
  const std::int32_t dm = kind == 1 ? Uniform(rng, 1, 2) : 1;
  const std::int32_t out_c =
      kind == 0 ? Uniform(rng, 1, 6) : (kind == 1 ? is.c * dm : is.c);
  d.op.in_shape = is;
  d.op.row.in_h = is.h;
  d.op.row.window = (kh - 1) * dh + 1;
  d.op.row.stride = sh;
  d.op.row.pad = ph.pad_before;
  const k::f32::ActivationRange act =
      Uniform(rng, 0, 1) ? k::f32::ActivationRange{0.0f, 6.0f}
                         : k::f32::ActivationRange{-1e30f, 1e30f};
  if (kind <= 1) {
    const bool dw = kind == 1;
    d.op.filter_shape =
        dw ? k::Shape4{1, kh, kw, out_c} : k::Shape4{out_c, kh, kw, is.c};
    d.filter.resize(static_cast<std::size_t>(d.op.filter_shape.Count()));
    for (float& v : d.filter) v = Real(rng);
    d.bias.resize(static_cast<std::size_t>(out_c));
    for (float& v : d.bias) v = Real(rng);
    d.f.conv = k::f32::ConvParams{act,           sh, sw,  ph.pad_before,
                                  pw.pad_before, dh, dw_, dm};
    d.f.filter = d.filter.data();
    d.f.bias = d.bias.data();
    d.op.kind =
        dw ? k::FusedKind::kDepthwiseConv2DF32 : k::FusedKind::kConv2DF32;
    const std::vector<std::int32_t> fs = {d.op.filter_shape.n, kh, kw,
                                          d.op.filter_shape.c};
    const std::int32_t w =
        AddTensor(m, TensorType::kFloat32, fs, 4 * d.filter.size());
    const std::int32_t b =
        AddTensor(m, TensorType::kFloat32, {out_c}, 4 * d.bias.size());
    rw::SetWindowOptions(op, g, dm);
    op.inputs = {in, w, b};
  } else {
    d.op.kind =
        kind == 2 ? k::FusedKind::kAveragePoolF32 : k::FusedKind::kMaxPoolF32;
    d.f.pool =
        k::f32::PoolParams{kh, kw, sh, sw, ph.pad_before, pw.pad_before, act};
    rw::SetWindowOptions(op, g, 1);
    op.inputs = {in};
  }
  Push(m, op, std::move(d), {1, ph.out, pw.out, out_c});
  return true;
}

/// An element-wise operator on `in` (and `b` for ADD): RELU, PAD of W and
/// C (zeros), or ADD.
void AddElementwiseOp(Rng& rng, RandomSegment& m, std::int32_t in,
                      std::int32_t b) {
  const k::Shape4 is = m.shapes[static_cast<std::size_t>(in)];
  OpData d;
  tflite::Operator op;
  d.op.in_shape = is;
  d.op.row.in_h = is.h;
  k::Shape4 os = is;
  op.inputs = {in};
  if (b >= 0) {
    d.op.kind = k::FusedKind::kAddF32;
    d.op.row.input_count = 2;
    op.builtin_code = BuiltinOp::kAdd;
    tflite::ElementwiseOptions o;
    o.activation = tflite::Activation::kReluN1To1;
    op.options = o;
    op.inputs = {in, b};
    d.f.add.act = k::f32::ActivationRange{-1.0f, 1.0f};
  } else if (Uniform(rng, 0, 1) == 0) {
    d.op.kind = k::FusedKind::kReluF32;
    op.builtin_code = BuiltinOp::kRelu;
  } else {
    d.op.kind = k::FusedKind::kPadF32;
    const std::int32_t wb = Uniform(rng, 0, 2), wa = Uniform(rng, 0, 2);
    const std::int32_t cb = Uniform(rng, 0, 2), ca = Uniform(rng, 0, 2);
    d.f.pad = k::PadParams{is, {0, 0, wb, cb}, {0, 0, wa, ca}};
    os = {1, is.h, is.w + wb + wa, is.c + cb + ca};
    op.builtin_code = BuiltinOp::kPad;
    op.inputs.push_back(AddTensor(m, TensorType::kInt32, {4, 2}, 32));
  }
  Push(m, op, std::move(d), os);
}

RandomSegment MakeRandomSegment(Rng& rng) {
  RandomSegment m;
  m.model.source = "random";
  m.model.subgraphs.emplace_back();
  m.model.buffers.emplace_back();  // Buffer 0: no data.
  m.input = AddActivation(
      m, {1, Uniform(rng, 4, 24), Uniform(rng, 1, 8), Uniform(rng, 1, 6)});
  std::vector<std::int32_t> made = {m.input};  // Skip candidates.
  std::int32_t cur = m.input;
  const std::int32_t want = Uniform(rng, 2, 6);
  while (static_cast<std::int32_t>(m.ops.size()) < want) {
    const std::int32_t draw = Uniform(rng, 0, 5);
    std::int32_t skip = -1;
    if (draw == 0 && !m.ops.empty()) {  // A residual ADD, when one fits.
      const k::Shape4 s = m.shapes[static_cast<std::size_t>(cur)];
      std::vector<std::int32_t> same;
      for (std::int32_t t : made) {
        const k::Shape4 o = m.shapes[static_cast<std::size_t>(t)];
        if (t != cur && o.h == s.h && o.w == s.w && o.c == s.c) {
          same.push_back(t);
        }
      }
      if (same.empty()) continue;
      skip = same[static_cast<std::size_t>(
          Uniform(rng, 0, static_cast<std::int32_t>(same.size()) - 1))];
    }
    if (draw <= 1) {
      AddElementwiseOp(rng, m, cur, skip);
    } else if (!AddWindowOp(rng, m, cur)) {
      continue;
    }
    cur = m.ops.back().out_tensor;
    made.push_back(cur);
  }
  m.model.subgraphs[0].inputs = {m.input};
  m.model.subgraphs[0].outputs = {cur};
  return m;
}

/// The layer-by-layer run: every tensor its own buffer, whole-tensor calls.
std::vector<float> RunLayers(const RandomSegment& m,
                             const std::vector<float>& x) {
  std::vector<std::vector<float>> t(m.shapes.size());
  t[static_cast<std::size_t>(m.input)] = x;
  for (const OpData& d : m.ops) {
    const k::FusedOp& o = d.op;
    const float* in = t[static_cast<std::size_t>(d.in_tensor[0])].data();
    auto& out = t[static_cast<std::size_t>(d.out_tensor)];
    out.assign(static_cast<std::size_t>(o.out_shape.Count()), 0.0f);
    const k::FusedF32& f = d.f;
    switch (o.kind) {
      case k::FusedKind::kConv2DF32:
        k::f32::Conv2D(f.conv, o.in_shape, in, o.filter_shape, f.filter, f.bias,
                       o.out_shape, out.data());
        break;
      case k::FusedKind::kDepthwiseConv2DF32:
        k::f32::DepthwiseConv2D(f.conv, o.in_shape, in, o.filter_shape,
                                f.filter, f.bias, o.out_shape, out.data());
        break;
      case k::FusedKind::kAveragePoolF32:
        k::f32::AveragePool(f.pool, o.in_shape, in, o.out_shape, out.data());
        break;
      case k::FusedKind::kMaxPoolF32:
        k::f32::MaxPool(f.pool, o.in_shape, in, o.out_shape, out.data());
        break;
      case k::FusedKind::kAddF32: {
        const k::Shape4 s = o.out_shape;
        const std::int32_t st[4] = {s.h * s.w * s.c, s.w * s.c, s.c, 1};
        const k::f32::AddParams p{f.add.act,
                                  s,
                                  {st[0], st[1], st[2], st[3]},
                                  {st[0], st[1], st[2], st[3]}};
        k::f32::Add(p, in, t[static_cast<std::size_t>(d.in_tensor[1])].data(),
                    out.data());
        break;
      }
      case k::FusedKind::kReluF32:
        k::f32::Relu(o.out_shape.Count(), in, out.data());
        break;
      case k::FusedKind::kPadF32:
        k::Pad<float>(f.pad, 0.0f, in, out.data());
        break;
      default:
        ADD_FAILURE() << "not a float kind";
    }
  }
  return t[static_cast<std::size_t>(m.model.subgraphs[0].outputs[0])];
}

/// Runs segment 0 of `f` in a poisoned arena at `offsets`; false when the
/// executor refused. `shrink` bytes are taken off ring `shrink_ring`.
bool RunFusedAt(const RandomSegment& m, const fuse::FusePlan& f,
                const std::vector<std::uint64_t>& offsets, std::uint64_t arena,
                const std::vector<float>& x, std::vector<float>* y, Rng& rng,
                std::int32_t shrink_ring) {
  const fuse::Segment& seg = f.segments.at(0);
  const UsageProblem& p = f.problem;
  auto offset_of_tensor = [&](std::int32_t t) -> std::uint64_t {
    for (std::size_t r = 0; r < p.ids.size(); ++r) {
      if (p.ids[r] == std::to_string(t)) return offsets[r];
    }
    ADD_FAILURE() << "tensor " << t << " has no record";
    return 0;
  };
  std::vector<std::uint8_t> bytes(arena + 16);
  for (auto& b : bytes) b = static_cast<std::uint8_t>(Uniform(rng, 0, 255));
  std::memcpy(bytes.data() + offset_of_tensor(m.input), x.data(), 4 * x.size());
  std::vector<k::FusedOp> ops;
  for (std::size_t i = 0; i < seg.ops.size(); ++i) {
    const OpData& d = m.ops[seg.first_op + i];
    k::FusedOp o = d.op;
    o.f32 = &d.f;
    o.row = seg.ops[i].row;  // The planner's rows (inputs resolved).
    const std::int32_t r = f.ring_record[0][i];
    if (r >= 0) {
      o.ring_offset = offsets[static_cast<std::size_t>(r)];
      o.ring_bytes = p.records[static_cast<std::size_t>(r)].size;
      if (static_cast<std::int32_t>(i) == shrink_ring) o.ring_bytes -= 1;
    }
    ops.push_back(o);
  }
  std::vector<std::size_t> inputs;
  for (std::int32_t t : seg.input_tensors) {
    inputs.push_back(offset_of_tensor(t));
  }
  const k::FusedSegment s{ops.data(), static_cast<std::int32_t>(ops.size()),
                          inputs.data(), offset_of_tensor(seg.output_tensor)};
  const std::vector<std::uint8_t> before = bytes;
  const bool ok = k::RunFused(s, bytes.data());
  testing_util::ExpectResolvedRunEqual(s, before, bytes, ok, bytes.size());
  y->assign(static_cast<std::size_t>(ops.back().out_shape.Count()), 0.0f);
  std::memcpy(y->data(), bytes.data() + s.output_offset, 4 * y->size());
  return ok;
}

TEST(FusedWideExecution, RandomFloatSegmentsMatchLayerByLayerBytes) {
  Rng rng(20261128);
  int trials = 0, overlapping = 0, residual = 0, padded = 0, dilated = 0;
  for (int trial = 0; trial < 300; ++trial) {
    RandomSegment m = MakeRandomSegment(rng);
    const auto n = static_cast<std::uint32_t>(m.ops.size());
    auto seg = fuse::MakeSegment(m.model, 0, n - 1);
    ASSERT_TRUE(seg.has_value()) << "trial " << trial;
    for (const OpData& d : m.ops) {
      residual += d.op.kind == k::FusedKind::kAddF32;
      padded += d.op.kind == k::FusedKind::kPadF32;
      dilated += d.f.conv.dilation_h > 1 || d.f.conv.dilation_w > 1;
    }
    const tflite::TfliteProblem problem =
        tflite::BuildProblem(m.model, InputOptions{});
    const auto pairs = overlap::FindOverlapPairs(m.model, problem);
    const fuse::FusePlan f =
        fuse::ApplySegments(m.model, problem, pairs, {*seg}, Alignment{});
    std::vector<float> x(static_cast<std::size_t>(m.shapes[0].Count()));
    for (float& v : x) v = Real(rng);
    const std::vector<float> want = RunLayers(m, x);

    // The planner's offsets (alignment 16, overlap pairs): bit-exact.
    PlanOptions o;
    o.overlap = true;
    o.alignment = kModelAlignment;
    const PlanResult plan = Plan(f.problem, o);
    const UsageProblem& p = f.problem;
    ASSERT_TRUE(ValidateOffsets(p.records, plan.offsets, plan.arena_bytes, 16,
                                p.overlaps)
                    .ok());
    std::vector<float> got;
    ASSERT_TRUE(
        RunFusedAt(m, f, plan.offsets, plan.arena_bytes, x, &got, rng, -1))
        << "trial " << trial;
    ASSERT_EQ(0, std::memcmp(got.data(), want.data(), 4 * want.size()))
        << "trial " << trial;

    // The output exactly the segment's distance below its input, then one
    // byte nearer: the validator refuses the second.
    const fuse::Segment& s = f.segments[0];
    std::size_t yr = 0, xr = 0;
    for (std::size_t r = 0; r < p.ids.size(); ++r) {
      if (p.ids[r] == std::to_string(s.output_tensor)) yr = r;
      if (p.ids[r] == std::to_string(m.input)) xr = r;
    }
    ASSERT_TRUE(s.input_distance[0].has_value());
    const std::uint64_t d = *s.input_distance[0];
    std::vector<std::uint64_t> tight(p.records.size(), 0);
    std::uint64_t top = 0;
    for (std::int32_t r : f.ring_record[0]) {
      if (r < 0) continue;
      tight[static_cast<std::size_t>(r)] = top;
      top += p.records[static_cast<std::size_t>(r)].size;
    }
    tight[yr] = top;
    tight[xr] = top + d;
    const std::uint64_t arena =
        std::max(top + p.records[yr].size, top + d + p.records[xr].size);
    ASSERT_TRUE(ValidateOffsets(p.records, tight, arena, 1, p.overlaps).ok())
        << "trial " << trial;
    ASSERT_TRUE(RunFusedAt(m, f, tight, arena, x, &got, rng, -1));
    ASSERT_EQ(0, std::memcmp(got.data(), want.data(), 4 * want.size()))
        << "trial " << trial << " (output " << d << " bytes below the input)";
    if (d < p.records[yr].size && d > 0) {
      ++overlapping;
      std::vector<std::uint64_t> nearer = tight;
      nearer[xr] -= 1;
      EXPECT_FALSE(
          ValidateOffsets(p.records, nearer, arena, 1, p.overlaps).ok())
          << "trial " << trial;
    }
    // Every ring one byte short: the executor refuses.
    for (std::size_t i = 0; i + 1 < s.ops.size(); ++i) {
      EXPECT_FALSE(RunFusedAt(m, f, tight, arena, x, &got, rng,
                              static_cast<std::int32_t>(i)))
          << "trial " << trial << " ring " << i;
    }
    ++trials;
  }
  EXPECT_EQ(trials, 300);
  EXPECT_GT(overlapping, 50);  // The draw covers what it should.
  EXPECT_GT(residual, 30);
  EXPECT_GT(padded, 30);
  EXPECT_GT(dilated, 50);
}

}  // namespace
}  // namespace arenaplan
