// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// PlanLeanFusion (fuse.hpp): fuse only where the arena needs it.
#include <algorithm>
#include <vector>

#include "codegen/fuse/fuse.hpp"

namespace arenaplan::fuse {

FusePlan PlanLeanFusion(const tflite::Model& model,
                        const tflite::TfliteProblem& problem,
                        const std::vector<OverlapPair>& pairs,
                        Alignment alignment, const ArenaOf& arena_of) {
  FusePlan full = PlanFusion(model, problem, pairs, alignment);
  const std::uint64_t bound = full.lower_bound;
  const std::uint64_t arena = arena_of(full.problem);
  // A candidate qualifies when it reaches the fused lower bound and the
  // arena stays at most PlanFusion's.
  const auto fits = [&](const FusePlan& p) {
    return p.lower_bound == bound && arena_of(p.problem) <= arena;
  };
  FusePlan fewest =
      PlanFusion(model, problem, pairs, alignment, FusionTies::kFewestFused);
  if (fits(fewest)) return fewest;
  std::vector<Segment> segments = full.segments;
  std::vector<std::size_t> order(segments.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return segments[a].ops.size() > segments[b].ops.size();
                   });
  // `lean`: the last segmentation that qualified (each later trial that
  // does not qualify leaves `dropped` as it was).
  FusePlan lean = std::move(full);
  std::vector<bool> dropped(segments.size(), false);
  for (std::size_t k : order) {
    dropped[k] = true;
    std::vector<Segment> trial;
    for (std::size_t i = 0; i < segments.size(); ++i) {
      if (!dropped[i]) trial.push_back(segments[i]);
    }
    FusePlan p =
        ApplySegments(model, problem, pairs, std::move(trial), alignment);
    if (fits(p)) {
      lean = std::move(p);
    } else {
      dropped[k] = false;
    }
  }
  return lean;
}

}  // namespace arenaplan::fuse
