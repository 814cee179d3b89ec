// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/solver/memo.hpp"

#include <algorithm>
#include <array>

namespace arenaplan::solver {

Memo::Key Memo::MakeKey(const std::vector<std::uint64_t>& pool,
                        std::size_t first, std::size_t len) {
  constexpr std::uint64_t kMul = 0x9e3779b97f4a7c15ULL;
  std::array<std::uint64_t, 4> lane = {
      len, 0x243f6a8885a308d3ULL, 0x13198a2e03707344ULL, 0xa4093822299f31d0ULL};
  std::size_t k = 0;
  for (; k + 4 <= len; k += 4) {
    for (std::size_t j = 0; j < 4; ++j) {
      lane[j] = (lane[j] ^ pool[first + k + j]) * kMul;
    }
  }
  for (; k < len; ++k) lane[k % 4] = (lane[k % 4] ^ pool[first + k]) * kMul;
  std::uint64_t h = lane[0] ^ (lane[1] << 1 | lane[1] >> 63) ^
                    (lane[2] << 2 | lane[2] >> 62) ^
                    (lane[3] << 3 | lane[3] >> 61);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return Key{first, len, h};
}

bool Memo::Fails(const std::vector<std::uint64_t>& pool, const Key& key,
                 std::uint64_t best) const {
  const std::uint32_t e = Find(pool, key);
  return e != kNone && best <= entries_[e].bound;
}

void Memo::Insert(const std::vector<std::uint64_t>& pool, const Key& key,
                  std::uint64_t bound) {
  const std::uint32_t found = Find(pool, key);
  if (found != kNone) {
    entries_[found].bound = std::max(entries_[found].bound, bound);
    return;
  }
  if (words_ + key.len > kMaxWords) return;
  if (blocks_.empty() ||
      blocks_.back().size() + key.len > blocks_.back().capacity()) {
    std::size_t words =
        blocks_.empty() ? kFirstBlock : 2 * blocks_.back().capacity();
    words = std::max(words, key.len);
    blocks_.emplace_back().reserve(words);
  }
  std::vector<std::uint64_t>& block = blocks_.back();
  const std::size_t pos = block.size();
  block.insert(block.end(),
               pool.begin() + static_cast<std::ptrdiff_t>(key.first),
               pool.begin() + static_cast<std::ptrdiff_t>(key.first + key.len));
  words_ += key.len;
  if (2 * (entries_.size() + 1) > slots_.size()) Grow();
  entries_.push_back(Entry{key.hash, bound,
                           static_cast<std::uint32_t>(blocks_.size() - 1),
                           static_cast<std::uint32_t>(pos), key.len});
  const std::size_t mask = slots_.size() - 1;
  std::size_t s = key.hash & mask;
  while (slots_[s] != kNone) s = (s + 1) & mask;
  slots_[s] = static_cast<std::uint32_t>(entries_.size() - 1);
}

std::uint32_t Memo::Find(const std::vector<std::uint64_t>& pool,
                         const Key& key) const {
  if (slots_.empty()) return kNone;
  const std::size_t mask = slots_.size() - 1;
  const std::uint64_t* want =
      pool.data() + static_cast<std::ptrdiff_t>(key.first);
  for (std::size_t s = key.hash & mask;; s = (s + 1) & mask) {
    const std::uint32_t e = slots_[s];
    if (e == kNone) return kNone;
    const Entry& entry = entries_[e];
    if (entry.hash == key.hash && entry.len == key.len &&
        std::equal(want, want + key.len,
                   blocks_[entry.block].data() + entry.pos)) {
      return e;
    }
  }
}

void Memo::Grow() {
  slots_.assign(std::max<std::size_t>(1024, 2 * slots_.size()), kNone);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t e = 0; e < entries_.size(); ++e) {
    std::size_t s = entries_[e].hash & mask;
    while (slots_[s] != kNone) s = (s + 1) & mask;
    slots_[s] = static_cast<std::uint32_t>(e);
  }
}

}  // namespace arenaplan::solver
