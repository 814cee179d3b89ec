// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The exact assignment search (see assignment_search.hpp).
#include "codegen/regions/assignment_search.hpp"

#include <chrono>
#include <utility>

#include "codegen/base/saturating.hpp"
#include "codegen/base/time_limit.hpp"

namespace arenaplan::region_assign {

AssignmentSearch::AssignmentSearch(Context& ctx,
                                   const std::vector<std::uint64_t>& traffic,
                                   std::vector<std::size_t> order,
                                   double seconds, std::uint64_t max_nodes,
                                   bool first_only)
    : ctx_(ctx),
      traffic_(traffic),
      order_(std::move(order)),
      deadline_(DeadlineAfter(seconds)),
      max_nodes_(max_nodes),
      first_only_(first_only),
      members_(ctx.regions->size()),
      current_(ctx.aligned->records.size(), 0),
      rest_(order_.size() + 1, 0) {
  // rest_[d]: what the records order_[d..] cost at least, each in the
  // fastest region whose capacity is not below its size.
  for (std::size_t d = order_.size(); d-- > 0;) {
    const std::size_t i = order_[d];
    std::size_t rank = 0;
    while (rank < ctx.regions->size() &&
           (*ctx.regions)[rank].capacity < ctx.aligned->records[i].size) {
      ++rank;
    }
    rest_[d] = SaturatingAdd(rest_[d + 1], SaturatingMul(traffic_[i], rank));
  }
}

ExactAssignment AssignmentSearch::Run(
    const std::vector<std::uint32_t>& incumbent) {
  if (!incumbent.empty()) {
    best_.region_of = incumbent;
    best_.cost = Cost(incumbent, traffic_);
  }
  stopped_ = false;
  Descend(0, 0);
  // Stopped at the first assignment: not proven minimal, but found.
  best_.complete = !stopped_;
  return best_;
}

void AssignmentSearch::Descend(std::size_t depth, std::uint64_t cost) {
  if (stopped_ || SaturatingAdd(cost, rest_[depth]) >= best_.cost) return;
  if (depth == order_.size()) {
    best_.region_of = current_;
    best_.cost = cost;
    if (first_only_) stopped_ = true;
    return;
  }
  if (++nodes_ > max_nodes_ ||
      ((nodes_ & 63) == 0 && std::chrono::steady_clock::now() > deadline_)) {
    stopped_ = true;
    return;
  }
  const std::size_t i = order_[depth];
  for (std::size_t r = 0; r < members_.size(); ++r) {
    const std::uint64_t next =
        SaturatingAdd(cost, SaturatingMul(traffic_[i], r));
    if (next >= best_.cost) break;  // higher ranks cost no less
    std::vector<std::size_t> trial = members_[r];
    InsertSorted(trial, i);
    if (!Fits(ctx_, trial, (*ctx_.regions)[r].capacity)) continue;
    std::swap(members_[r], trial);
    current_[i] = static_cast<std::uint32_t>(r);
    Descend(depth + 1, next);
    current_[i] = 0;
    std::swap(members_[r], trial);
    if (stopped_) return;
  }
}

}  // namespace arenaplan::region_assign
