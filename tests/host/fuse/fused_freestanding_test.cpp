// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The fused executor (kernels/fused.hpp, row_schedule.hpp) builds
// warning-free as firmware: arm-none-eabi-g++ for every Cortex-M core,
// -std=c++17 (the generated code's standard) -ffreestanding -fno-exceptions
// -fno-rtti -nostdlib -Wall -Wextra -Werror -pedantic, with the generic rows
// and with a generated-style local Rows type, with the schedule derived at
// run time and replayed from a step table, and calls no library
// function (no memmove, no 64-bit division helper).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/host/support/firmware_build.hpp"
#include "tests/host/support/test_util.hpp"

namespace {

namespace fs = std::filesystem;

using arenaplan::testing_util::ExpectBuildsAsFirmware;
using arenaplan::testing_util::ScopedTempDir;
using arenaplan::testing_util::WriteFile;

constexpr char kFirmware[] = R"(#include <cstdint>

#include "arenaplan/kernels/fused.hpp"

namespace k = ::arenaplan::kernels;
extern "C" bool Generic(const k::FusedSegment& s, std::uint8_t* arena) {
  return k::RunFused(s, arena);
}
extern "C" bool Specialised(const k::FusedSegment& s, std::uint8_t* arena) {
  struct Rows {
    static void Row(const k::FusedOp&, std::int32_t i, std::int32_t rows,
                    std::int32_t pad, const std::int8_t* x,
                    const std::int8_t* x2, std::int8_t* y,
                    std::int8_t* scratch) {
      (void)x2;
      (void)scratch;
      if (i == 0) {
        k::MaxPool(k::PoolParams{3, 3, 2, 2, pad, 1, -128, 127},
                   k::Shape4{1, rows, 8, 4}, x, k::Shape4{1, 1, 4, 4}, y);
      }
    }
  };
  return k::RunFused<Rows>(s, arena);
}
// The generated code's form: a recorded schedule's steps with their
// offsets resolved (here at run time), then run.
extern "C" bool Resolved(const k::FusedSegment& s, std::uint8_t* arena) {
  static const k::RowStep kSteps[] = {{0, 1, 0}, {0, 0, 1}, {0, 1, 1}};
  const auto run =
      k::ResolveSteps<k::ResolvedOffset<4096>, 2, 1, 3>(s, kSteps);
  if (!run.ok) return false;
  k::RunResolved<k::KernelRows>(s, run, arena);
  return true;
}
)";

TEST(FusedFreestanding, BuildsForEveryCortexMCoreWithoutLibraryCalls) {
  const ScopedTempDir tmp("arenaplan_fused_fs_");
  ASSERT_FALSE(tmp.path().empty());
  const fs::path dir = tmp.path();
  WriteFile(dir / "firmware.cpp", kFirmware);
  ExpectBuildsAsFirmware(
      dir, dir / "firmware.cpp", {},
      {"memmove", "memcpy", "__aeabi_ldivmod", "__aeabi_uldivmod"});
}

}  // namespace
