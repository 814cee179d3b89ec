// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The exact search's memo of failed states (docs/optimal.md, "Memo").
#ifndef ARENAPLAN_CODEGEN_SOLVER_MEMO_HPP_
#define ARENAPLAN_CODEGEN_SOLVER_MEMO_HPP_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace arenaplan::solver {

/// Failed states of the search: a state (the level, the segments closed at
/// it, the top so far, the set of unplaced tensors of the sub-problem, and
/// the skyline over the segments they occupy) determines the set of
/// completions the search explores below it (not their order) and every
/// pruning rule applied there, so when one state has no completion with
/// arena < B, neither has the same state reached along another path with a
/// bound <= B. Keys are stored whole (no hash-only matches), up to a fixed
/// memory budget (kMaxWords words; later keys are dropped), in blocks that
/// are never moved, indexed by an open-addressing table of their hashes.
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
  /// Words of the first block; each later block is twice the one before,
  /// so copying a key never moves the ones stored before it.
  static constexpr std::size_t kFirstBlock = std::size_t{1} << 12;
  struct Entry {
    std::uint64_t hash;
    std::uint64_t bound;  // no completion with arena < bound
    std::uint32_t block;  // the words: blocks_[block][pos, pos + len)
    std::uint32_t pos;
    std::size_t len;
  };

  /// Index into entries_ of the state `key` of `pool`, or kNone.
  [[nodiscard]] std::uint32_t Find(const std::vector<std::uint64_t>& pool,
                                   const Key& key) const;
  /// Doubles the table (at least 1024 slots) and inserts every entry again.
  void Grow();

  std::vector<std::uint32_t> slots_;  // entry index or kNone; size 2^k
  std::vector<Entry> entries_;
  std::vector<std::vector<std::uint64_t>> blocks_;  // capacity fixed
  std::size_t words_ = 0;  // key words stored in all blocks
};

}  // namespace arenaplan::solver

#endif  // ARENAPLAN_CODEGEN_SOLVER_MEMO_HPP_
