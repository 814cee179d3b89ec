// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The smallest-gap placement of Greedy by Size for Offset Calculation
// (Pisarchyk & Lee 2019, Alg. 3 L.7-23), shared by the gap-based Offset
// Calculation strategies (greedy-by-size, greedy-by-breadth, greedy-in-order).
//
// Alg. 3 scans every already-placed record for each new record: O(n^2). Here
// the placed records live in an interval index (§4.2 suggests interval
// structures): records sorted by first_op under a segment tree holding the
// largest last_op of the active records below each node. The placed records
// whose usage intervals intersect [first_op, last_op] are reported in
// O((k + 1) log n) for k reported; they are then sorted by offset and scanned
// exactly as Alg. 3 L.10-18 does, so the offsets are identical to the
// straightforward algorithm's. When a large share of the placed records
// intersect (dense inputs), GapPlacer instead scans all of them in offset
// order: still Theta(n^2) there, but a few ns per pair.
#ifndef ARENAPLAN_CODEGEN_STRATEGIES_OFFSET_GAPS_HPP_
#define ARENAPLAN_CODEGEN_STRATEGIES_OFFSET_GAPS_HPP_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "codegen/records.hpp"
#include "codegen/strategies/common/work_cap.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan::offset_gaps {

/// A set of "active" records out of a fixed span, answering: which active
/// records have a usage interval intersecting the inclusive operator range
/// [lo_op, hi_op]? Records are identified by their index in the span.
/// Starts empty. Does not own the records (the span must outlive it).
class IntervalIndex {
 public:
  explicit IntervalIndex(std::span<const TensorUsageRecord> records);

  /// Makes records[i] active / inactive (idempotent).
  void Activate(std::size_t i);
  void Deactivate(std::size_t i);

  /// Appends to `out` the index of every active record x with
  /// x.first_op <= hi_op and x.last_op >= lo_op (both ends inclusive), in
  /// order of (first_op, index). O((k + 1) log n). With `limit`, stops
  /// (returning false) as soon as `out` holds more than `limit` indices.
  bool Report(std::uint32_t lo_op, std::uint32_t hi_op,
              std::vector<std::size_t>& out,
              std::size_t limit = static_cast<std::size_t>(-1)) const;

 private:
  void Set(std::size_t pos, std::uint64_t value);
  bool Collect(std::size_t node, std::size_t node_lo, std::size_t node_hi,
               std::size_t end, std::uint64_t need, std::size_t limit,
               std::vector<std::size_t>& out) const;

  std::span<const TensorUsageRecord> records_;
  /// order_[p]: record index at position p (sorted by first_op, then index).
  std::vector<std::size_t> order_;
  /// position_[i]: position of record i in order_.
  std::vector<std::size_t> position_;
  /// first_ops_[p] = records_[order_[p]].first_op (for the prefix search).
  std::vector<std::uint32_t> first_ops_;
  std::size_t leaves_ = 1;
  /// Segment tree over positions: tree_[node] = max over active positions
  /// below node of (last_op + 1); 0 when none is active.
  std::vector<std::uint64_t> tree_;
};

/// The placed records in non-decreasing offset order, stored in blocks of
/// at most 2 * kBlock entries so that an insertion moves O(kBlock) entries
/// and a scan over all of them reads memory sequentially.
class OffsetOrder {
 public:
  /// One placed record: bytes [offset, end), operators [first_op, last_op]
  /// (both included).
  struct Entry {
    std::uint64_t offset;
    std::uint64_t end;
    std::uint32_t first_op;
    std::uint32_t last_op;
  };

  /// Replaces the content with `sorted` (non-decreasing offset).
  void Assign(const std::vector<Entry>& sorted);

  /// Inserts `e` after the entries whose offset is <= e.offset.
  void Insert(const Entry& e);

  /// Calls f(entry) for every entry, in non-decreasing offset order.
  template <typename F>
  void ForEach(F&& f) const {
    for (const std::vector<Entry>& block : blocks_) {
      for (const Entry& e : block) f(e);
    }
  }

  /// Calls f(entry) for the entries with offset >= `from` (and possibly a
  /// few below it), in non-decreasing offset order, until f returns false.
  template <typename F>
  void ForEachFrom(std::uint64_t from, F&& f) const {
    // The last block whose first entry is below `from` may hold some.
    std::size_t b = static_cast<std::size_t>(
        std::lower_bound(fronts_.begin(), fronts_.end(), from) -
        fronts_.begin());
    if (b != 0) --b;
    for (; b < blocks_.size(); ++b) {
      for (const Entry& e : blocks_[b]) {
        if (!f(e)) return;
      }
    }
  }

