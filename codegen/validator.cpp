// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Checks plans by a sweep over operator time. Shares no code with the
// strategies: it knows only records, offsets, objects and the invariants.
#include "codegen/validator.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <queue>
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
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return records[a].first_op < records[b].first_op;
  });
  return order;
}

}  // namespace

ValidationReport ValidateOffsets(std::span<const TensorUsageRecord> records,
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

  // Sweep: insert records by first_op; before inserting one, retire every
  // live record whose last_op is earlier. The live set stays pairwise
  // disjoint in bytes (else we have already failed), so it is enough to
  // compare a newcomer with its neighbours in offset order.
  using Retire = std::pair<std::uint32_t, std::size_t>;  // (last_op, index)
  std::priority_queue<Retire, std::vector<Retire>, std::greater<>> retire;
  std::map<std::uint64_t, std::size_t> live;  // offset -> index
  for (std::size_t i : SizedByFirstOp(records)) {
    const TensorUsageRecord& r = records[i];
    while (!retire.empty() && retire.top().first < r.first_op) {
      live.erase(offsets[retire.top().second]);
      retire.pop();
    }
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
    retire.emplace(r.last_op, i);
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
