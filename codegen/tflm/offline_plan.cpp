// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflm/offline_plan.hpp"

#include <limits>
#include <string>

#include "codegen/base/errors.hpp"
#include "codegen/tflite/bytes.hpp"

namespace arenaplan::tflm {

using tflite::LoadU32;
using tflite::MetadataEntry;
using tflite::Model;
using tflite::TfliteProblem;

std::vector<std::int32_t> OfflinePlanWords(const TfliteProblem& problem,
                                           const PlanResult& plan,
                                           std::size_t subgraph_count) {
  const std::size_t n = problem.total_tensor_count;
  if (n >
      static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) - 3) {
    throw InputError(problem.problem.source + ": too many tensors");
  }
  std::vector<std::int32_t> words(3 + n, -1);
  words[0] = 0;
  words[1] = static_cast<std::int32_t>(subgraph_count);
  words[2] = static_cast<std::int32_t>(n);
  for (std::size_t r = 0; r < problem.record_tensor.size(); ++r) {
    const std::int32_t t = problem.record_tensor[r];
    if (t < 0 || plan.problem.records[r].size == 0) continue;
    if (plan.offsets[r] >
        static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max())) {
      throw InputError(problem.problem.source + ": tensor " +
                       std::to_string(t) +
                       ": offset does not fit TFLM's int32 plan");
    }
    words[3 + static_cast<std::size_t>(t)] =
        static_cast<std::int32_t>(plan.offsets[r]);
  }
  return words;
}

std::optional<std::vector<std::int32_t>> ReadOfflinePlan(const Model& model) {
  for (const MetadataEntry& e : model.metadata) {
    if (e.name != kOfflinePlanName) continue;
    const std::vector<std::uint8_t>& data = model.buffers[e.buffer].data;
    std::vector<std::int32_t> words(data.size() / 4);
    for (std::size_t i = 0; i < words.size(); ++i) {
      words[i] = static_cast<std::int32_t>(LoadU32(data, 4 * i));
    }
    return words;
  }
  return std::nullopt;
}

}  // namespace arenaplan::tflm
