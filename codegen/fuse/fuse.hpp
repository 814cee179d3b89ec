// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Fused row-streaming execution, planned (docs/fuse.md). A segment is a run
// of consecutive operators (execution order) of row-wise kinds (CONV_2D,
// DEPTHWISE_CONV_2D, AVERAGE_POOL_2D, MAX_POOL_2D, ADD without broadcast;
// in float32 also RELU and PAD of W and C)
// executed together one output row at a time by the row schedule of
// kernels/include/arenaplan/kernels/row_schedule.hpp. Every tensor made and
// read only inside a segment becomes a ring of the rows its consumers still
// need; the segment's inputs and its output stay whole tensors, and the
// output may start a computed distance below an input that dies in the
// segment (an allowed overlap pair, as codegen/overlap/ gives for single
// operators), so the validator and core/'s checks cover it unchanged.
//
// The fused problem compresses each segment into one step: a record alive
// at a segment's step is alive while any of its operators runs. Rings are
// records alive for their segment's step only.
#ifndef ARENAPLAN_CODEGEN_FUSE_FUSE_HPP_
#define ARENAPLAN_CODEGEN_FUSE_FUSE_HPP_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "arenaplan/kernels/row_schedule.hpp"
#include "codegen/base/alignment.hpp"
#include "codegen/records.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan::fuse {

/// One model operator as a row operator (kernels::RowOp) with the tensors
/// and row sizes it streams.
struct FusableOp {
  kernels::RowOp row;
  /// Tensor indices of the streamed inputs (row.input_count of them) and
  /// of the output.
  std::int32_t input_tensor[kernels::kMaxRowOpInputs] = {-1, -1};
  std::int32_t output_tensor = -1;
  /// Bytes of one row (W x C elements: 1 byte each for int8, 4 for
  /// float32) of each input and of the output.
  std::uint64_t in_row_bytes[kernels::kMaxRowOpInputs] = {0, 0};
  std::uint64_t out_row_bytes = 0;
  /// Bytes of one element of its activations: 1 (int8) or 4 (float32).
  std::uint64_t elem_bytes = 1;
  /// Accumulating pools: bytes of their running state (one int32 per
  /// output element); 0 otherwise.
  std::uint64_t state_bytes = 0;
  /// CONV_2D / DEPTHWISE_CONV_2D with a filter one row high, stride 1 and
  /// no top padding: the distance (bytes) its kernel's output row may start
  /// below its input row when both are one row (conv.hpp's contract on
  /// shapes [1, 1, W, C]); -1 otherwise.
  std::int64_t row_distance = -1;
};

/// Two rings of one segment that may share bytes (docs/fuse.md, "A ring
/// over the ring it reads"): operator `reader` reads the one-row ring of
/// operator `source` (its only reader) and writes its own one-row ring,
/// whose record may start `distance` or more bytes below the source's.
struct RingPair {
  std::uint32_t source = 0;    ///< Segment index of the operator read.
  std::uint32_t reader = 0;    ///< Segment index of the operator writing.
  std::uint64_t distance = 0;  ///< Record to record, unaligned.
};

/// The row operator of model operator `op` of subgraph 0, or nullopt when
/// it is not of a kind the schedule runs (see the header comment; the
/// float32 kinds: docs/fuse.md, "float32 segments"): int8
/// activations of shape [1, H, W, C], the geometry tflite::CheckConv /
/// CheckPool accept, a constant int8 filter, pools with equal quantization
/// in and out, ADD of two equal shapes.
[[nodiscard]] std::optional<FusableOp> RowOpOf(const tflite::Model& model,
                                               std::size_t op);

/// A fused segment: model operators [first_op, last_op] (both included,
/// at least two), run by the row schedule.
struct Segment {
  std::uint32_t first_op = 0;
  std::uint32_t last_op = 0;
  std::vector<FusableOp> ops;  ///< ops[i] is model operator first_op + i.
  /// Segment inputs: tensor indices, input k is RowOp input -1 - k.
  std::vector<std::int32_t> input_tensors;
  std::int32_t output_tensor = -1;
  /// Per operator: rows its ring holds at most (0 for the last operator,
  /// whose output is the segment's output) and the ring's bytes (rows x
  /// row bytes, plus the running state of an accumulating pool), unaligned.
  std::vector<std::uint32_t> ring_rows;
  std::vector<std::uint64_t> ring_bytes;
  /// Per segment input: the smallest distance (bytes) the output may start
  /// below it, so that no output row is written over an input row still to
  /// be read (see docs/fuse.md); nullopt when the input outlives the
  /// segment (no overlap allowed).
  std::vector<std::optional<std::uint64_t>> input_distance;
  /// Rings that may overlap (RingPair), in reader order.
  std::vector<RingPair> ring_pairs;
  /// Operator calls (rows computed and rows accumulated) of one run.
  std::uint64_t calls = 0;
  /// Rows moved down by ring drops in one run (the executor's copies).
  std::uint64_t rows_moved = 0;
};

