// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `arenaplan compile` with constant folding (codegen/tflite/const_fold.hpp) on
// armex_basic_lstm_s (corpus): its SHAPE -> STRIDED_SLICE -> PACK -> FILL
// zero state is computed at generation time, so the plan has four records
// fewer than the model's records, the generated code says what was folded
// and reads the zero state from a constant array (FULLY_CONNECTED's input,
// MUL's operand), operator numbers stay the file's, and `inspect` lists the
// folded operators with the planned buffers left.
#include <gtest/gtest.h>

#include <string>

#include "codegen/compile/generate.hpp"
#include "codegen/input/input.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"
#include "tests/host/support/test_util.hpp"

namespace {

using arenaplan::compile::CompileModel;
using arenaplan::compile::CompileOptions;

std::string BasicLstmPath() {
  return std::string(ARENAPLAN_SHARED_DIR) +
         "/corpus/armex_basic_lstm_s.tflite";
}

TEST(CompileFold, PlansFourRecordsFewerAndReadsTheFoldedState) {
  const auto model = arenaplan::tflite::ReadModelFile(BasicLstmPath());
  CompileOptions options;
  options.namespace_name = "m";
  options.input.assume_dim = 1;
  // Constant folding only (--no-fold turns the graph folding off: its
  // RESHAPE alias, operator 1, would remove one more record).
  options.input.fold = false;
  const auto out = CompileModel(model, BasicLstmPath(), options);
  const auto records =
      arenaplan::tflite::BuildProblem(model, options.input).problem.records;
  EXPECT_EQ(out.plan.offsets.size() + 4, records.size());
  ASSERT_EQ(out.folded.size(), 4u);
  EXPECT_EQ(out.folded[3].builtin, "FILL");
  EXPECT_EQ(out.folded[3].output, 18);
  const std::string& src = out.model_source;
  EXPECT_NE(src.find("  // Folded at generation time (outputs are constants, "
                     "not run): operator 2 SHAPE -> tensor 15, operator 3 "
                     "STRIDED_SLICE -> tensor 16, operator 4 PACK -> tensor "
                     "17, operator 5 FILL -> tensor 18\n"),
            std::string::npos);
  // Operator 6 (FULLY_CONNECTED) reads the zero state, tensor 18, from
  // flash; no "// operator 2" .. "// operator 5" comment, operator 6 keeps
  // its number.
  EXPECT_NE(src.find("const std::int8_t kConst18[119]"), std::string::npos);
  const auto op6 = src.find("  // operator 6: FULLY_CONNECTED\n");
  ASSERT_NE(op6, std::string::npos);
  EXPECT_NE(src.find("      kConst18, ", op6), std::string::npos);
  for (int k = 2; k <= 5; ++k) {
    EXPECT_EQ(src.find("  // operator " + std::to_string(k) + ": "),
              std::string::npos)
        << k;
  }
  // ADD with the int8 bias (tensor 10, [472]) broadcast.
  EXPECT_NE(src.find("k::AddBroadcast("), std::string::npos);
}

TEST(CompileFold, InspectListsTheFoldedOperators) {
  const auto r =
      arenaplan::testing_util::RunArenaplan("inspect " + BasicLstmPath());
  ASSERT_EQ(r.status, 0) << r.output;
  // 893 tensors to plan, less operator 1's RESHAPE alias (graph folding).
  EXPECT_NE(r.output.find("planned buffers: 892 (alignment 16)"),
            std::string::npos);
  EXPECT_NE(r.output.find("folded by compile (computed at generation time; "
                          "outputs become constants, no arena record):\n"
                          "  operator 2 SHAPE -> tensor 15 INT32 [3] "
                          "'model/lstm/Shape'\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("  operator 5 FILL -> tensor 18 INT8 [1,118] "
                          "'model/lstm/zeros'\n"
                          "compile's plan: 888 planned buffers (4 fewer)"),
            std::string::npos)
      << r.output;
  // A model with nothing to fold has no such section.
  const auto hw = arenaplan::testing_util::RunArenaplan(
      "inspect " + std::string(ARENAPLAN_SHARED_DIR) +
      "/corpus/tflm_mnist_lstm_int8.tflite");
  ASSERT_EQ(hw.status, 0) << hw.output;
  EXPECT_EQ(hw.output.find("folded by compile"), std::string::npos);
}

}  // namespace
