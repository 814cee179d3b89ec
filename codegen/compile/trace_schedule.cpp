// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/compile/trace_schedule.hpp"

#include <algorithm>
#include <string>

#include "arenaplan/kernels/row_schedule.hpp"
#include "codegen/emit/cpp_text.hpp"

namespace arenaplan::compile {
namespace {

using trace::Access;
using trace::Range;

class ScheduleBuilder {
 public:
  explicit ScheduleBuilder(const ScheduleInputs& in)
      : in_(in), sg_(in.model->subgraphs.at(0)) {
    const std::size_t n = in.plan->problem.records.size();
    record_of_.assign(sg_.tensors.size(), -1);
    for (std::size_t r = 0; r < in.record_tensor->size(); ++r) {
      const std::int32_t t = (*in.record_tensor)[r];
      if (t >= 0 && static_cast<std::size_t>(t) < record_of_.size()) {
        record_of_[static_cast<std::size_t>(t)] = static_cast<std::int64_t>(r);
      }
    }
    for (std::size_t r = 0; r < n; ++r) {
      trace::Buffer b;
      const std::int32_t t =
          r < in.record_tensor->size() ? (*in.record_tensor)[r] : -1;
      const UsageProblem& p = in.plan->problem;
      b.name =
          t >= 0 ? "tensor " + std::to_string(t) + " '" +
                       TerminalText(
                           sg_.tensors[static_cast<std::size_t>(t)].name) +
                       "'"
                 : "record " + std::to_string(r) + " '" +
                       TerminalText(r < p.names.size() && !p.names[r].empty()
                                        ? p.names[r]
                                        : (r < p.ids.size() ? p.ids[r] : "")) +
                       "'";
      b.size = p.records[r].size;
      if (in.regions != nullptr) {
        b.region = in.regions->region_of[r];
        b.offset = in.regions->offsets[r];
      } else {
        b.offset = in.plan->offsets[r];
      }
      s_.buffers.push_back(std::move(b));
    }
  }

  trace::Schedule Build() {
    for (std::int32_t t : sg_.inputs) {
      if (Planned(t)) s_.initial.push_back(RangeOf(t));
    }
    const auto& lowered = *in_.lowered;
    for (const LoweredAccesses& op : lowered) {
      if (op.position >= lowered_at_.size()) {
        lowered_at_.resize(op.position + 1, nullptr);
      }
      lowered_at_[op.position] = &op;
    }
    for (std::size_t i = 0; i < lowered.size(); ++i) {
      const LoweredAccesses& op = lowered[i];
      const std::int32_t g = SegmentOf(op.position);
      if (g < 0) {
        AddOperator(op);
        continue;
      }
      const fuse::Segment& seg =
          in_.fused->segments[static_cast<std::size_t>(g)];
      if (op.position == seg.first_op) {
        AddSegment(static_cast<std::size_t>(g), op.file_index);
      }
    }
    for (std::int32_t t : sg_.outputs) {
      if (Planned(t)) s_.final.push_back(RangeOf(t));
    }
    return std::move(s_);
  }

 private:
  [[nodiscard]] bool Planned(std::int32_t t) const {
    if (t < 0 || static_cast<std::size_t>(t) >= sg_.tensors.size()) {
      return false;
    }
    const std::int32_t home = sg_.tensors[static_cast<std::size_t>(t)].alias_of;
    return record_of_[static_cast<std::size_t>(home >= 0 ? home : t)] >= 0;
  }

  /// Tensor `t`'s bytes: its home record's (an alias at its offset).
  [[nodiscard]] Range RangeOf(std::int32_t t) const {
    const tflite::Tensor& x = sg_.tensors[static_cast<std::size_t>(t)];
    const std::int32_t home = x.alias_of >= 0 ? x.alias_of : t;
    Range r;
    r.tensor = t;
    r.buffer =
        static_cast<std::uint32_t>(record_of_[static_cast<std::size_t>(home)]);
    r.begin = x.alias_of >= 0 ? x.alias_offset : 0;
    r.end = r.begin + in_.problem->tensors[static_cast<std::size_t>(t)].bytes;
    return r;
  }

  /// The fused segment holding model operator `position`, or -1.
  [[nodiscard]] std::int32_t SegmentOf(std::size_t position) const {
    if (in_.fused == nullptr) return -1;
    const auto& segs = in_.fused->segments;
    for (std::size_t g = 0; g < segs.size(); ++g) {
      if (position >= segs[g].first_op && position <= segs[g].last_op) {
        return static_cast<std::int32_t>(g);
      }
    }
    return -1;
  }

