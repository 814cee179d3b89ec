// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/strategies/common/object_intervals.hpp"

#include <algorithm>
#include <limits>

namespace arenaplan {

bool ObjectIntervals::IsFree(std::uint32_t first_op,
                             std::uint32_t last_op) const {
  // The only interval that can intersect [first_op, last_op] without
  // starting inside it is the last one starting at or before last_op.
  auto it = by_first_.upper_bound(last_op);
  if (it == by_first_.begin()) return true;
  --it;
  return it->second.last_op < first_op;
}

void ObjectIntervals::Insert(const ObjectInterval& interval) {
  by_first_.emplace(interval.first_op, interval);
}

const ObjectInterval* ObjectIntervals::Before(std::uint32_t first_op) const {
  auto it = by_first_.lower_bound(first_op);
  if (it == by_first_.begin()) return nullptr;
  --it;
  return &it->second;
}

const ObjectInterval* ObjectIntervals::After(std::uint32_t last_op) const {
  auto it = by_first_.upper_bound(last_op);
  return it == by_first_.end() ? nullptr : &it->second;
}

std::uint64_t ObjectIntervals::Distance(std::uint32_t first_op,
                                        std::uint32_t last_op) const {
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  if (const ObjectInterval* b = Before(first_op)) {
    best = std::uint64_t{first_op} - b->last_op;
  }
  if (const ObjectInterval* a = After(last_op)) {
    best = std::min(best, std::uint64_t{a->first_op} - last_op);
  }
  return best;
}

}  // namespace arenaplan
