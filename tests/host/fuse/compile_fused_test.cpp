// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `compile --fuse` (codegen/compile/fused_body.cpp): ResNet-8's code runs
// its fused segment through k::RunResolved with the unfused build's kernels
// and constants, and compiles; an arena header edited so that a ring is
// smaller than its bytes, or so that the segment's output moves into its
// live input, does not (the compiler is run for real; the diagnostics must
// name the problem).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "codegen/compile/generate.hpp"
#include "codegen/tflite/model.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

namespace fs = std::filesystem;
using testing_util::CommandResult;
using testing_util::RunCommand;
using testing_util::WriteFile;

class CompileFused : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(tmp_.path().empty());
    dir_ = tmp_.path();
    const std::string path =
        testing_util::kModels + "pretrainedResnet_quant.tflite";
    const tflite::Model model = tflite::ReadModelFile(path);
    compile::CompileOptions o;
    o.namespace_name = "rn";
    o.fuse = true;
    o.input.assume_dim = 1;
    // The graph unfolded (--no-fold): the record numbers below are the
    // file's tensors, with the RESHAPE's output a record of its own.
    o.input.fold = false;
    out_ = compile::CompileModel(model, path, o);
    unfused_options_ = o;
    unfused_options_.fuse = false;
    unfused_ = compile::CompileModel(model, path, unfused_options_);
  }

  /// Compiles the model source against `arena_header` (syntax only).
  CommandResult Compile(const std::string& arena_header) const {
    WriteFile(dir_ / out_.arena_header_name, arena_header);
    WriteFile(dir_ / out_.model_header_name, out_.model_header);
    WriteFile(dir_ / out_.model_source_name, out_.model_source);
    return RunCommand(testing_util::HostCompileCommand(
                          "c++20", "-fsyntax-only -Wall -Wextra -Werror") +
                      "-I" ARENAPLAN_SOURCE_DIR "/kernels/include -I" +
                      dir_.string() + " " +
                      (dir_ / out_.model_source_name).string());
  }

  /// `header` with the first occurrence of `from` replaced by `to`.
  static std::string Edit(std::string header, const std::string& from,
                          const std::string& to) {
    const std::size_t at = header.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) header.replace(at, from.size(), to);
    return header;
  }

  const testing_util::ScopedTempDir tmp_{"arenaplan_compile_fused_"};
  fs::path dir_;
  compile::CompiledModel out_, unfused_;
  compile::CompileOptions unfused_options_;
};

TEST_F(CompileFused, RunsTheSegmentWithTheUnfusedKernelsAndCompiles) {
  // One segment (operators 0 .. 12, fuse_test), one RunResolved call, its
  // steps resolved when compiling with a replay's state sized to the
  // segment's 13 operators, int8 elements.
  const std::string& src = out_.model_source;
  EXPECT_NE(src.find("static constexpr k::FusedSegment kSegment{kOps, 13,"),
            std::string::npos);
  EXPECT_NE(src.find("k::ResolveSteps<k::ResolvedOffset<kArenaSize>, 13, 1, "
                     "kCount>(kSegment, kSteps)"),
            std::string::npos);
  const std::string call = "k::RunResolved<Rows>(kSegment, kRun,";
  EXPECT_NE(src.find(call), std::string::npos);
  EXPECT_EQ(src.find("k::RunResolved<", src.find(call) + 1), std::string::npos);
  // The segment's convolutions use the constants the unfused build passes
  // to its calls.
  for (const char* c : {"kConst8, kFoldedBias0", "kConst16, kFoldedBias10",
                        "k::ChannelQuant{kMultiplier9, kShift9}"}) {
    EXPECT_NE(src.find(c), std::string::npos) << c;
    EXPECT_NE(unfused_.model_source.find(c), std::string::npos) << c;
  }
  // 15,616 bytes of tensors and rings, plus the segment's one scratch
  // record, alive at its only step: its largest Conv2DFastScratchBytes, a
  // 3x3 window of 16 channels (144 bytes) with 16 outputs, gathered and
  // paired: 4 x 144 widened + 144 + 144 (the two windows) + 16 (the second
  // pixel's outputs) = 880, 896 at the 16-byte alignment.
  EXPECT_EQ(out_.plan.arena_bytes, 15616u + 896u);
  const CommandResult run = Compile(out_.arena_header);
  EXPECT_EQ(run.status, 0) << run.output;
}

TEST_F(CompileFused, RejectsAHeaderWithARingShrunk) {
  // Record 6 is operator 0's ring (after the tensors and the segment's
  // scratch record), 3 rows of 32 x 16 = 1536 bytes; its size and exact
  // bytes both edited to 1520.
  std::string h =
      Edit(out_.arena_header, ", 1536, 0, 0},  // 6 ", ", 1520, 0, 0},  // 6 ");
  h = Edit(h, "    1536,  // 6\n", "    1520,  // 6\n");
  const CommandResult run = Compile(h);
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("ring of operator 0 smaller than its 1536 bytes"),
            std::string::npos)
      << run.output;
}

TEST_F(CompileFused, RejectsAHeaderWithTheOutputMovedIntoItsInput) {
  // Record 1 (the segment's output, 64 bytes) starts at 0, as the input
  // (record 0, 3,072 bytes): moved 16 bytes up, its first row lands on
  // input rows still to be read.
  const std::string h = Edit(out_.arena_header, "{0, 64, 0, 1},  // 1 ",
                             "{16, 64, 0, 1},  // 1 ");
  const CommandResult run = Compile(h);
  EXPECT_NE(run.status, 0);
  EXPECT_TRUE(run.output.find("unsound plan") != std::string::npos ||
              run.output.find("segment's output") != std::string::npos)
      << run.output;
}

}  // namespace
}  // namespace arenaplan