  /// The index in `step` of the access of `kind` to tensor `t`, or npos.
  static std::size_t Find(const trace::Step& step, Access::Kind kind,
                          std::int32_t t) {
    for (std::size_t a = 0; a < step.accesses.size(); ++a) {
      if (step.accesses[a].kind == kind && step.accesses[a].range.tensor == t) {
        return a;
      }
    }
    return std::string::npos;
  }

  void AddOperator(const LoweredAccesses& op) {
    trace::Step step;
    step.op = op.file_index;
    step.name = op.name;
    for (std::int32_t t : op.reads) {
      step.accesses.push_back({Access::Kind::kRead, RangeOf(t)});
    }
    for (std::int32_t t : op.writes) {
      step.accesses.push_back({Access::Kind::kWrite, RangeOf(t)});
    }
    // The kernel's scratch: written by the call, sharing no byte with
    // its operands (no overlap is stated), then read back after it.
    const bool scratch = op.scratch_record >= 0;
    if (scratch) {
      step.accesses.push_back({Access::Kind::kWrite, ScratchRange(op)});
    }
    for (const LoweredAccesses::Overlap& o : op.overlaps) {
      const std::size_t w = Find(step, Access::Kind::kWrite, o.output);
      const std::size_t r = Find(step, Access::Kind::kRead, o.input);
      if (w == std::string::npos || r == std::string::npos) continue;
      step.overlaps.push_back({w, r, o.relation, o.distance});
    }
    s_.steps.push_back(std::move(step));
    if (scratch) {
      trace::Step back;
      back.op = op.file_index;
      back.name = op.name + ", its scratch read back";
      back.accesses.push_back({Access::Kind::kRead, ScratchRange(op)});
      s_.steps.push_back(std::move(back));
    }
  }

  /// The bytes of `op`'s kernel scratch record its call uses.
  static Range ScratchRange(const LoweredAccesses& op) {
    Range r;
    r.buffer = static_cast<std::uint32_t>(op.scratch_record);
    r.end = op.scratch_bytes;
    return r;
  }

  /// Bytes of one row (W x C elements of its type) of a [1, H, W, C]
  /// tensor (0 otherwise).
  [[nodiscard]] std::uint64_t RowBytes(std::int32_t t) const {
    const tflite::Tensor& tensor = sg_.tensors[static_cast<std::size_t>(t)];
    const auto& shape = tensor.shape;
    const auto elem = tflite::ElementSize(tensor.type);
    if (shape.size() != 4 || shape[2] <= 0 || shape[3] <= 0 || !elem) return 0;
    return static_cast<std::uint64_t>(shape[2]) *
           static_cast<std::uint64_t>(shape[3]) * *elem;
  }

  /// Rows [first, end) of tensor `t`.
  [[nodiscard]] Range Rows(std::int32_t t, std::int32_t first,
                           std::int32_t end) const {
    Range r = RangeOf(t);
    const std::uint64_t row = RowBytes(t), base = r.begin;
    r.begin = base + static_cast<std::uint64_t>(first) * row;
    r.end = base + static_cast<std::uint64_t>(end) * row;
    return r;
  }

  /// The row schedule's calls (kernels/row_schedule.hpp) as steps: each
  /// reads the rows of the segment inputs its window covers and, for the
  /// last operator, writes its output row; the rows of the rings between
  /// them are the segment's scratch (RingClaim, RingRelease).
  struct RowSink {
    ScheduleBuilder* b;
    const fuse::Segment* seg;
    const kernels::RowSchedule* rows;
    std::size_t file_first;

    void Drop(std::int32_t, std::int32_t) {}
    void Compute(std::int32_t i, std::int32_t j) {
      Call(i, j, rows->WindowFirst(i, j), rows->WindowEnd(i, j), true);
    }
    void Accumulate(std::int32_t i, std::int32_t y) {
      Call(i, 0, y, y + 1, false);
    }
    void Finish(std::int32_t i) { Call(i, 0, 0, 0, true); }

