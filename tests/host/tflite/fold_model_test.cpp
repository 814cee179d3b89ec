// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// tflite::FoldModel, the one folding path of plan, records, inspect and
// compile, on a model built by hand:
//
//   t0 int8 [1,6,4] (graph input, 24 B)
//   op 0 SHAPE(t0)                          -> t1 int32 [3]  (12 B) {1,6,4}
//   op 1 STRIDED_SLICE(t1, [1], [3], [1])   -> t5 int32 [2]  (8 B)  {6,4}
//   op 2 RESHAPE(t0, t5)                    -> t6 int8 [6,4] (24 B)
//   op 3 RELU(t6)                           -> t7 int8 [6,4] (24 B, output)
//
// Folded: ops 0 and 1 are computed (t1, t5 become constants), the RESHAPE
// makes t6 an alias of t0 (t6 is no graph output): 2 records (t0 covering
// t6's lifetime, t7) and 2 steps (RESHAPE, RELU). Sizes rounded to 16:
// t0 32 B alive at steps 0-1, t7 32 B at step 1: arena 64 B.
// --no-fold: 5 records (t0, t1, t5, t6, t7) and 4 steps; rounded sizes
// t0 32 [0,2], t1 16 [0,1], t5 16 [1,2], t6 32 [2,3], t7 32 [3,3]; the
// widest step is 2 (t0 + t5 + t6 = 80 B), so no plan is below 80 B, and
// 80 B is reached: t0 at 0, t5 at 32, t6 at 48, t1 at 48 (dead before t6),
// t7 at 0 (t0 dead at 3).
#include "codegen/tflite/fold_model.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/input/input.hpp"
#include "codegen/tflite/problem.hpp"
#include "tests/host/support/model_builder.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan::tflite {
namespace {

/// The model of the file comment.
Model ShapeSliceReshapeModel() {
  testing_util::ModelBuilder b("chain.tflite");
  const std::int32_t x = b.Tensor({1, 6, 4});
  const std::int32_t shape = b.Tensor({3}, TensorType::kInt32, 0.0f);
  const std::int32_t begin = b.Int32Constant({1});
  const std::int32_t end = b.Int32Constant({3});
  const std::int32_t strides = b.Int32Constant({1});
  const std::int32_t dims = b.Tensor({2}, TensorType::kInt32, 0.0f);
  const std::int32_t y = b.Tensor({6, 4});
  const std::int32_t z = b.Tensor({6, 4});
  b.Op(BuiltinOp::kShape, {x}, {shape});
  b.Op(BuiltinOp::kStridedSlice, {shape, begin, end, strides}, {dims},
       StridedSliceOptions{});
  b.Op(BuiltinOp::kReshape, {x, dims}, {y});
  b.Op(BuiltinOp::kRelu, {y}, {z});
  return b.Finish({x}, {z});
}

InputOptions NoFold() {
  InputOptions o;
  o.fold = false;
  return o;
}

TEST(FoldModel, ComputesTheShapeChainThenAliasesTheReshape) {
  const Model file = ShapeSliceReshapeModel();
  const FoldedModel f = FoldModel(file, InputOptions{});
  ASSERT_EQ(f.constants.size(), 2u);
  EXPECT_EQ(f.constants[0].builtin, "SHAPE");
  EXPECT_EQ(f.constants[0].output, 1);
  EXPECT_EQ(f.constants[1].builtin, "STRIDED_SLICE");
  EXPECT_EQ(f.constants[1].output, 5);
  EXPECT_EQ(f.file_index, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(f.file_operator_count, 4u);
  EXPECT_EQ(f.graph.reshapes, 1u);
  EXPECT_EQ(f.StepOf(0), -1);
  EXPECT_EQ(f.StepOf(3), 1);
  EXPECT_EQ(f.model.subgraphs[0].tensors[6].alias_of, 0);

  const TfliteProblem p = BuildProblem(f.model, InputOptions{});
  EXPECT_EQ(p.problem.operator_count, 2u);
  ASSERT_EQ(p.record_tensor, (std::vector<std::int32_t>{0, 7}));
  EXPECT_EQ(p.problem.records[0].first_op, 0u);
  EXPECT_EQ(p.problem.records[0].last_op, 1u);
  EXPECT_EQ(p.problem.records[1].first_op, 1u);
  EXPECT_EQ(p.tensors[1].role, TensorRole::kConstant);
  EXPECT_EQ(p.tensors[5].role, TensorRole::kConstant);
}

TEST(FoldModel, NoFoldKeepsEveryOperatorAndRecord) {
  const FoldedModel f = FoldModel(ShapeSliceReshapeModel(), NoFold());
  EXPECT_TRUE(f.constants.empty());
  EXPECT_EQ(f.graph.Total(), 0u);
  EXPECT_EQ(f.file_index, (std::vector<std::size_t>{0, 1, 2, 3}));
  const TfliteProblem p = BuildProblem(f.model, NoFold());
  EXPECT_EQ(p.problem.operator_count, 4u);
  EXPECT_EQ(p.record_tensor, (std::vector<std::int32_t>{0, 1, 5, 6, 7}));
}

TEST(FoldModel, Fp32FoldsNothing) {
  InputOptions o;
  o.fp32 = true;
  const FoldedModel f = FoldModel(ShapeSliceReshapeModel(), o);
  EXPECT_TRUE(f.constants.empty());
  EXPECT_EQ(f.graph.Total(), 0u);
}

TEST(FoldModel, ScratchNamesTheFileOperator) {
  const FoldedModel f = FoldModel(ShapeSliceReshapeModel(), InputOptions{});
  InputOptions o;
  o.scratch = {{3, 100}, {2, 8}, {9, 1}};
  const InputOptions s = StepOptions(f, o);
  ASSERT_EQ(s.scratch.size(), 3u);
  EXPECT_EQ(s.scratch[0].first, 1u);  // RELU: step 1.
  EXPECT_EQ(s.scratch[1].first, 0u);  // RESHAPE: step 0.
  EXPECT_EQ(s.scratch[2].first, 9u);  // Past the file: left for BuildProblem.
  o.scratch = {{1, 4}};
  EXPECT_THROW((void)StepOptions(f, o), InputError);
}

/// Field `name` of `plan --json`'s output.
std::uint64_t JsonField(const std::string& json, const std::string& name) {
  const std::string key = "\"" + name + "\":";
  const std::size_t at = json.find(key);
  if (at == std::string::npos) return UINT64_MAX;
  return std::stoull(json.substr(at + key.size()));
}

TEST(FoldModel, PlanAndCompileOfTheChainAgree) {
  const testing_util::ScopedTempDir dir("arenaplan_fold_model_");
  const std::string path = dir.path() + "/chain.tflite";
  const std::vector<std::uint8_t> bytes =
      testing_util::SerializeModel(ShapeSliceReshapeModel());
  testing_util::WriteFile(path, std::string(bytes.begin(), bytes.end()));
  const Model file = ReadModelFile(path);
  // {option, records, arena bytes}: the hand derivation of the file comment.
  for (const auto& [option, records, arena] :
       {std::tuple<std::string, std::uint64_t, std::uint64_t>{"", 2, 64},
        {" --no-fold", 5, 80}}) {
    SCOPED_TRACE(option);
    const testing_util::CommandResult plan =
        testing_util::RunArenaplan("plan " + path + " --json" + option);
    ASSERT_EQ(plan.status, 0) << plan.output;
    EXPECT_EQ(JsonField(plan.output, "tensors"), records);
    EXPECT_EQ(JsonField(plan.output, "arena_bytes"), arena);

    compile::CompileOptions c;
    c.namespace_name = "m";
    c.input.fold = option.empty();
    const compile::CompiledModel out = compile::CompileModel(file, path, c);
    EXPECT_EQ(out.plan.problem.records.size(), records);
    EXPECT_EQ(out.plan.arena_bytes, arena);
    EXPECT_EQ(out.folded.size(), option.empty() ? 2u : 0u);
    EXPECT_EQ(out.file_operator_count, 4u);

    const testing_util::CommandResult rec =
        testing_util::RunArenaplan("records " + path + option);
    ASSERT_EQ(rec.status, 0) << rec.output;
    // Header line plus one line a record.
    EXPECT_EQ(static_cast<std::uint64_t>(
                  std::count(rec.output.begin(), rec.output.end(), '\n')),
              records + 1)
        << rec.output;
  }
}

TEST(FoldModel, InspectShowsFileOperatorsWithTheirSteps) {
  const testing_util::ScopedTempDir dir("arenaplan_fold_model_");
  const std::string path = dir.path() + "/chain.tflite";
  const std::vector<std::uint8_t> bytes =
      testing_util::SerializeModel(ShapeSliceReshapeModel());
  testing_util::WriteFile(path, std::string(bytes.begin(), bytes.end()));
  const testing_util::CommandResult r =
      testing_util::RunArenaplan("inspect " + path);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("     0     -  SHAPE                   0 -> 1  "
                          "FOLDED: computed at generation time\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("     3     1  RELU                    6 -> 7\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("planned buffers: 2 (alignment 16)"),
            std::string::npos);
  EXPECT_NE(r.output.find("computed at generation time (outputs become "
                          "constants, no arena record, no step; --no-fold "
                          "keeps them):\n  operator 0 SHAPE -> tensor 1 "
                          "INT32 [3] 't1'\n"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace arenaplan::tflite
