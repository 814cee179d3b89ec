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

  // Allowed overlaps. A pair is "used" when its two records share a byte;
  // then some pair for those two records must hold at their offsets.
  const auto shares_bytes = [&](std::size_t a, std::size_t b) {
    return records[a].size != 0 && records[b].size != 0 &&
           offsets[a] < offsets[b] + records[b].size &&
           offsets[b] < offsets[a] + records[a].size;
  };
  using Pair = std::pair<std::size_t, std::size_t>;  // (min, max) index
  const auto key = [](std::size_t a, std::size_t b) {
    return a < b ? Pair{a, b} : Pair{b, a};
  };
  std::set<Pair> permitted;     // pairs of records allowed to share bytes
  std::vector<Pair> violating;  // used pairs whose relation fails
  // used_inputs[op]: the inputs of used pairs at operator op.
  std::map<std::uint32_t, std::vector<std::size_t>> used_inputs;
  std::vector<bool> leaves_early(records.size(), false);
  for (std::size_t k = 0; k < overlaps.size(); ++k) {
    const OverlapPair& p = overlaps[k];
    if (p.input >= records.size() || p.output >= records.size() ||
        p.input == p.output || records[p.input].last_op != p.op ||
        records[p.output].first_op != p.op ||
        (p.relation != OverlapRelation::kOutputBelowBy &&
         p.relation != OverlapRelation::kAlias)) {
      return Fail(ValidationResult::kBadOverlapPermit, k);
    }
    if (!shares_bytes(p.input, p.output)) continue;
    const std::uint64_t in = offsets[p.input];
    const std::uint64_t out = offsets[p.output];
    const bool holds =
        p.relation == OverlapRelation::kAlias
            ? in == out && records[p.input].size == records[p.output].size
            : out <= in && in - out >= p.distance;
    if (!holds) {
      violating.push_back({p.input, p.output});
      continue;
    }
    permitted.insert(key(p.input, p.output));
    if (!leaves_early[p.input]) {
      leaves_early[p.input] = true;
      used_inputs[p.op].push_back(p.input);
    }
  }
  for (const Pair& v : violating) {
    if (permitted.count(key(v.first, v.second)) == 0) {
      return Fail(ValidationResult::kOverlap, v.first, v.second);
    }
  }

  // Sweep: insert records by first_op; before inserting one, retire every
  // live record whose last_op is earlier. The live set stays pairwise
  // disjoint in bytes (else we have already failed), so it is enough to
  // compare a newcomer with its neighbours in offset order. An input of a
  // used pair takes part only up to the operator before its pair's (not at
  // all when it is born there); at its pair's operator op, once every record
  // born at op is in, it is compared with every live record it shares a
  // byte with (the live set is disjoint, so those are adjacent in offset
  // order), and with the other such inputs of op.
  using Retire = std::pair<std::uint32_t, std::size_t>;  // (last_op, index)
  std::priority_queue<Retire, std::vector<Retire>, std::greater<>> retire;
  std::map<std::uint64_t, std::size_t> live;  // offset -> index
  const auto check_used_inputs = [&](std::uint32_t op) -> ValidationReport {
    auto it = used_inputs.find(op);
    if (it == used_inputs.end()) return {};
    std::vector<std::size_t>& inputs = it->second;
    for (std::size_t j : inputs) {
      const std::uint64_t begin = offsets[j];
      const std::uint64_t end = begin + records[j].size;
      auto h = live.upper_bound(begin);
      if (h != live.begin()) --h;
      for (; h != live.end() && h->first < end; ++h) {
        const std::size_t other = h->second;
        if (shares_bytes(j, other) && permitted.count(key(j, other)) == 0) {
          return Fail(ValidationResult::kOverlap, other, j);
        }
      }
    }
    // The inputs among themselves: in offset order, each against the
    // earlier ones still open (disjoint unless permitted, so few).
    std::sort(inputs.begin(), inputs.end(), [&](std::size_t a, std::size_t b) {
      return offsets[a] != offsets[b] ? offsets[a] < offsets[b] : a < b;
    });
    std::vector<std::size_t> open;
    for (std::size_t j : inputs) {
      std::erase_if(open, [&](std::size_t o) {
        return offsets[o] + records[o].size <= offsets[j];
      });
      for (std::size_t o : open) {
        if (shares_bytes(o, j) && permitted.count(key(o, j)) == 0) {
          return Fail(ValidationResult::kOverlap, o, j);
        }
      }
      open.push_back(j);
    }
    return {};
  };
  const std::vector<std::size_t> order = SizedByFirstOp(records);
  for (std::size_t pos = 0; pos < order.size(); ++pos) {
    const std::size_t i = order[pos];
    const TensorUsageRecord& r = records[i];
    while (!retire.empty() && retire.top().first < r.first_op) {
      live.erase(offsets[retire.top().second]);
      retire.pop();
    }
    const bool takes_part = !leaves_early[i] || r.last_op > r.first_op;
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
      retire.emplace(leaves_early[i] ? r.last_op - 1 : r.last_op, i);
    }
    const bool group_ends = pos + 1 == order.size() ||
                            records[order[pos + 1]].first_op != r.first_op;
    if (group_ends && !used_inputs.empty()) {
      const ValidationReport report = check_used_inputs(r.first_op);
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
