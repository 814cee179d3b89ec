// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflm/greedy_rule.hpp"

#include <algorithm>
#include <utility>

namespace arenaplan::tflm {

GreedyPlacement TflmGreedyPlace(std::span<const GreedyBuffer> buffers) {
  const std::size_t n = buffers.size();
  // CalculateOffsetsIfNeeded: offline buffers are stored from the front of
  // buffer_ids_sorted_ in id order; online buffers from the back, so in
  // reverse id order, and only they are sorted, by ReverseSortInPlace (a
  // stable bubble sort by decreasing size): largest first, equal sizes by
  // decreasing id.
  std::vector<std::size_t> order;
  std::vector<std::size_t> online;
  for (std::size_t i = 0; i < n; ++i) {
    (buffers[i].fixed_offset ? order : online).push_back(i);
  }
  std::reverse(online.begin(), online.end());
  std::stable_sort(online.begin(), online.end(),
                   [&](std::size_t a, std::size_t b) {
                     return buffers[a].size > buffers[b].size;
                   });
  order.insert(order.end(), online.begin(), online.end());
  GreedyPlacement out;
  out.offsets.assign(n, 0);
  std::vector<std::size_t> placed;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> busy;  // offset, end
  for (std::size_t i : order) {
    const GreedyBuffer& cur = buffers[i];
    std::uint64_t offset = 0;
    if (cur.fixed_offset) {
      offset = *cur.fixed_offset;
    } else {
      // The placed buffers whose lifetime meets this one, by offset (the
      // planner's offset-ordered list).
      busy.clear();
      for (std::size_t j : placed) {
        const GreedyBuffer& o = buffers[j];
        if (o.first_op <= cur.last_op && cur.first_op <= o.last_op) {
          busy.emplace_back(out.offsets[j], out.offsets[j] + o.size);
        }
      }
      std::sort(busy.begin(), busy.end());
      // First fit: the lowest offset at which `cur` touches no busy range.
      for (const auto& [lo, hi] : busy) {
        if (offset + cur.size <= lo) break;
        offset = std::max(offset, hi);
      }
    }
    out.offsets[i] = offset;
    out.arena_bytes = std::max(out.arena_bytes, offset + cur.size);
    placed.push_back(i);
  }
  return out;
}

}  // namespace arenaplan::tflm
