// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Checks plans by a sweep over operator time. Shares no code with the
// strategies: it knows only records, offsets, objects and the invariants.
#include "codegen/validator/validator.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <queue>
#include <set>
#include <utility>
#include <vector>

namespace arenaplan {
namespace {

ValidationReport Fail(ValidationResult r, std::size_t a,
                      std::size_t b = kNoRecord) {
  return ValidationReport{r, a, b};
}

/// Indices of the records with size > 0, ordered by first_op (then index).
std::vector<std::size_t> SizedByFirstOp(
    std::span<const TensorUsageRecord> records) {
  std::vector<std::size_t> order;
  order.reserve(records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (records[i].size != 0) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return records[a].first_op < records[b].first_op;
                   });
  return order;
}

/// The alignment, one offset per record, intervals, alignment of every
/// offset, and every record within the arena.
ValidationReport CheckEachRecord(std::span<const TensorUsageRecord> records,
                                 std::span<const std::uint64_t> offsets,
                                 std::uint64_t arena_bytes,
                                 std::uint64_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    return Fail(ValidationResult::kBadAlignment, kNoRecord);
  }
  if (offsets.size() != records.size()) {
    return Fail(ValidationResult::kMissingTensor,
                std::min(offsets.size(), records.size()));
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    const TensorUsageRecord& r = records[i];
    if (r.first_op > r.last_op) return Fail(ValidationResult::kBadInterval, i);
    if (offsets[i] % alignment != 0) {
      return Fail(ValidationResult::kMisaligned, i);
    }
    if (offsets[i] > arena_bytes || r.size > arena_bytes - offsets[i]) {
      return Fail(ValidationResult::kOutOfBounds, i);
    }
  }
  return {};
}

using Pair = std::pair<std::size_t, std::size_t>;  // (min, max) index
Pair Key(std::size_t a, std::size_t b) {
  return a < b ? Pair{a, b} : Pair{b, a};
}

/// The allowed overlaps a plan uses. A pair is "used" when its two records
/// share a byte; then some pair for those two records must hold at their
/// offsets.
class UsedOverlaps {
 public:
  UsedOverlaps(std::span<const TensorUsageRecord> records,
               std::span<const std::uint64_t> offsets)
      : records_(records),
        offsets_(offsets),
        leaves_early_(records.size(), false) {}

  /// Reads `overlaps`: fails on a malformed pair, or on a used pair whose
  /// relation fails when no other pair permits its two records.
  ValidationReport Read(std::span<const OverlapPair> overlaps) {
    std::vector<Pair> violating;  // used pairs whose relation fails
    for (std::size_t k = 0; k < overlaps.size(); ++k) {
      const OverlapPair& p = overlaps[k];
      if (p.input >= records_.size() || p.output >= records_.size() ||
          p.input == p.output || records_[p.input].last_op != p.op ||
          records_[p.output].first_op != p.op ||
          (p.relation != OverlapRelation::kOutputBelowBy &&
           p.relation != OverlapRelation::kAlias)) {
        return Fail(ValidationResult::kBadOverlapPermit, k);
      }
      if (!SharesBytes(p.input, p.output)) continue;
      const std::uint64_t in = offsets_[p.input];
      const std::uint64_t out = offsets_[p.output];
      const bool holds =
          p.relation == OverlapRelation::kAlias
              ? in == out && records_[p.input].size == records_[p.output].size
              : out <= in && in - out >= p.distance;
      if (!holds) {
        violating.push_back({p.input, p.output});
        continue;
      }
      permitted_.insert(Key(p.input, p.output));
      if (!leaves_early_[p.input]) {
        leaves_early_[p.input] = true;
        used_inputs_[p.op].push_back(p.input);
      }
    }
    for (const Pair& v : violating) {
      if (!Permitted(v.first, v.second)) {
        return Fail(ValidationResult::kOverlap, v.first, v.second);
      }
    }
    return {};
  }

  [[nodiscard]] bool SharesBytes(std::size_t a, std::size_t b) const {
    return records_[a].size != 0 && records_[b].size != 0 &&
           offsets_[a] < offsets_[b] + records_[b].size &&
           offsets_[b] < offsets_[a] + records_[a].size;
  }
  [[nodiscard]] bool Permitted(std::size_t a, std::size_t b) const {
    return permitted_.count(Key(a, b)) != 0;
  }
  /// Record i is the input of a used pair: it leaves the sweep one
  /// operator early.
  [[nodiscard]] bool LeavesEarly(std::size_t i) const {
    return leaves_early_[i];
  }
  [[nodiscard]] bool Any() const { return !used_inputs_.empty(); }

  /// At operator op, once every record born at op is in `live` (offset ->
  /// index): each input of a used pair of op against every live record it
  /// shares a byte with (the live set is disjoint, so those are adjacent in
  /// offset order), and against the other such inputs of op.
  ValidationReport CheckInputs(
      std::uint32_t op, const std::map<std::uint64_t, std::size_t>& live) {
    auto it = used_inputs_.find(op);
    if (it == used_inputs_.end()) return {};
    std::vector<std::size_t>& inputs = it->second;
    for (std::size_t j : inputs) {
      const std::uint64_t begin = offsets_[j];
      const std::uint64_t end = begin + records_[j].size;
      auto h = live.upper_bound(begin);
      if (h != live.begin()) --h;
      for (; h != live.end() && h->first < end; ++h) {
        const std::size_t other = h->second;
        if (SharesBytes(j, other) && !Permitted(j, other)) {
          return Fail(ValidationResult::kOverlap, other, j);
        }
      }
    }
    // The inputs among themselves: in offset order, each against the
    // earlier ones still open (disjoint unless permitted, so few).
    std::sort(inputs.begin(), inputs.end(), [&](std::size_t a, std::size_t b) {
      return offsets_[a] != offsets_[b] ? offsets_[a] < offsets_[b] : a < b;
    });
    std::vector<std::size_t> open;
    for (std::size_t j : inputs) {
      std::erase_if(open, [&](std::size_t o) {
        return offsets_[o] + records_[o].size <= offsets_[j];
      });
      for (std::size_t o : open) {
        if (SharesBytes(o, j) && !Permitted(o, j)) {
          return Fail(ValidationResult::kOverlap, o, j);
        }
      }
      open.push_back(j);
    }
    return {};
  }

