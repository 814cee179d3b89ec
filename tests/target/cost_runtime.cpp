// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Zero-cost measurement, runtime side: fills tensor "mid" and writes one
// value of "acc" through arenaplan::Arena typed access. cost_baseline.cpp
// does the same through a hand-placed array and constant offsets; the
// difference of the two images' sizes is what the runtime costs
// (mk/target.mk: target-cost, required 0 bytes of RAM and < 100 of code).
#include <cstddef>
#include <cstdint>

#include "arenaplan/arenaplan.hpp"
#include "tests/target/check.hpp"
#include "tests/target/core_plan.hpp"

int main() {
  auto mid = core_plan::Arena::Get<float>(core_plan::kMid);
  auto acc = core_plan::Arena::Get<std::int32_t>(core_plan::kAcc);
  volatile float seed = 1.5f;
  for (std::size_t j = 0; j < mid.size(); ++j) mid[j] = seed;
  acc[0] = static_cast<std::int32_t>(mid[3] * 2.0f);
  CHECK(acc[0] == 3);
  return arenaplan::target::Finish("cost_runtime");
}
