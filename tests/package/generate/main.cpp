// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Prints `arena <kArenaSize> sum <bytes>`: the plan header's arena size,
// and the sum of its tensors' sizes, each rounded up to kAlignment, added
// here (what a plan in which no two tensors share a byte needs).
#include <cstddef>
#include <cstdio>

#include "checked_plan.hpp"

int main() {
  std::size_t sum = 0;
  for (std::size_t i = 0; i < checked::kTensorCount; ++i) {
    const std::size_t a = checked::kAlignment;
    sum += (checked::kTensorBytes[i] + a - 1) / a * a;
  }
  std::printf("arena %zu sum %zu\n", checked::kArenaSize, sum);
  return 0;
}
