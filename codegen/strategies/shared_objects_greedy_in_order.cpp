// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// "Greedy" Shared Objects, the prior work the paper compares against
// (Lee et al. 2019, "On-Device Neural Net Inference with Mobile GPUs",
// the TFLite GPU memory manager; paper Table 1 row "Greedy").
//
// Tensors are visited in execution order. When a tensor starts, every object
// whose current tensor's last use has passed returns to a pool of free
// objects. The tensor takes the free object that wastes the least memory:
// the smallest free object at least as large as the tensor, unless the
// largest free object smaller than the tensor is strictly closer in size
// (it then grows to the tensor's size). With no free object, a new object of
// the tensor's size is created.
#include <algorithm>
#include <functional>
#include <iterator>
#include <numeric>
#include <queue>
#include <set>
#include <utility>
#include <vector>

#include "codegen/strategies/strategy.hpp"

namespace arenaplan {

/// O(n log n). Visit order: first_op ascending, ties by input index.
/// Pool order: (object size, object index); "smallest at least as large"
/// takes the lowest index among equal sizes, "largest smaller" the highest
/// index among equal sizes (the neighbours of the tensor's size in the pool
/// order). An object is free for a tensor starting at operator f when its
/// last tensor's last_op < f (inclusive intervals).
SharedObjectsAssignment SharedObjectsGreedyInOrder(
    std::span<const TensorUsageRecord> records) {
  const std::size_t n = records.size();
  const std::vector<std::size_t> order = IndicesByFirstOp(records);

  SharedObjectsAssignment out;
  out.object_of.assign(n, 0);
  using PoolEntry = std::pair<std::uint64_t, std::size_t>;  // size, object
  std::set<PoolEntry> pool;
  using InUse = std::pair<std::uint32_t, std::size_t>;  // last_op, object
  std::priority_queue<InUse, std::vector<InUse>, std::greater<>> in_use;

  for (std::size_t t : order) {
    const TensorUsageRecord& r = records[t];
    while (!in_use.empty() && in_use.top().first < r.first_op) {
      const std::size_t obj = in_use.top().second;
      pool.emplace(out.object_sizes[obj], obj);
      in_use.pop();
    }
    auto best = pool.end();
    if (!pool.empty()) {
      auto at_least = pool.lower_bound({r.size, 0});
      best = at_least;
      if (at_least != pool.begin()) {
        auto smaller = std::prev(at_least);
        if (at_least == pool.end() ||
            r.size - smaller->first < at_least->first - r.size) {
          best = smaller;
        }
      }
    }
    std::size_t obj = 0;
    if (best == pool.end()) {
      obj = out.object_sizes.size();
      out.object_sizes.push_back(r.size);
    } else {
      obj = best->second;
      pool.erase(best);
      out.object_sizes[obj] = std::max(out.object_sizes[obj], r.size);
    }
    out.object_of[t] = obj;
    in_use.emplace(r.last_op, obj);
  }
  return out;
}

}  // namespace arenaplan
