// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The firmware build check the freestanding tests share: one C++ file
// compiled by arm-none-eabi-g++ for every Cortex-M core arenaplan supports,
// with the flags of firmware code (-std=c++17, the generated code's
// standard; -Os -ffreestanding -fno-exceptions -fno-rtti -nostdlib -Wall
// -Wextra -Werror -pedantic), then its undefined symbols read with
// arm-none-eabi-nm -u.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_FIRMWARE_BUILD_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_FIRMWARE_BUILD_HPP_

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/host/support/test_util.hpp"

namespace arenaplan::testing_util {

/// The cores the firmware checks build for.
inline constexpr const char* kCortexMCores[] = {"cortex-m0plus", "cortex-m3",
                                                "cortex-m4",     "cortex-m7",
                                                "cortex-m33",    "cortex-m55"};

/// Compiles `source` for every core of kCortexMCores into `dir`/<core>.o
/// with kernels/include and then `include_dirs` on the include path, and
/// expects of each: exit status 0, no output at all (not even a note), and
/// none of `forbidden` among the object's undefined symbols.
inline void ExpectBuildsAsFirmware(const std::filesystem::path& dir,
                                   const std::filesystem::path& source,
                                   const std::vector<std::string>& include_dirs,
                                   const std::vector<std::string>& forbidden) {
  std::string includes = " -I" ARENAPLAN_SOURCE_DIR "/kernels/include";
  for (const std::string& d : include_dirs) includes += " -I" + d;
  for (const char* cpu : kCortexMCores) {
    const std::string obj = (dir / (std::string(cpu) + ".o")).string();
    const CommandResult r = RunCommand(
        std::string("arm-none-eabi-g++ -mthumb -mcpu=") + cpu +
        " -std=c++17 -Os -ffreestanding -fno-exceptions -fno-rtti -nostdlib "
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
