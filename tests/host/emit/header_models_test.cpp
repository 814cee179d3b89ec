// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// End to end through the CLI: for every model in ARENAPLAN_SHARED_DIR/models
// and a records CSV, `arenaplan plan INPUT --out plan.csv --header plan.hpp`
// in one run; the header compiles with the host compiler and with
// arm-none-eabi-g++ for cortex-m0plus and cortex-m7 (so its static_assert
// holds), and its constants equal the CSV plan of the same run, checked by
// static_asserts generated from the CSV (parsed here, independently).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "tests/host/support/test_util.hpp"

namespace {

namespace fs = std::filesystem;

using arenaplan::testing_util::CommandResult;
using arenaplan::testing_util::HostCxx;
using arenaplan::testing_util::ReadFile;
using arenaplan::testing_util::RunCommand;
using arenaplan::testing_util::ScopedTempDir;
using arenaplan::testing_util::WriteFile;

/// static_asserts that the header's constants equal the CSV plan
/// (columns id,lower,upper,size,offset; upper exclusive).
std::string ChecksFromCsv(const std::string& csv, const std::string& ns) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);  // Header row.
  EXPECT_EQ(line.rfind("id,lower,upper,size,offset", 0), 0u) << line;
  std::ostringstream checks;
  std::size_t i = 0;
  unsigned long long arena = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> f;
    std::stringstream fields(line);
    std::string field;
    while (std::getline(fields, field, ',')) f.push_back(field);
    const unsigned long long lower = std::stoull(f[1]),
                             upper = std::stoull(f[2]),
                             size = std::stoull(f[3]),
                             offset = std::stoull(f[4]);
    arena = std::max(arena, offset + size);
    checks << "static_assert(" << ns << "::kPlan[" << i
           << "].offset == " << offset << "u && " << ns << "::kPlan[" << i
           << "].size == " << size << "u && " << ns << "::kPlan[" << i
           << "].first_op == " << lower << "u && " << ns << "::kPlan[" << i
           << "].last_op + 1 == " << upper << "u, \"row " << i << "\");\n";
    ++i;
  }
  checks << "static_assert(" << ns << "::kTensorCount == " << i << "u);\n"
         << "static_assert(" << ns << "::kArenaSize == " << arena << "u);\n";
  return checks.str();
}

void CheckInput(const fs::path& input, const std::string& extra_options) {
  const std::string ns = "model";
  const ScopedTempDir tmp("arenaplan_models_" + input.stem().string() + "_");
  ASSERT_FALSE(tmp.path().empty());
  const fs::path dir = tmp.path();
  const CommandResult plan = RunCommand(
      std::string(ARENAPLAN_BINARY) + " plan " + input.string() + " " +
      extra_options + " --out " + (dir / "plan.csv").string() + " --header " +
      (dir / "plan.hpp").string() + " --namespace " + ns);
  ASSERT_EQ(plan.status, 0) << input << "\n" << plan.output;
  const std::string csv = ReadFile(dir / "plan.csv");
  WriteFile(dir / "check.cpp", "#include \"plan.hpp\"\n" +
                                   ChecksFromCsv(csv, ns) +
                                   "int Touch() { return static_cast<int>(" +
                                   ns + "::Arena::Data() != nullptr); }\n");
  const std::string common =
      " -std=c++17 -O2 -fsyntax-only -ffreestanding -fno-exceptions -fno-rtti "
      "-Wall -Wextra -Werror -I" ARENAPLAN_SOURCE_DIR "/core/include -I" +
      dir.string() + " " + (dir / "check.cpp").string();
  for (const std::string& compiler :
       {HostCxx(), std::string("arm-none-eabi-g++ -mthumb -mcpu=cortex-m0plus"),
        std::string("arm-none-eabi-g++ -mthumb -mcpu=cortex-m7")}) {
    const CommandResult build = RunCommand(compiler + common);
    EXPECT_EQ(build.status, 0) << input << " with " << compiler << "\n"
                               << build.output.substr(0, 3000);
  }
}

TEST(HeaderModels, EveryModelCompilesAndMatchesItsCsvPlan) {
  const fs::path models = fs::path(ARENAPLAN_SHARED_DIR) / "models";
  ASSERT_TRUE(fs::is_directory(models)) << models;
  std::vector<fs::path> inputs;
  for (const auto& entry : fs::directory_iterator(models)) {
    if (entry.path().extension() == ".tflite") inputs.push_back(entry.path());
  }
  std::sort(inputs.begin(), inputs.end());
  ASSERT_FALSE(inputs.empty());
  for (const fs::path& input : inputs) {
    SCOPED_TRACE(input.string());
    // Batch-dynamic models (hello_world) run with batch 1 on a device.
    CheckInput(input, "--assume-dim 1");
  }
}

TEST(HeaderModels, CsvInputCompilesAndMatchesItsCsvPlan) {
  // Six records over five operators (upper exclusive); the planner's
  // output is compared with the header, not with numbers guessed here.
  const ScopedTempDir tmp("arenaplan_models_csv_");
  ASSERT_FALSE(tmp.path().empty());
  const fs::path csv = fs::path(tmp.path()) / "records.csv";
  WriteFile(csv,
            "id,lower,upper,size\n"
            "0,0,2,100\n1,1,3,40\n2,2,4,100\n3,3,5,8\n4,0,5,0\n"
            "5,4,5,64\n");
  CheckInput(csv, "--align 4");
}

}  // namespace
