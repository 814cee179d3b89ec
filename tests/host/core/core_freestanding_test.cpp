// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// core/ and a generated header build warning-free as firmware: with
// arm-none-eabi-g++ for every Cortex-M core arenaplan supports and with the
// host compiler, -ffreestanding -fno-exceptions -fno-rtti -nostdlib -Wall
// -Wextra -Werror (-pedantic too), in normal and in debug mode.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "codegen/emit/header.hpp"
#include "tests/host/support/test_util.hpp"
#include "tests/host/support/tiny_plan.hpp"

namespace arenaplan {
namespace {

namespace fs = std::filesystem;

using arenaplan::testing_util::CommandResult;
using arenaplan::testing_util::HostCxx;
using arenaplan::testing_util::RunCommand;
using arenaplan::testing_util::TinyPlan;
using arenaplan::testing_util::WriteFile;

/// Uses every part of the runtime: typed access, ids, the debug hooks.
constexpr char kFirmware[] = R"(#include <cstdint>
#include "tiny_plan.hpp"

extern "C" int Invoke() {
  int bad = 0;
  const auto in = tiny::Arena::Get<float>(tiny::kInput);
  const auto mid = tiny::Arena::Get<std::int8_t>(tiny::kConv1Relu);
  const auto out = tiny::Arena::Get<std::int16_t, tiny::kOutput>();
  bad += !tiny::Arena::BeforeOperator(0).ok;
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = 0.5f;
  bad += !tiny::Arena::BeforeOperator(1).ok;
  for (std::size_t i = 0; i < mid.size(); ++i) {
    mid[i] = static_cast<std::int8_t>(in[i % in.size()]);
  }
  bad += !tiny::Arena::BeforeOperator(2).ok;
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = mid[i % mid.size()];
  bad += !tiny::Arena::AfterLastOperator().ok;
  return bad + static_cast<int>(tiny::kPlan[tiny::kOutput].size);
}
)";

class Freestanding : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(tmp_.path().empty());
    dir_ = tmp_.path();
    HeaderOptions options;
    options.namespace_name = "tiny";
    options.tensor_bytes = {60, 32, 64, 0};
    WriteFile(dir_ / "tiny_plan.hpp", EmitHeader(TinyPlan(), options));
    WriteFile(dir_ / "firmware.cpp", kFirmware);
  }

  CommandResult Compile(const std::string& compiler, const std::string& flags) {
    return RunCommand(
        compiler +
        " -std=c++17 -O2 -ffreestanding -fno-exceptions -fno-rtti -nostdlib "
        "-Wall -Wextra -Werror -pedantic " +
        flags + " -I" ARENAPLAN_SOURCE_DIR "/core/include -I" + dir_.string() +
        " -c " + (dir_ / "firmware.cpp").string() + " -o " +
        (dir_ / "firmware.o").string());
  }

  const testing_util::ScopedTempDir tmp_{"arenaplan_freestanding_"};
  fs::path dir_;
};

TEST_F(Freestanding, BuildsForEveryCortexMCore) {
  for (const char* cpu : {"cortex-m0plus", "cortex-m3", "cortex-m4",
                          "cortex-m7", "cortex-m33", "cortex-m55"}) {
    for (const char* mode : {"", "-DARENAPLAN_DEBUG=1"}) {
      const CommandResult r =
          Compile("arm-none-eabi-g++",
                  std::string("-mthumb -mcpu=") + cpu + " " + mode);
      EXPECT_EQ(r.status, 0) << cpu << " " << mode << "\n" << r.output;
      EXPECT_EQ(r.output, "") << cpu << " " << mode;  // Not even a note.
    }
  }
}

TEST_F(Freestanding, BuildsOnTheHost) {
  for (const char* mode :
       {"", "-DARENAPLAN_DEBUG=1", "-DARENAPLAN_NO_ARENA_SECTION"}) {
    const CommandResult r = Compile(HostCxx(), mode);
    EXPECT_EQ(r.status, 0) << mode << "\n" << r.output;
    EXPECT_EQ(r.output, "") << mode;
  }
}

// core/ may include only freestanding headers: preprocess it alone and list
// every header it pulls in that lives outside core/.
TEST_F(Freestanding, IncludesOnlyFreestandingHeaders) {
  WriteFile(dir_ / "core_only.cpp", "#include \"arenaplan/arenaplan.hpp\"\n");
  const CommandResult r = RunCommand(
      "arm-none-eabi-g++ -std=c++17 -ffreestanding -mthumb -mcpu=cortex-m0plus"
      " -I" ARENAPLAN_SOURCE_DIR "/core/include -H -fsyntax-only " +
      (dir_ / "core_only.cpp").string());
  ASSERT_EQ(r.status, 0) << r.output;
  // -H prints one line per header, with one '.' per include depth. Every
  // header that a core/ header includes directly must be freestanding.
  std::vector<std::string> chain;  // chain[d] = header at depth d + 1.
  std::size_t start = 0;
  int checked = 0;
  while (start < r.output.size()) {
    std::size_t end = r.output.find('\n', start);
    if (end == std::string::npos) end = r.output.size();
    const std::string line = r.output.substr(start, end - start);
    start = end + 1;
    const std::size_t depth = line.find_first_not_of('.');
    if (depth == 0 || depth == std::string::npos || line[depth] != ' ') {
      continue;
    }
    const std::string header = line.substr(depth + 1);
    chain.resize(depth - 1);
    chain.push_back(header);
    const bool parent_is_core =
        depth == 1 ||
        chain[depth - 2].find("/core/include/arenaplan/") != std::string::npos;
    if (!parent_is_core ||
        header.find("/core/include/arenaplan/") != std::string::npos) {
      continue;
    }
    const std::string name = fs::path(header).filename().string();
    EXPECT_TRUE(name == "cstddef" || name == "cstdint" ||
                name == "type_traits" || name == "limits")
        << "core/ includes " << header;
    ++checked;
  }
  EXPECT_GE(checked, 2);  // At least <cstddef> and <cstdint>.
}

}  // namespace
}  // namespace arenaplan
