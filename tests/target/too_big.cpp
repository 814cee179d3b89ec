// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Firmware whose arena cannot fit a small board: the plan of
// tests/target/data/too_big_for_small.csv needs 80000 bytes (two 40000-byte
// tensors alive together). mk/target.mk links it for boards with less RAM
// and expects the link to FAIL with port/cortex_m.ld's arena message naming
// "80000 bytes". If it ever links, running it fails as well.
#include <cstddef>

#include "arenaplan/arenaplan.hpp"
#include "tests/target/check.hpp"
#include "too_big/too_big_for_small__offsets__greedy_by_size.hpp"

namespace plan = ap_too_big_for_small_offsets_greedy_by_size;
static_assert(plan::kArenaSize == 80000, "the hand-derived arena size");

int main() {
  volatile std::byte* arena = plan::Arena::Data();
  arena[plan::kArenaSize - 1] = std::byte{1};
  arenaplan::port::Write(
      "FAIL too_big: linked although the arena does not fit\n");
  return 1;
}
