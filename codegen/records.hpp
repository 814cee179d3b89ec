// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Tensor usage records and the quantities the paper derives from them
// (Pisarchyk & Lee 2019, §3): operator profiles, operator breadth,
// positional maximums and the two theoretical lower bounds.
#ifndef ARENAPLAN_CODEGEN_RECORDS_HPP_
#define ARENAPLAN_CODEGEN_RECORDS_HPP_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "arenaplan/plan.hpp"  // OverlapRelation (shared with the firmware)
#include "codegen/base/alignment.hpp"

namespace arenaplan {

/// The paper's tensor usage record {first_op, last_op, size} (§3).
/// `first_op` and `last_op` are operator indices in execution order and BOTH
/// ENDS ARE INCLUDED. (The CSV format stores `lower` = first_op and
/// `upper` = last_op + 1, exclusive; the readers convert.)
/// `size` is in bytes, already rounded up to the plan's alignment.
struct TensorUsageRecord {
  std::uint32_t first_op = 0;
  std::uint32_t last_op = 0;
  std::uint64_t size = 0;

  /// True when the two inclusive usage intervals share an operator
  /// ("max_first_op <= min_last_op" in Algorithms 1-3).
  [[nodiscard]] constexpr bool Intersects(const TensorUsageRecord& o) const {
    return first_op <= o.last_op && o.first_op <= last_op;
  }
};

/// One entry of the usage records' allowed-overlap list: operator `op` reads
/// records[input] for the last time (records[input].last_op == op) and
/// creates records[output] (records[output].first_op == op), and its kernel
/// never overwrites an input byte before its last read when the two are
/// placed in `relation`. Any other overlap of the two is forbidden, as for
/// every other pair of records alive at a common operator.
struct OverlapPair {
  std::uint32_t input = 0;   ///< Index into UsageProblem::records.
  std::uint32_t output = 0;  ///< Index into UsageProblem::records.
  std::uint32_t op = 0;      ///< The operator (execution order).
  /// How the two may share bytes (core/include/arenaplan/plan.hpp).
  OverlapRelation relation = OverlapRelation::kOutputBelowBy;
  /// Bytes (kOutputBelowBy; 0 for kAlias). The reader gives the kernel's
  /// exact figure; the planner rounds it up to the plan's alignment when it
  /// rounds the sizes (a larger distance is always as safe).
  std::uint64_t distance = 0;
};

/// Records plus what identifies each one to a user. Owned by value; the
/// strategies only ever see `records`.
struct UsageProblem {
  std::vector<TensorUsageRecord> records;
  /// records[i]'s id as the input spelt it (CSV `id`, tensor index, ...).
  std::vector<std::string> ids;
  /// records[i]'s human name ("" when the input has none).
  std::vector<std::string> names;
  /// Number of operators in execution order (operator indices are
  /// 0 .. operator_count - 1). For CSV input: the largest `upper`.
  std::uint32_t operator_count = 0;
  /// Builtin operator names in execution order ("" when unknown, e.g. CSV).
  std::vector<std::string> operator_names;
  /// The alignment the input kind defaults to when --align is not given
  /// (1 byte for CSV and the paper's zoo, kModelAlignment for models).
  Alignment default_alignment;
  /// Bytes the model needs outside the plan (e.g. TFLite variable tensors).
  std::uint64_t persistent_bytes = 0;
  /// Where the problem came from (a path, or "zoo:NAME").
  std::string source;
  /// Things the reader assumed that the user should know, one line each
  /// ("SOURCE: ..."), for the CLI to print on stderr; the reader prints
  /// nothing. E.g. a model whose shape_signature has a dynamic dimension.
  std::vector<std::string> warnings;
  /// CSV input only: the columns beyond id,lower,upper,size (header names,
  /// `name` included) and every record's values for them, kept so that
  /// outputs can carry them along.
  std::vector<std::string> extra_columns;
  std::vector<std::vector<std::string>> extra_values;
  /// The allowed-overlap list (empty unless overlap was asked for and the
  /// reader knows the kernels, i.e. for models). Input and output indices
  /// refer to `records`.
  std::vector<OverlapPair> overlaps;
  /// Bytes every record's operators read and write (its exact bytes times
  /// the operator inputs and outputs that name it; a scratch buffer: twice
  /// its bytes), for planning across memory regions
  /// (codegen/regions/regions.hpp). Empty when the reader knows no graph (CSV,
  /// the paper's zoo).
  std::vector<std::uint64_t> traffic;
};

/// Time cut into segments: maximal runs of operators over which no record
/// starts or ends, so every operator of a segment has the same live records
/// (the same profile). The one definition of time compression shared by the
/// profile summary and the exact search.
struct TimeSegments {
  /// Ascending distinct values of every first_op and last_op + 1; segment s
  /// covers the operators [cuts[s], cuts[s + 1]) (end excluded).
  std::vector<std::uint64_t> cuts;
  /// Per record i (input order): its segments are [first[i], end[i])
  /// (end excluded; first[i] < end[i]).
  std::vector<std::uint32_t> first;
  std::vector<std::uint32_t> end;

