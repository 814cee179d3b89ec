// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Alignment: a power of two, checked where it is made.
#include "codegen/base/alignment.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "codegen/base/errors.hpp"
#include "codegen/planner/planner.hpp"

namespace arenaplan {
namespace {

TEST(Alignment, DefaultsToOneByte) { EXPECT_EQ(Alignment().bytes(), 1u); }

TEST(Alignment, AcceptsEveryPowerOfTwo) {
  for (int k = 0; k < 64; ++k) {
    const std::uint64_t bytes = std::uint64_t{1} << k;
    EXPECT_EQ(Alignment::FromBytes(bytes).bytes(), bytes) << k;
  }
}

TEST(Alignment, RejectsWhatIsNoPowerOfTwoNamingTheOption) {
  for (const std::uint64_t bytes :
       {std::uint64_t{0}, std::uint64_t{3}, std::uint64_t{24},
        (std::uint64_t{1} << 63) + 1, ~std::uint64_t{0}}) {
    try {
      (void)Alignment::FromBytes(bytes);
      ADD_FAILURE() << bytes << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), "--align " + std::to_string(bytes) +
                                           ": must be a power of two");
    }
  }
}

TEST(Alignment, ModelsDefaultToSixteenBytes) {
  // TFLite aligns buffers, and TFLM its arena, to 16 bytes.
  static_assert(kModelAlignment.bytes() == 16);
  static_assert(Alignment::Of<16>() == kModelAlignment);
  static_assert(!(Alignment::Of<8>() == kModelAlignment));
}

TEST(Alignment, RoundsEverySizeOfAProblemUp) {
  UsageProblem p;
  p.source = "hand";
  p.records = {{0, 1, 1}, {1, 2, 16}, {2, 3, 17}, {3, 4, 0}};
  p.ids = {"a", "b", "c", "d"};
  const UsageProblem aligned = AlignProblem(p, kModelAlignment);
  ASSERT_EQ(aligned.records.size(), 4u);
  EXPECT_EQ(aligned.records[0].size, 16u);
  EXPECT_EQ(aligned.records[1].size, 16u);
  EXPECT_EQ(aligned.records[2].size, 32u);
  EXPECT_EQ(aligned.records[3].size, 0u);
}

}  // namespace
}  // namespace arenaplan
