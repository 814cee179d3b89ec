// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `arenaplan compile` with constant folding (codegen/tflite/const_fold.hpp) on
// armex_basic_lstm_s (corpus): its SHAPE -> STRIDED_SLICE -> PACK -> FILL
// zero state is computed at generation time, so the plan has four records
// fewer than the model's graph-folded records, the generated code says what
// was folded and reads the zero state from a constant array
// (FULLY_CONNECTED's input, MUL's operand), operator numbers stay the
// file's, and `inspect` lists the folded operators with the planned buffers
// left, as `plan` plans them.
#include <gtest/gtest.h>

#include <string>

#include "codegen/compile/generate.hpp"
#include "codegen/input/input.hpp"
#include "codegen/tflite/fold.hpp"
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
  const auto out = CompileModel(model, BasicLstmPath(), options);
  // The file's graph with the graph folding alone (its RESHAPE alias,
  // operator 1, removes one record in both).
  auto graph_folded = model;
  (void)arenaplan::tflite::FoldGraph(graph_folded, options.input);
  const auto records =
      arenaplan::tflite::BuildProblem(graph_folded, options.input)
          .problem.records;
  EXPECT_EQ(out.plan.offsets.size() + 4, records.size());
  EXPECT_EQ(out.file_operator_count, 697u);
  EXPECT_EQ(out.plan.problem.operator_count, 693u);
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
  // 893 tensors to plan, less operator 1's RESHAPE alias (graph folding)
  // and the four outputs computed at generation time.
  EXPECT_NE(r.output.find("planned buffers: 888 (alignment 16)"),
            std::string::npos);
  EXPECT_NE(r.output.find("computed at generation time (outputs become "
                          "constants, no arena record, no step; --no-fold "
                          "keeps them):\n"
                          "  operator 2 SHAPE -> tensor 15 INT32 [3] "
                          "'model/lstm/Shape'\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("  operator 5 FILL -> tensor 18 INT8 [1,118] "
                          "'model/lstm/zeros'\n"),
            std::string::npos)
      << r.output;
  // Operator 6 runs at step 2 (after operators 0 and 1).
  EXPECT_NE(r.output.find("\n     6     2  FULLY_CONNECTED "),
            std::string::npos)
      << r.output;
  // --no-fold: every operator and record, no such section.
  const auto nf = arenaplan::testing_util::RunArenaplan(
      "inspect " + BasicLstmPath() + " --no-fold");
  ASSERT_EQ(nf.status, 0) << nf.output;
  EXPECT_NE(nf.output.find("planned buffers: 893 (alignment 16)"),
            std::string::npos);
  EXPECT_EQ(nf.output.find("computed at generation time"), std::string::npos);
  // A model with nothing to fold has no such section.
  const auto hw = arenaplan::testing_util::RunArenaplan(
      "inspect " + std::string(ARENAPLAN_SHARED_DIR) +
      "/corpus/tflm_mnist_lstm_int8.tflite");
  ASSERT_EQ(hw.status, 0) << hw.output;
  EXPECT_EQ(hw.output.find("computed at generation time"), std::string::npos);
}

// compile prints both counts: the file's 697 operators, 693 once the four
// of operators 2-5 are computed (kOperatorCount, the plan's steps), of which
// operator 1's RESHAPE, an alias, runs no code.
TEST(CompileFold, PrintsTheFileAndFoldedOperatorCounts) {
  const arenaplan::testing_util::ScopedTempDir dir("arenaplan_compile_fold_");
  const auto r = arenaplan::testing_util::RunArenaplan(
      "compile " + BasicLstmPath() + " --out-dir " + dir.path() +
      " --namespace m");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find(": 697 operators in the file, 693 after folding (4 "
                          "computed at generation time: operator 2 SHAPE -> "
                          "tensor 15, operator 3 STRIDED_SLICE -> tensor 16, "
                          "operator 4 PACK -> tensor 17, operator 5 FILL -> "
                          "tensor 18; 1 folded into other operators or "
                          "aliases (a step each, no code)), kOperatorCount "
                          "693, strategy "),
            std::string::npos)
      << r.output;
  const std::string header =
      arenaplan::testing_util::ReadFile(dir.path() + "/m_arena.hpp");
  EXPECT_NE(header.find("inline constexpr std::size_t kOperatorCount = 693;"),
            std::string::npos);
  // --no-fold: nothing computed; the FILL has no kernel.
  const auto nf = arenaplan::testing_util::RunArenaplan(
      "compile " + BasicLstmPath() + " --no-fold --out-dir " + dir.path() +
      " --namespace m");
  EXPECT_EQ(nf.status, 2) << nf.output;
  EXPECT_NE(nf.output.find("FILL only with constant dims and value, computed "
                           "at generation time unless --no-fold"),
            std::string::npos)
      << nf.output;
}

}  // namespace