 private:
  static constexpr std::size_t kBlock = 64;
  std::vector<std::vector<Entry>> blocks_;
  /// fronts_[b] = blocks_[b].front().offset (searched without touching the
  /// blocks).
  std::vector<std::uint64_t> fronts_;
};

/// The highest end offset of the placed records alive at each operator,
/// answering "the top of the placed records whose usage intervals intersect
/// [lo_op, hi_op]" (both ends included) in O(log n). Operators are mapped to
/// the ranks of the records' distinct first_op/last_op values, which keeps
/// every intersection. Does not own the records.
class Skyline {
 public:
  explicit Skyline(std::span<const TensorUsageRecord> records);

  /// Raises the skyline over records[i]'s usage interval to `end` bytes.
  void Raise(std::size_t i, std::uint64_t end);

  /// The highest end raised over any operator of records[i]'s interval, or
  /// 0.
  [[nodiscard]] std::uint64_t Top(std::size_t i) const;

 private:
  [[nodiscard]] std::size_t Rank(std::uint32_t op) const;
  void Raise(std::size_t node, std::size_t lo, std::size_t hi, std::size_t a,
             std::size_t b, std::uint64_t end);
  [[nodiscard]] std::uint64_t Top(std::size_t node, std::size_t lo,
                                  std::size_t hi, std::size_t a,
                                  std::size_t b) const;

  std::span<const TensorUsageRecord> records_;
  std::vector<std::uint32_t> ops_;  ///< distinct endpoints, ascending
  /// highest_[node]: the highest end over the node's ranks (any part);
  /// whole_[node]: the highest end raised over all of the node's ranks.
  std::vector<std::uint64_t> highest_;
  std::vector<std::uint64_t> whole_;
};

/// Places records one at a time, in any order the caller chooses, each at
/// the offset Alg. 3 L.7-21 gives it against the records placed so far.
///
/// Two ways to walk the placed records intersecting t in offset order, chosen
/// per placement by how many there are (k of P placed): the interval index
/// reports them, and while k <= P / 16 (or P < 256) they are sorted by
/// offset (O((k + 1) log n)); past that (dense inputs) the report stops and
/// all P placed records are scanned in offset order, skipping the others
/// (O(P), a few ns per record; the offset order is built the first time it
/// is needed, so inputs that never need it do not pay for it). Both feed the
/// same Alg. 3 L.10-18 loop, so the offsets do not depend on the choice.
///
/// With allowed overlaps (`overlaps`, indices into `records`, distances
/// already aligned), a record whose placed partners intersect it is placed
/// by the overlap rule instead (PlaceWithPartners): each placed record x
/// intersecting t forbids t the start offsets (x.offset - t.size,
/// x.offset + x.size) (both ends excluded), except those where a pair of t
/// and x holds; the allowed start offsets form runs [a, b], and t goes to
/// the start of the shortest finite run (the lowest on ties), else to the
/// start of the unbounded one. Without partners placed, a run [a, b] is
/// exactly a gap of b - a + t.size bytes, so this is Alg. 3 L.7-21 again;
/// records without placed partners keep the plain path, and with no pairs
/// the offsets are those of the plain placer, byte for byte.
///
/// Work cap (work_cap.hpp): each exact placement costs 1 + the placed
/// records it examines (the k reported or the P scanned). Once the total
/// passes `cap`, every later record is placed by the bounded rule, which
/// runs Alg. 3 L.10-18 over two windows of the placed records in offset
/// order and takes the smaller fitting gap of the two (the lower on ties):
/// - the lowest kBoundedScan / 2 records (a gap found there lies below
///   every record not examined, so it is a gap of the full Alg. 3 too);
/// - up to kBoundedScan records just below the top of the intersecting
///   records, counting gaps only from a floor: every record reaching above
///   the floor starts above floor - (largest size placed), and the window
///   starts there, so a gap found above the floor is a true free range.
/// When neither window has a fitting gap, the record goes on the top of
/// all intersecting records (Skyline), as L.19-20 would. Partners are then
/// ignored (sharing no byte is always allowed). `work_cap` defaults to
/// HeuristicWorkCap(records.size()). The bounded rule costs
/// O(kBoundedScan + log n) per record; its arenas are larger than Alg. 3's
/// but never invalid (docs/strategies.md has the figures).
class GapPlacer {
 public:
  /// Placed records (in offset order) the bounded rule's top window
  /// examines; its bottom window examines half as many.
  static constexpr std::size_t kBoundedScan = 256;

