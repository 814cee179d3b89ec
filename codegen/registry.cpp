// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The strategy registry. Adding a strategy: one file under
// codegen/strategies/ and one line in the table below (plus its declaration).
#include <array>

#include "codegen/strategy.hpp"

namespace arenaplan {

// Offset Calculation strategies (one file each under codegen/strategies/).
OffsetsAssignment OffsetsNaive(std::span<const TensorUsageRecord> records);

// Shared Objects strategies (one file each under codegen/strategies/).
SharedObjectsAssignment SharedObjectsNaive(
    std::span<const TensorUsageRecord> records);

namespace {

constexpr auto kStrategies = std::to_array<StrategyInfo>({
    // --- Offset Calculation (§5) ---
    {Approach::kOffsets, "naive", "every tensor its own bytes (baseline)",
     &OffsetsNaive, nullptr, 0},
    // --- Shared Objects (§4) ---
    {Approach::kSharedObjects, "naive", "one object per tensor (baseline)",
     nullptr, &SharedObjectsNaive, 0},
});

}  // namespace

std::span<const StrategyInfo> AllStrategies() { return kStrategies; }

const StrategyInfo* FindStrategy(Approach approach, std::string_view name) {
  for (const StrategyInfo& s : kStrategies) {
    if (s.approach == approach && s.name == name) return &s;
  }
  return nullptr;
}

OffsetsAssignment ObjectsToOffsets(const SharedObjectsAssignment& objects) {
  std::vector<std::uint64_t> object_offset(objects.object_sizes.size());
  std::uint64_t next = 0;
  for (std::size_t k = 0; k < objects.object_sizes.size(); ++k) {
    object_offset[k] = next;
    next += objects.object_sizes[k];
  }
  OffsetsAssignment out;
  out.offsets.reserve(objects.object_of.size());
  for (std::size_t obj : objects.object_of) {
    out.offsets.push_back(object_offset[obj]);
  }
  return out;
}

}  // namespace arenaplan