/// Runs the row schedule of model operators [first_op, last_op] and sizes
/// the segment, or nullopt when the range cannot be fused: fewer than two
/// operators, more than kernels::kMaxSegmentOps, an operator RowOpOf
/// refuses, or a tensor made inside (not by the last operator) that is a
/// graph output or read outside the range.
[[nodiscard]] std::optional<Segment> MakeSegment(const tflite::Model& model,
                                                 std::uint32_t first_op,
                                                 std::uint32_t last_op);

/// The chosen segmentation and the fused problem it gives.
struct FusePlan {
  /// Fused segments, in execution order.
  std::vector<Segment> segments;
  /// Step s covers model operators [step_first_op[s], step_last_op[s]].
  std::vector<std::uint32_t> step_first_op;
  std::vector<std::uint32_t> step_last_op;
  /// Index into `segments` of every step, or -1 for a single operator.
  std::vector<std::int32_t> step_segment;
  /// Records over steps (unaligned sizes; rings are records "ring<K>"; the
  /// operators of a segment share its largest scratch record, the others
  /// are dropped),
  /// with the allowed-overlap list: the single operators' pairs
  /// (FindOverlapPairs) and each segment's output-over-input pairs.
  UsageProblem problem;
  /// Per segment, per operator: the record index of its ring (-1 for the
  /// last operator).
  std::vector<std::vector<std::int32_t>> ring_record;
  /// The fused lower bound (bytes, at `alignment`): the smallest, over
  /// every segmentation into runs MakeSegment accepts, of the largest step
  /// bound (a step's live bytes less the overlap its pairs allow, or its
  /// largest record). The chosen segmentation reaches it.
  std::uint64_t lower_bound = 0;
  /// The step of the chosen segmentation where `lower_bound` is reached.
  std::uint32_t lower_bound_step = 0;
};

/// How PlanFusion breaks ties between segmentations of the same largest
/// step bound.
enum class FusionTies {
  /// The smaller sum of step bounds, then fewer fused operators (smaller
  /// steps everywhere leave the planner more room).
  kSmallestSum,
  /// Fewer fused operators, then the smaller sum (fused execution costs
  /// instructions: per-row calls and ring drops).
  kFewestFused,
};

/// Chooses the segmentation of subgraph 0 by a dynamic programme over
/// segment boundaries (docs/fuse.md) minimising the largest step bound at
/// `alignment`, ties broken by `ties`. `problem` is
/// tflite::BuildProblem(model, ...) and `pairs` its FindOverlapPairs.
[[nodiscard]] FusePlan PlanFusion(const tflite::Model& model,
                                  const tflite::TfliteProblem& problem,
                                  const std::vector<OverlapPair>& pairs,
                                  Alignment alignment,
                                  FusionTies ties = FusionTies::kSmallestSum);

/// The arena bytes the caller's planner gives a fused problem (fuse/ does
/// not include planner/).
using ArenaOf = std::function<std::uint64_t(const UsageProblem&)>;

/// The segmentation `--fuse` runs: PlanFusion's (kSmallestSum), less the
/// segments the arena does not need, since a fused segment takes more
/// instructions than its operators run one by one. Let A be `arena_of`
/// PlanFusion's problem. Taken, in this order: the kFewestFused
/// segmentation when its arena is at most A; else PlanFusion's with each
/// segment (most operators first) run operator by operator instead
/// whenever the arena stays at most A. Every candidate keeps the fused
/// lower bound as its largest step bound (`lower_bound` is reached as
/// before). Then rings get rows to spare where that still holds and the
/// executor moves fewer bytes (lean_fusion.cpp GrowRings). Not optimal:
/// segments are only dropped whole, not shortened.
[[nodiscard]] FusePlan PlanLeanFusion(const tflite::Model& model,
                                      const tflite::TfliteProblem& problem,
                                      const std::vector<OverlapPair>& pairs,
                                      Alignment alignment,
                                      const ArenaOf& arena_of);

/// The fused problem of `segments` (MakeSegment's, in execution order, not
/// overlapping; every other operator is a step of its own);
/// `lower_bound` is this segmentation's largest step bound. Throws
/// InternalError for overlapping or unordered segments.
[[nodiscard]] FusePlan ApplySegments(const tflite::Model& model,
                                     const tflite::TfliteProblem& problem,
                                     const std::vector<OverlapPair>& pairs,
                                     std::vector<Segment> segments,
                                     Alignment alignment);

/// The bound of one step: the records alive there (aligned sizes), less
/// the bytes the pairs at that step may share (records.hpp's
/// OverlapLowerBound on the step alone).
[[nodiscard]] std::uint64_t StepBound(const UsageProblem& problem,
                                      std::uint32_t step, Alignment alignment);

/// `"fused_segments":[...],"fused_lower_bound":{...}` for `plan --json`
/// (no braces around them).
[[nodiscard]] std::string FusedJsonFields(const FusePlan& plan,
                                          const tflite::Model& model,
                                          Alignment alignment);

/// Lines for `plan --fuse` without --json, each ending in '\n'.
[[nodiscard]] std::string FusedSummary(const FusePlan& plan,
                                       const tflite::Model& model,
                                       Alignment alignment);

}  // namespace arenaplan::fuse

#endif  // ARENAPLAN_CODEGEN_FUSE_FUSE_HPP_
