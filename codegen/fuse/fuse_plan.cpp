// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
// Choosing and applying segments: the dynamic programme over segment
// boundaries (PlanFusion, each candidate step's bound), the fused problem's
// steps, records, rings and pairs (ApplySegments), and the report fields.
// Segments themselves are built in fuse.cpp.
#include <algorithm>
#include <sstream>

#include "codegen/base/errors.hpp"
#include "codegen/fuse/fuse.hpp"

namespace arenaplan::fuse {
namespace {

std::uint64_t RoundUp(std::uint64_t x, Alignment a) {
  const std::uint64_t m = a.bytes();
  return (x + m - 1) / m * m;
}

/// The pairs of operator `op` whose two records are both in the step
/// (local[r] >= 0), renumbered by `local`, distances rounded up to
/// `alignment`.
std::vector<OverlapPair> LocalPairs(const std::vector<OverlapPair>& pairs,
                                    std::uint32_t op,
                                    const std::vector<std::int64_t>& local,
                                    Alignment alignment) {
  std::vector<OverlapPair> out;
  for (const OverlapPair& q : pairs) {
    if (q.op != op || local[q.input] < 0 || local[q.output] < 0) continue;
    OverlapPair c = q;
    c.input = static_cast<std::uint32_t>(local[q.input]);
    c.output = static_cast<std::uint32_t>(local[q.output]);
    c.distance = RoundUp(q.distance, alignment);
    out.push_back(c);
  }
  return out;
}

/// A one-step problem of `sizes` (aligned) with `pairs` (aligned distances;
/// op 0) and its bound (OverlapLowerBound).
std::uint64_t BoundOf(const std::vector<std::uint64_t>& sizes,
                      std::vector<OverlapPair> pairs) {
  std::vector<TensorUsageRecord> records;
  records.reserve(sizes.size());
  for (std::uint64_t s : sizes) records.push_back({0, 0, s});
  for (OverlapPair& p : pairs) p.op = 0;
  const ProfileSummary summary = SummarizeProfiles(records);
  return OverlapLowerBound(records, pairs, summary);
}

/// Record index of every tensor of subgraph 0 (-1: not planned).
std::vector<std::int64_t> RecordOfTensor(const tflite::TfliteProblem& p) {
  std::vector<std::int64_t> r(p.tensors.size(), -1);
  for (std::size_t i = 0; i < p.record_tensor.size(); ++i) {
    const std::int32_t t = p.record_tensor[i];
    if (t >= 0 && static_cast<std::size_t>(t) < r.size()) {
      r[static_cast<std::size_t>(t)] = static_cast<std::int64_t>(i);
    }
  }
  return r;
}

/// A segment's records: whether its pairs are allowed (per input), and the
/// record of every input/output; sets input_distance to nullopt for an
/// input that outlives the segment or whose bytes hold a graph output
/// under any name (tflite::HoldsGraphOutput).
void SettleInputs(Segment& s, const tflite::Model& model,
                  const tflite::TfliteProblem& p,
                  const std::vector<std::int64_t>& record_of) {
  const tflite::Subgraph& sg = model.subgraphs[0];
  for (std::size_t k = 0; k < s.input_tensors.size(); ++k) {
    const std::int32_t t = s.input_tensors[k];
    const std::int64_t r = record_of[static_cast<std::size_t>(t)];
    if (r < 0 || tflite::HoldsGraphOutput(sg, t) ||
        p.problem.records[static_cast<std::size_t>(r)].last_op > s.last_op) {
      s.input_distance[k].reset();
    }
  }
}

/// Marks in `inner` the scratch records (record_tensor -1, e.g. a kernel's
/// scratch, codegen/scratch/) alive only within segment `s` but one of the
/// largest (the first of equal sizes): the segment's row calls run one at
/// a time and keep nothing in a scratch between calls, so its operators
/// share that one record (compile addresses each one's scratch there).
void ShareSegmentScratch(const Segment& s, const tflite::TfliteProblem& p,
                         std::vector<bool>& inner) {
  const auto& recs = p.problem.records;
  std::size_t kept = recs.size();
  for (std::size_t r = 0; r < recs.size() && r < p.record_tensor.size(); ++r) {
    if (p.record_tensor[r] >= 0 || recs[r].first_op < s.first_op ||
        recs[r].last_op > s.last_op) {
      continue;
    }
    if (kept == recs.size() || recs[r].size > recs[kept].size) {
      if (kept != recs.size()) inner[kept] = true;
      kept = r;
    } else {
      inner[r] = true;
    }
  }
}

/// The bound of segment `s` (or of operator `op` alone when s is null)
/// over the original records at `alignment`.
std::uint64_t CandidateBound(const tflite::TfliteProblem& p,
                             const std::vector<OverlapPair>& pairs,
                             const std::vector<std::int64_t>& record_of,
                             const Segment* s, std::uint32_t op,
                             Alignment alignment) {
  const auto& recs = p.problem.records;
  const std::uint32_t a = s ? s->first_op : op, b = s ? s->last_op : op;
  std::vector<std::int64_t> local(recs.size(), -1);
  std::vector<bool> inner(recs.size(), false);
  if (s != nullptr) {
    for (std::size_t i = 0; i + 1 < s->ops.size(); ++i) {
      const std::int64_t r =
          record_of[static_cast<std::size_t>(s->ops[i].output_tensor)];
      if (r >= 0) inner[static_cast<std::size_t>(r)] = true;
    }
    ShareSegmentScratch(*s, p, inner);
  }
  std::vector<std::uint64_t> sizes;
  for (std::size_t i = 0; i < recs.size(); ++i) {
    if (inner[i] || recs[i].first_op > b || recs[i].last_op < a) continue;
    local[i] = static_cast<std::int64_t>(sizes.size());
    sizes.push_back(RoundUp(recs[i].size, alignment));
  }
  std::vector<OverlapPair> step_pairs;
  if (s == nullptr) {
    step_pairs = LocalPairs(pairs, op, local, alignment);
  } else {
    std::vector<std::int64_t> ring_local(s->ring_bytes.size(), -1);
    for (std::size_t i = 0; i < s->ring_bytes.size(); ++i) {
      if (s->ring_bytes[i] == 0) continue;
      ring_local[i] = static_cast<std::int64_t>(sizes.size());
      sizes.push_back(RoundUp(s->ring_bytes[i], alignment));
    }
    for (const RingPair& q : s->ring_pairs) {
      step_pairs.push_back({static_cast<std::uint32_t>(ring_local[q.source]),
                            static_cast<std::uint32_t>(ring_local[q.reader]), 0,
                            OverlapRelation::kOutputBelowBy,
                            RoundUp(q.distance, alignment)});
    }
    const std::int64_t y = local[static_cast<std::size_t>(
        record_of[static_cast<std::size_t>(s->output_tensor)])];
    for (std::size_t k = 0; k < s->input_tensors.size(); ++k) {
      if (!s->input_distance[k] || y < 0) continue;
      const std::int64_t r =
          record_of[static_cast<std::size_t>(s->input_tensors[k])];
      if (r < 0 || local[static_cast<std::size_t>(r)] < 0) continue;
      const std::uint64_t d = RoundUp(*s->input_distance[k], alignment);
      if (d >= sizes[static_cast<std::size_t>(y)]) continue;
      step_pairs.push_back(
          {static_cast<std::uint32_t>(local[static_cast<std::size_t>(r)]),
           static_cast<std::uint32_t>(y), 0, OverlapRelation::kOutputBelowBy,
           d});
    }
  }
  return BoundOf(sizes, std::move(step_pairs));
}

}  // namespace

std::uint64_t StepBound(const UsageProblem& problem, std::uint32_t step,
                        Alignment alignment) {
  std::vector<std::int64_t> local(problem.records.size(), -1);
  std::vector<std::uint64_t> sizes;
  for (std::size_t i = 0; i < problem.records.size(); ++i) {
    const TensorUsageRecord& r = problem.records[i];
    if (r.first_op > step || r.last_op < step) continue;
    local[i] = static_cast<std::int64_t>(sizes.size());
    sizes.push_back(RoundUp(r.size, alignment));
  }
  return BoundOf(sizes, LocalPairs(problem.overlaps, step, local, alignment));
}

FusePlan PlanFusion(const tflite::Model& model,
                    const tflite::TfliteProblem& problem,
                    const std::vector<OverlapPair>& pairs, Alignment alignment,
                    FusionTies ties) {
  const std::uint32_t n = problem.problem.operator_count;
  const std::vector<std::int64_t> record_of = RecordOfTensor(problem);
  // best[b] = (largest step bound, sum of step bounds, fused operators) of
  // the best segmentation of operators [0, b); from[b]: where its last step
  // starts. The largest bound decides; `ties` orders the other two.
  struct Cost {
    std::uint64_t max = 0;
    std::uint64_t sum = 0;
    std::uint64_t fused = 0;
  };
  const auto less = [ties](const Cost& x, const Cost& y) {
    if (x.max != y.max) return x.max < y.max;
    if (ties == FusionTies::kFewestFused && x.fused != y.fused) {
      return x.fused < y.fused;
    }
    if (x.sum != y.sum) return x.sum < y.sum;
    return x.fused < y.fused;
  };
  std::vector<Cost> best(n + 1);
  std::vector<std::uint32_t> from(n + 1, 0);
  std::vector<std::optional<Segment>> chosen(n + 1);
  for (std::uint32_t b = 1; b <= n; ++b) {
    const std::uint32_t last = b - 1;
    // A single operator.
    const std::uint64_t single =
        CandidateBound(problem, pairs, record_of, nullptr, last, alignment);
    Cost c{std::max(best[last].max, single), best[last].sum + single,
           best[last].fused};
    best[b] = c;
    from[b] = last;
    chosen[b].reset();
    const std::uint32_t lowest =
        last + 1 >= static_cast<std::uint32_t>(kernels::kMaxSegmentOps)
            ? last + 1 - static_cast<std::uint32_t>(kernels::kMaxSegmentOps)
            : 0;
    for (std::uint32_t a = last; a-- > lowest;) {
      auto s = MakeSegment(model, a, last);
      if (!s) continue;
      SettleInputs(*s, model, problem, record_of);
      const std::uint64_t bound =
          CandidateBound(problem, pairs, record_of, &*s, 0, alignment);
      const Cost cand{std::max(best[a].max, bound), best[a].sum + bound,
                      best[a].fused + (last - a + 1)};
      if (less(cand, best[b])) {
        best[b] = cand;
        from[b] = a;
        chosen[b] = std::move(s);
      }
    }
  }
  // The steps, first to last.
  std::vector<Segment> segments;
  for (std::uint32_t b = n; b > 0; b = from[b]) {
    if (chosen[b]) segments.push_back(std::move(*chosen[b]));
  }
  std::reverse(segments.begin(), segments.end());
  FusePlan plan =
      ApplySegments(model, problem, pairs, std::move(segments), alignment);
  // The chosen segmentation's largest step bound is the DP's value.
  if (plan.lower_bound != best[n].max) {
    throw InternalError(
        "fuse: the segmentation's bound " + std::to_string(plan.lower_bound) +
        " differs from the programme's " + std::to_string(best[n].max));
  }
  return plan;
}

namespace {

/// Fills the plan's steps from `segments` (in operator order, not
/// overlapping): one step per segment and per operator outside them.
/// Returns the step of every operator.
std::vector<std::uint32_t> ApplySteps(
    FusePlan& plan, const tflite::Model& model,
    const tflite::TfliteProblem& problem,
    const std::vector<std::int64_t>& record_of, std::vector<Segment> segments) {
  const std::uint32_t n = problem.problem.operator_count;
  std::vector<std::uint32_t> starts;
  std::vector<std::optional<Segment>> segs;
  {
    std::uint32_t k = 0;
    std::size_t next = 0;
    while (k < n) {
      if (next < segments.size() && segments[next].first_op == k) {
        SettleInputs(segments[next], model, problem, record_of);
        starts.push_back(k);
        k = segments[next].last_op + 1;
        segs.push_back(std::move(segments[next++]));
      } else {
        starts.push_back(k++);
        segs.emplace_back();
      }
    }
    if (next != segments.size()) {
      throw InternalError("fuse: segments overlap or are out of order");
    }
  }
  std::vector<std::uint32_t> step_of(n, 0);
  for (std::size_t s = 0; s < starts.size(); ++s) {
    const std::uint32_t a = starts[s];
    const std::uint32_t e = s + 1 < starts.size() ? starts[s + 1] - 1 : n - 1;
    plan.step_first_op.push_back(a);
    plan.step_last_op.push_back(e);
    for (std::uint32_t k = a; k <= e; ++k) {
      step_of[k] = static_cast<std::uint32_t>(s);
    }
    if (segs[s]) {
      plan.step_segment.push_back(
          static_cast<std::int32_t>(plan.segments.size()));
      plan.segments.push_back(std::move(*segs[s]));
    } else {
      plan.step_segment.push_back(-1);
    }
  }
  return step_of;
}

/// The fused problem's steps and records over steps (every original record
/// but the segments' inner tensors and the scratch records their operators
/// share, ShareSegmentScratch), and the pairs of single operators.
/// Returns the new index of every original record (-1: inner).
std::vector<std::int64_t> ApplyRecords(
    FusePlan& plan, const tflite::TfliteProblem& original,
    const std::vector<OverlapPair>& pairs,
    const std::vector<std::int64_t>& record_of,
    const std::vector<std::uint32_t>& step_of) {
  const UsageProblem& in = original.problem;
  std::vector<bool> inner(in.records.size(), false);
  for (const Segment& s : plan.segments) {
    for (std::size_t i = 0; i + 1 < s.ops.size(); ++i) {
      const std::int64_t r =
          record_of[static_cast<std::size_t>(s.ops[i].output_tensor)];
      if (r >= 0) inner[static_cast<std::size_t>(r)] = true;
    }
    ShareSegmentScratch(s, original, inner);
  }
  UsageProblem& out = plan.problem;
  out.operator_count = static_cast<std::uint32_t>(plan.step_first_op.size());
  out.default_alignment = in.default_alignment;
  out.persistent_bytes = in.persistent_bytes;
  out.source = in.source;
  out.warnings = in.warnings;
  for (std::size_t s = 0; s < plan.step_first_op.size(); ++s) {
    if (plan.step_segment[s] < 0) {
      const std::uint32_t k = plan.step_first_op[s];
      out.operator_names.push_back(
          k < in.operator_names.size() ? in.operator_names[k] : "");
    } else {
      out.operator_names.push_back("FUSED_" +
                                   std::to_string(plan.step_first_op[s]) + "_" +
                                   std::to_string(plan.step_last_op[s]));
    }
  }
  std::vector<std::int64_t> new_index(in.records.size(), -1);
  for (std::size_t i = 0; i < in.records.size(); ++i) {
    if (inner[i]) continue;
    new_index[i] = static_cast<std::int64_t>(out.records.size());
    const TensorUsageRecord& r = in.records[i];
    out.records.push_back({step_of[r.first_op], step_of[r.last_op], r.size});
    out.ids.push_back(i < in.ids.size() ? in.ids[i] : std::to_string(i));
    out.names.push_back(i < in.names.size() ? in.names[i] : "");
    if (i < in.traffic.size()) out.traffic.push_back(in.traffic[i]);
  }
  if (out.traffic.size() != out.records.size()) out.traffic.clear();
  // Single operators keep their pairs.
  for (const OverlapPair& q : pairs) {
    const std::uint32_t s = step_of[q.op];
    if (plan.step_segment[s] >= 0 || new_index[q.input] < 0 ||
        new_index[q.output] < 0) {
      continue;
    }
    out.overlaps.push_back({static_cast<std::uint32_t>(new_index[q.input]),
                            static_cast<std::uint32_t>(new_index[q.output]), s,
                            q.relation, q.distance});
  }
  return new_index;
}

/// Adds the rings of the segment at step `s` as records (ids from
/// `ring_id` on), its ring pairs, and its inputs' pairs with its output.
void ApplySegmentRings(FusePlan& plan, std::size_t s,
                       const std::vector<std::int64_t>& record_of,
                       const std::vector<std::int64_t>& new_index,
                       int& ring_id) {
  UsageProblem& out = plan.problem;
  Segment& seg = plan.segments[static_cast<std::size_t>(plan.step_segment[s])];
  // Ring records in operator order, except that the source of a ring
  // pair comes right after its reader: the heuristics take equal sizes in
  // record order in one of their orders, and placing the reader first
  // lets the source go its distance above it.
  std::vector<std::int32_t> rings(seg.ops.size(), -1);
  std::vector<std::int32_t> source_of(seg.ops.size(), -1);
  std::vector<bool> is_source(seg.ops.size(), false);
  for (const RingPair& q : seg.ring_pairs) {
    source_of[q.reader] = static_cast<std::int32_t>(q.source);
    is_source[q.source] = true;
  }
  auto add_ring = [&](std::size_t i) {
    rings[i] = static_cast<std::int32_t>(out.records.size());
    out.records.push_back({static_cast<std::uint32_t>(s),
                           static_cast<std::uint32_t>(s), seg.ring_bytes[i]});
    out.ids.push_back("ring" + std::to_string(ring_id++));
    const bool last = i + 1 == seg.ops.size();
    out.names.push_back((last ? std::string("state of operator ")
                              : "ring of tensor " +
                                    std::to_string(seg.ops[i].output_tensor) +
                                    " (" + std::to_string(seg.ring_rows[i]) +
                                    " rows), operator ") +
                        std::to_string(seg.first_op + i));
    if (!out.traffic.empty()) out.traffic.push_back(0);
  };
  for (std::size_t i = 0; i < seg.ops.size(); ++i) {
    if (seg.ring_bytes[i] == 0 || is_source[i]) continue;
    for (std::int32_t k = static_cast<std::int32_t>(i); k >= 0;
         k = source_of[static_cast<std::size_t>(k)]) {
      add_ring(static_cast<std::size_t>(k));
    }
  }
  plan.ring_record.push_back(rings);
  for (const RingPair& q : seg.ring_pairs) {
    out.overlaps.push_back({static_cast<std::uint32_t>(rings[q.source]),
                            static_cast<std::uint32_t>(rings[q.reader]),
                            static_cast<std::uint32_t>(s),
                            OverlapRelation::kOutputBelowBy, q.distance});
  }
  const std::int64_t y = new_index[static_cast<std::size_t>(
      record_of[static_cast<std::size_t>(seg.output_tensor)])];
  for (std::size_t k = 0; k < seg.input_tensors.size(); ++k) {
    if (!seg.input_distance[k] || y < 0) continue;
    const std::int64_t r =
        record_of[static_cast<std::size_t>(seg.input_tensors[k])];
    if (r < 0 || new_index[static_cast<std::size_t>(r)] < 0) continue;
    if (*seg.input_distance[k] >= out.records[static_cast<std::size_t>(y)].size)
      continue;  // Disjoint anyway.
    out.overlaps.push_back(
        {static_cast<std::uint32_t>(new_index[static_cast<std::size_t>(r)]),
         static_cast<std::uint32_t>(y), static_cast<std::uint32_t>(s),
         OverlapRelation::kOutputBelowBy, *seg.input_distance[k]});
  }
}

}  // namespace

FusePlan ApplySegments(const tflite::Model& model,
                       const tflite::TfliteProblem& problem,
                       const std::vector<OverlapPair>& pairs,
                       std::vector<Segment> segments, Alignment alignment) {
  const std::vector<std::int64_t> record_of = RecordOfTensor(problem);
  FusePlan plan;
  const std::vector<std::uint32_t> step_of =
      ApplySteps(plan, model, problem, record_of, std::move(segments));
  const std::vector<std::int64_t> new_index =
      ApplyRecords(plan, problem, pairs, record_of, step_of);
  // Rings and the segments' pairs.
  int ring_id = 0;
  for (std::size_t s = 0; s < plan.step_first_op.size(); ++s) {
    if (plan.step_segment[s] < 0) continue;
    ApplySegmentRings(plan, s, record_of, new_index, ring_id);
  }
  // The bound and where it is reached.
  plan.lower_bound = 0;
  const UsageProblem& out = plan.problem;
  for (std::uint32_t s = 0; s < out.operator_count; ++s) {
    const std::uint64_t bound = StepBound(out, s, alignment);
    if (bound > plan.lower_bound) {
      plan.lower_bound = bound;
      plan.lower_bound_step = s;
    }
  }
  return plan;
}

namespace {

std::string OpNames(const Segment& s, const tflite::Model& model) {
  std::string out;
  const auto& ops = model.subgraphs[0].operators;
  for (std::uint32_t k = s.first_op; k <= s.last_op; ++k) {
    out += (k == s.first_op ? "" : ",");
    out += "\"" + ops[k].builtin_name + "\"";
  }
  return out;
}

}  // namespace

std::string FusedJsonFields(const FusePlan& plan, const tflite::Model& model,
                            Alignment alignment) {
  std::ostringstream out;
  out << "\"fused_segments\":[";
  for (std::size_t i = 0; i < plan.segments.size(); ++i) {
    const Segment& s = plan.segments[i];
    std::uint64_t ring_total = 0;
    for (std::uint64_t b : s.ring_bytes) ring_total += RoundUp(b, alignment);
    std::uint32_t step = 0;
    while (plan.step_segment[step] != static_cast<std::int32_t>(i)) ++step;
    out << (i ? "," : "") << "{\"step\":" << step
        << ",\"first_op\":" << s.first_op << ",\"last_op\":" << s.last_op
        << ",\"operators\":[" << OpNames(s, model)
        << "],\"rows_per_band\":1,\"ring_bytes\":" << ring_total
        << ",\"rings\":[";
    bool first = true;
    for (std::size_t k = 0; k < s.ops.size(); ++k) {
      if (s.ring_bytes[k] == 0) continue;
      out << (first ? "" : ",") << "{\"op\":" << s.first_op + k
          << ",\"tensor\":" << s.ops[k].output_tensor
          << ",\"rows\":" << s.ring_rows[k]
          << ",\"row_bytes\":" << s.ops[k].out_row_bytes
          << ",\"state_bytes\":" << s.ops[k].state_bytes
          << ",\"bytes\":" << RoundUp(s.ring_bytes[k], alignment) << '}';
      first = false;
    }
    out << "],\"output_tensor\":" << s.output_tensor << ",\"inputs\":[";
    for (std::size_t k = 0; k < s.input_tensors.size(); ++k) {
      out << (k ? "," : "") << "{\"tensor\":" << s.input_tensors[k]
          << ",\"output_below_by\":";
      if (s.input_distance[k]) {
        out << *s.input_distance[k];
      } else {
        out << "null";
      }
      out << '}';
    }
    out << "],\"calls\":" << s.calls << ",\"rows_moved\":" << s.rows_moved
        << '}';
  }
  const std::uint32_t st = plan.lower_bound_step;
  out << "],\"fused_lower_bound\":{\"bytes\":" << plan.lower_bound;
  if (st < plan.step_first_op.size()) {
    out << ",\"step\":" << st << ",\"first_op\":" << plan.step_first_op[st]
        << ",\"last_op\":" << plan.step_last_op[st];
  }
  out << ",\"argument\":\"every segmentation of the operators into fused "
         "runs has a step whose live records, less the bytes its allowed "
         "overlaps may share, or whose largest record, need at least this "
         "many bytes (dynamic programme over segment boundaries; reached at "
         "this step of the chosen segmentation)\"}";
  return out.str();
}

std::string FusedSummary(const FusePlan& plan, const tflite::Model& model,
                         Alignment alignment) {
  std::ostringstream out;
  for (const Segment& s : plan.segments) {
    std::uint64_t ring_total = 0;
    for (std::uint64_t b : s.ring_bytes) ring_total += RoundUp(b, alignment);
    out << "fused:       operators " << s.first_op << ".." << s.last_op << " ("
        << s.ops.size() << "), rings " << ring_total << " bytes, " << s.calls
        << " calls\n";
  }
  const std::uint32_t st = plan.lower_bound_step;
  out << "fused bound: " << plan.lower_bound << " bytes for any segmentation";
  if (st < plan.step_first_op.size()) {
    out << " (reached at operators " << plan.step_first_op[st] << ".."
        << plan.step_last_op[st] << ")";
  }
  out << "\n";
  (void)model;
  return out.str();
}

}  // namespace arenaplan::fuse
