// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The per-operator profile's marks (codegen/compile/profile.hpp): the
// generated source without ARENAPLAN_PROFILE is, token for token, the
// source without its ARENAPLAN_PROFILE_MARK lines; with the macro the only
// difference is one call ::arenaplan::profile::Mark(s) per step, s = 0 ..
// kProfileStepCount in order; the header's step table lists every
// operator once, and only under the macro.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/compile/generate.hpp"
#include "codegen/tflite/model.hpp"
#include "tests/host/support/test_util.hpp"

namespace {

namespace fs = std::filesystem;
using arenaplan::compile::CompiledModel;
using arenaplan::compile::CompileModel;
using arenaplan::compile::CompileOptions;
using arenaplan::testing_util::HostCxx;
using arenaplan::testing_util::kModels;
using arenaplan::testing_util::RunCommand;
using arenaplan::testing_util::ScopedTempDir;
using arenaplan::testing_util::WriteFile;

CompiledModel Compile(const std::string& name, bool fuse) {
  CompileOptions options;
  options.namespace_name = "m";
  options.input.assume_dim = 1;
  options.fuse = fuse;
  return CompileModel(arenaplan::tflite::ReadModelFile(kModels + name),
                      kModels + name, options);
}

/// `text` without the lines that hold only blanks.
std::string WithoutBlankLines(const std::string& text) {
  std::istringstream lines(text);
  std::string line, out;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" \t") != std::string::npos) out += line + "\n";
  }
  return out;
}

/// `text` without the lines that match `pattern` (whole line).
std::string WithoutLines(const std::string& text, const std::regex& pattern) {
  std::istringstream lines(text);
  std::string line, out;
  while (std::getline(lines, line)) {
    if (!std::regex_match(line, pattern)) out += line + "\n";
  }
  return out;
}

class CompileProfile : public ::testing::Test {
 protected:
  /// `text` as the file `name` preprocessed (g++ -E -P) with `defines`,
  /// every #include an empty stand-in (so only the generated text is
  /// seen); blank lines dropped.
  std::string Preprocessed(const std::string& name, const std::string& text,
                           const std::string& defines) {
    const fs::path dir(dir_.path());
    for (const char* stub :
         {"m_model.hpp", "m_arena.hpp", "cstddef", "cstdint",
          "arenaplan/kernels/kernels.hpp", "arenaplan/kernels/fused.hpp",
          "arenaplan/profile.hpp"}) {
      fs::create_directories((dir / "stubs" / stub).parent_path());
      WriteFile(dir / "stubs" / stub, "");
    }
    WriteFile(dir / name, text);
    const auto r = RunCommand(HostCxx() + " -std=c++17 -E -P -nostdinc -I'" +
                              (dir / "stubs").string() + "' " + defines +
                              " -x c++ '" + (dir / name).string() + "'");
    EXPECT_EQ(r.status, 0) << r.output;
    return WithoutBlankLines(r.output);
  }

  /// Checks that `code`'s source with and without ARENAPLAN_PROFILE differ
  /// only in Mark(0) .. Mark(steps), in order, and that without it the
  /// source reads as if the mark lines were not there.
  void ExpectOnlyMarksDiffer(const CompiledModel& code, std::size_t steps) {
    const std::string without =
        Preprocessed("m_model.cpp", code.model_source, "");
    const std::string with =
        Preprocessed("m_model.cpp", code.model_source, "-DARENAPLAN_PROFILE");
    const std::regex mark(R"(\s*::arenaplan::profile::Mark\((\d+)\);\s*)");
    std::vector<std::size_t> marks;
    std::istringstream lines(with);
    std::string line;
    std::smatch m;
    while (std::getline(lines, line)) {
      if (std::regex_match(line, m, mark)) marks.push_back(std::stoul(m[1]));
    }
    ASSERT_EQ(marks.size(), steps + 1);
    for (std::size_t s = 0; s <= steps; ++s) EXPECT_EQ(marks[s], s);
    EXPECT_EQ(WithoutLines(with, mark), without);
    EXPECT_EQ(without.find("profile"), std::string::npos);
    const std::string no_mark_lines = WithoutLines(
        code.model_source, std::regex(R"(  ARENAPLAN_PROFILE_MARK\(\d+\))"));
    EXPECT_EQ(Preprocessed("plain.cpp", no_mark_lines, ""), without);
  }