  explicit GapPlacer(std::span<const TensorUsageRecord> records,
                     std::span<const OverlapPair> overlaps = {},
                     std::optional<std::uint64_t> work_cap = {});

  /// Places records[i] (not placed before) and returns its offset in bytes:
  /// the start of the smallest gap between placed records whose usage
  /// intervals intersect records[i]'s that is at least records[i].size
  /// (first such gap on equal sizes, i.e. the lowest offset); when there is
  /// none, the end of the topmost of those records, or 0 (Alg. 3 L.19-20).
  std::uint64_t Place(std::size_t i);

  /// The offsets so far (unplaced records have offset 0), in input order,
  /// and after how many placements the work cap was spent.
  [[nodiscard]] OffsetsAssignment Take() &&;

 private:
  void BuildOffsetOrder();
  /// The bounded rule (see the class comment).
  std::uint64_t PlaceBounded(std::size_t i);
  /// Records records[i] at `offset` as placed.
  void Commit(std::size_t i, std::uint64_t offset);
  /// The overlap rule for records[i] (see the class comment).
  std::uint64_t PlaceWithPartners(std::size_t i);

  std::span<const TensorUsageRecord> records_;
  std::span<const OverlapPair> overlaps_;
  /// partners_[i]: indices into overlaps_ of the pairs naming records[i].
  std::vector<std::vector<std::size_t>> partners_;
  std::vector<bool> is_placed_;
  IntervalIndex placed_;
  /// Every placed record, in placement order.
  std::vector<std::size_t> placed_list_;
  /// The placed records by offset, once a scan has been needed.
  OffsetOrder by_offset_;
  bool by_offset_built_ = false;
  /// The last exact placement scanned every placed record.
  bool last_dense_ = false;
  std::vector<std::uint64_t> offsets_;
  std::vector<std::size_t> scratch_;
  WorkCap work_;
  std::size_t capped_after_ = SIZE_MAX;
  /// The largest size placed (bytes), kept once the cap is spent.
  std::uint64_t largest_placed_ = 0;
  /// Built when the cap is spent.
  std::unique_ptr<Skyline> skyline_;
};

/// Indices 0..n-1 ordered by non-increasing size, equal sizes by input
/// index (Alg. 3 L.1 with a stable tie-break).
[[nodiscard]] std::vector<std::size_t> OrderBySizeDescending(
    std::span<const TensorUsageRecord> records);

/// Alg. 3 L.1's order with equal sizes taken latest first: by non-increasing
/// size, then non-increasing first_op, then input index. With allowed
/// overlaps it places an operator's output before the same-sized input it
/// overwrites, so the input can go `distance` above it and a chain of
/// equal tensors stacks upward from offset 0 (docs/overlap.md).
[[nodiscard]] std::vector<std::size_t> OrderBySizeDescendingLatestFirst(
    std::span<const TensorUsageRecord> records);

/// `order` with every record followed at once by its overlap partners not
/// yet taken, breadth first over the pairs (a record's partners in the
/// order of `overlaps`): an overlap cluster is placed together, starting
/// from its earliest member in `order`.
[[nodiscard]] std::vector<std::size_t> ClusterOrder(
    std::span<const std::size_t> order, std::size_t record_count,
    std::span<const OverlapPair> overlaps);

/// Places the records once per order of `orders` (each a permutation of
/// the indices) with GapPlacer and `overlaps`, and returns the plan with
/// the smallest arena (the earliest order on ties). `work_cap` as
/// GapPlacer's, for each order.
[[nodiscard]] OffsetsAssignment BestOfOrders(
    std::span<const TensorUsageRecord> records,
    std::span<const OverlapPair> overlaps,
    std::span<const std::vector<std::size_t>> orders,
    std::optional<std::uint64_t> work_cap = {});

}  // namespace arenaplan::offset_gaps

#endif  // ARENAPLAN_CODEGEN_STRATEGIES_OFFSET_GAPS_HPP_
