// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// OverlapForcedBound (records.hpp): the lower bound on the arena of a plan
// with overlap permits, from the tensor pairs every plan of a smaller arena
// would have to overlap (their difference constraints shown infeasible).
#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <set>
#include <utility>

#include "codegen/records.hpp"

namespace arenaplan {

namespace {

/// One distinct tensor pair {input, output} at an operator, for the forced
/// bound: its permits' common relation and direction (when they agree),
/// the least distance among them, and the breadth and S(k) of its
/// operator.
struct PairGroup {
  std::uint32_t op = 0;
  std::uint32_t input = 0;
  std::uint32_t output = 0;
  OverlapRelation relation = OverlapRelation::kOutputBelowBy;
  std::uint64_t distance = 0;
  std::uint64_t savings = 0;  ///< the largest over its permits
  bool forceable = true;      ///< all permits agree on relation/direction
  std::uint64_t breadth = 0;  ///< B(k)
  std::uint64_t saved = 0;    ///< S(k), saturating
};

/// Tensor pairs some OverlapPair names (either order), sorted: the pairs
/// that may share bytes at all.
using Permitted = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

/// Rounds of the compulsory-part step in ForcedFeasible.
constexpr int kCompulsoryRounds = 4;

/// Steps (tensors scanned, pairs looked up) the window step of one
/// ForcedFeasible call may take; past it no more sets are tried (fewer
/// constraints: still a bound). Far above what a model of a few hundred
/// tensors needs (tflm_id_model: at most 1,508 a call), it keeps inputs
/// of thousands of tensors with pairs from taking cubic time.
constexpr std::uint64_t kWindowWork = std::uint64_t{1} << 24;

/// A difference constraint x_to - x_from <= weight over the nodes of
/// ForcedFeasible: 0 is the origin, node i + 1 the offset of tensor i.
struct DifferenceEdge {
  std::size_t from;
  std::size_t to;
  std::int64_t weight;
};

/// Distance of a node not reached (yet).
constexpr std::int64_t kFar = std::numeric_limits<std::int64_t>::max() / 4;

/// Appends to `edges` the relations of the groups forced at `arena` and
/// the box [0, arena - size] of every tensor. False when a tensor is larger
/// than `arena`.
/// Whether the pair of `g` must share bytes in every plan of arena <=
/// `arena`: B(k) - S(k) + savings > arena (in 128 bits: no overflow).
bool ForcedAt(const PairGroup& g, std::uint64_t arena) {
  if (!g.forceable) return false;
  const unsigned __int128 need =
      static_cast<unsigned __int128>(g.breadth) + g.savings;
  return need > static_cast<unsigned __int128>(arena) + g.saved;
}

bool ForcedConstraints(std::span<const TensorUsageRecord> records,
                       std::span<const PairGroup> groups, std::uint64_t arena,
                       std::vector<DifferenceEdge>& edges) {
  for (const PairGroup& g : groups) {
    if (!ForcedAt(g, arena)) continue;
    const std::size_t in = g.input + 1;
    const std::size_t out = g.output + 1;
    // x_to - x_from <= weight.
    if (g.relation == OverlapRelation::kAlias) {
      edges.push_back({in, out, 0});
      edges.push_back({out, in, 0});
    } else {
      edges.push_back({in, out, -static_cast<std::int64_t>(g.distance)});
      edges.push_back(
          {out, in, static_cast<std::int64_t>(records[g.output].size) - 1});
    }
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (records[i].size > arena) return false;
    edges.push_back(
        {0, i + 1, static_cast<std::int64_t>(arena - records[i].size)});
    edges.push_back({i + 1, 0, 0});
  }
  return true;
}

/// Whether some OverlapPair names tensors a and b (either order).
bool PermittedPair(const Permitted& permitted, std::uint32_t a,
                   std::uint32_t b) {
  return std::binary_search(permitted.begin(), permitted.end(),
                            std::make_pair(std::min(a, b), std::max(a, b)));
}

/// The window step of ForcedFeasible (docs/optimal.md, "Windows of forced
/// chains"). A set P of tensors joined by pairs forced at `arena` covers
/// one gap-free range of offsets [min offset, max top) in every plan of
/// arena <= `arena` (each forced pair shares bytes). A tensor alive at
/// every operator of P's span of time with no pair into P meets each
/// member and shares no byte with any, so it lies wholly below or above
/// that range; the blockers of P (all such tensors) are alive together, so
/// they need at least W bytes outside it: their sizes minus, for each pair
/// some OverlapPair names among them, the smaller size (Bonferroni), and
/// at least the largest. Hence max top - min offset <= arena - W, which a
/// node g per P states as difference constraints: x_g <= x_c and x_c +
/// size_c <= x_g + arena - W for every member c. The sets P tried are, for
/// every tensor b, the forced-connected parts of the tensors with a forced
/// pair that live within b's lifetime and have no pair with b (so b is
/// among their blockers). Appends the edges, numbering the new nodes from
/// `records.size() + 1`; returns how many, or nullopt when some P's
/// blockers alone need more than `arena` bytes (no plan).
std::optional<std::size_t> WindowConstraints(
    std::span<const TensorUsageRecord> records,
    std::span<const PairGroup> groups, const Permitted& permitted,
    std::uint64_t arena, std::vector<DifferenceEdge>& edges) {
  const std::size_t n = records.size();
  std::vector<std::vector<std::uint32_t>> forced(n);
  std::vector<std::uint32_t> chained;  // tensors with a forced pair
  for (const PairGroup& g : groups) {
    if (!ForcedAt(g, arena)) continue;
    if (forced[g.input].empty()) chained.push_back(g.input);
    if (forced[g.output].empty()) chained.push_back(g.output);
    forced[g.input].push_back(g.output);
    forced[g.output].push_back(g.input);
  }
  if (chained.empty()) return std::size_t{0};
  std::sort(chained.begin(), chained.end());
  std::set<std::vector<std::uint32_t>> tried;
  std::vector<std::uint32_t> stamp(n, 0);  // = b + 1: candidate for b
  std::vector<std::uint32_t> part, blockers;
  std::size_t windows = 0;
  std::uint64_t work = 0;
  for (std::uint32_t b = 0; b < n && work <= kWindowWork; ++b) {
    const TensorUsageRecord& rb = records[b];
    if (rb.size == 0) continue;
    work += chained.size();
    for (std::uint32_t c : chained) {
      if (c != b && rb.first_op <= records[c].first_op &&
          records[c].last_op <= rb.last_op && !PermittedPair(permitted, b, c)) {
        stamp[c] = b + 1;
      }
    }
    for (std::uint32_t root : chained) {
      if (stamp[root] != b + 1) continue;
      // The forced-connected part of root among b's candidates (visited
      // members get stamp 0, so each is taken once per b).
      part.assign(1, root);
      stamp[root] = 0;
      for (std::size_t k = 0; k < part.size(); ++k) {
        for (std::uint32_t v : forced[part[k]]) {
          if (stamp[v] == b + 1) {
            stamp[v] = 0;
            part.push_back(v);
          }
        }
      }
      if (part.size() < 2) continue;
      std::sort(part.begin(), part.end());
      if (work > kWindowWork || !tried.insert(part).second) continue;
      work += n * part.size();
      std::uint32_t first = records[part[0]].first_op;
      std::uint32_t last = records[part[0]].last_op;
      for (std::uint32_t c : part) {
        first = std::min(first, records[c].first_op);
        last = std::max(last, records[c].last_op);
      }
      blockers.clear();
      for (std::uint32_t t = 0; t < n; ++t) {
        if (records[t].size == 0 || records[t].first_op > first ||
            records[t].last_op < last ||
            std::binary_search(part.begin(), part.end(), t)) {
          continue;
        }
        bool free = true;
        for (std::uint32_t c : part) {
          if (PermittedPair(permitted, t, c)) {
            free = false;
            break;
          }
        }
        if (free) blockers.push_back(t);
      }
      // W in 128 bits: sizes are below 2^62, their count below 2^32.
      work += blockers.size() * blockers.size();
      unsigned __int128 sum = 0, shared = 0;
      std::uint64_t largest = 0;
      for (std::size_t i = 0; i < blockers.size(); ++i) {
        const std::uint64_t si = records[blockers[i]].size;
        sum += si;
        largest = std::max(largest, si);
        for (std::size_t j = i + 1; j < blockers.size(); ++j) {
          if (PermittedPair(permitted, blockers[i], blockers[j])) {
            shared += std::min(si, records[blockers[j]].size);
          }
        }
      }
      const unsigned __int128 need =
          std::max<unsigned __int128>(largest, sum > shared ? sum - shared : 0);
      if (need == 0) continue;
      if (need > arena) return std::nullopt;
      const auto room =
          static_cast<std::int64_t>(arena - static_cast<std::uint64_t>(need));
      const std::size_t g = n + 1 + windows++;
      for (std::uint32_t c : part) {
        // x_c - x_g <= room - size_c; x_g - x_c <= 0.
        edges.push_back(
            {g, c + 1, room - static_cast<std::int64_t>(records[c].size)});
        edges.push_back({c + 1, g, 0});
      }
    }
  }
  return windows;
}

/// Shortest distances (Bellman-Ford) from node 0 along `edges` (reversed:
/// to node 0) into `dist`, one per node of [0, nodes); false on a negative
/// cycle.
bool ShortestDistances(const std::vector<DifferenceEdge>& edges,
                       std::size_t nodes, bool reversed,
                       std::vector<std::int64_t>& dist) {
  dist.assign(nodes, kFar);
  dist[0] = 0;
  for (std::size_t round = 0; round <= nodes; ++round) {
    bool changed = false;
    for (const DifferenceEdge& e : edges) {
      const std::size_t a = reversed ? e.to : e.from;
      const std::size_t b = reversed ? e.from : e.to;
      if (dist[a] != kFar && dist[a] + e.weight < dist[b]) {
        dist[b] = dist[a] + e.weight;
        changed = true;
      }
    }
    if (!changed) return true;
  }
  return false;
}

/// The lowest and the highest offset in [lo, top] outside every open hole
/// (a, b) of `holes`: steps over holes until none covers the end (few
/// holes). The lowest exceeds the highest when no offset is left.
std::pair<std::int64_t, std::int64_t> OutsideHoles(
    const std::vector<std::pair<std::int64_t, std::int64_t>>& holes,
    std::int64_t lo, std::int64_t top) {
  std::int64_t new_lo = lo, new_hi = top;
  bool moved = true;
  while (moved) {
    moved = false;
    for (const auto& [a, b] : holes) {
      if (a < new_hi && new_hi < b) {
        new_hi = a;
        moved = true;
      }
    }
  }
  moved = true;
  while (moved) {
    moved = false;
    for (const auto& [a, b] : holes) {
      if (a < new_lo && new_lo < b) {
        new_lo = b;
        moved = true;
      }
    }
  }
  return {new_lo, new_hi};
}

/// One round of the compulsory-part step of ForcedFeasible: with the
/// ranges [lo, hi] of the offsets (lo = -to_origin), every sized tensor's
/// range narrowed to the offsets outside the compulsory parts of the
/// `solid` tensors it meets in time and has no pair with, the narrowed ends
/// appended to `edges` (`tightened` set when one is). False when a tensor
/// has no offset left.
bool TightenRanges(std::span<const TensorUsageRecord> records,
                   const Permitted& permitted,
                   const std::vector<std::uint32_t>& solid,
                   const std::vector<std::int64_t>& hi,
                   const std::vector<std::int64_t>& to_origin,
                   std::vector<DifferenceEdge>& edges, bool& tightened) {
  const std::size_t n = records.size();
  std::vector<std::pair<std::int64_t, std::int64_t>> holes;  // open (a, b)
  for (std::uint32_t t = 0; t < n; ++t) {
    if (records[t].size == 0) continue;  // occupies no byte
    holes.clear();
    const auto size_t_bytes = static_cast<std::int64_t>(records[t].size);
    for (std::uint32_t u : solid) {
      if (u == t || !records[t].Intersects(records[u])) continue;
      if (PermittedPair(permitted, t, u)) continue;
      const std::int64_t c0 = hi[u + 1];
      const std::int64_t c1 =
          -to_origin[u + 1] + static_cast<std::int64_t>(records[u].size);
      holes.emplace_back(c0 - size_t_bytes, c1);  // t not in (a, b)
    }
    if (holes.empty()) continue;
    std::sort(holes.begin(), holes.end());
    const std::int64_t lo = -to_origin[t + 1];
    const std::int64_t top = hi[t + 1];
    const auto [new_lo, new_hi] = OutsideHoles(holes, lo, top);
    if (new_lo > new_hi) return false;
    if (new_lo > lo) {
      edges.push_back({t + 1, 0, -new_lo});
      tightened = true;
    }
    if (new_hi < top) {
      edges.push_back({0, t + 1, new_hi});
      tightened = true;
    }
  }
  return true;
}

/// False when no plan of arena `arena` exists by this argument: the
/// relations of the groups forced at `arena` and the box [0, arena - size]
/// of every tensor (difference constraints) have no common solution; or,
/// with the ranges [lo, hi] of the offsets they allow, some tensor t has no
/// offset left in its range outside the compulsory parts [hi_u, lo_u +
/// size_u) of the tensors u it meets in time and has no pair with (every
/// solution puts u over those bytes, and t may not share a byte with u).
/// The ranges t keeps are added as constraints and the step repeated.
/// True otherwise (a relaxation: no plan is refuted wrongly).
bool ForcedFeasible(std::span<const TensorUsageRecord> records,
                    std::span<const PairGroup> groups,
                    const Permitted& permitted, std::uint64_t arena) {
  const std::size_t n = records.size();
  std::vector<DifferenceEdge> edges;
  if (!ForcedConstraints(records, groups, arena, edges)) return false;
  const std::optional<std::size_t> windows =
      WindowConstraints(records, groups, permitted, arena, edges);
  if (!windows) return false;
  const std::size_t nodes = n + 1 + *windows;
  std::vector<std::int64_t> hi, to_origin;
  for (int round = 0; round < kCompulsoryRounds; ++round) {
    // Every tensor reaches the origin and back (the box), and every window
    // node its members, so a negative cycle anywhere shows from the origin.
    if (!ShortestDistances(edges, nodes, false, hi) ||
        !ShortestDistances(edges, nodes, true, to_origin)) {
      return false;
    }
    // Tensors with a compulsory part: hi < lo + size.
    std::vector<std::uint32_t> solid;
    for (std::uint32_t u = 0; u < n; ++u) {
      const std::int64_t lo = -to_origin[u + 1];
      if (hi[u + 1] < lo + static_cast<std::int64_t>(records[u].size)) {
        solid.push_back(u);
      }
    }
    if (solid.empty()) return true;
    bool tightened = false;
    if (!TightenRanges(records, permitted, solid, hi, to_origin, edges,
                       tightened)) {
      return false;
    }
    if (!tightened) return true;
  }
  return true;
}

}  // namespace

std::uint64_t OverlapForcedBound(std::span<const TensorUsageRecord> records,
                                 std::span<const OverlapPair> overlaps,
                                 const ProfileSummary& summary,
                                 std::uint64_t upper) {
  const std::uint64_t base = OverlapLowerBound(records, overlaps, summary);
  if (overlaps.empty() || upper <= base) return base;
  constexpr std::uint64_t kLimit = std::uint64_t{1} << 62;
  if (upper >= kLimit) return base;
  for (const OverlapPair& p : overlaps) {
    if (p.distance >= kLimit) return base;
  }
  // Distinct tensor pairs by operator.
  std::vector<std::size_t> order(overlaps.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto key = [&](std::size_t k) {
    const OverlapPair& p = overlaps[k];
    return std::make_tuple(p.op, std::min(p.input, p.output),
                           std::max(p.input, p.output));
  };
  std::sort(order.begin(), order.end(),
            [&](std::size_t x, std::size_t y) { return key(x) < key(y); });
  std::vector<PairGroup> groups;
  for (std::size_t at = 0; at < order.size();) {
    const OverlapPair& first = overlaps[order[at]];
    const auto group_key = key(order[at]);
    PairGroup g;
    g.op = first.op;
    g.input = first.input;
    g.output = first.output;
    g.relation = first.relation;
    g.distance = first.distance;
    for (; at < order.size() && key(order[at]) == group_key; ++at) {
      const OverlapPair& p = overlaps[order[at]];
      if (p.input != g.input || p.relation != g.relation) g.forceable = false;
      g.distance = std::min(g.distance, p.distance);
      g.savings = std::max(g.savings, OverlapSavings(records, p));
    }
    groups.push_back(g);
  }
  // B(k) and S(k) of each group's operator (groups are sorted by operator).
  for (std::size_t i = 0; i < groups.size();) {
    const std::uint32_t op = groups[i].op;
    std::size_t j = i;
    std::uint64_t saved = 0;
    for (; j < groups.size() && groups[j].op == op; ++j) {
      saved =
          groups[j].savings > std::numeric_limits<std::uint64_t>::max() - saved
              ? std::numeric_limits<std::uint64_t>::max()
              : saved + groups[j].savings;
    }
    const auto it = std::upper_bound(summary.segment_first_op.begin(),
                                     summary.segment_first_op.end(), op);
    std::uint64_t breadth = 0;
    if (it != summary.segment_first_op.begin()) {
      const auto s =
          static_cast<std::size_t>(it - summary.segment_first_op.begin()) - 1;
      if (op <= summary.segment_last_op[s]) {
        breadth = summary.segment_breadth[s];
      }
    }
    for (; i < j; ++i) {
      groups[i].breadth = breadth;
      groups[i].saved = saved;
    }
  }
  // Tensor pairs that may share bytes (the compulsory-part step skips them).
  Permitted permitted;
  for (const OverlapPair& p : overlaps) {
    permitted.emplace_back(std::min(p.input, p.output),
                           std::max(p.input, p.output));
  }
  std::sort(permitted.begin(), permitted.end());
  if (!ForcedFeasible(records, groups, permitted, upper)) {
    return base;  // not a plan
  }
  // The smallest feasible arena in [base, upper]: Feasible(upper) holds.
  std::uint64_t lo = base;  // unknown at lo (may be feasible)
  std::uint64_t hi = upper;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (ForcedFeasible(records, groups, permitted, mid)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return hi;
}

}  // namespace arenaplan
