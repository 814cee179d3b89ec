// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflm/reserved_arena.hpp"

#include "codegen/tflm/offline_plan.hpp"

namespace arenaplan::tflm {

std::vector<GreedyBuffer> TflmBuffers(const tflite::TfliteProblem& problem,
                                      const tflite::Model& model) {
  std::vector<bool> graph_input;
  if (!model.subgraphs.empty()) {
    graph_input.assign(model.subgraphs[0].tensors.size(), false);
    for (std::int32_t t : model.subgraphs[0].inputs) {
      if (t >= 0 && static_cast<std::size_t>(t) < graph_input.size()) {
        graph_input[static_cast<std::size_t>(t)] = true;
      }
    }
  }
  std::vector<GreedyBuffer> out;
  const UsageProblem& p = problem.problem;
  for (std::size_t r = 0; r < p.records.size(); ++r) {
    const TensorUsageRecord& rec = p.records[r];
    if (rec.size == 0) continue;
    const std::int32_t t = problem.record_tensor[r];
    const bool input = t >= 0 &&
                       static_cast<std::size_t>(t) < graph_input.size() &&
                       graph_input[static_cast<std::size_t>(t)];
    GreedyBuffer b;
    b.size = (rec.size + kTflmBufferAlignment - 1) / kTflmBufferAlignment *
             kTflmBufferAlignment;
    b.first_op = input ? 0 : rec.first_op + 1;
    b.last_op = rec.last_op + 1;
    b.record = r;
    out.push_back(b);
  }
  return out;
}

std::uint64_t TflmHead(const tflite::TfliteProblem& problem,
                       const tflite::Model& model, const PlanResult* plan) {
  std::vector<GreedyBuffer> buffers = TflmBuffers(problem, model);
  if (plan != nullptr) {
    for (GreedyBuffer& b : buffers) {
      if (problem.record_tensor[b.record] >= 0) {
        b.fixed_offset = plan->offsets[b.record];
      }
    }
  }
  return TflmGreedyPlace(buffers).arena_bytes;
}

}  // namespace arenaplan::tflm
