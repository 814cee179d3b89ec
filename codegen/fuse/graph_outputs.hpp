// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
// Shared by the fuse room's units (fuse.cpp, fuse_plan.cpp).
#pragma once

#include <algorithm>
#include <cstdint>

#include "codegen/tflite/model.hpp"

namespace arenaplan::fuse::internal {

/// Whether tensor `t` is a graph output of subgraph `sg`.
inline bool IsGraphOutput(const tflite::Subgraph& sg, std::int32_t t) {
  return std::find(sg.outputs.begin(), sg.outputs.end(), t) != sg.outputs.end();
}

}  // namespace arenaplan::fuse::internal
