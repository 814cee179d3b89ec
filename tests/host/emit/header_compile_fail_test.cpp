// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// What must not compile: a generated header whose plan was edited so that
// two live tensors overlap, and misuses of typed access
// (tests/compile_fail/*.cpp). The compiler is run for real; the test checks
// its exit status and that its diagnostics name the problem.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "codegen/emit/header.hpp"
#include "tests/host/support/test_util.hpp"
#include "tests/host/support/tiny_plan.hpp"

namespace arenaplan {
namespace {

namespace fs = std::filesystem;

using arenaplan::testing_util::CommandResult;
using arenaplan::testing_util::HostCxx;
using arenaplan::testing_util::ReadFile;
using arenaplan::testing_util::RunCommand;
using arenaplan::testing_util::TinyPlan;
using arenaplan::testing_util::WriteFile;

class CompileFail : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(tmp_.path().empty());
    dir_ = tmp_.path();
    HeaderOptions tiny;
    tiny.namespace_name = "tiny";
    tiny.input_name = "tiny.csv";
    tiny.tensor_bytes = {60, 32, 64, 0};
    header_ = EmitHeader(TinyPlan(), tiny);
    WriteFile(dir_ / "tiny_plan.hpp", header_);
    HeaderOptions other;
    other.namespace_name = "other";
    WriteFile(dir_ / "other_plan.hpp", EmitHeader(TinyPlan(), other));
  }

  CommandResult Compile(const fs::path& source) const {
    return RunCommand(testing_util::HostCompileCommand(
                          "c++17", "-fsyntax-only -Wall -Wextra -Werror") +
                      "-I" + dir_.string() + " " + source.string());
  }

  const testing_util::ScopedTempDir tmp_{"arenaplan_compile_fail_"};
  fs::path dir_;
  std::string header_;
};

TEST_F(CompileFail, AcceptsTheUncorruptedHeader) {
  const CommandResult run = Compile(fs::path(ARENAPLAN_SOURCE_DIR) / "tests" /
                                    "compile_fail" / "control_ok.cpp");
  EXPECT_EQ(run.status, 0) << run.output;
}

// kConv1Relu (index 1, alive 1..2) moved from 64 to 0 overlaps kInput
// (index 0, alive 0..1, bytes 0..63) during operator 1.
TEST_F(CompileFail, RejectsHeaderWithOffsetMovedOntoLiveNeighbour) {
  const std::string line = "    {64, 32, 1, 2},  // 1 kConv1Relu\n";
  std::string corrupted = header_;
  const std::size_t at = corrupted.find(line);
  ASSERT_NE(at, std::string::npos) << header_;
  corrupted.replace(at, line.size(), "    {0, 32, 1, 2},  // 1 kConv1Relu\n");
  WriteFile(dir_ / "corrupted_plan.hpp", corrupted);
  WriteFile(dir_ / "use_corrupted.cpp", "#include \"corrupted_plan.hpp\"\n");
  const CommandResult run = Compile(dir_ / "use_corrupted.cpp");
  EXPECT_NE(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("static assertion failed: arenaplan: unsound "
                            "plan: two tensors alive at a common operator "
                            "overlap in the arena"),
            std::string::npos)
      << run.output;
  // The tensors at fault, by kPlan index.
  EXPECT_NE(run.output.find("ValidationResult::kOverlap, "
                            "arenaplan::ValidationResult::kOverlap, 0, 1>"),
            std::string::npos)
      << run.output;
}

// The tiny plan's last operator is 3 (kOutput lives 2..3): kOperatorCount
// lowered from 4 to 3 leaves kOutput's last_op outside the operators that
// run. Every entry is still sound by itself, so only the operator-count
// check can catch it.
TEST_F(CompileFail, RejectsHeaderWithOperatorCountBelowLastOperator) {
  const std::string line = "inline constexpr std::size_t kOperatorCount = 4;";
  std::string corrupted = header_;
  const std::size_t at = corrupted.find(line);
  ASSERT_NE(at, std::string::npos) << header_;
  corrupted.replace(at, line.size(),
                    "inline constexpr std::size_t kOperatorCount = 3;");
  WriteFile(dir_ / "few_ops_plan.hpp", corrupted);
  WriteFile(dir_ / "use_few_ops.cpp", "#include \"few_ops_plan.hpp\"\n");
  const CommandResult run = Compile(dir_ / "use_few_ops.cpp");
  EXPECT_NE(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("a tensor's last_op is not below kOperatorCount"),
            std::string::npos)
      << run.output;
  // kOutput, kPlan index 2, is named.
  EXPECT_NE(run.output.find("ValidationResult::kOperatorOutOfRange, 2, 4>"),
            std::string::npos)
      << run.output;
}