 private:
  std::span<const TensorUsageRecord> records_;
  std::span<const std::uint64_t> offsets_;
  std::set<Pair> permitted_;  ///< Pairs of records allowed to share bytes.
  /// used_inputs_[op]: the inputs of used pairs at operator op.
  std::map<std::uint32_t, std::vector<std::size_t>> used_inputs_;
  std::vector<bool> leaves_early_;
};

}  // namespace

ValidationReport ValidateOffsets(std::span<const TensorUsageRecord> records,
                                 std::span<const std::uint64_t> offsets,
                                 std::uint64_t arena_bytes,
                                 std::uint64_t alignment) {
  return ValidateOffsets(records, offsets, arena_bytes, alignment, {});
}

ValidationReport ValidateOffsets(std::span<const TensorUsageRecord> records,
                                 std::span<const std::uint64_t> offsets,
                                 std::uint64_t arena_bytes,
                                 std::uint64_t alignment,
                                 std::span<const OverlapPair> overlaps) {
  const ValidationReport each =
      CheckEachRecord(records, offsets, arena_bytes, alignment);
  if (!each.ok()) return each;
  UsedOverlaps used(records, offsets);
  const ValidationReport pairs = used.Read(overlaps);
  if (!pairs.ok()) return pairs;

  // Sweep: insert records by first_op; before inserting one, retire every
  // live record whose last_op is earlier. The live set stays pairwise
  // disjoint in bytes (else we have already failed), so it is enough to
  // compare a newcomer with its neighbours in offset order. An input of a
  // used pair takes part only up to the operator before its pair's (not at
  // all when it is born there); at its pair's operator it is checked by
  // UsedOverlaps::CheckInputs.
  using Retire = std::pair<std::uint32_t, std::size_t>;  // (last_op, index)
  std::priority_queue<Retire, std::vector<Retire>, std::greater<>> retire;
  std::map<std::uint64_t, std::size_t> live;  // offset -> index
  const std::vector<std::size_t> order = SizedByFirstOp(records);
  for (std::size_t pos = 0; pos < order.size(); ++pos) {
    const std::size_t i = order[pos];
    const TensorUsageRecord& r = records[i];
    while (!retire.empty() && retire.top().first < r.first_op) {
      live.erase(offsets[retire.top().second]);
      retire.pop();
    }
    const bool takes_part = !used.LeavesEarly(i) || r.last_op > r.first_op;
    if (takes_part) {
      const std::uint64_t begin = offsets[i];
      const std::uint64_t end = begin + r.size;  // fits: checked above
      auto next = live.lower_bound(begin);
      if (next != live.end() && next->first < end) {
        return Fail(ValidationResult::kOverlap, next->second, i);
      }
      if (next != live.begin()) {
        auto prev = std::prev(next);
        if (prev->first + records[prev->second].size > begin) {
          return Fail(ValidationResult::kOverlap, prev->second, i);
        }
      }
      live.emplace(begin, i);
      retire.emplace(used.LeavesEarly(i) ? r.last_op - 1 : r.last_op, i);
    }
    const bool group_ends = pos + 1 == order.size() ||
                            records[order[pos + 1]].first_op != r.first_op;
    if (group_ends && used.Any()) {
      const ValidationReport report = used.CheckInputs(r.first_op, live);
      if (!report.ok()) return report;
    }
  }
  return {};
}

ValidationReport ValidateSharedObjects(
    std::span<const TensorUsageRecord> records,
    std::span<const std::int64_t> object_of,
    std::span<const std::uint64_t> object_sizes) {
  if (object_of.size() != records.size()) {
    return Fail(ValidationResult::kMissingTensor,
                std::min(object_of.size(), records.size()));
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    const TensorUsageRecord& r = records[i];
    if (r.first_op > r.last_op) return Fail(ValidationResult::kBadInterval, i);
    if (r.size == 0 && object_of[i] == -1) continue;
    if (object_of[i] < 0) return Fail(ValidationResult::kMissingTensor, i);
    const auto obj = static_cast<std::uint64_t>(object_of[i]);
    if (obj >= object_sizes.size() || object_sizes[obj] < r.size) {
      return Fail(ValidationResult::kObjectTooSmall, i);
    }
  }
  // Per object, in first_op order: a record whose first_op is not after the
  // latest last_op seen so far on that object shares time with an earlier
  // record of the object.
  std::vector<std::size_t> latest(object_sizes.size(), kNoRecord);
  for (std::size_t i : SizedByFirstOp(records)) {
    const auto obj = static_cast<std::size_t>(object_of[i]);
    const std::size_t prev = latest[obj];
    if (prev != kNoRecord && records[prev].last_op >= records[i].first_op) {
      return Fail(ValidationResult::kObjectConflict, prev, i);
    }
    if (prev == kNoRecord || records[i].last_op > records[prev].last_op) {
      latest[obj] = i;
    }
  }
  return {};
}

}  // namespace arenaplan
