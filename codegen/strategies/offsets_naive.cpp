// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Na\"ive Offset Calculation: every tensor gets its own bytes, in record
// order. The paper's baseline row ("Na\"ive", Tables 1 and 2).
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {

OffsetsAssignment OffsetsNaive(std::span<const TensorUsageRecord> records) {
  OffsetsAssignment out;
  out.offsets.reserve(records.size());
  std::uint64_t next = 0;
  for (const TensorUsageRecord& r : records) {
    out.offsets.push_back(next);
    next += r.size;
  }
  return out;
}

}  // namespace arenaplan
