// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflm/greedy_rule.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace arenaplan::tflm {

GreedyPlacement TflmGreedyPlace(std::span<const GreedyBuffer> buffers) {
  const std::size_t n = buffers.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  // Fixed (offline) buffers first, in input order; then by size, largest
  // first, equal sizes in input order.
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     const bool fa = buffers[a].fixed_offset.has_value();
                     const bool fb = buffers[b].fixed_offset.has_value();
                     if (fa != fb) return fa;
                     if (fa) return false;
                     return buffers[a].size > buffers[b].size;
                   });
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
