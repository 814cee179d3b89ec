// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Greedy by Size for Shared Objects (Pisarchyk & Lee 2019, §4.3, Alg. 2).
// Tensors are taken in non-increasing order of size; each goes to a suitable
// shared object, or to a new one of its own size when none is suitable.
//
// Work cap (common/work_cap.hpp): one unit per object examined. While
// HeuristicWorkCap(n) holds, this is Alg. 2 exactly. Once it is spent, each
// remaining tensor (same order) examines only the kCappedObjectCandidates
// (128) newest objects, newest first, and takes the first suitable one, else
// a new object: O(log n) per tensor. capped_after counts the tensors placed
// by the exact rule.
#include <algorithm>
#include <numeric>
#include <vector>

#include "codegen/strategies/common/object_intervals.hpp"
#include "codegen/strategies/common/work_cap.hpp"
#include "codegen/strategies/strategies.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {

/// Alg. 2 with the per-object interval sets of §4.2: O(k n log n) for n
/// records and k objects; on dense inputs k = Theta(n), so Theta(n^2 log n)
/// there without the cap (strategies_bench, dense/). Finding the newest
/// object free over [first_op, last_op] without the scan is a dynamic 2D
/// dominance query (a free window (a, b) of an object with a < first_op,
/// b > last_op).
///
/// Order (Alg. 2 L.1): size non-increasing; equal sizes keep input order.
/// Choice (L.7-15): the loop keeps the LAST suitable object in creation
/// order. Objects are created in non-increasing size order (L.16-18), so
/// that is the smallest suitable object, and among equal sizes the most
/// recently created one. Scanning objects from the newest and stopping at the
/// first suitable one gives exactly that object.
SharedObjectsAssignment SharedObjectsGreedyBySizeWithCap(
    std::span<const TensorUsageRecord> records, std::uint64_t cap) {
  const std::size_t n = records.size();
  const std::vector<std::size_t> order = IndicesBySizeDescending(records);

  SharedObjectsAssignment out;
  out.object_of.assign(n, 0);
  std::vector<ObjectIntervals> objects;
  WorkCap work(cap);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t t = order[i];
    const TensorUsageRecord& r = records[t];
    std::size_t best = objects.size();  // NIL
    if (!work.Spent()) {
      for (std::size_t k = objects.size(); k-- > 0;) {
        if (!work.Charge(1)) break;
        if (objects[k].IsFree(r.first_op, r.last_op)) {
          best = k;
          break;
        }
      }
      // The exact scan of this tensor was cut short: it is the first one
      // placed by the bounded rule below.
      if (work.Spent()) {
        out.capped_after = i;
        best = objects.size();
      }
    }
    if (work.Spent()) {
      const std::size_t stop =
          objects.size() - std::min(objects.size(), kCappedObjectCandidates);
      for (std::size_t k = objects.size(); k-- > stop;) {
        if (objects[k].IsFree(r.first_op, r.last_op)) {
          best = k;
          break;
        }
      }
    }
    if (best == objects.size()) {  // L.16-18: a new object of size_t
      objects.emplace_back();
      out.object_sizes.push_back(r.size);
    }
    objects[best].Insert({r.first_op, r.last_op, t});
    out.object_of[t] = best;  // L.19
  }
  return out;
}

SharedObjectsAssignment SharedObjectsGreedyBySize(
    std::span<const TensorUsageRecord> records) {
  return SharedObjectsGreedyBySizeWithCap(records,
                                          HeuristicWorkCap(records.size()));
}

}  // namespace arenaplan
