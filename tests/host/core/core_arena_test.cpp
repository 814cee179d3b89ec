// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Host tests of core/'s runtime: typed access lands at the planned offset
// with the right element count, the arena is one aligned array of exactly
// kArenaSize bytes, and debug mode poisons dead bytes and catches a kernel
// that writes past its tensor.
#define ARENAPLAN_DEBUG 1
#define ARENAPLAN_NO_ARENA_SECTION 1
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "arenaplan/arenaplan.hpp"

namespace plan_a {

// A hand-written plan (what a generated header holds), derived by hand:
// alignment 16, three operators.
//   0 "in"   60 B (64 planned) at   0, ops 0..1
//   1 "mid"  32 B               at  64, ops 1..2  (above "in": both live at 1)
//   2 "out"  40 B (48 planned) at   0, ops 2..2  ("in" is dead at 2)
// Arena = max(64 + 32, 0 + 48) = 96.
inline constexpr std::size_t kArenaSize = 96;
inline constexpr std::size_t kAlignment = 16;
inline constexpr std::size_t kOperatorCount = 3;
inline constexpr std::size_t kTensorCount = 3;
inline constexpr arenaplan::Placement kPlan[kTensorCount] = {
    {0, 64, 0, 1}, {64, 32, 1, 2}, {0, 48, 2, 2}};
inline constexpr std::size_t kTensorBytes[kTensorCount] = {60, 32, 40};
alignas(kAlignment) ARENAPLAN_ARENA_ATTRIBUTES
    inline std::byte arena_storage[kArenaSize];
using Plan =
    arenaplan::PlanTraits<kArenaSize, kAlignment, kOperatorCount, kTensorCount,
                          kPlan, kTensorBytes, arena_storage>;
using Arena = arenaplan::Arena<Plan>;
inline constexpr arenaplan::TensorId<Plan, 0> kIn{};
inline constexpr arenaplan::TensorId<Plan, 1> kMid{};
inline constexpr arenaplan::TensorId<Plan, 2> kOut{};

}  // namespace plan_a

namespace arenaplan {
namespace {

using plan_a::Arena;

TEST(CoreArena, OwnsOneAlignedArrayOfExactlyTheArenaSize) {
  EXPECT_EQ(sizeof(plan_a::arena_storage), 96u);
  EXPECT_EQ(__alignof__(plan_a::arena_storage), 16u);  // Declared alignment.
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(Arena::Data()) % 16, 0u);
  EXPECT_EQ(Arena::Data(), plan_a::arena_storage);
}

TEST(CoreArena, PlacesTypedTensorsAtTheirOffsets) {
  const auto in = Arena::Get<float>(plan_a::kIn);
  const auto mid = Arena::Get<std::int8_t>(plan_a::kMid);
  const auto mid32 = Arena::Get<std::int32_t, 1>();
  const auto out = Arena::Get<std::int16_t>(plan_a::kOut);
  EXPECT_EQ(reinterpret_cast<std::byte*>(in.data), Arena::Data() + 0);
  EXPECT_EQ(reinterpret_cast<std::byte*>(mid.data), Arena::Data() + 64);
  EXPECT_EQ(reinterpret_cast<std::byte*>(mid32.data), Arena::Data() + 64);
  EXPECT_EQ(reinterpret_cast<std::byte*>(out.data), Arena::Data() + 0);
  // Element counts from the exact sizes: 60/4, 32/1, 32/4, 40/2.
  static_assert(decltype(in)::kCount == 15);
  static_assert(decltype(mid)::kCount == 32);
  static_assert(decltype(mid32)::kCount == 8);
  static_assert(decltype(out)::kCount == 20);
  EXPECT_EQ(in.end() - in.begin(), 15);
  EXPECT_EQ(in.size_bytes(), 60u);
  // The id converts to the kPlan index.
  EXPECT_EQ(plan_a::kPlan[plan_a::kMid].offset, 64u);
}

TEST(CoreArena, KeepsLiveTensorsAndPoisonsDeadBytes) {
  ASSERT_TRUE(kDebugMode);
  auto in = Arena::Get<float>(plan_a::kIn);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = 1.5f * static_cast<float>(i);
  EXPECT_TRUE(Arena::BeforeOperator(0).ok);
  // Operator 0: only "in" is alive; its 4 padding bytes (60..63) and
  // everything from 64 on are poisoned, "in" itself is kept.
  for (std::size_t i = 0; i < in.size(); ++i)
    EXPECT_EQ(in[i], 1.5f * static_cast<float>(i));
  for (std::size_t k = 60; k < 96; ++k) {
    EXPECT_EQ(std::to_integer<int>(Arena::Data()[k]), kPoisonByte) << k;
  }
  auto mid = Arena::Get<std::int8_t>(plan_a::kMid);
  EXPECT_TRUE(Arena::BeforeOperator(1).ok);
  for (std::size_t i = 0; i < mid.size(); ++i) {
    mid[i] = static_cast<std::int8_t>(i);  // Operator 1 writes "mid".
  }
  const GuardReport report = Arena::BeforeOperator(2);
  EXPECT_TRUE(report.ok);
  // Operator 2: "in" is dead, so bytes 40..63 (outside "out") are poisoned
  // and "mid" survives.
  for (std::size_t k = 40; k < 64; ++k) {
    EXPECT_EQ(std::to_integer<int>(Arena::Data()[k]), kPoisonByte) << k;
  }
  for (std::size_t i = 0; i < mid.size(); ++i) {
    EXPECT_EQ(mid[i], static_cast<std::int8_t>(i));
  }
  EXPECT_TRUE(Arena::AfterLastOperator().ok);
}

TEST(CoreArena, CatchesAWritePastTheEndOfALiveTensor) {
  EXPECT_TRUE(Arena::BeforeOperator(0).ok);
  // A faulty kernel writes 61 bytes into the 60-byte "in": byte 60 is its
  // alignment padding, which debug mode poisoned.
  std::memset(Arena::Get<std::uint8_t>(plan_a::kIn).data, 7, 61);
  const GuardReport report = Arena::BeforeOperator(1);
  EXPECT_FALSE(report.ok);
  EXPECT_EQ(report.op, 0u);
  EXPECT_EQ(report.offset, 60u);
  EXPECT_EQ(report.tensor_below, 0u);
  EXPECT_EQ(report.tensor_above, kNoTensor);  // Nothing else alive at 0.
}

TEST(CoreArena, CatchesAWriteIntoADeadNeighbour) {
  EXPECT_TRUE(Arena::BeforeOperator(0).ok);
  EXPECT_TRUE(Arena::BeforeOperator(1).ok);
  EXPECT_TRUE(Arena::BeforeOperator(2).ok);
  // Operator 2 (only "mid" 64..95 and "out" 0..39 alive) writes byte 50,
  // which belonged to the dead "in".
  Arena::Data()[50] = std::byte{0};
  const GuardReport report = Arena::AfterLastOperator();
  EXPECT_FALSE(report.ok);
  EXPECT_EQ(report.op, 2u);
  EXPECT_EQ(report.offset, 50u);
  EXPECT_EQ(report.tensor_below, 2u);  // "out" ends at 40.
  EXPECT_EQ(report.tensor_above, 1u);  // "mid" starts at 64.
}

TEST(CoreArena, ReportsLiveness) {
  static_assert(Arena::IsAlive(0, 1) && !Arena::IsAlive(0, 2));
  static_assert(Arena::IsAlive(2, 2) && !Arena::IsAlive(2, 1));
  SUCCEED();
}

}  // namespace
}  // namespace arenaplan
