// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The fit check of a region and the quick assignments built on it (see
// region_fit.hpp).
#include "codegen/regions/region_fit.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <utility>

#include "codegen/base/saturating.hpp"
#include "codegen/regions/region_fill.hpp"

namespace arenaplan {
namespace region_assign {
namespace {

/// The allowed pairs of `aligned` whose two tensors are both in `members`
/// (indices into `aligned`, ascending), with indices into `members`.
std::vector<OverlapPair> PairsWithin(const UsageProblem& aligned,
                                     const std::vector<std::size_t>& members) {
  std::vector<OverlapPair> pairs;
  const auto position = [&](std::uint32_t i) -> std::size_t {
    const auto it = std::lower_bound(members.begin(), members.end(), i);
    return it != members.end() && *it == i
               ? static_cast<std::size_t>(it - members.begin())
               : members.size();
  };
  for (const OverlapPair& p : aligned.overlaps) {
    const std::size_t in = position(p.input);
    const std::size_t out = position(p.output);
    if (in == members.size() || out == members.size()) continue;
    OverlapPair q = p;
    q.input = static_cast<std::uint32_t>(in);
    q.output = static_cast<std::uint32_t>(out);
    pairs.push_back(q);
  }
  return pairs;
}

/// The smallest arena any heuristic plans for `members` (bytes; 0 when
/// empty) with `options`: cheap, and every plan it measures passed the
/// validator. When `offsets` is given, it gets that plan's offsets
/// (members' order).
std::uint64_t HeuristicBytes(const UsageProblem& sub,
                             const PlanOptions& options,
                             std::vector<std::uint64_t>* offsets) {
  const std::vector<PlanResult> plans = PlanAll(sub, options);
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  for (const PlanResult& p : plans) {
    if (p.arena_bytes >= best) continue;
    best = p.arena_bytes;
    if (offsets != nullptr) *offsets = p.offsets;
  }
  return best;
}

/// Tries to add record `i` to region `r` of `fills`; `offset_of` holds the
/// offset of every member of every region (the incremental arrangement).
bool TryAdd(Context& ctx, std::vector<RegionFill>& fills, std::size_t r,
            std::size_t i, std::vector<std::uint64_t>& offset_of) {
  RegionFill& fill = fills[r];
  const std::uint64_t capacity = (*ctx.regions)[r].capacity;
  const UsageProblem& aligned = *ctx.aligned;
  // A check costs its records and the operators (every heuristic keeps
  // per-operator state).
  const std::uint64_t cost = fill.members.size() + 1 + aligned.operator_count;
  if (!fill.skyline && ctx.replanned + cost <= kReplanRecords) {
    std::vector<std::size_t> trial = fill.members;
    InsertSorted(trial, i);
    ctx.replanned += cost;
    std::vector<std::uint64_t> offsets;
    if (!Fits(ctx, trial, capacity, &offsets)) return false;
    fill.members = std::move(trial);
    for (std::size_t k = 0; k < fill.members.size(); ++k) {
      offset_of[fill.members[k]] = offsets[k];
    }
    return true;
  }
  if (!fill.skyline) {
    fill.skyline = std::make_unique<IntervalChmaxMax>(aligned.operator_count);
    for (std::size_t m : fill.members) Place(aligned, fill, m, offset_of[m]);
  }
  const std::uint64_t offset = LowestOffset(aligned, fill, i, offset_of);
  const std::uint64_t size = aligned.records[i].size;
  if (offset > capacity || size > capacity - offset) return false;
  offset_of[i] = offset;
  Place(aligned, fill, i, offset);  // `members` is not needed any more
  return true;
}

}  // namespace

UsageProblem SubProblem(const UsageProblem& aligned,
                        const std::vector<std::size_t>& members) {
  UsageProblem sub;
  sub.operator_count = aligned.operator_count;
  sub.operator_names = aligned.operator_names;
  sub.default_alignment = aligned.default_alignment;
  sub.source = aligned.source;
  for (std::size_t i : members) {
    sub.records.push_back(aligned.records[i]);
    sub.ids.push_back(i < aligned.ids.size() ? aligned.ids[i] : "");
    sub.names.push_back(i < aligned.names.size() ? aligned.names[i] : "");
  }
  sub.overlaps = PairsWithin(aligned, members);
  return sub;
}

std::uint64_t Breadth(const UsageProblem& aligned,
                      const std::vector<std::size_t>& members, bool overlap) {
  std::vector<TensorUsageRecord> records;
  records.reserve(members.size());
  for (std::size_t i : members) records.push_back(aligned.records[i]);
  const ProfileSummary summary = SummarizeProfiles(records);
  if (!overlap || aligned.overlaps.empty()) {
    return summary.offsets_lower_bound;
  }
  return OverlapLowerBound(records, PairsWithin(aligned, members), summary);
}

bool Fits(Context& ctx, const std::vector<std::size_t>& members,
          std::uint64_t capacity, std::vector<std::uint64_t>* offsets) {
  const bool overlap = ctx.heuristic.overlap;
  if (Breadth(*ctx.aligned, members, overlap) > capacity) return false;
  if (members.empty()) return true;
  UsageProblem sub = SubProblem(*ctx.aligned, members);
  if (HeuristicBytes(sub, ctx.heuristic, offsets) <= capacity) return true;
  if (!overlap || sub.overlaps.empty()) return false;
  PlanOptions plain = ctx.heuristic;
  plain.overlap = false;
  return HeuristicBytes(sub, plain, offsets) <= capacity;
}

/// Inserts `i` into the ascending `members`.
void InsertSorted(std::vector<std::size_t>& members, std::size_t i) {
  members.insert(std::lower_bound(members.begin(), members.end(), i), i);
}

RegionAssignment FirstFit(Context& ctx, const std::vector<std::size_t>& order) {
  const std::size_t regions = ctx.regions->size();
  std::vector<RegionFill> fills(regions);
  RegionAssignment out;
  out.region_of.assign(ctx.aligned->records.size(), 0);
  out.offsets.assign(ctx.aligned->records.size(), 0);
  for (std::size_t i : order) {
    bool placed = false;
    for (std::size_t r = 0; r < regions && !placed; ++r) {
      if (TryAdd(ctx, fills, r, i, out.offsets)) {
        out.region_of[i] = static_cast<std::uint32_t>(r);
        placed = true;
      }
    }
    if (!placed) return {};
  }
  for (std::size_t r = 0; r < regions; ++r) {
    out.incremental.push_back(fills[r].skyline != nullptr);
  }
  return out;
}

std::vector<std::size_t> SizedRecords(const UsageProblem& aligned) {
  std::vector<std::size_t> sized;
  for (std::size_t i = 0; i < aligned.records.size(); ++i) {
    if (aligned.records[i].size != 0) sized.push_back(i);
  }
  return sized;
}

/// Sized records by access density, densest first: traffic / size compared
/// as traffic_a * size_b > traffic_b * size_a (128-bit), ties to the larger
/// traffic, then the lower index.
std::vector<std::size_t> ByDensity(const UsageProblem& aligned,
                                   const std::vector<std::uint64_t>& traffic) {
  std::vector<std::size_t> order = SizedRecords(aligned);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     const unsigned __int128 lhs =
                         static_cast<unsigned __int128>(traffic[a]) *
                         aligned.records[b].size;
                     const unsigned __int128 rhs =
                         static_cast<unsigned __int128>(traffic[b]) *
                         aligned.records[a].size;
                     if (lhs != rhs) return lhs > rhs;
                     return traffic[a] > traffic[b];
                   });
  return order;
}