// kTensorCount raised from 4 to 5: with tables sized by kTensorCount the
// fifth entry would be zero-filled ({0, 0, 0, 0}, size 0, a valid entry
// by itself); the tables' extents come from their initializers, so the
// count no longer matches them.
TEST_F(CompileFail, RejectsHeaderWithTensorCountRaised) {
  const std::string line = "inline constexpr std::size_t kTensorCount = 4;";
  std::string corrupted = header_;
  const std::size_t at = corrupted.find(line);
  ASSERT_NE(at, std::string::npos) << header_;
  corrupted.replace(at, line.size(),
                    "inline constexpr std::size_t kTensorCount = 5;");
  WriteFile(dir_ / "more_tensors_plan.hpp", corrupted);
  WriteFile(dir_ / "use_more_tensors.cpp",
            "#include \"more_tensors_plan.hpp\"\n");
  const CommandResult run = Compile(dir_ / "use_more_tensors.cpp");
  EXPECT_NE(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("kPlan does not hold kTensorCount entries"),
            std::string::npos)
      << run.output;
  // Lowered to 3 as well: the fourth entry would silently drop out.
  corrupted = header_;
  corrupted.replace(corrupted.find(line), line.size(),
                    "inline constexpr std::size_t kTensorCount = 3;");
  WriteFile(dir_ / "fewer_tensors_plan.hpp", corrupted);
  WriteFile(dir_ / "use_fewer_tensors.cpp",
            "#include \"fewer_tensors_plan.hpp\"\n");
  const CommandResult fewer = Compile(dir_ / "use_fewer_tensors.cpp");
  EXPECT_NE(fewer.status, 0) << fewer.output;
  EXPECT_NE(fewer.output.find("kPlan does not hold kTensorCount entries"),
            std::string::npos)
      << fewer.output;
}

// kOutput (index 2) moved to 8: not a multiple of the 16-byte alignment.
TEST_F(CompileFail, RejectsHeaderWithMisalignedOffset) {
  const std::string line = "    {0, 64, 2, 3},  // 2 kOutput\n";
  std::string corrupted = header_;
  const std::size_t at = corrupted.find(line);
  ASSERT_NE(at, std::string::npos) << header_;
  corrupted.replace(at, line.size(), "    {8, 64, 2, 3},  // 2 kOutput\n");
  WriteFile(dir_ / "misaligned_plan.hpp", corrupted);
  WriteFile(dir_ / "use_misaligned.cpp", "#include \"misaligned_plan.hpp\"\n");
  const CommandResult run = Compile(dir_ / "use_misaligned.cpp");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("offset is not a multiple of kAlignment"),
            std::string::npos)
      << run.output;
}

TEST_F(CompileFail, RejectsEveryMisuseOfTypedAccess) {
  int cases = 0;
  for (const auto& entry : fs::directory_iterator(
           fs::path(ARENAPLAN_SOURCE_DIR) / "tests" / "compile_fail")) {
    if (entry.path().extension() != ".cpp" ||
        entry.path().filename() == "control_ok.cpp") {
      continue;
    }
    const std::string text = ReadFile(entry.path());
    const std::string prefix = "// expect: ";
    ASSERT_EQ(text.rfind(prefix, 0), 0u) << entry.path();
    const std::string expect =
        text.substr(prefix.size(), text.find('\n') - prefix.size());
    const CommandResult run = Compile(entry.path());
    EXPECT_NE(run.status, 0) << entry.path() << " compiled";
    EXPECT_NE(run.output.find(expect), std::string::npos)
        << entry.path() << " lacks '" << expect << "':\n"
        << run.output;
    ++cases;
  }
  EXPECT_GE(cases, 5);
}

