// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The kernels added for the corpus operators (QUANTIZE from float32,
// DEQUANTIZE to float32, PAD, ...) build warning-free as firmware with
// every element type the generator emits: arm-none-eabi-g++ for every
// Cortex-M core, -ffreestanding -fno-exceptions -fno-rtti -nostdlib -Wall
// -Wextra -Werror -pedantic, and need no 64-bit division helper (float
// arithmetic may call libgcc's soft-float routines on cores without an FPU;
// the firmware links libgcc).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/host/support/test_util.hpp"

namespace {

namespace fs = std::filesystem;

using arenaplan::testing_util::CommandResult;
using arenaplan::testing_util::RunCommand;
using arenaplan::testing_util::WriteFile;

/// Instantiates every new kernel template with the types the lowerings use.
constexpr char kFirmware[] = R"(#include <cstdint>

#include "arenaplan/kernels/kernels.hpp"

namespace k = ::arenaplan::kernels;
extern "C" void FloatEdges(const k::FloatQuantizeParams& p, const void* in,
                           void* out) {
  k::QuantizeFromFloat(p, static_cast<const float*>(in),
                       static_cast<std::int8_t*>(out));
  k::QuantizeFromFloat(p, static_cast<const float*>(in),
                       static_cast<std::int16_t*>(out));
  k::DequantizeToFloat(p, static_cast<const std::int8_t*>(in),
                       static_cast<float*>(out));
  k::DequantizeToFloat(p, static_cast<const std::uint8_t*>(in),
                       static_cast<float*>(out));
  k::DequantizeToFloat(p, static_cast<const std::int16_t*>(in),
                       static_cast<float*>(out));
  k::Requantize(k::RequantizeParams{}, static_cast<const std::uint8_t*>(in),
                static_cast<std::int8_t*>(out));
}
)";

TEST(KernelsOpsFreestanding, NewKernelsBuildForEveryCortexMCore) {
  const fs::path dir = fs::path(testing::TempDir()) / "arenaplan_ops_fs";
  fs::remove_all(dir);
  fs::create_directories(dir);
  WriteFile(dir / "firmware.cpp", kFirmware);
  for (const char* cpu : {"cortex-m0plus", "cortex-m3", "cortex-m4",
                          "cortex-m7", "cortex-m33", "cortex-m55"}) {
    const std::string obj = (dir / (std::string(cpu) + ".o")).string();
    const CommandResult r = RunCommand(
        std::string("arm-none-eabi-g++ -mthumb -mcpu=") + cpu +
        " -std=c++17 -Os -ffreestanding -fno-exceptions -fno-rtti -nostdlib "
        "-Wall -Wextra -Werror -pedantic -I" ARENAPLAN_SOURCE_DIR
        "/kernels/include -c " +
        (dir / "firmware.cpp").string() + " -o " + obj);
    EXPECT_EQ(r.status, 0) << cpu << "\n" << r.output;
    EXPECT_EQ(r.output, "") << cpu;  // Not even a note.
    const CommandResult nm = RunCommand("arm-none-eabi-nm -u " + obj);
    ASSERT_EQ(nm.status, 0) << nm.output;
    EXPECT_EQ(nm.output.find("__aeabi_ldivmod"), std::string::npos)
        << cpu << ":\n"
        << nm.output;
    EXPECT_EQ(nm.output.find("__aeabi_uldivmod"), std::string::npos)
        << cpu << ":\n"
        << nm.output;
  }
  fs::remove_all(dir);
}

}  // namespace
