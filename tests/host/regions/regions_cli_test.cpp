// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Planning across memory regions end to end (`plan`/`compile --region`): one
// region gives today's header and files byte for byte, an assignment that
// fits nowhere exits 3, bad options are one line, the region column and
// regions.json, and the header's compile-time check of every region.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

using testing_util::CommandResult;
using testing_util::RunCommand;

class RegionsCli : public ::testing::Test {
 protected:
  static CommandResult Arenaplan(const std::string& args) {
    return testing_util::RunArenaplan(args);
  }
  testing_util::ScopedTempDir tmp_{"arenaplan_regions_"};
  const std::string dir_ = tmp_.path();
};

constexpr char kPersonDetect[] =
    ARENAPLAN_SHARED_DIR "/models/person_detect.tflite";

TEST_F(RegionsCli, WritesTodaysHeaderForOneRegion) {
  const std::string plain = dir_ + "/plain.hpp";
  const std::string one = dir_ + "/one.hpp";
  ASSERT_EQ(
      Arenaplan(std::string("plan ") + kPersonDetect + " --header " + plain)
          .status,
      0);
  const CommandResult r = Arenaplan(std::string("plan ") + kPersonDetect +
                                    " --region sram:1048576 --header " + one);
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string text = testing_util::ReadFile(plain);
  EXPECT_FALSE(text.empty());
  EXPECT_EQ(testing_util::ReadFile(one), text);
}

TEST_F(RegionsCli, CompilesTodaysFilesForOneRegion) {
  const std::string plain = dir_ + "/plain";
  const std::string one = dir_ + "/one";
  ASSERT_EQ(Arenaplan(std::string("compile ") + kPersonDetect + " --out-dir " +
                      plain + " --namespace model")
                .status,
            0);
  const CommandResult r =
      Arenaplan(std::string("compile ") + kPersonDetect + " --out-dir " + one +
                " --namespace model --region sram:1048576");
  ASSERT_EQ(r.status, 0) << r.output;
  for (const char* f :
       {"model_arena.hpp", "model_model.hpp", "model_model.cpp"}) {
    const std::string text = testing_util::ReadFile(plain + "/" + f);
    EXPECT_FALSE(text.empty()) << f;
    EXPECT_EQ(testing_util::ReadFile(one + "/" + f), text) << f;
  }
  // Two regions: every activation addressed in its region.
  const std::string two = dir_ + "/two";
  ASSERT_EQ(
      Arenaplan(std::string("compile ") + kPersonDetect + " --out-dir " + two +
                " --namespace model --region dtcm:32768 --region "
                "ram:1048576")
          .status,
      0);
  const std::string code = testing_util::ReadFile(two + "/model_model.cpp");
  EXPECT_EQ(code.find("arena + kPlan["), std::string::npos);
  EXPECT_NE(code.find("Arena::Address("), std::string::npos);
}

TEST_F(RegionsCli, ExitsThreeWhenNoAssignmentFits) {
  // person_detect needs 55296 bytes at its widest operator.
  const CommandResult r =
      Arenaplan(std::string("plan ") + kPersonDetect +
                " --region a:30000 --region b:20000 --out " + dir_ + "/x.csv");
  EXPECT_EQ(r.status, 3) << r.output;
  EXPECT_NE(r.output.find("proven, the largest operator breadth is 55296"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/x.csv"));
}

TEST_F(RegionsCli, RefusesBadRegionOptionsInOneLine) {
  for (const char* bad :
       {"--region 'a b:1'", "--region a:1:bad", "--region a:1 --region a:2",
        "--region a:1 --approach shared-objects",
        "--region a:1 --region-search best"}) {
    const CommandResult r =
        Arenaplan(std::string("plan ") + kPersonDetect + " " + bad);
    EXPECT_EQ(r.status, 2) << bad << ": " << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1)
        << r.output;
  }
}

TEST_F(RegionsCli, WritesRegionColumnAndRegionsJson) {
  const std::string csv = dir_ + "/plan.csv";
  const CommandResult r = Arenaplan(
      std::string("plan ") + kPersonDetect +
      " --region fast:32768 --region slow:4194304 --json --out " + csv);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\"regions\":[{\"name\":\"fast\",\"capacity\":32768,"
                          "\"bytes\":"),
            std::string::npos);
  EXPECT_NE(r.output.find("{\"name\":\"slow\",\"capacity\":4194304,"),
            std::string::npos);
  const std::string text = testing_util::ReadFile(csv);
  EXPECT_EQ(text.rfind("id,lower,upper,size,offset,region\n", 0), 0u);
  EXPECT_NE(text.find(",fast\n"), std::string::npos);
  EXPECT_NE(text.find(",slow\n"), std::string::npos);
}

