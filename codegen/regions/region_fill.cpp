// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/regions/region_fill.hpp"

#include <algorithm>
#include <utility>

namespace arenaplan {

void Place(const UsageProblem& aligned, RegionFill& fill, std::size_t i,
           std::uint64_t offset) {
  const TensorUsageRecord& r = aligned.records[i];
  fill.skyline->Raise(r.first_op, r.last_op, offset + r.size);
  fill.by_first.emplace(r.first_op, i);
  fill.longest = std::max(fill.longest, r.last_op - r.first_op);
}

std::uint64_t LowestOffset(const UsageProblem& aligned, const RegionFill& fill,
                           std::size_t i,
                           const std::vector<std::uint64_t>& offset_of) {
  const TensorUsageRecord& rec = aligned.records[i];
  const std::uint32_t from =
      rec.first_op > fill.longest ? rec.first_op - fill.longest : 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> busy;  // [start, end)
  for (auto it = fill.by_first.lower_bound(from);
       it != fill.by_first.end() && it->first <= rec.last_op; ++it) {
    if (busy.size() == kGapScan) {
      return fill.skyline->Max(rec.first_op, rec.last_op);
    }
    const TensorUsageRecord& m = aligned.records[it->second];
    if (m.last_op < rec.first_op) continue;
    busy.emplace_back(offset_of[it->second], offset_of[it->second] + m.size);
  }
  std::sort(busy.begin(), busy.end());
  std::uint64_t offset = 0;
  for (const auto& [start, end] : busy) {
    if (start >= offset && start - offset >= rec.size) break;
    offset = std::max(offset, end);
  }
  return offset;
}

}  // namespace arenaplan
