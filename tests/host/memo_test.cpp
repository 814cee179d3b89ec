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

}  // namespace
}  // namespace arenaplan::solver
