// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Proves the arena walk can fail: a deliberately broken, test-only plan in
// which two tensors that are alive at the same operator share bytes. The
// image must report the failure and exit 1; mk/target.mk expects exactly
// that status and the failure line derived below.
//
// The plan (offsets and sizes in bytes, operators inclusive):
//   tensor 0: bytes [0, 16),  ops 0..1
//   tensor 1: bytes [16, 32), ops 1..2
//   tensor 2: bytes [8, 24),  ops 2..3   <- shares [16, 24) with tensor 1,
//                                           and both are alive at op 2
// Hand derivation of the walk: step 0 writes tensor 0; step 1 checks tensor
// 0, writes tensor 1; step 2 checks tensor 1 (intact; tensor 0 is dead),
// writes tensor 2 over [8, 24), then re-checks the tensors alive at 2 in
// index order: tensor 1's first byte, offset 16, now holds tensor 2's byte.
// Expected line: "FAILED at step 2: tensor 1 lost its pattern at arena
// offset 16". validate() must call the same plan kOverlap.
#include <cstddef>
#include <cstdint>

#include "arenaplan/plan.hpp"
#include "tests/target/check.hpp"
#include "tests/target/walk.hpp"

namespace overlap {
inline constexpr std::size_t kArenaSize = 32;
inline constexpr std::size_t kAlignment = 8;
inline constexpr std::size_t kOperatorCount = 4;
inline constexpr std::size_t kTensorCount = 3;
inline constexpr arenaplan::Placement kPlan[kTensorCount] = {
    {0, 16, 0, 1}, {16, 16, 1, 2}, {8, 16, 2, 3}};
}  // namespace overlap

namespace {
alignas(8) [[gnu::section(".arena")]] std::uint8_t arena[overlap::kArenaSize];
}  // namespace

int main() {
  // Through a volatile copy so that validate() really runs on the target.
  volatile std::size_t arena_size = overlap::kArenaSize;
  const arenaplan::ValidationResult v = arenaplan::validate(
      overlap::kPlan, overlap::kTensorCount, arena_size, overlap::kAlignment);
  arenaplan::port::Write("walk_overlap: validate() says ");
  arenaplan::port::Write(arenaplan::ToString(v));
  arenaplan::port::Write("\n");
  CHECK(v == arenaplan::ValidationResult::kOverlap);

  const arenaplan::target::WalkPlan w{"overlap", overlap::kPlan,
                                      overlap::kTensorCount,
                                      overlap::kArenaSize, overlap::kAlignment};
  const arenaplan::target::WalkResult r = arenaplan::target::Walk(w, arena, 1);
  arenaplan::target::ReportWalk(w, r);
  // The expected failure, exactly where the derivation above puts it.
  CHECK(!r.ok && r.step == 2 && r.tensor == 1 && r.offset == 16);
  if (arenaplan::target::failures != 0) {
    arenaplan::port::Write("walk_overlap: the walk did not fail as derived\n");
    return 2;
  }
  return 1;  // the walk failed as it must
}