// Allowed overlaps (TinyOverlapPlan: kConv1Relu at 0 may share kInput's
// bytes at 32 because 0 + 32 <= 32).
class OverlapCompileFail : public CompileFail {
 protected:
  /// Writes `header` with `from` replaced by `to` (which must occur) and a
  /// source using its Arena; returns the compiler's verdict.
  CommandResult CompileEdited(const std::string& header,
                              const std::string& from, const std::string& to,
                              const std::string& name) {
    std::string edited = header;
    const std::size_t at = edited.find(from);
    EXPECT_NE(at, std::string::npos) << header;
    if (at != std::string::npos) edited.replace(at, from.size(), to);
    WriteFile(dir_ / (name + ".hpp"), edited);
    WriteFile(
        dir_ / (name + ".cpp"),
        "#include \"" + name +
            ".hpp\"\n"
            "int main() {\n"
            "  auto in = overlap::Arena::Get<signed char>(overlap::kInput);"
            "\n  return in.data != nullptr ? 0 : 1;\n}\n");
    return Compile(dir_ / (name + ".cpp"));
  }
  static std::string Header(std::uint64_t alignment) {
    HeaderOptions options;
    options.namespace_name = "overlap";
    return EmitHeader(testing_util::TinyOverlapPlan(alignment), options);
  }
};

TEST_F(OverlapCompileFail, AcceptsTheDeclaredOverlap) {
  const std::string h = Header(16);
  EXPECT_NE(h.find("kOverlaps[] = {\n    {0, 1, 1, "
                   "arenaplan::OverlapRelation::kOutputBelowBy, 32},"),
            std::string::npos)
      << h;
  const CommandResult run = CompileEdited(h, "", "", "overlap_ok");
  EXPECT_EQ(run.status, 0) << run.output;
}

TEST_F(OverlapCompileFail, RejectsOutputMovedOneStepIntoItsInput) {
  // One alignment step (16 bytes) closer: 16 + 32 > 32.
  const CommandResult run =
      CompileEdited(Header(16), "    {0, 64, 1, 2},  // 1 kConv1Relu",
                    "    {16, 64, 1, 2},  // 1 kConv1Relu", "overlap_step");
  EXPECT_NE(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("ValidationResult::kOverlap, 0, 1>"),
            std::string::npos)
      << run.output;
}

TEST_F(OverlapCompileFail, RejectsOutputMovedOneByteIntoItsInput) {
  // Alignment 1: offset 1 is aligned, and 1 + 32 > 32 by one byte.
  const CommandResult run =
      CompileEdited(Header(1), "    {0, 64, 1, 2},  // 1 kConv1Relu",
                    "    {1, 64, 1, 2},  // 1 kConv1Relu", "overlap_byte");
  EXPECT_NE(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("two tensors alive at a common operator overlap"),
            std::string::npos)
      << run.output;
}

TEST_F(OverlapCompileFail, RejectsARaisedDistance) {
  // The kernel needs 33 bytes: the plan's 32 no longer satisfy it.
  const CommandResult run = CompileEdited(
      Header(16), "arenaplan::OverlapRelation::kOutputBelowBy, 32}",
      "arenaplan::OverlapRelation::kOutputBelowBy, 33}", "overlap_distance");
  EXPECT_NE(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("ValidationResult::kOverlap, 0, 1>"),
            std::string::npos)
      << run.output;
}

TEST_F(OverlapCompileFail, RejectsAPermitAtTheWrongOperator) {
  // kInput dies at operator 1, not 0.
  const CommandResult run =
      CompileEdited(Header(16), "    {0, 1, 1, arenaplan",
                    "    {0, 1, 0, arenaplan", "overlap_op");
  EXPECT_NE(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("a kOverlaps entry names a tensor outside the "
                            "plan, or an operator"),
            std::string::npos)
      << run.output;
}

TEST_F(OverlapCompileFail, RejectsADroppedPermit) {
  // Without its entry the overlap is an ordinary one.
  const CommandResult run =
      CompileEdited(Header(16), "kOverlapCount = 1;", "kOverlapCount = 0;",
                    "overlap_dropped");
  EXPECT_NE(run.status, 0) << run.output;
}

}  // namespace
}  // namespace arenaplan
