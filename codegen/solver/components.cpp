// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/solver/components.hpp"

#include <algorithm>

namespace arenaplan::solver {

std::vector<Component> SplitIntoComponents(
    std::span<const TensorUsageRecord> records, bool split) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < records.size(); ++i) {
    if (records[i].size != 0) order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return records[a].first_op != records[b].first_op
               ? records[a].first_op < records[b].first_op
               : a < b;
  });
  std::vector<Component> comps;
  std::uint64_t reach = 0;  // max last_op + 1 so far
  for (std::uint32_t i : order) {
    if (comps.empty() || (split && records[i].first_op >= reach)) {
      comps.emplace_back();
    }
    comps.back().ids.push_back(i);
    comps.back().records.push_back(records[i]);
    reach = std::max(reach, std::uint64_t{records[i].last_op} + 1);
  }
  return comps;
}

}  // namespace arenaplan::solver