/// Sized records, largest first (ties: lower index).
std::vector<std::size_t> BySize(const UsageProblem& aligned) {
  std::vector<std::size_t> order = SizedRecords(aligned);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return aligned.records[a].size > aligned.records[b].size;
                   });
  return order;
}

std::uint64_t Cost(const std::vector<std::uint32_t>& region_of,
                   const std::vector<std::uint64_t>& traffic) {
  std::uint64_t cost = 0;
  for (std::size_t i = 0; i < region_of.size(); ++i) {
    cost = SaturatingAdd(cost, SaturatingMul(traffic[i], region_of[i]));
  }
  return cost;
}

}  // namespace region_assign

std::vector<std::uint32_t> NaiveSplit(const UsageProblem& aligned,
                                      const std::vector<RegionSpec>& regions,
                                      bool overlap) {
  using region_assign::Breadth;
  using region_assign::BySize;
  using region_assign::Context;
  using region_assign::Fits;
  using region_assign::InsertSorted;
  using region_assign::kReplanRecords;
  using region_assign::SizedRecords;
  if (regions.size() < 2) return {};
  Context ctx;
  ctx.aligned = &aligned;
  ctx.regions = &regions;
  ctx.heuristic.alignment = Alignment::FromBytes(1);
  ctx.heuristic.overlap = overlap;
  const std::uint64_t capacity = regions.front().capacity;
  const std::vector<std::size_t> by_size = BySize(aligned);
  // The fast region's records once the `moved` largest have left it.
  const auto fast_after = [&](std::size_t moved) {
    std::vector<bool> gone(aligned.records.size(), false);
    for (std::size_t k = 0; k < moved; ++k) gone[by_size[k]] = true;
    std::vector<std::size_t> fast;
    for (std::size_t i : SizedRecords(aligned)) {
      if (!gone[i]) fast.push_back(i);
    }
    return fast;
  };
  // Fits fails while the breadth exceeds the capacity, and the breadth
  // only falls as tensors leave: the first count it does not exceed is
  // found by bisection (O(n log^2 n)), then the heuristics decide, one
  // tensor at a time, within the replan budget (none found past it). (The
  // overlap bound can rise when a tensor of several pairs leaves; the
  // bisection then starts from a count that fits the bound, not always the
  // first.)
  std::size_t lo = 0;
  std::size_t hi = by_size.size();
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (Breadth(aligned, fast_after(mid), overlap) <= capacity) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  std::size_t moved = lo;
  std::vector<std::size_t> fast = fast_after(moved);
  std::vector<std::size_t> slow(by_size.begin(),
                                by_size.begin() + static_cast<long>(moved));
  std::sort(slow.begin(), slow.end());
  while (true) {
    ctx.replanned += fast.size() + aligned.operator_count;
    if (ctx.replanned > kReplanRecords) return {};
    if (Fits(ctx, fast, capacity)) break;
    if (moved == by_size.size()) return {};
    const std::size_t i = by_size[moved++];
    fast.erase(std::find(fast.begin(), fast.end(), i));
    InsertSorted(slow, i);
  }
  if (!Fits(ctx, slow, regions.back().capacity)) return {};
  std::vector<std::uint32_t> region_of(aligned.records.size(), 0);
  for (std::size_t i : slow) {
    region_of[i] = static_cast<std::uint32_t>(regions.size() - 1);
  }
  return region_of;
}

}  // namespace arenaplan