    /// Operator i reads rows [first, end) of its segment inputs and, when
    /// `writes` and it is the last operator, writes its output row j.
    void Call(std::int32_t i, std::int32_t j, std::int32_t first,
              std::int32_t end, bool writes) {
      const fuse::FusableOp& f = seg->ops[static_cast<std::size_t>(i)];
      const std::size_t position = seg->first_op + static_cast<std::size_t>(i);
      const LoweredAccesses* op =
          position < b->lowered_at_.size() ? b->lowered_at_[position] : nullptr;
      trace::Step step;
      step.op = op != nullptr ? op->file_index : file_first;
      step.name = (op != nullptr ? op->name : std::string("?")) +
                  ", fused, output row " + std::to_string(j);
      for (std::int32_t q = 0; q < f.row.input_count && first < end; ++q) {
        if (f.row.input[q] >= 0) continue;  // a ring: scratch
        const std::int32_t t = seg->input_tensors.at(
            static_cast<std::size_t>(-1 - f.row.input[q]));
        step.accesses.push_back({Access::Kind::kRead, b->Rows(t, first, end)});
      }
      if (writes && static_cast<std::size_t>(i) + 1 == seg->ops.size()) {
        step.accesses.push_back(
            {Access::Kind::kWrite, b->Rows(seg->output_tensor, j, j + 1)});
      }
      if (!step.accesses.empty()) b->s_.steps.push_back(std::move(step));
    }
  };

  /// The ring of every operator of segment g (plan records): one step
  /// writing them all before the segment's first row (a ring may share
  /// bytes only with the ring it reads, as its RingPair states), and one
  /// reading those in no pair after its last row (no output row was
  /// written over them): the step after the rows when `release`.
  void RingClaim(std::size_t g, std::size_t file_first, bool release) {
    const fuse::Segment& seg = in_.fused->segments[g];
    const std::vector<std::int32_t>& rings = in_.fused->ring_record.at(g);
    std::vector<bool> paired(rings.size(), false);
    for (const fuse::RingPair& p : seg.ring_pairs) {
      paired.at(p.reader) = paired.at(p.source) = true;
    }
    trace::Step step;
    step.op = file_first;
    step.name = release ? "rings of the fused segment, after its last row"
                        : "rings of the fused segment, before its first row";
    std::vector<std::size_t> access(rings.size(), std::string::npos);
    for (std::size_t i = 0; i < rings.size(); ++i) {
      if (rings[i] < 0 || (release && paired[i])) continue;
      Range r;
      r.buffer = static_cast<std::uint32_t>(rings[i]);
      r.end = seg.ring_bytes.at(i);
      access[i] = step.accesses.size();
      step.accesses.push_back(
          {release ? Access::Kind::kRead : Access::Kind::kWrite, r});
    }
    // The kernel scratch of the segment's operators (shared, fuse.hpp;
    // the row calls reuse it): claimed with the rings, read back after the
    // last row; each record once, its most bytes.
    std::vector<Range> scratch;
    for (std::size_t i = 0; i < seg.ops.size(); ++i) {
      const std::size_t position = seg.first_op + i;
      const LoweredAccesses* op =
          position < lowered_at_.size() ? lowered_at_[position] : nullptr;
      if (op == nullptr || op->scratch_record < 0) continue;
      const Range r = ScratchRange(*op);
      auto same =
          std::find_if(scratch.begin(), scratch.end(),
                       [&](const Range& x) { return x.buffer == r.buffer; });
      if (same == scratch.end()) {
        scratch.push_back(r);
      } else {
        same->end = std::max(same->end, r.end);
      }
    }
    for (const Range& r : scratch) {
      step.accesses.push_back(
          {release ? Access::Kind::kRead : Access::Kind::kWrite, r});
    }
    if (!release) {
      for (const fuse::RingPair& p : seg.ring_pairs) {
        step.overlaps.push_back({access.at(p.reader), access.at(p.source),
                                 OverlapRelation::kOutputBelowBy, p.distance});
      }
    }
    if (!step.accesses.empty()) s_.steps.push_back(std::move(step));
  }

  void AddSegment(std::size_t g, std::size_t file_first) {
    const fuse::Segment& seg = in_.fused->segments[g];
    RingClaim(g, file_first, false);
    std::vector<kernels::RowOp> rows;
    for (const fuse::FusableOp& f : seg.ops) rows.push_back(f.row);
    kernels::RowSchedule schedule(rows.data(),
                                  static_cast<std::int32_t>(rows.size()));
    RowSink sink{this, &seg, &schedule, file_first};
    schedule.Run(sink);
    RingClaim(g, file_first, true);
  }

  const ScheduleInputs& in_;
  const tflite::Subgraph& sg_;
  std::vector<std::int64_t> record_of_;  ///< Per tensor: its record, or -1.
  /// Per model operator position: its lowered accesses (null: folded).
  std::vector<const LoweredAccesses*> lowered_at_;
  trace::Schedule s_;
};

}  // namespace

trace::Schedule BuildSchedule(const ScheduleInputs& in) {
  return ScheduleBuilder(in).Build();
}

}  // namespace arenaplan::compile
