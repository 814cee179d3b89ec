// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The exact search's memo of failed states (codegen/solver/memo.hpp).
#include "codegen/solver/memo.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace arenaplan::solver {
namespace {

TEST(Memo, RemembersAFailureForEveryBoundUpToTheStoredOne) {
  std::vector<std::uint64_t> pool = {5, 6, 7};
  Memo memo;
  const Memo::Key key = Memo::MakeKey(pool, 0, 3);
  EXPECT_FALSE(memo.Fails(pool, key, 100));
  memo.Insert(pool, key, 100);  // no completion with arena < 100
  EXPECT_TRUE(memo.Fails(pool, key, 100));
  EXPECT_TRUE(memo.Fails(pool, key, 50));
  EXPECT_FALSE(memo.Fails(pool, key, 101));
}

TEST(Memo, KeepsTheLargerBoundOfTwoInserts) {
  std::vector<std::uint64_t> pool = {1, 2};
  Memo memo;
  const Memo::Key key = Memo::MakeKey(pool, 0, 2);
  memo.Insert(pool, key, 40);
  memo.Insert(pool, key, 30);
  EXPECT_TRUE(memo.Fails(pool, key, 40));
  memo.Insert(pool, key, 60);
  EXPECT_TRUE(memo.Fails(pool, key, 60));
  EXPECT_EQ(memo.Size(), 1u);
}

TEST(Memo, MatchesWholeKeysAtAnyPoolPosition) {
  // The same words at another position of another pool are the same state;
  // a key differing in one word, or a prefix, is not.
  std::vector<std::uint64_t> pool = {9, 9, 1, 2, 3};
  Memo memo;
  memo.Insert(pool, Memo::MakeKey(pool, 2, 3), 10);
  std::vector<std::uint64_t> other = {1, 2, 3, 1, 2, 4};
  EXPECT_TRUE(memo.Fails(other, Memo::MakeKey(other, 0, 3), 10));
  EXPECT_FALSE(memo.Fails(other, Memo::MakeKey(other, 3, 3), 10));
  EXPECT_FALSE(memo.Fails(other, Memo::MakeKey(other, 0, 2), 10));
}

TEST(Memo, SameWordsGiveTheSameHash) {
  std::vector<std::uint64_t> pool = {3, 1, 4, 1, 5, 9, 2, 6, 3, 1, 4, 1, 5};
  const Memo::Key a = Memo::MakeKey(pool, 0, 5);
  const Memo::Key b = Memo::MakeKey(pool, 8, 5);
  const Memo::Key c = Memo::MakeKey(pool, 1, 5);
  EXPECT_EQ(a.hash, b.hash);
  EXPECT_NE(a.hash, c.hash);
}

TEST(Memo, FindsEveryKeyAfterTheTableAndTheStoreGrow) {
  // 20,000 keys of 1 to 150 words (several table doublings and blocks,
  // 1.5 M words in all, within the budget);
  // key k is the words k, k + 1, ... and fails below bound 1000 + k.
  std::vector<std::uint64_t> pool;
  std::vector<Memo::Key> keys;
  for (std::uint64_t k = 0; k < 20000; ++k) {
    const std::size_t first = pool.size();
    const std::size_t len = 1 + k % 150;
    for (std::size_t w = 0; w < len; ++w) pool.push_back(k + w);
    keys.push_back(Memo::MakeKey(pool, first, len));
  }
  Memo memo;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    memo.Insert(pool, keys[k], 1000 + k);
  }
  EXPECT_EQ(memo.Size(), keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) {
    ASSERT_TRUE(memo.Fails(pool, keys[k], 1000 + k)) << k;
    ASSERT_FALSE(memo.Fails(pool, keys[k], 1001 + k)) << k;
  }
  // Words never inserted are no state.
  std::vector<std::uint64_t> other = {7, 8};
  EXPECT_FALSE(memo.Fails(other, Memo::MakeKey(other, 0, 2), 0));
}

TEST(Memo, DropsNewKeysBeyondItsWordBudgetButStillRaisesOldOnes) {
  // One key of half the budget fits, the second too, a third does not.
  std::vector<std::uint64_t> pool(Memo::kMaxWords / 2 + 1, 0);
  for (std::size_t w = 0; w < pool.size(); ++w) pool[w] = w;
  Memo memo;
  const Memo::Key a = Memo::MakeKey(pool, 0, Memo::kMaxWords / 2);
  const Memo::Key b = Memo::MakeKey(pool, 1, Memo::kMaxWords / 2);
  const Memo::Key c = Memo::MakeKey(pool, 0, 1);
  memo.Insert(pool, a, 10);
  memo.Insert(pool, b, 10);
  memo.Insert(pool, c, 10);
  EXPECT_TRUE(memo.Fails(pool, a, 10));
  EXPECT_TRUE(memo.Fails(pool, b, 10));
  EXPECT_FALSE(memo.Fails(pool, c, 10));
  EXPECT_EQ(memo.Size(), 2u);
  memo.Insert(pool, a, 20);
  EXPECT_TRUE(memo.Fails(pool, a, 20));
}

}  // namespace
}  // namespace arenaplan::solver