// The header of a split plan compiles, places every tensor inside its
// region's array, and stops compiling when an edit makes two tensors of a
// region overlap.
TEST_F(RegionsCli, HeaderChecksEveryRegionAtCompileTime) {
  const std::string header = dir_ + "/pd_plan.hpp";
  const CommandResult r = Arenaplan(
      std::string("plan ") + kPersonDetect +
      " --region dtcm:32768:.dtcm --region sram:4194304:.sram --namespace pd "
      "--header " +
      header);
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string main = dir_ + "/main.cpp";
  testing_util::WriteFile(
      main,
      "#include \"pd_plan.hpp\"\n"
      "int main() {\n"
      "  int bad = 0;\n"
      "  for (std::size_t i = 0; i < pd::kTensorCount; ++i) {\n"
      "    const std::size_t r = pd::kPlan[i].region;\n"
      "    std::byte* a = pd::Arena::Address(i);\n"
      "    if (a < pd::kRegionStorage[r] ||\n"
      "        a + pd::kPlan[i].size > pd::kRegionStorage[r] + "
      "pd::kRegionSizes[r]) ++bad;\n"
      "  }\n"
      "  auto in = pd::Arena::Get<signed char>(pd::kInput);\n"
      "  if (in.size() != 9216) ++bad;\n"
      "  if (pd::region_dtcm::kRegionSize > 32768) ++bad;\n"
      "  return bad;\n"
      "}\n");
  const std::string cxx =
      testing_util::HostCompileCommand("c++17", "-Wall -Wextra -Werror") +
      "-I" + dir_ + " ";
  const CommandResult build = RunCommand(cxx + main + " -o " + dir_ + "/main");
  ASSERT_EQ(build.status, 0) << build.output;
  EXPECT_EQ(RunCommand(dir_ + "/main").status, 0);

  // Two tensors of region 0 at one offset, alive at a common operator.
  std::string text = testing_util::ReadFile(header);
  const std::size_t table = text.find("kPlan[] = {\n");
  ASSERT_NE(table, std::string::npos);
  // Tensor 2 (0..1) and tensor 30, the input (op 0), are both alive at
  // operator 0 (the graph folded: its RESHAPE is an alias, one record
  // fewer).
  const std::size_t t_early = text.find("},  // 2 ", table);
  const std::size_t t_input = text.find("},  // 30 ", table);
  ASSERT_NE(t_early, std::string::npos);
  ASSERT_NE(t_input, std::string::npos);
  const std::size_t s_early = text.rfind("{", t_early);
  const std::size_t s_input = text.rfind("{", t_input);
  const std::string e_early = text.substr(s_early, t_early - s_early);
  const std::string e_input = text.substr(s_input, t_input - s_input);
  // Make tensor 30 a copy of tensor 2's region and offset, its own size
  // and interval kept.
  auto fields = [](const std::string& e) {
    std::vector<std::string> f;
    std::string cur;
    for (char c : e.substr(1)) {
      if (c == ',') {
        f.push_back(cur);
        cur.clear();
      } else if (c != ' ') {
        cur += c;
      }
    }
    f.push_back(cur);
    return f;
  };
  const std::vector<std::string> f_early = fields(e_early);
  const std::vector<std::string> f_input = fields(e_input);
  ASSERT_EQ(f_early.size(), 5u);
  ASSERT_EQ(f_input.size(), 5u);
  const std::string edited = "{" + f_early[0] + ", " + f_early[1] + ", " +
                             f_input[2] + ", " + f_input[3] + ", " + f_input[4];
  text.replace(s_input, t_input - s_input, edited);
  testing_util::WriteFile(header, text);
  const CommandResult broken = RunCommand(cxx + "-fsyntax-only " + main);
  EXPECT_NE(broken.status, 0);
  EXPECT_NE(broken.output.find("overlap in their region"), std::string::npos)
      << broken.output;
}

}  // namespace
}  // namespace arenaplan
