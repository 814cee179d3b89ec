// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The TFLM shim header's limits: offsets beyond TFLM's 32-bit buffer
// descriptors are refused, and sizes a 32-bit target's std::size_t cannot
// hold fail to compile there (checked with the Cortex-M cross compiler).
#include "codegen/emit/tflm_shim.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "codegen/base/errors.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

namespace fs = std::filesystem;
using testing_util::CommandResult;
using testing_util::RunCommand;
using testing_util::WriteFile;

/// One planned tensor (index 0, 16 bytes, operator 0) at `offset`.
struct OneTensor {
  tflite::TfliteProblem problem;
  PlanResult plan;
  explicit OneTensor(std::uint64_t offset) {
    problem.problem.records = {{0, 0, 16}};
    problem.problem.ids = {"0"};
    problem.problem.names = {"t"};
    problem.problem.source = "one.tflite";
    problem.record_tensor = {0};
    tflite::TensorLifetime t;
    t.role = tflite::TensorRole::kPlanned;
    t.bytes = 16;
    t.first_op = 0;
    t.last_op = 0;
    problem.tensors = {t};
    plan.problem = problem.problem;
    plan.offsets = {offset};
    plan.arena_bytes = offset + 16;
  }
};

TEST(TflmShim, RefusesAnOffsetBeyondTflmsInt32) {
  // 2^31 - 16 is the last 16-byte aligned offset an int32_t holds.
  const OneTensor fits(2147483632);
  EXPECT_NO_THROW(
      (void)ShimHeader(fits.problem, fits.plan, 1, "one.tflite", ShimSizes{}));
  const OneTensor beyond(2147483648);
  try {
    (void)ShimHeader(beyond.problem, beyond.plan, 1, "one.tflite", ShimSizes{});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "one.tflite: --shim: tensor 0 is planned at offset 2147483648, "
              "beyond the 32-bit offsets TFLM's buffer plan holds");
  }
}

TEST(TflmShim, DoesNotCompileForATargetWhoseSizeTCannotHoldTheArena) {
  const testing_util::ScopedTempDir tmp("arenaplan_tflm_shim_");
  ASSERT_FALSE(tmp.path().empty());
  const fs::path dir = tmp.path();
  fs::create_directories(dir / "tensorflow/lite/micro/memory_planner");
  // A stand-in for TFLM's memory_plan_struct.h with the types the shim uses.
  WriteFile(dir / "tensorflow/lite/micro/memory_planner/memory_plan_struct.h",
            "#include <cstdint>\nnamespace tflite {\n"
            "struct BufferDescriptor { std::int32_t offline_offset; };\n"
            "struct BufferPlan { std::int32_t buffer_count;\n"
            "  BufferDescriptor buffer_plan_entries[1]; };\n}\n");
  const OneTensor one(0);
  ShimSizes small{1000, 4096};
  ShimSizes huge{1000, std::uint64_t{5} << 30};  // 5 GiB: above 2^32
  WriteFile(dir / "small.hpp",
            ShimHeader(one.problem, one.plan, 1, "one.tflite", small));
  WriteFile(dir / "huge.hpp",
            ShimHeader(one.problem, one.plan, 1, "one.tflite", huge));
  const auto compile = [&](const std::string& stem) {
    WriteFile(dir / (stem + ".cpp"), "#include \"" + stem + ".hpp\"\n");
    return RunCommand(
        "arm-none-eabi-g++ -std=c++17 -mcpu=cortex-m4 -mthumb "
        "-fsyntax-only -I" +
        dir.string() + " " + (dir / (stem + ".cpp")).string());
  };
  const CommandResult ok = compile("small");
  EXPECT_EQ(ok.status, 0) << ok.output;
  const CommandResult bad = compile("huge");
  EXPECT_NE(bad.status, 0) << bad.output;
  EXPECT_NE(bad.output.find("this plan does not fit the target's std::size_t"),
            std::string::npos)
      << bad.output;
}

}  // namespace
}  // namespace arenaplan
