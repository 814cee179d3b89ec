// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The kernels (the fast ones of fast_conv.hpp and fast_fully_connected.hpp
// too, on the DSP instructions or the scalar loops by core), and the code
// `arenaplan compile` generates for a model that uses the integer kernels
// beyond int8 (keyword_scrambled: QUANTIZE to and from int16/int32, SVDF
// with its static int16 state, int16 SOFTMAX), build
// warning-free as firmware: arm-none-eabi-g++ for every Cortex-M core,
// -ffreestanding -fno-exceptions -fno-rtti -nostdlib -Wall -Wextra -Werror
// -pedantic. The object may need libgcc's 32-bit division on cores without
// a divide instruction, but never a 64-bit division helper.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/host/support/firmware_build.hpp"
#include "tests/host/support/test_util.hpp"

namespace {

namespace fs = std::filesystem;

using arenaplan::testing_util::CommandResult;
using arenaplan::testing_util::ExpectBuildsAsFirmware;
using arenaplan::testing_util::RunCommand;
using arenaplan::testing_util::ScopedTempDir;
using arenaplan::testing_util::WriteFile;

/// Calls every kernel template with every element type the generator
/// emits, beside the generated model.
constexpr char kFirmware[] = R"(#include "kw_model.cpp"

namespace k = ::arenaplan::kernels;
extern "C" void RequantizeAll(const k::RequantizeParams& p, const void* in,
                              void* out) {
  k::Requantize(p, static_cast<const std::int8_t*>(in),
                static_cast<std::int8_t*>(out));
  k::Requantize(p, static_cast<const std::int8_t*>(in),
                static_cast<std::int16_t*>(out));
  k::Requantize(p, static_cast<const std::int8_t*>(in),
                static_cast<std::int32_t*>(out));
  k::Requantize(p, static_cast<const std::int16_t*>(in),
                static_cast<std::int8_t*>(out));
  k::Requantize(p, static_cast<const std::int16_t*>(in),
                static_cast<std::int16_t*>(out));
  k::Requantize(p, static_cast<const std::int16_t*>(in),
                static_cast<std::int32_t*>(out));
}
// The fast kernels on this core's multiply-accumulate (DSP or scalar).
extern "C" void RunFast(const k::ConvParams& p, const k::Shape4& s,
                        const std::int8_t* in, const std::int8_t* w,
                        const std::int32_t* b, k::ChannelQuant q,
                        std::int8_t* out, std::int8_t* scratch) {
  k::Conv2DFast(p, s, in, s, w, b, q, s, out, scratch);
  k::DepthwiseConv2DFast(p, s, in, s, w, b, q, s, out, scratch);
  k::FullyConnectedFast(k::FullyConnectedParams{0, 0, -128, 127, 1, 8, 8}, in,
                        w, b, q, out);
}
extern "C" void RunModel(std::int8_t* arena) {
  kw::ResetState();
  kw::Invoke(arena);
}
)";

TEST(KernelsFreestanding, GeneratedKeywordModelBuildsForEveryCortexMCore) {
  const ScopedTempDir tmp("arenaplan_kernels_fs_");
  ASSERT_FALSE(tmp.path().empty());
  const fs::path dir = tmp.path();
  const std::string gen =
      std::string(ARENAPLAN_BINARY) + " compile " + ARENAPLAN_SHARED_DIR +
      "/models/keyword_scrambled.tflite --out-dir " + dir.string() +
      " --namespace kw --strategy greedy-by-size";
  const CommandResult g = RunCommand(gen);
  ASSERT_EQ(g.status, 0) << g.output;
  WriteFile(dir / "firmware.cpp", kFirmware);
  ExpectBuildsAsFirmware(dir, dir / "firmware.cpp",
                         {ARENAPLAN_SOURCE_DIR "/core/include", dir.string()},
                         {"__aeabi_ldivmod", "__aeabi_uldivmod"});
}

}  // namespace
