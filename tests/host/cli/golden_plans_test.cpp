// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Behaviour is unchanged by a restructuring: every output arenaplan makes
// from every input in ../shared (each heuristic strategy of both approaches,
// the header, SVG, records CSV, TFLM model and shim, compiled firmware code)
// has the SHA-256 recorded in tests/golden/plans.txt, written by
// tests/golden/make_golden.sh with coreutils' sha256sum before the move.
// Cases recorded as "refused" must still be refused. A model source is
// hashed without its line naming the kernel headers' digest (it changes with
// every header and has its own test, headers_digest_test).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/emit/sha256.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

using testing_util::RunCommand;
using testing_util::ScopedTempDir;

/// The SHA-256 make_golden.sh records for `file` at `path`: of its bytes,
/// or for a model source (a .cpp) of its lines but those holding
/// "k::HeadersDigestIs(", each ending in a newline (grep -v's output).
std::string GoldenSha(const std::string& file, const std::string& path) {
  if (file.size() < 4 || file.compare(file.size() - 4, 4, ".cpp") != 0) {
    return Sha256FileHex(path);
  }
  std::ifstream in(path, std::ios::binary);
  std::string kept, line;
  while (std::getline(in, line)) {
    if (line.find("k::HeadersDigestIs(") == std::string::npos) {
      kept += line + "\n";
    }
  }
  return Sha256Hex(kept);
}

struct GoldenCase {
  std::string sha;   ///< 64 hex digits, or "refused".
  std::string file;  ///< The output compared, relative to the work dir.
  std::string args;  ///< arenaplan's arguments.
};

std::vector<GoldenCase> ReadGolden() {
  std::ifstream in(std::string(ARENAPLAN_SOURCE_DIR) +
                   "/tests/golden/plans.txt");
  std::vector<GoldenCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    GoldenCase c;
    fields >> c.sha >> c.file;
    std::getline(fields, c.args);
    cases.push_back(c);
  }
  return cases;
}

TEST(GoldenPlans, ReproducesEveryRecordedOutput) {
  const std::vector<GoldenCase> cases = ReadGolden();
  ASSERT_GE(cases.size(), 200u) << "tests/golden/plans.txt is missing";
  for (const GoldenCase& c : cases) {
    ScopedTempDir dir("arenaplan_golden_");
    ASSERT_FALSE(dir.path().empty());
    std::filesystem::create_directory_symlink(ARENAPLAN_SHARED_DIR,
                                              dir.path() + "/shared");
    const auto run = RunCommand("cd " + dir.path() + " && " + ARENAPLAN_BINARY +
                                " " + c.args);
    const std::string out = dir.path() + "/" + c.file;
    if (c.sha == "refused") {
      EXPECT_NE(run.status, 0) << c.args;
      continue;
    }
    ASSERT_EQ(run.status, 0) << c.args << "\n" << run.output;
    EXPECT_EQ(GoldenSha(c.file, out), c.sha) << c.file << " of:" << c.args;
  }
}

}  // namespace
}  // namespace arenaplan
