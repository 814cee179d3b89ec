// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Zero cost, measured on linked Cortex-M images (cortex-m0plus, cortex-m7,
// -O2): a kernel written with Arena::Get() has exactly the code size of the
// same kernel written by hand against a raw array with literal offsets; a
// tensor accessor is one constant-address load; the runtime adds no RAM
// (.data and .bss empty, .arena exactly kArenaSize). Prints the figures
// quoted in docs/runtime.md.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include "codegen/emit/header.hpp"
#include "tests/host/support/test_util.hpp"
#include "tests/host/support/tiny_plan.hpp"

namespace arenaplan {
namespace {

namespace fs = std::filesystem;

using arenaplan::testing_util::CommandResult;
using arenaplan::testing_util::RunCommand;
using arenaplan::testing_util::TinyPlan;
using arenaplan::testing_util::WriteFile;

// The same two kernels twice: through the runtime, and by hand.
constexpr char kWithRuntime[] = R"(#include <cstdint>
#include "tiny_plan.hpp"
extern "C" std::int32_t* InputData() {
  return tiny::Arena::Get<std::int32_t>(tiny::kInput).data;
}
extern "C" void Invoke() {
  const auto in = tiny::Arena::Get<std::int32_t>(tiny::kInput);
  const auto mid = tiny::Arena::Get<std::int8_t>(tiny::kConv1Relu);
  const auto out = tiny::Arena::Get<std::int16_t>(tiny::kOutput);
  (void)tiny::Arena::BeforeOperator(1);
  for (std::size_t i = 0; i < mid.size(); ++i) {
    mid[i] = static_cast<std::int8_t>(in[i % in.size()]);
  }
  (void)tiny::Arena::BeforeOperator(2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = mid[i % mid.size()];
  (void)tiny::Arena::AfterLastOperator();
}
)";
constexpr char kByHand[] = R"(#include <cstddef>
#include <cstdint>
alignas(16) __attribute__((section(".arena"))) std::byte arena[96];
extern "C" std::int32_t* InputData() {
  return reinterpret_cast<std::int32_t*>(arena);
}
extern "C" void Invoke() {
  std::int32_t* in = reinterpret_cast<std::int32_t*>(arena + 0);
  std::int8_t* mid = reinterpret_cast<std::int8_t*>(arena + 64);
  std::int16_t* out = reinterpret_cast<std::int16_t*>(arena + 0);
  for (std::size_t i = 0; i < 32; ++i) {
    mid[i] = static_cast<std::int8_t>(in[i % 15]);
  }
  for (std::size_t i = 0; i < 32; ++i) out[i] = mid[i % 32];
}
)";
constexpr char kLinkerScript[] = R"(MEMORY {
  FLASH (rx) : ORIGIN = 0x00000000, LENGTH = 256K
  RAM (rwx) : ORIGIN = 0x20000000, LENGTH = 64K
}
ENTRY(Invoke)
SECTIONS {
  .text : { KEEP(*(.text.Invoke)) KEEP(*(.text.InputData)) *(.text*) *(.rodata*) } > FLASH
  .data : { *(.data*) } > RAM AT > FLASH
  .bss (NOLOAD) : { *(.bss*) *(COMMON) } > RAM
  .arena (NOLOAD) : ALIGN(16) { *(.arena*) } > RAM
}
)";

/// Section name -> size in bytes, from `arm-none-eabi-size -A`.
std::map<std::string, long> Sections(const std::string& size_output) {
  std::map<std::string, long> sections;
  std::istringstream in(size_output);
  std::string name;
  long size, addr;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    if (fields >> name >> size >> addr) sections[name] = size;
  }
  return sections;
}

/// Bytes of function `symbol`, from `arm-none-eabi-nm -S`.
long SymbolSize(const std::string& nm_output, const std::string& symbol) {
  std::istringstream in(nm_output);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string addr, size, type, name;
    if (fields >> addr >> size >> type >> name && name == symbol) {
      return std::stol(size, nullptr, 16);
    }
  }
  return -1;
}

