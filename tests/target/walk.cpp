// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The arena walk (tests/target/walk.hpp) over every plan generated for this
// board: every offset and shared-objects strategy of the CLI for every input
// whose arena fits the board's RAM (tests/target/select_plans.sh writes
// walk_plans.hpp). All plans share one static arena in the linker's .arena
// section, sized for the largest. Each plan is also checked by
// arenaplan::validate() at run time, and must have been generated at all.
#include "tests/target/walk.hpp"

#include <cstddef>
#include <cstdint>

#include "arenaplan/plan.hpp"
#include "tests/target/check.hpp"
#include "walk_plans.hpp"  // build/target/<board>/, generated

namespace {

alignas(kWalkMaxAlignment < 8 ? 8 : kWalkMaxAlignment)
    [[gnu::section(".arena")]] std::uint8_t walk_arena[kWalkMaxArena];

}  // namespace

int main() {
  using arenaplan::target::WalkPlan;
  static_assert(sizeof(kWalkPlans) / sizeof(kWalkPlans[0]) >= 1,
                "no plan to walk");
  std::uint32_t salt = 0x5EED0000u;
  for (const WalkPlan& w : kWalkPlans) {
    CHECK(arenaplan::validate(w.plan, w.tensor_count, w.arena_size,
                              w.alignment) == arenaplan::ValidationResult::kOk);
    CHECK(w.arena_size <= sizeof(walk_arena));
    const arenaplan::target::WalkResult r =
        arenaplan::target::Walk(w, walk_arena, salt++);
    if (!arenaplan::target::ReportWalk(w, r)) ++arenaplan::target::failures;
  }
  arenaplan::port::Write("walk: ");
  arenaplan::port::WriteUnsigned(sizeof(kWalkPlans) / sizeof(kWalkPlans[0]));
  arenaplan::port::Write(" plans on " ARENAPLAN_BOARD "\n");
  return arenaplan::target::Finish("walk");
}
