// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Min-cost Flow Shared Objects, the prior work the paper compares against
// (Lee et al. 2019, "On-Device Neural Net Inference with Mobile GPUs", the
// TFLite GPU memory manager; paper Table 1 row "Min-cost Flow").
//
// The flow network of that work: a source, a sink, and two vertices per
// tensor. The left vertex of tensor i stands for "i's object is released"
// and the right vertex of tensor j for "j needs an object".
//   source -> left(i)   capacity 1, cost 0
//   right(j) -> sink    capacity 1, cost 0
//   source -> right(j)  capacity 1, cost size_j   (j gets a new object)
//   left(i) -> right(j) capacity 1, cost max(0, size_j - size_i), for every
//                       i whose usage ends before j's begins
//                       (last_op_i < first_op_j): j reuses i's object, which
//                       grows by the difference if j is larger.
// A minimum-cost maximum flow saturates every right vertex. Following the
// saturated left->right edges from the tensors that got a new object gives
// chains of tensors, one chain per shared object. The flow cost bounds the
// footprint from above (it is exact when sizes along a chain never shrink);
// the footprint reported is the true one, each object's largest tensor.
//
// Solver: the flow decomposes into an assignment problem (each right vertex
// matched to a distinct left vertex or to one of n "new object" columns), so
// we run successive shortest augmenting paths with vertex potentials
// (Hungarian method) on the implicit cost matrix: no edge list, O(n) memory
// per vector, O(n^3) time in the worst case (measured on one core: 0.09 s at
// 1,000 tensors, 0.8 s at 2,000). The registry sets max_records = 2000, so
// `best`/`all` skip it above that; asking for it by name still runs it.
//
// Work cap (common/work_cap.hpp): one unit per column a search step scans.
// While HeuristicWorkCap(n) + 2^30 holds (kMinCostFlowExtraUnits), the flow
// above is solved exactly. Once it is spent, the rows (tensors in first_op
// order) not yet matched are matched greedily, as greedy-in-order picks a free
// object (CompleteGreedily), in O(log n) each; capped_after counts the rows
// matched by the exact search. So asking for it by name on any input finishes
// in O(cap + n log n).

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "codegen/strategies/common/work_cap.hpp"
#include "codegen/strategies/strategies.hpp"
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {
namespace {

constexpr std::size_t kNewObject = std::numeric_limits<std::size_t>::max();

/// Units added to HeuristicWorkCap(n) for this strategy: its unit is one
/// column scanned (about 1 ns on one core, a hundred times cheaper than an
/// object examined by the greedy strategies), and a network-shaped chain of
/// 2,000 tensors (max_records) needs 1-3 * 10^8 of them. 2^30 more units
/// (about 1 s) keep such inputs exact.
constexpr std::uint64_t kMinCostFlowExtraUnits = std::uint64_t{1} << 30;

/// The bounded rule once the work cap is spent: rows done+1..n, in row
/// order, each reuse the object of a free column (a record that ended before
/// the row begins and whose object no row reuses yet) chosen as
/// greedy-in-order chooses a free object: the smallest one at least as large
/// as the row's tensor (lowest column among equal sizes), else the largest
/// smaller one (highest column among equal sizes); with no free column, a
/// new object. `left` lists the records by last_op ascending (column c is
/// left[c - 1]); p[c] is the row matched to column c (0 = free) and is
/// updated. O((n - done) log n).
void CompleteGreedily(std::span<const TensorUsageRecord> records,
                      const std::vector<std::size_t>& rows,
                      const std::vector<std::size_t>& left, std::size_t done,
                      std::vector<std::size_t>& p) {
  const std::size_t n = records.size();
  std::set<std::pair<std::uint64_t, std::size_t>> pool;  // size, column
  std::size_t next = 1;  // next column to consider for the pool
  for (std::size_t i = done + 1; i <= n; ++i) {
    const TensorUsageRecord& r = records[rows[i - 1]];
    for (; next <= n && records[left[next - 1]].last_op < r.first_op; ++next) {
      if (p[next] == 0) pool.emplace(records[left[next - 1]].size, next);
    }
    if (pool.empty()) continue;  // a new object
    auto best = pool.lower_bound({r.size, 0});
    if (best == pool.end()) --best;
    p[best->second] = i;
    pool.erase(best);
  }
}

/// Minimum-cost assignment of every record (row, in `rows` order) to a
/// distinct column: columns 1..n are "reuse the object of record
/// left[c - 1]" (records by last_op ascending), columns n+1..2n are "new
/// object". Returns, per record, the record whose object it reuses, or
/// kNewObject.
///
/// Two facts keep each search short without changing its result:
/// - row r can only reuse the columns 1..P(r) (P = number of records that end
///   before r begins), so columns beyond the largest P among the rows reached
///   so far still have an infinite tentative distance and are not scanned;
/// - the "new object" columns all cost size_r for any row r and the free ones
///   all have potential 0, so they are interchangeable: matched ones stay
///   matched (an augmentation only shifts rows between columns), hence they
///   are always n+1..n+K, and n+K+1 stands for every free one.
///
/// Work cap: one unit per column a search step scans. When `work` is spent
/// in the search of row i, that search is abandoned (the matching of rows
/// 1..i-1 is untouched; the potentials are no longer needed) and rows
/// i..n are matched by CompleteGreedily(). `*exact_rows` is then i - 1,
/// else n.
template <typename Cost>
std::vector<std::size_t> SolveAssignment(
    std::span<const TensorUsageRecord> records,
    const std::vector<std::size_t>& rows, WorkCap& work,
    std::size_t* exact_rows) {
  const std::size_t n = records.size();
  const std::size_t m = 2 * n;
  // (std::numeric_limits is not specialised for __int128 in strict C++20.)
  constexpr Cost kInf = static_cast<Cost>(~std::uint64_t{0} >> 1) *
                        (sizeof(Cost) > 8 ? static_cast<Cost>(1) << 60 : 1);
  std::vector<std::size_t> left(n);
  std::iota(left.begin(), left.end(), std::size_t{0});
  std::stable_sort(left.begin(), left.end(), [&](std::size_t a, std::size_t b) {
    return records[a].last_op < records[b].last_op;
  });
  std::vector<std::uint32_t> left_last(n);
  std::vector<Cost> left_size(n);
  for (std::size_t c = 0; c < n; ++c) {
    left_last[c] = records[left[c]].last_op;
    left_size[c] = static_cast<Cost>(records[left[c]].size);
  }
  // Per row (1-based): its size and how many columns it may reuse.
  std::vector<Cost> row_size(n + 1, 0);
  std::vector<std::size_t> reach(n + 1, 0);
  for (std::size_t i = 1; i <= n; ++i) {
    const TensorUsageRecord& r = records[rows[i - 1]];
    row_size[i] = static_cast<Cost>(r.size);
    reach[i] = static_cast<std::size_t>(
        std::lower_bound(left_last.begin(), left_last.end(), r.first_op) -
        left_last.begin());
  }
  // 1-based rows and columns; column 0 is the virtual start of each search.
  std::vector<Cost> u(n + 1, 0), v(m + 1, 0), minv(m + 1, kInf);
  std::vector<std::size_t> p(m + 1, 0), way(m + 1, 0);
  std::vector<char> used(m + 1, 0);
  std::size_t new_used = 0;  // matched "new object" columns: n+1..n+new_used
  *exact_rows = n;
  for (std::size_t i = 1; i <= n; ++i) {
    p[0] = i;
    std::size_t j0 = 0;
    std::size_t max_reach = 0;
    const std::size_t new_end = n + new_used + 1;  // free representative
    // Columns that may hold a finite minv: 1..max_reach and n+1..new_end.
    auto for_each_column = [&](auto&& f) {
      for (std::size_t j = 1; j <= max_reach; ++j) f(j);
      for (std::size_t j = n + 1; j <= new_end; ++j) f(j);
    };
    do {
      used[j0] = 1;
      const std::size_t i0 = p[j0];
      max_reach = std::max(max_reach, reach[i0]);
      if (!work.Charge(max_reach + (new_end - n))) break;
      const Cost ui = u[i0];
      Cost delta = kInf;
      std::size_t j1 = 0;
      for_each_column([&](std::size_t j) {
        if (used[j] != 0) return;
        Cost c = row_size[i0];
        bool feasible = true;
        if (j <= n) {
          feasible = j <= reach[i0];
          c = c > left_size[j - 1] ? c - left_size[j - 1] : Cost{0};
        }
        if (feasible) {
          const Cost reduced = c - ui - v[j];
          if (reduced < minv[j]) {
            minv[j] = reduced;
            way[j] = j0;
          }
        }
        // Ties go to a free column: the search then ends at once.
        if (minv[j] < delta || (minv[j] == delta && p[j] == 0 && p[j1] != 0)) {
          delta = minv[j];
          j1 = j;
        }
      });
      u[p[0]] += delta;  // column 0 is always used
      v[0] -= delta;
      for_each_column([&](std::size_t j) {
        if (used[j] != 0) {
          u[p[j]] += delta;
          v[j] -= delta;
        } else if (minv[j] != kInf) {
          minv[j] -= delta;
        }
      });
      j0 = j1;
    } while (p[j0] != 0);
    if (work.Spent()) {
      *exact_rows = i - 1;
      break;
    }
    if (j0 == new_end) ++new_used;
    do {  // augment along the alternating path back to column 0
      const std::size_t j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0 != 0);
    // Reset the search state of the columns it touched.
    used[0] = 0;
    for_each_column([&](std::size_t j) {
      used[j] = 0;
      minv[j] = kInf;
    });
  }
  if (*exact_rows < n) CompleteGreedily(records, rows, left, *exact_rows, p);
  std::vector<std::size_t> reuses(n, kNewObject);
  for (std::size_t j = 1; j <= n; ++j) {
    if (p[j] != 0) reuses[rows[p[j] - 1]] = left[j - 1];
  }
  return reuses;
}

}  // namespace

/// Deterministic: rows in (first_op, index) order, columns in index order;
/// among optimal flows the one the fixed search order finds. Objects are
/// numbered by their first tensor in that row order.
SharedObjectsAssignment SharedObjectsMinCostFlowWithCap(
    std::span<const TensorUsageRecord> records, std::uint64_t cap) {
  if (records.empty()) return {};
  const std::size_t n = records.size();
  const std::vector<std::size_t> rows = IndicesByFirstOp(records);
  // Potentials stay within the total cost, itself at most the sum of sizes;
  // 64-bit arithmetic is exact up to 2^61, wider beyond.
  std::uint64_t total = 0;
  bool wide = false;
  for (const TensorUsageRecord& r : records) {
    if (r.size > (std::uint64_t{1} << 61) - total) wide = true;
    if (!wide) total += r.size;
  }
  WorkCap work(cap);
  std::size_t exact_rows = n;
  const std::vector<std::size_t> reuses =
      wide ? SolveAssignment<__int128>(records, rows, work, &exact_rows)
           : SolveAssignment<std::int64_t>(records, rows, work, &exact_rows);
  SharedObjectsAssignment out;
  out.object_of.assign(n, 0);
  if (exact_rows < n) out.capped_after = exact_rows;
  for (std::size_t j : rows) {
    if (reuses[j] == kNewObject) {
      out.object_of[j] = out.object_sizes.size();
      out.object_sizes.push_back(records[j].size);
    } else {
      // reuses[j] ended before j began, so it was numbered already.
      const std::size_t obj = out.object_of[reuses[j]];
      out.object_of[j] = obj;
      out.object_sizes[obj] = std::max(out.object_sizes[obj], records[j].size);
    }
  }
  return out;
}

SharedObjectsAssignment SharedObjectsMinCostFlow(
    std::span<const TensorUsageRecord> records) {
  const std::uint64_t cap = HeuristicWorkCap(records.size());
  return SharedObjectsMinCostFlowWithCap(
      records, cap > UINT64_MAX - kMinCostFlowExtraUnits
                   ? UINT64_MAX
                   : cap + kMinCostFlowExtraUnits);
}

}  // namespace arenaplan
