// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The core runtime on target: validate() and FindViolation() evaluated at
// run time on the core (inputs pass through volatile so nothing is folded
// at compile time), and the static arena with typed access: where the
// array lies (the linker's .arena section), its alignment, the address and
// element count of each tensor, and a 4-operator computation whose tensors
// reuse each other's bytes (plan: tests/target/core_plan.hpp).
#include <cstddef>
#include <cstdint>

#include "arenaplan/arenaplan.hpp"
#include "tests/target/check.hpp"
#include "tests/target/core_plan.hpp"

extern "C" std::uint8_t __arena_start[];
extern "C" std::uint8_t __arena_end[];

namespace {

using arenaplan::Placement;
using arenaplan::ValidationResult;

/// validate() of `plan` with one field of one entry replaced at run time.
ValidationResult ValidateModified(std::size_t tensor, int field,
                                  std::size_t value, std::size_t alignment) {
  Placement copy[core_plan::kTensorCount];
  for (std::size_t i = 0; i < core_plan::kTensorCount; ++i) {
    copy[i] = core_plan::kPlan[i];
  }
  volatile std::size_t v = value;
  switch (field) {
    case 0:
      copy[tensor].offset = v;
      break;
    case 1:
      copy[tensor].size = v;
      break;
    case 2:
      copy[tensor].first_op = v;
      break;
    case 3:
      copy[tensor].last_op = v;
      break;
    default:
      break;
  }
  volatile std::size_t arena = core_plan::kArenaSize;
  volatile std::size_t align = alignment;
  return arenaplan::validate(copy, core_plan::kTensorCount, arena, align);
}

void TestValidate() {
  // field: 0 offset, 1 size, 2 first_op, 3 last_op.
  CHECK(ValidateModified(0, 0, 0, 16) == ValidationResult::kOk);
  CHECK(ValidateModified(0, 0, 0, 0) == ValidationResult::kBadAlignment);
  CHECK(ValidateModified(0, 0, 0, 24) == ValidationResult::kBadAlignment);
  // Tensor 3 born at 4 but dying at 3.
  CHECK(ValidateModified(3, 2, 4, 16) == ValidationResult::kBadInterval);
  CHECK(ValidateModified(1, 0, 40, 16) == ValidationResult::kMisaligned);
  // Tensor 3 at 80 with 32 bytes ends at 112 > 96.
  CHECK(ValidateModified(3, 1, 32, 16) == ValidationResult::kOutOfBounds);
  // Tensor 2 at [0,32) born at op 1 meets tensor 0 at [0,32), alive at 1.
  CHECK(ValidateModified(2, 2, 1, 16) == ValidationResult::kOverlap);
  // Tensor 3 moved to 64: [64,80) meets tensor 1's [32,80) at ops 1..2.
  CHECK(ValidateModified(3, 0, 64, 16) == ValidationResult::kOverlap);
  // Tensor 0 living to op 2 still meets tensor 2 (op 2), same bytes.
  Placement copy[core_plan::kTensorCount] = {
      core_plan::kPlan[0], core_plan::kPlan[1], core_plan::kPlan[2],
      core_plan::kPlan[3]};
  volatile std::size_t last = 2;
  copy[0].last_op = last;
  const arenaplan::Violation v = arenaplan::FindViolation(
      copy, core_plan::kTensorCount, core_plan::kArenaSize, 16);
  CHECK(v.result == ValidationResult::kOverlap);
  CHECK(v.first == 0 && v.second == 2);
}

void TestArena() {
  using core_plan::Arena;
  std::byte* const base = Arena::Data();
  const auto addr = reinterpret_cast<std::uintptr_t>(base);
  CHECK(addr % core_plan::kAlignment == 0);
  // The array is the whole .arena section of this image: exactly 96 bytes.
  CHECK(reinterpret_cast<std::uintptr_t>(__arena_start) == addr);
  CHECK(static_cast<std::size_t>(__arena_end - __arena_start) ==
        core_plan::kArenaSize);

  auto in = Arena::Get<float>(core_plan::kIn);
  auto mid = Arena::Get<float>(core_plan::kMid);
  auto out = Arena::Get<float>(core_plan::kOut);
  auto acc = Arena::Get<std::int32_t>(core_plan::kAcc);
  CHECK(reinterpret_cast<std::byte*>(in.data) == base + 0);
  CHECK(reinterpret_cast<std::byte*>(mid.data) == base + 32);
  CHECK(reinterpret_cast<std::byte*>(out.data) == base + 0);
  CHECK(reinterpret_cast<std::byte*>(acc.data) == base + 80);
  CHECK(in.size() == 8 && mid.size() == 10 && out.size() == 8);
  CHECK(acc.size() == 4 && acc.size_bytes() == 16);
  // The same tensor as bytes: 32 of them.
  CHECK((Arena::Get<std::uint8_t, 0>().size() == 32));

  // op 0: in[i] = i + 1; mid[j] = 2 * j.        (in: 1..8, mid: 0,2,..,18)
  // op 1: acc[0] = sum(in) = 36; acc[1] = sum(mid[0..7]) = 56.
  // op 2: out[i] = mid[i] + mid[i + 2]  (in is dead; out reuses its bytes)
  //       = 2i + 2(i + 2) = 4i + 4, so out = 4, 8, ..., 32.
  // op 3: acc[2] = sum(out) = 4 * 36 = 144; acc[3] = acc[0] + acc[1] = 92.
  volatile float one = 1.0f;
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = one * (i + 1);
  for (std::size_t j = 0; j < mid.size(); ++j) mid[j] = one * 2 * j;
  float s_in = 0, s_mid = 0;
  for (float x : in) s_in += x;
  for (std::size_t j = 0; j < 8; ++j) s_mid += mid[j];
  acc[0] = static_cast<std::int32_t>(s_in);
  acc[1] = static_cast<std::int32_t>(s_mid);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = mid[i] + mid[i + 2];
  float s_out = 0;
  for (float x : out) s_out += x;
  acc[2] = static_cast<std::int32_t>(s_out);
  acc[3] = acc[0] + acc[1];
  CHECK(acc[0] == 36 && acc[1] == 56 && acc[2] == 144 && acc[3] == 92);
  CHECK(out[0] == 4.0f && out[7] == 32.0f);
  CHECK(mid[9] == 18.0f);  // untouched by writes to out and acc
}

}  // namespace

int main() {
  TestValidate();
  TestArena();
  return arenaplan::target::Finish("core_runtime");
}