  ScopedTempDir dir_{"arenaplan_profile_"};
};

/// One row of the header's kProfileSteps.
struct Row {
  std::string operators;
  std::uint64_t first, last, constant, live;
};

std::vector<Row> StepTable(const std::string& header) {
  const std::regex row(
      R"re(\{"([A-Z0-9_+]*)", (\d+), (\d+), (\d+), (\d+)\},)re");
  std::vector<Row> rows;
  for (auto it = std::sregex_iterator(header.begin(), header.end(), row);
       it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    rows.push_back({m[1], std::stoull(m[2]), std::stoull(m[3]),
                    std::stoull(m[4]), std::stoull(m[5])});
  }
  return rows;
}

TEST_F(CompileProfile, MarksAreTheOnlyDifferenceOfTheMacro) {
  // hello_world: three FULLY_CONNECTED operators, one step each.
  ExpectOnlyMarksDiffer(Compile("hello_world_int8.tflite", false), 3);
}

TEST_F(CompileProfile, FusedSegmentIsOneMarkedStep) {
  const CompiledModel code = Compile("pretrainedResnet_quant.tflite", true);
  const std::vector<Row> rows = StepTable(code.model_header);
  ASSERT_FALSE(rows.empty());
  // The steps cover operators 0 .. 15 once each, in order.
  const auto model = arenaplan::tflite::ReadModelFile(
      kModels + "pretrainedResnet_quant.tflite");
  const auto& ops = model.subgraphs.at(0).operators;
  std::uint64_t next = 0;
  bool fused = false;
  for (const Row& r : rows) {
    EXPECT_EQ(r.first, next);
    std::string names;
    for (std::uint64_t k = r.first; k <= r.last; ++k) {
      names += (k == r.first ? "" : "+") + ops.at(k).builtin_name;
    }
    EXPECT_EQ(r.operators, names);
    fused = fused || r.last > r.first;
    next = r.last + 1;
  }
  EXPECT_EQ(next, ops.size());
  EXPECT_TRUE(fused);
  ExpectOnlyMarksDiffer(code, rows.size());
}

TEST_F(CompileProfile, TableListsEveryOperatorOnceUnderTheMacro) {
  const CompiledModel code = Compile("kws_ref_model.tflite", false);
  const std::vector<Row> rows = StepTable(code.model_header);
  const auto model =
      arenaplan::tflite::ReadModelFile(kModels + "kws_ref_model.tflite");
  const auto& ops = model.subgraphs.at(0).operators;
  ASSERT_EQ(rows.size(), ops.size());
  std::uint64_t constants = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    EXPECT_EQ(rows[k].first, k);
    EXPECT_EQ(rows[k].last, k);
    EXPECT_EQ(rows[k].operators, ops[k].builtin_name);
    constants += rows[k].constant;
  }
  EXPECT_NE(code.model_header.find(
                "inline constexpr std::size_t kProfileStepCount = " +
                std::to_string(ops.size()) + ";"),
            std::string::npos);
  EXPECT_EQ(constants, code.constant_bytes);
  // Step 0, the first CONV_2D: its int8 input [1, 49, 10, 1] (490 bytes,
  // 496 at the plan's 16-byte alignment), its output [1, 25, 5, 64]
  // (8,000 bytes) and its kernel's scratch are alive: filter [64, 10, 4,
  // 1], a gathered window of 40 bytes, in triples: 6 x 40 widened + 3 x 40
  // windows + 64 outputs = 424 bytes, 432 at the alignment (fast_conv.hpp).
  EXPECT_EQ(rows[0].live, 496u + 8000u + 432u);
  // Without the macro the header declares no profile.
  EXPECT_EQ(Preprocessed("m_model.hpp", code.model_header, "").find("kProfile"),
            std::string::npos);
  EXPECT_NE(
      Preprocessed("m_model.hpp", code.model_header, "-DARENAPLAN_PROFILE")
          .find("kProfileSteps"),
      std::string::npos);
}

}  // namespace
