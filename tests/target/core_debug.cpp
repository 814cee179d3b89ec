// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The runtime's debug mode on target (built with ARENAPLAN_DEBUG=1):
// BeforeOperator() poisons the bytes no live tensor owns and then catches a
// kernel writing past its tensor. Plan: tests/target/core_plan.hpp.
// Hand derivation of the caught write: tensor 1 ("mid") owns [32, 72) (40
// exact bytes) of its [32, 80) placement; a kernel at op 0 that writes one
// more float writes bytes [72, 76). BeforeOperator(1) checks op 0: the first
// changed byte is 72 and the live tensor ending nearest below it is tensor
// 1. Tensor 3 (at 80) is not alive at op 0 (ops 1..3) and tensor 0 ends at
// 32, so no live tensor starts above 72: tensor_above is kNoTensor.
#include <cstddef>
#include <cstdint>

#include "arenaplan/arenaplan.hpp"
#include "tests/target/check.hpp"
#include "tests/target/core_plan.hpp"

static_assert(arenaplan::kDebugMode, "build this test with ARENAPLAN_DEBUG=1");

int main() {
  using core_plan::Arena;
  // A clean run: every operator writes only its own outputs.
  for (std::size_t op = 0; op < core_plan::kOperatorCount; ++op) {
    const arenaplan::GuardReport r = Arena::BeforeOperator(op);
    CHECK(r.ok);
    if (op == 0) {
      for (float& x : Arena::Get<float>(core_plan::kIn)) x = 1.0f;
      for (float& x : Arena::Get<float>(core_plan::kMid)) x = 2.0f;
    } else if (op == 1) {
      for (std::int32_t& x : Arena::Get<std::int32_t>(core_plan::kAcc)) x = 3;
    } else if (op == 2) {
      for (float& x : Arena::Get<float>(core_plan::kOut)) x = 4.0f;
    }
  }
  CHECK(Arena::AfterLastOperator().ok);

  // A faulty kernel: op 0 writes one float past the end of "mid".
  CHECK(Arena::BeforeOperator(0).ok);
  auto mid = Arena::Get<float>(core_plan::kMid);
  volatile std::size_t past_end = mid.size();
  mid.data[past_end] = 5.0f;
  const arenaplan::GuardReport bad = Arena::BeforeOperator(1);
  CHECK(!bad.ok);
  CHECK(bad.op == 0);
  CHECK(bad.offset == 72);
  CHECK(bad.tensor_below == 1);
  CHECK(bad.tensor_above == arenaplan::kNoTensor);
  return arenaplan::target::Finish("core_debug");
}
