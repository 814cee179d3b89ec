// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The exact search's memo of failed states (docs/optimal.md, "Memo").
#ifndef ARENAPLAN_CODEGEN_SOLVER_MEMO_HPP_
#define ARENAPLAN_CODEGEN_SOLVER_MEMO_HPP_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

namespace arenaplan::solver {

/// Failed states of the search: a state (the level, the segments closed at
/// it, the top so far, the set of unplaced tensors of the sub-problem, and
/// the skyline over the segments they occupy) determines the set of
/// completions the search explores below it (not their order) and every
/// pruning rule applied there, so when one state has no completion with
/// arena < B, neither has the same state reached along another path with a
/// bound <= B. Keys are stored whole (no hash-only matches), up to a fixed
/// memory budget (kMaxWords words; later keys are dropped).
class Memo {
 public:
  /// A key: words [first, first + len) of a caller's pool, and their hash.
  struct Key {
    std::size_t first = 0;
    std::size_t len = 0;
    std::uint64_t hash = 0;
  };

  /// 16 MiB of key words per memo.
  static constexpr std::size_t kMaxWords = std::size_t{2} << 20;

  /// Hashes words [first, first + len) of `pool` (four independent lanes,
  /// then a final mix) into a Key.
  [[nodiscard]] static Key MakeKey(const std::vector<std::uint64_t>& pool,
                                   std::size_t first, std::size_t len);

  /// True when `key` (of `pool`) is known to have no completion with arena
  /// below `best` (bytes).
  [[nodiscard]] bool Fails(const std::vector<std::uint64_t>& pool,
                           const Key& key, std::uint64_t best) const;

  /// Records that `key` has no completion with arena < `bound` (bytes); an
  /// existing entry keeps the larger bound. The key's words are copied.
  void Insert(const std::vector<std::uint64_t>& pool, const Key& key,
              std::uint64_t bound);

  /// Number of states stored.
  [[nodiscard]] std::size_t Size() const { return entries_.size(); }

 private:
  static constexpr std::uint32_t kNone =
      std::numeric_limits<std::uint32_t>::max();
  struct Entry {
    std::size_t pos;
    std::size_t len;
    std::uint64_t bound;  // no completion with arena < bound
    std::uint32_t next;
  };

  [[nodiscard]] std::uint32_t Head(std::uint64_t h) const;
  [[nodiscard]] bool Equal(const std::vector<std::uint64_t>& pool,
                           const Key& key, std::uint32_t e) const;

  std::unordered_map<std::uint64_t, std::uint32_t> heads_;
  std::vector<Entry> entries_;
  std::vector<std::uint64_t> words_;
};

}  // namespace arenaplan::solver

#endif  // ARENAPLAN_CODEGEN_SOLVER_MEMO_HPP_
