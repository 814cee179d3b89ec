// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The strategy registry (codegen/strategies/registry.cpp): every entry sets
// exactly the functions of its kind and approach, and names are unique.
#include <gtest/gtest.h>

#include <set>
#include <string_view>

#include "codegen/strategies/strategy.hpp"

namespace arenaplan {
namespace {

TEST(Registry, EntriesSetTheFunctionsOfTheirKind) {
  for (const StrategyInfo& s : AllStrategies()) {
    SCOPED_TRACE(std::string(s.name));
    if (!s.IsHeuristic()) {
      EXPECT_NE(s.search, nullptr);
      EXPECT_EQ(s.offsets, nullptr);
      EXPECT_EQ(s.offsets_overlap, nullptr);
      EXPECT_EQ(s.shared_objects, nullptr);
      continue;
    }
    EXPECT_EQ(s.search, nullptr);
    if (s.approach == Approach::kOffsets) {
      EXPECT_NE(s.offsets, nullptr);
      EXPECT_EQ(s.shared_objects, nullptr);
    } else {
      EXPECT_NE(s.shared_objects, nullptr);
      EXPECT_EQ(s.offsets, nullptr);
      EXPECT_EQ(s.offsets_overlap, nullptr);
    }
    EXPECT_FALSE(s.reference.empty());
  }
}

TEST(Registry, NamesAreUniqueWithinAnApproach) {
  std::set<std::pair<Approach, std::string_view>> seen;
  for (const StrategyInfo& s : AllStrategies()) {
    EXPECT_TRUE(seen.insert({s.approach, s.name}).second) << s.name;
  }
}

TEST(Registry, HeuristicsComeBeforeSearches) {
  bool search_seen = false;
  for (const StrategyInfo& s : AllStrategies()) {
    if (!s.IsHeuristic()) search_seen = true;
    EXPECT_FALSE(search_seen && s.IsHeuristic()) << s.name;
  }
}

}  // namespace
}  // namespace arenaplan
