// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The arena walk: runs a plan's operators in order on a real arena and
// proves, with memory contents rather than arithmetic, that no tensor is
// overwritten while it is alive.
//
// Every tensor has a 32-bit pattern word unique to it within the plan. When
// a tensor is born (at its first_op) every byte of it is written: the byte
// at arena offset a gets byte (a mod 4) of the word, so aligned runs are
// written and checked a word at a time. At each step t (an operator at
// which at least one tensor is born) the walk
//   1. checks every tensor alive at t and born before t still holds its
//      pattern (the step's inputs and everything live across it),
//   2. writes the pattern of every tensor born at t (the step's outputs),
//   3. checks every tensor alive at t again, so two outputs of one step
//      that share a byte are caught too.
// An operator at which nothing is born writes nothing, so its check would
// repeat the previous one; the walk therefore visits birth steps only and
// handles plans whose operator indices are sparse (MiniMalloc time steps).
// first_op and last_op are inclusive. Zero-size tensors own no byte.
#ifndef ARENAPLAN_TESTS_TARGET_WALK_HPP_
#define ARENAPLAN_TESTS_TARGET_WALK_HPP_

#include <cstddef>
#include <cstdint>

#include "arenaplan/plan.hpp"
#include "port/port.hpp"

namespace arenaplan::target {

/// One plan as the generated header gives it (kPlan and its constants).
struct WalkPlan {
  const char* name;
  const Placement* plan;     ///< kTensorCount placements, borrowed.
  std::size_t tensor_count;  ///< kTensorCount
  std::size_t arena_size;    ///< kArenaSize, bytes
  std::size_t alignment;     ///< kAlignment, bytes
};

/// What the walk found. On failure `step`, `tensor` and `offset` name the
/// first byte (arena offset) found not to hold its tensor's pattern.
struct WalkResult {
  bool ok = true;
  bool out_of_bounds = false;  ///< A tensor does not fit the arena.
  std::size_t steps = 0;       ///< Birth steps visited.
  std::size_t bytes_checked = 0;
  std::size_t step = 0;
  std::size_t tensor = 0;
  std::size_t offset = 0;
  std::uint8_t expected = 0;
  std::uint8_t found = 0;
};

/// The pattern word of tensor `index`: murmur3's 32-bit finaliser of
/// (index * odd constant) ^ salt. Each stage is a bijection of 32-bit
/// words, so distinct indices get distinct words.
constexpr std::uint32_t PatternWord(std::size_t index, std::uint32_t salt) {
  std::uint32_t x = static_cast<std::uint32_t>(index) * 0x9E3779B1u ^ salt;
  x ^= x >> 16;
  x *= 0x85EBCA6Bu;
  x ^= x >> 13;
  x *= 0xC2B2AE35u;
  x ^= x >> 16;
  return x;
}

namespace walk_detail {

constexpr std::uint8_t ByteOf(std::uint32_t word, std::size_t offset) {
  return static_cast<std::uint8_t>(word >> (8 * (offset & 3u)));
}

/// Writes tensor `p`'s pattern `word` over its bytes of `arena`.
inline void Fill(std::uint8_t* arena, const Placement& p, std::uint32_t word) {
  std::size_t a = p.offset;
  const std::size_t end = p.offset + p.size;
  for (; a < end && (a & 3u) != 0; ++a) arena[a] = ByteOf(word, a);
  for (; a + 4 <= end; a += 4) {
    *reinterpret_cast<volatile std::uint32_t*>(arena + a) = word;
  }
  for (; a < end; ++a) arena[a] = ByteOf(word, a);
}

/// The first arena offset in `p` not holding `word`'s byte, or `end`.
inline std::size_t FirstMismatch(const std::uint8_t* arena, const Placement& p,
                                 std::uint32_t word) {
  std::size_t a = p.offset;
  const std::size_t end = p.offset + p.size;
  for (; a < end && (a & 3u) != 0; ++a) {
    if (arena[a] != ByteOf(word, a)) return a;
  }
  for (; a + 4 <= end; a += 4) {
    if (*reinterpret_cast<const volatile std::uint32_t*>(arena + a) != word) {
      break;  // the byte loop below finds the exact byte
    }
  }
  for (; a < end; ++a) {
    if (arena[a] != ByteOf(word, a)) return a;
  }
  return end;
}

}  // namespace walk_detail

/// Walks `w` on `arena` (at least w.arena_size bytes, aligned to
/// w.alignment and to 4). `salt` varies the patterns between plans.
inline WalkResult Walk(const WalkPlan& w, std::uint8_t* arena,
                       std::uint32_t salt) {
  using walk_detail::FirstMismatch;
  WalkResult r;
  for (std::size_t i = 0; i < w.tensor_count; ++i) {
    const Placement& p = w.plan[i];
    if (p.offset > w.arena_size || p.size > w.arena_size - p.offset) {
      r.ok = false;
      r.out_of_bounds = true;
      r.tensor = i;
      r.offset = p.offset;
      return r;
    }
  }
  // Checks the tensors alive at `t` (born before `t` unless `with_born`).
  auto check = [&](std::size_t t, bool with_born) {
    for (std::size_t i = 0; i < w.tensor_count; ++i) {
      const Placement& p = w.plan[i];
      if (p.size == 0 || p.last_op < t || p.first_op > t) continue;
      if (p.first_op == t && !with_born) continue;
      const std::uint32_t word = PatternWord(i, salt);
      const std::size_t bad = FirstMismatch(arena, p, word);
      r.bytes_checked += p.size;
      if (bad != p.offset + p.size) {
        r.ok = false;
        r.step = t;
        r.tensor = i;
        r.offset = bad;
        r.expected = walk_detail::ByteOf(word, bad);
        r.found = arena[bad];
        return false;
      }
    }
    return true;
  };
  bool have_step = false;
  std::size_t t = 0;
  for (;;) {
    // The next birth step: the smallest first_op above the current one.
    bool found = false;
    std::size_t next = 0;
    for (std::size_t i = 0; i < w.tensor_count; ++i) {
      const Placement& p = w.plan[i];
      if (p.size == 0 || (have_step && p.first_op <= t)) continue;
      if (!found || p.first_op < next) next = p.first_op;
      found = true;
    }
    if (!found) return r;
    t = next;
    have_step = true;
    ++r.steps;
    if (!check(t, false)) return r;
    for (std::size_t i = 0; i < w.tensor_count; ++i) {
      const Placement& p = w.plan[i];
      if (p.size != 0 && p.first_op == t) {
        walk_detail::Fill(arena, p, PatternWord(i, salt));
      }
    }
    if (!check(t, true)) return r;
  }
}

/// Prints one line about `w`'s walk: "walk NAME: ok ..." or
/// "walk NAME: FAILED ...". Returns result.ok.
inline bool ReportWalk(const WalkPlan& w, const WalkResult& r) {
  port::Write("walk ");
  port::Write(w.name);
  if (r.ok) {
    port::Write(": ok, ");
    port::WriteUnsigned(static_cast<std::uint32_t>(w.tensor_count));
    port::Write(" tensors, arena ");
    port::WriteUnsigned(static_cast<std::uint32_t>(w.arena_size));
    port::Write(" B, ");
    port::WriteUnsigned(static_cast<std::uint32_t>(r.steps));
    port::Write(" steps, ");
    port::WriteUnsigned(static_cast<std::uint32_t>(r.bytes_checked));
    port::Write(" B checked\n");
    return true;
  }
  if (r.out_of_bounds) {
    port::Write(": FAILED: tensor ");
    port::WriteUnsigned(static_cast<std::uint32_t>(r.tensor));
    port::Write(" lies outside the arena\n");
    return false;
  }
  port::Write(": FAILED at step ");
  port::WriteUnsigned(static_cast<std::uint32_t>(r.step));
  port::Write(": tensor ");
  port::WriteUnsigned(static_cast<std::uint32_t>(r.tensor));
  port::Write(" lost its pattern at arena offset ");
  port::WriteUnsigned(static_cast<std::uint32_t>(r.offset));
  port::Write(" (expected ");
  port::WriteHex(r.expected);
  port::Write(", found ");
  port::WriteHex(r.found);
  port::Write(")\n");
  return false;
}

}  // namespace arenaplan::target

#endif  // ARENAPLAN_TESTS_TARGET_WALK_HPP_
