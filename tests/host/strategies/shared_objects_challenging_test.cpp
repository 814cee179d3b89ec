// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The Shared Objects strategies on MiniMalloc's challenging instances
// (../shared/benchmarks/minimalloc-challenging): each assignment valid and
// at or above the lower bound of §4 (the largest breadth of the positional
// maximums).
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "codegen/records.hpp"
#include "tests/host/support/shared_objects_check.hpp"

namespace arenaplan {
namespace {

using namespace shared_objects_check;  // NOLINT(build/namespaces)

// MiniMalloc's challenging instances (CSV id,lower,upper,size; upper is
// exclusive). Every strategy validates and stays above the lower bound; the
// footprints are printed for the README table.
TEST(SharedObjectsChallenging, StayValidAndAboveTheLowerBound) {
  for (const char* name : {"A", "B", "C", "D", "E"}) {
    const std::string path = std::string(ARENAPLAN_SHARED_DIR) +
                             "/benchmarks/minimalloc-challenging/" + name +
                             ".1048576.csv";
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    std::string line;
    std::getline(in, line);
    Records r;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      std::stringstream ss(line);
      std::string id, lower, upper, size;
      std::getline(ss, id, ',');
      std::getline(ss, lower, ',');
      std::getline(ss, upper, ',');
      std::getline(ss, size, ',');
      r.push_back({static_cast<std::uint32_t>(std::stoul(lower)),
                   static_cast<std::uint32_t>(std::stoul(upper) - 1),
                   std::stoull(size)});
    }
    ASSERT_FALSE(r.empty()) << path;
    const std::uint64_t bound = SummarizeProfiles(r).shared_objects_lower_bound;
    std::cout << name << " (" << r.size() << " tensors) lower bound " << bound;
    for (const Named& s : kAll) {
      const auto a = s.fn(r);
      ASSERT_EQ(Check(r, a), "") << s.name << " on " << name;
      EXPECT_GE(Footprint(a), bound) << s.name << " on " << name;
      std::cout << " | " << s.name << " " << Footprint(a);
    }
    std::cout << "\n";
  }
}

}  // namespace
}  // namespace arenaplan
