// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The firmware build check the freestanding tests share: one C++ file
// compiled by arm-none-eabi-g++ for every Cortex-M core arenaplan supports,
// with the flags of firmware code (-std=c++17, the generated code's
// standard; -Os -ffreestanding -fno-exceptions -fno-rtti -nostdlib -Wall
// -Wextra -Werror -pedantic), and for Cortex-M4 also at -O2 with the
// mps2-an386 board's hardware floating point (the inline assembly of
// kernels/dsp.hpp must leave the compiler registers at every level), then
// its undefined symbols read with arm-none-eabi-nm -u.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_FIRMWARE_BUILD_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_FIRMWARE_BUILD_HPP_

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/host/support/test_util.hpp"

namespace arenaplan::testing_util {

/// One build of the firmware checks: a core, the flags besides -mcpu and
/// the object's name (without .o).
struct FirmwareBuild {
  const char* cpu;
  const char* flags;
  const char* name;
};

/// The builds the firmware checks make: every core at -Os, and Cortex-M4
/// also at -O2 with boards/mps2-an386's floating-point flags (where the
/// Dot4 loop's assembly of 13 registers had none left: "'asm' operand has
/// impossible constraints"); Cortex-M55 also with boards/mps3-an547's
/// -mfloat-abi=hard, which enables MVE (the Helium kernels) at -Os and -O2.
inline constexpr FirmwareBuild kFirmwareBuilds[] = {
    {"cortex-m0plus", "-Os", "cortex-m0plus"},
    {"cortex-m3", "-Os", "cortex-m3"},
    {"cortex-m4", "-Os", "cortex-m4"},
    {"cortex-m4", "-O2 -mfpu=fpv4-sp-d16 -mfloat-abi=hard", "cortex-m4-O2"},
    {"cortex-m7", "-Os", "cortex-m7"},
    {"cortex-m33", "-Os", "cortex-m33"},
    {"cortex-m55", "-Os", "cortex-m55"},
    {"cortex-m55", "-Os -mfloat-abi=hard", "cortex-m55-mve"},
    {"cortex-m55", "-O2 -mfloat-abi=hard", "cortex-m55-mve-O2"}};

/// Compiles `source` for every build of kFirmwareBuilds into
/// `dir`/<name>.o with kernels/include and then `include_dirs` on the
/// include path, and expects of each: exit status 0, no output at all (not
/// even a note), and none of `forbidden` among the object's undefined
/// symbols.
inline void ExpectBuildsAsFirmware(const std::filesystem::path& dir,
                                   const std::filesystem::path& source,
                                   const std::vector<std::string>& include_dirs,
                                   const std::vector<std::string>& forbidden) {
  std::string includes = " -I" ARENAPLAN_SOURCE_DIR "/kernels/include";
  for (const std::string& d : include_dirs) includes += " -I" + d;
  for (const FirmwareBuild& build : kFirmwareBuilds) {
    const char* const cpu = build.name;
    const std::string obj = (dir / (std::string(build.name) + ".o")).string();
    const CommandResult r =
        RunCommand(std::string("arm-none-eabi-g++ -mthumb -mcpu=") + build.cpu +
                   " -std=c++17 " + build.flags +
                   " -ffreestanding -fno-exceptions -fno-rtti -nostdlib "
                   "-Wall -Wextra -Werror -pedantic" +
                   includes + " -c " + source.string() + " -o " + obj);
    EXPECT_EQ(r.status, 0) << cpu << "\n" << r.output;
    EXPECT_EQ(r.output, "") << cpu;  // Not even a note.
    const CommandResult nm = RunCommand("arm-none-eabi-nm -u " + obj);
    ASSERT_EQ(nm.status, 0) << nm.output;
    for (const std::string& f : forbidden) {
      EXPECT_EQ(nm.output.find(f), std::string::npos)
          << cpu << ": " << f << "\n"
          << nm.output;
    }
  }
}

}  // namespace arenaplan::testing_util

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_FIRMWARE_BUILD_HPP_
