// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflm/reserved_arena.hpp"

#include <optional>
#include <vector>

#include "codegen/tflm/greedy_rule.hpp"

namespace arenaplan::tflm {

ReservedArena ReserveLikeTflm(const tflite::TfliteProblem& p,
                              const PlanResult& plan) {
  std::vector<GreedyBuffer> buffers;
  for (std::size_t r = 0; r < plan.problem.records.size(); ++r) {
    const TensorUsageRecord& rec = plan.problem.records[r];
    if (rec.size == 0) continue;
    GreedyBuffer b{rec.size, rec.first_op, rec.last_op, std::nullopt};
    if (p.record_tensor[r] >= 0) b.fixed_offset = plan.offsets[r];
    buffers.push_back(b);
  }
  ReservedArena out;
  out.with_plan_bytes = TflmGreedyPlace(buffers).arena_bytes;
  for (GreedyBuffer& b : buffers) b.fixed_offset.reset();
  out.greedy_only_bytes = TflmGreedyPlace(buffers).arena_bytes;
  return out;
}

}  // namespace arenaplan::tflm
