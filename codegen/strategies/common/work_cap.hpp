// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The deterministic work cap of the heuristics whose exact rule is
// quadratic on dense inputs (issue 17, finding 5).
//
// Alg. 3's smallest fitting gap (Pisarchyk & Lee 2019, L.7-21) and Alg. 2's
// smallest suitable object are decided by every placed record (object)
// whose usage interval intersects the one being placed. On network-shaped
// inputs those are few; on dense random lifetimes they are a third of all
// placed records, and their gaps alone grow linearly with n (about 1 % of n
// gaps of at least the size being placed), so no index we know of keeps the
// exact rule below Theta(n^2) there.
//
// So each such heuristic counts its work in units (one placed record or
// object examined) against a cap that grows as n log n. While the cap
// holds, the heuristic is the paper's rule byte for byte. Once it is
// spent, every remaining record is placed by a bounded rule, stated in the
// strategy's file, that costs O(log n) amortised units; the result says so
// (`capped_after`), and the planner reports it. The cap counts work, not
// time, so the plan is the same on every machine.
#ifndef ARENAPLAN_CODEGEN_STRATEGIES_COMMON_WORK_CAP_HPP_
#define ARENAPLAN_CODEGEN_STRATEGIES_COMMON_WORK_CAP_HPP_

#include <bit>
#include <cstddef>
#include <cstdint>

namespace arenaplan {

/// Work units per record and per bit of n (the n log n part of the cap).
inline constexpr std::uint64_t kWorkCapPerRecordBit = 16;
/// Work units every input may spend regardless of n: 2^24, far above what
/// Alg. 3 needs on any network-shaped input or on MiniMalloc's instances
/// (at most n^2 / 2, about 10^5 for 454 records).
inline constexpr std::uint64_t kWorkCapFloor = std::uint64_t{1} << 24;

/// The cap in work units for n records: kWorkCapFloor +
/// kWorkCapPerRecordBit * n * bit_width(n). Saturates instead of
/// overflowing.
[[nodiscard]] constexpr std::uint64_t HeuristicWorkCap(std::size_t n) {
  const std::uint64_t bits = std::bit_width(static_cast<std::uint64_t>(n));
  const std::uint64_t per = kWorkCapPerRecordBit * bits;
  if (n != 0 && per > (UINT64_MAX - kWorkCapFloor) / n) return UINT64_MAX;
  return kWorkCapFloor + per * n;
}

/// Spends work units against a cap. Once Spent(), it stays spent.
class WorkCap {
 public:
  explicit constexpr WorkCap(std::uint64_t cap) : cap_(cap) {}

  /// Adds `units`; returns true while the total is still within the cap.
  constexpr bool Charge(std::uint64_t units) {
    used_ = units > UINT64_MAX - used_ ? UINT64_MAX : used_ + units;
    return used_ <= cap_;
  }
  [[nodiscard]] constexpr bool Spent() const { return used_ > cap_; }
  [[nodiscard]] constexpr std::uint64_t used() const { return used_; }
  [[nodiscard]] constexpr std::uint64_t cap() const { return cap_; }

 private:
  std::uint64_t cap_;
  std::uint64_t used_ = 0;
};

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_STRATEGIES_COMMON_WORK_CAP_HPP_