struct Image {
  std::map<std::string, long> sections;
  long input_data = -1;  ///< Bytes of InputData().
  std::string disassembly;
};

Image Build(const fs::path& dir, const std::string& source,
            const std::string& cpu, const std::string& flags) {
  const fs::path cpp = dir / ("k_" + cpu + ".cpp");
  const fs::path elf = dir / ("k_" + cpu + ".elf");
  WriteFile(cpp, source);
  const CommandResult build = RunCommand(
      "arm-none-eabi-g++ -std=c++17 -O2 -mthumb -mcpu=" + cpu +
      " -ffreestanding -fno-exceptions -fno-rtti -nostdlib -Wall -Wextra "
      "-Werror -ffunction-sections -fdata-sections -Wl,--gc-sections " +
      flags + " -I" ARENAPLAN_SOURCE_DIR "/core/include -I" + dir.string() +
      " -T " + (dir / "link.ld").string() + " " + cpp.string() + " -o " +
      elf.string() + " -lgcc");
  EXPECT_EQ(build.status, 0) << build.output;
  Image image;
  image.sections =
      Sections(RunCommand("arm-none-eabi-size -A " + elf.string()).output);
  image.input_data = SymbolSize(
      RunCommand("arm-none-eabi-nm -S " + elf.string()).output, "InputData");
  image.disassembly =
      RunCommand("arm-none-eabi-objdump -d --disassemble=InputData " +
                 elf.string())
          .output;
  return image;
}

TEST(CoreZeroCost, MatchesHandWrittenCodeOnCortexM) {
  const testing_util::ScopedTempDir tmp("arenaplan_zero_cost_");
  ASSERT_FALSE(tmp.path().empty());
  const fs::path dir = tmp.path();
  HeaderOptions options;
  options.namespace_name = "tiny";
  options.tensor_bytes = {60, 32, 64, 0};
  WriteFile(dir / "tiny_plan.hpp", EmitHeader(TinyPlan(), options));
  WriteFile(dir / "link.ld", kLinkerScript);
  for (const std::string cpu : {"cortex-m0plus", "cortex-m7"}) {
    const Image runtime = Build(dir, kWithRuntime, cpu, "");
    const Image hand = Build(dir, kByHand, cpu, "");
    const Image debug = Build(dir, kWithRuntime, cpu, "-DARENAPLAN_DEBUG=1");
    std::printf(
        "%s: .text runtime %ld, by hand %ld, debug mode %ld; "
        ".data %ld .bss %ld .arena %ld; InputData() %ld bytes\n",
        cpu.c_str(), runtime.sections.at(".text"), hand.sections.at(".text"),
        debug.sections.at(".text"),
        runtime.sections.count(".data") ? runtime.sections.at(".data") : 0,
        runtime.sections.count(".bss") ? runtime.sections.at(".bss") : 0,
        runtime.sections.at(".arena"), runtime.input_data);
    EXPECT_EQ(runtime.sections.at(".text"), hand.sections.at(".text")) << cpu;
    EXPECT_EQ(runtime.sections.at(".arena"), 96) << cpu;
    EXPECT_EQ(
        runtime.sections.count(".data") ? runtime.sections.at(".data") : 0, 0)
        << cpu;
    EXPECT_EQ(runtime.sections.count(".bss") ? runtime.sections.at(".bss") : 0,
              0)
        << cpu;
    // ldr r0, [pc, #0]; bx lr; .word arena: 2 + 2 + 4 bytes.
    EXPECT_EQ(runtime.input_data, 8) << cpu << runtime.disassembly;
    EXPECT_EQ(hand.input_data, 8) << cpu << hand.disassembly;
    EXPECT_NE(runtime.disassembly.find("ldr\tr0, [pc"), std::string::npos)
        << runtime.disassembly;
    // Debug mode does add code (the poison and check loops).
    EXPECT_GT(debug.sections.at(".text"), runtime.sections.at(".text")) << cpu;
  }
}

}  // namespace
}  // namespace arenaplan
