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
  for (std::uint32_t e = Head(key.hash); e != kNone; e = entries_[e].next) {
    if (Equal(pool, key, e)) return best <= entries_[e].bound;
  }
  return false;
}

void Memo::Insert(const std::vector<std::uint64_t>& pool, const Key& key,
                  std::uint64_t bound) {
  for (std::uint32_t e = Head(key.hash); e != kNone; e = entries_[e].next) {
    if (Equal(pool, key, e)) {
      entries_[e].bound = std::max(entries_[e].bound, bound);
      return;
    }
  }
  if (words_.size() + key.len > kMaxWords) return;
  auto [it, fresh] = heads_.try_emplace(key.hash, kNone);
  entries_.push_back(Entry{words_.size(), key.len, bound, it->second});
  it->second = static_cast<std::uint32_t>(entries_.size() - 1);
  words_.insert(
      words_.end(), pool.begin() + static_cast<std::ptrdiff_t>(key.first),
      pool.begin() + static_cast<std::ptrdiff_t>(key.first + key.len));
}

std::uint32_t Memo::Head(std::uint64_t h) const {
  const auto it = heads_.find(h);
  return it == heads_.end() ? kNone : it->second;
}

bool Memo::Equal(const std::vector<std::uint64_t>& pool, const Key& key,
                 std::uint32_t e) const {
  return entries_[e].len == key.len &&
         std::equal(
             words_.begin() + static_cast<std::ptrdiff_t>(entries_[e].pos),
             words_.begin() +
                 static_cast<std::ptrdiff_t>(entries_[e].pos + key.len),
             pool.begin() + static_cast<std::ptrdiff_t>(key.first));
}

}  // namespace arenaplan::solver
