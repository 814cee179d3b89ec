// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// PlanLeanFusion (fuse.hpp): fuse only where the arena needs it, with
// rings as tall as the arena leaves room for.
#include <algorithm>
#include <optional>
#include <vector>

#include "arenaplan/kernels/fused.hpp"
#include "codegen/fuse/fuse.hpp"

namespace arenaplan::fuse {
namespace {

/// True when operator i's ring is in one of the segment's ring pairs
/// (which need rings of one row).
bool Paired(const Segment& s, std::size_t i) {
  for (const RingPair& q : s.ring_pairs) {
    if (q.source == i || q.reader == i) return true;
  }
  return false;
}

/// Bytes the executor moves down in segment `s`'s rings in one run (its
/// rings' rows as s.ring_rows): kernels/fused.hpp's own ResolvingSink, run
/// on FusedOps carrying the rows, row sizes and ring sizes (a row of
/// out_row_bytes one-byte elements), the drops' bytes summed; nullopt when
/// a row does not fit its ring.
std::optional<std::uint64_t> BytesMoved(const Segment& s) {
  std::vector<kernels::FusedOp> ops(s.ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const FusableOp& f = s.ops[i];
    kernels::FusedOp& o = ops[i];
    o.row = f.row;
    const auto wide = [](std::uint64_t bytes) {
      return static_cast<std::int32_t>(
          std::min<std::uint64_t>(bytes, 0x7FFFFFFF));
    };
    o.in_shape = {1, f.row.in_h, wide(f.in_row_bytes[0]), 1};
    o.out_shape = {1, f.row.out_h, wide(f.out_row_bytes), 1};
    o.ring_bytes = s.ring_bytes[i];
    o.state_bytes = f.state_bytes;
  }
  const std::vector<std::size_t> inputs(s.input_tensors.size(), 0);
  const kernels::FusedSegment seg{
      ops.data(), static_cast<std::int32_t>(ops.size()), inputs.data(), 0};
  std::uint64_t bytes = 0;
  const auto sum = [&bytes](const kernels::FusedStep<std::size_t>& st) {
    if (st.kind == kernels::kRowStepDrop) bytes += st.x2;
  };
  kernels::BasicRowSchedule<kernels::FusedOp> schedule(seg.ops, seg.n);
  kernels::ResolvingSink<kernels::BasicRowSchedule<kernels::FusedOp>, 1,
                         decltype(sum)>
      sink(seg, schedule, sum);
  schedule.Run(sink);
  if (!sink.ok()) return std::nullopt;
  return bytes;
}

/// `plan` with rows added to its rings while `fits` holds and the
/// executor then moves fewer bytes (kernels/fused.hpp moves a ring's held
/// rows down only when its next row would not fit above them, so a ring
/// with rows to spare moves less often), ring by ring in segment and
/// operator order: three times as many rows again, else as many, else one.
/// Rings of an accumulating pool's state or in a ring pair keep their
/// size. Not optimal: one ring at a time, three sizes tried.
template <class Fits>
FusePlan GrowRings(const tflite::Model& model,
                   const tflite::TfliteProblem& problem,
                   const std::vector<OverlapPair>& pairs, Alignment alignment,
                   const Fits& fits, FusePlan plan) {
  for (std::size_t g = 0; g < plan.segments.size(); ++g) {
    for (std::size_t i = 0; i + 1 < plan.segments[g].ops.size(); ++i) {
      const Segment& s = plan.segments[g];
      const std::uint32_t rows = s.ring_rows[i];
      if (rows == 0 || s.ops[i].state_bytes != 0 || Paired(s, i)) continue;
      // Run the executor's sink only for a ring that may grow.
      const std::optional<std::uint64_t> moved = BytesMoved(s);
      if (!moved || *moved == 0) continue;
      for (const std::uint32_t extra : {3 * rows, rows, 1u}) {
        std::vector<Segment> trial = plan.segments;
        Segment& t = trial[g];
        t.ring_rows[i] = rows + extra;
        t.ring_bytes[i] = t.ring_rows[i] * t.ops[i].out_row_bytes;
        const std::optional<std::uint64_t> less = BytesMoved(t);
        if (!less || *less >= *moved) continue;
        FusePlan p =
            ApplySegments(model, problem, pairs, std::move(trial), alignment);
        if (fits(p)) {
          plan = std::move(p);
          break;
        }
      }
    }
  }
  return plan;
}

}  // namespace

FusePlan PlanLeanFusion(const tflite::Model& model,
                        const tflite::TfliteProblem& problem,
                        const std::vector<OverlapPair>& pairs,
                        Alignment alignment, const ArenaOf& arena_of) {
  FusePlan full = PlanFusion(model, problem, pairs, alignment);
  const std::uint64_t bound = full.lower_bound;
  const std::uint64_t arena = arena_of(full.problem);
  // A candidate qualifies when it reaches the fused lower bound and the
  // arena stays at most PlanFusion's.
  const auto fits = [&](const FusePlan& p) {
    return p.lower_bound == bound && arena_of(p.problem) <= arena;
  };
  FusePlan fewest =
      PlanFusion(model, problem, pairs, alignment, FusionTies::kFewestFused);
  if (fits(fewest)) {
    return GrowRings(model, problem, pairs, alignment, fits, std::move(fewest));
  }
  std::vector<Segment> segments = full.segments;
  std::vector<std::size_t> order(segments.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return segments[a].ops.size() > segments[b].ops.size();
                   });
  // `lean`: the last segmentation that qualified (each later trial that
  // does not qualify leaves `dropped` as it was).
  FusePlan lean = std::move(full);
  std::vector<bool> dropped(segments.size(), false);
  for (std::size_t k : order) {
    dropped[k] = true;
    std::vector<Segment> trial;
    for (std::size_t i = 0; i < segments.size(); ++i) {
      if (!dropped[i]) trial.push_back(segments[i]);
    }
    FusePlan p =
        ApplySegments(model, problem, pairs, std::move(trial), alignment);
    if (fits(p)) {
      lean = std::move(p);
    } else {
      dropped[k] = false;
    }
  }
  return GrowRings(model, problem, pairs, alignment, fits, std::move(lean));
}

}  // namespace arenaplan::fuse