  [[nodiscard]] std::size_t Count() const {
    return cuts.empty() ? 0 : cuts.size() - 1;
  }
};

/// Cuts the time of `records` into segments (see TimeSegments).
[[nodiscard]] TimeSegments CutIntoSegments(
    std::span<const TensorUsageRecord> records);

/// Operator profiles summarised (§3). Time is compressed to "segments":
/// maximal runs of operators whose profiles are identical (CutIntoSegments),
/// so instances whose
/// operator indices reach millions stay cheap. Segment s covers the inclusive
/// operator range [segment_first_op[s], segment_last_op[s]].
struct ProfileSummary {
  std::vector<std::uint32_t> segment_first_op;
  std::vector<std::uint32_t> segment_last_op;
  /// Operator breadth of every operator in segment s: the sum of the sizes of
  /// the records alive there, in bytes.
  std::vector<std::uint64_t> segment_breadth;
  /// Positional maximums, non-increasing: element i is the largest i-th
  /// largest size over all operator profiles (§3, Figure 2 (b)).
  std::vector<std::uint64_t> positional_maximums;
  /// Offset Calculation lower bound (§5.1): the maximum operator breadth.
  std::uint64_t offsets_lower_bound = 0;
  /// Shared Objects lower bound (§4.1): the sum of positional maximums.
  std::uint64_t shared_objects_lower_bound = 0;
  /// Na\"ive footprint: the sum of all sizes (every tensor its own buffer).
  std::uint64_t naive_bytes = 0;
};

/// Indices 0..n-1 of `records` by non-increasing size; equal sizes keep
/// input order (stable).
[[nodiscard]] std::vector<std::size_t> IndicesBySizeDescending(
    std::span<const TensorUsageRecord> records);

/// Indices 0..n-1 of `records` by first operator; equal first operators
/// keep input order (stable).
[[nodiscard]] std::vector<std::size_t> IndicesByFirstOp(
    std::span<const TensorUsageRecord> records);

/// Computes segments, breadths, positional maximums and both lower bounds.
/// Sizes must not overflow 64 bits when summed (the readers check).
[[nodiscard]] ProfileSummary SummarizeProfiles(
    std::span<const TensorUsageRecord> records);

/// The largest number of bytes records[pair.input] and records[pair.output]
/// can share while `pair.relation` holds: kOutputBelowBy with distance d
/// puts the output at input.offset - e for some e >= d, sharing
/// min(output.size - e, input.size) bytes when positive, most at e = d;
/// kAlias shares the whole tensor when the sizes are equal and is
/// impossible (0) otherwise. Indices must be inside `records`.
[[nodiscard]] std::uint64_t OverlapSavings(
    std::span<const TensorUsageRecord> records, const OverlapPair& pair);

/// The Offset Calculation lower bound with allowed overlaps (docs/overlap.md):
/// the largest, over all operators k, of
///   max(breadth(k) - S(k), largest size of a pair's tensor at k)
/// where S(k) sums OverlapSavings over the distinct tensor pairs
/// {input, output} of the pairs at operator k (a pair listed several times
/// counts once, with its largest savings). Operators with no pair keep
/// their breadth, so without pairs this is summary.offsets_lower_bound.
/// Why it is a lower bound: at operator k every live tensor occupies its
/// bytes, so the arena holds their union U. Bonferroni's inequality gives
/// |U| >= sum of sizes - sum over tensor pairs of |a intersect b|. Two live
/// tensors may intersect only when a pair permits it, and then by at most
/// OverlapSavings; so |U| >= breadth(k) - S(k), whatever number of pairs
/// share one tensor (pairs sharing a tensor can make the bound weaker than
/// what is reachable, never higher). And U holds each live tensor whole.
/// `summary` must be SummarizeProfiles(records); pairs must be well formed
/// (records[input].last_op == op == records[output].first_op).
[[nodiscard]] std::uint64_t OverlapLowerBound(
    std::span<const TensorUsageRecord> records,
    std::span<const OverlapPair> overlaps, const ProfileSummary& summary);

/// A lower bound at least OverlapLowerBound's that sees chains of pairs:
/// the smallest arena A in [OverlapLowerBound, upper] for which the pairs
/// forced at A can hold together (docs/overlap.md). A pair at operator k
/// is forced at A when B(k) - S(k) + its savings > A: by Bonferroni's
/// inequality without its term, a plan where the two share no byte needs
/// more than A at k. In a plan of arena <= A every forced pair overlaps,
/// so its relation holds (output - input <= -d, and input - output <=
/// output.size - 1 for the bytes to meet; alias: equal offsets), and every
/// tensor lies in [0, A - size]. These are difference constraints; when
/// they have no solution (Bellman-Ford finds a negative cycle) no plan of
/// arena A exists. Nor does one when, with the offset ranges [lo, hi] the
/// constraints allow, some tensor has no offset left outside the
/// compulsory parts [hi(u), lo(u) + size(u)) of the tensors u it meets and
/// has no pair with (ranges narrowed this way are added as constraints,
/// up to four rounds); nor when a set of tensors joined by forced pairs
/// (one gap-free range of offsets) would span more than A minus the bytes
/// of the tensors alive over its whole span with no pair into it (they lie
/// below or above that range: the window step, docs/optimal.md). The
/// answer is found by bisection (every value it
/// returns is one above a refuted arena, or the overlap bound). A distinct
/// tensor pair with permits of different relations or directions is never
/// forced (its overlap would not say which relation holds). `upper` must be the
/// arena of a valid plan (the constraints hold there); returns
/// OverlapLowerBound when it is not above it. Sizes must be below 2^62.
[[nodiscard]] std::uint64_t OverlapForcedBound(
    std::span<const TensorUsageRecord> records,
    std::span<const OverlapPair> overlaps, const ProfileSummary& summary,
    std::uint64_t upper);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_RECORDS_HPP_
