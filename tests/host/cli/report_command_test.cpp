// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `arenaplan report` as a command: a page for person_detect and a corpus
// model with a profile, all or nothing written, one-line errors (the
// browser checks of every page are report_browser_test's).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

namespace fs = std::filesystem;

TEST(ReportCommand, WritesOnePageWithTheArenasOfEveryMode) {
  testing_util::ScopedTempDir dir("arenaplan_report_cmd_");
  const fs::path page = fs::path(dir.path()) / "pd.html";
  const auto r =
      testing_util::RunArenaplan("report " + testing_util::kModels +
                                 "person_detect.tflite --out " + page.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string html = testing_util::ReadFile(page);
  // The README's table: 55,296 (default and TFLM's planner), 36,880
  // (--overlap) and 14,592 (--fuse).
  for (const char* row :
       {"arenaplan (default)</td><td class=\"n\" data-v=\"55296\"",
        "arenaplan --overlap</td><td class=\"n\" data-v=\"36880\"",
        "arenaplan --fuse</td><td class=\"n\" data-v=\"14592\"",
        "TFLM&apos;s planner</td><td class=\"n\" data-v=\"55296\""}) {
    EXPECT_NE(html.find(row), std::string::npos) << row;
  }
}

TEST(ReportCommand, ShowsAProfile) {
  testing_util::ScopedTempDir dir("arenaplan_report_cmd_");
  const fs::path profile = fs::path(dir.path()) / "p.json";
  testing_util::WriteFile(profile,
                          "{\"total\": 1000, \"operators\": [\n"
                          " {\"index\": 0, \"instructions\": 600},\n"
                          " {\"index\": 1, \"instructions\": 400}]}\n");
  const fs::path page = fs::path(dir.path()) / "p.html";
  const auto r = testing_util::RunArenaplan(
      "report " + testing_util::kModels + "hello_world_int8.tflite --profile " +
      profile.string() + " --out " + page.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string html = testing_util::ReadFile(page);
  EXPECT_NE(html.find("data-v=\"600\">600</td><td class=\"n\" "
                      "data-v=\"600\">60.0</td>"),
            std::string::npos);
}

TEST(ReportCommand, RefusesABadProfileAndWritesNothing) {
  testing_util::ScopedTempDir dir("arenaplan_report_cmd_");
  const fs::path profile = fs::path(dir.path()) / "p.json";
  testing_util::WriteFile(profile, "[{\"index\": 99, \"instructions\": 1}]\n");
  const fs::path page = fs::path(dir.path()) / "p.html";
  const auto r = testing_util::RunArenaplan(
      "report " + testing_util::kModels + "hello_world_int8.tflite --profile " +
      profile.string() + " --out " + page.string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("p.json: operator index 99 is not an operator"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(page));
}

}  // namespace
}  // namespace arenaplan
