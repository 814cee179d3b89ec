// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Na\"ive Shared Objects: one object per tensor, nothing shared. The paper's
// baseline row ("Na\"ive", Table 1).
#include "codegen/strategies/strategy.hpp"

namespace arenaplan {

SharedObjectsAssignment SharedObjectsNaive(
    std::span<const TensorUsageRecord> records) {
  SharedObjectsAssignment out;
  out.object_of.reserve(records.size());
  out.object_sizes.reserve(records.size());
  for (const TensorUsageRecord& r : records) {
    out.object_of.push_back(out.object_sizes.size());
    out.object_sizes.push_back(r.size);
  }
  return out;
}

}  // namespace arenaplan
