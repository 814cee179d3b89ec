// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The TFLM arena model (codegen/tflite/tflm_arena.hpp): a hand-worked
// replay, and the figures `arenaplan tflm` prints checked against TFLM
// itself. The measured values come from TensorFlow Lite Micro commit
// 90b983c2b3f1480642e040bbd2ddb37b998f3424 built for the host (x86-64,
// reference kernels, see docs/tflm.md "Measured with TFLM"): MicroInterpreter
// with TFLM's default GreedyMemoryPlanner on a 16-byte-aligned arena, the
// smallest arena being the smallest byte count for which AllocateTensors and
// Invoke succeed with the same output as an 8 MiB arena.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "codegen/tflite/model.hpp"
#include "codegen/tflm/arena.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan::tflm {
namespace {

using tflite::FullyConnectedOptions;
using tflite::Model;
using tflite::Operator;
using tflite::Subgraph;
using tflite::Tensor;
using tflite::TensorType;

using testing_util::ReadFile;

const std::string kModels = std::string(ARENAPLAN_SHARED_DIR) + "/models/";

/// FULLY_CONNECTED, float: input t0 [1,1], constant filter t1 [1,1], no
/// bias, output t2 [1,1].
Model TinyFloatModel() {
  Model m;
  m.source = "tiny.tflite";
  m.buffers.resize(2);
  m.buffers[1].data.assign(4, 0);
  Subgraph g;
  g.tensors = {{"in", TensorType::kFloat32, {1, 1}, {}, 0, false, {}},
               {"filter", TensorType::kFloat32, {1, 1}, {}, 1, false, {}},
               {"out", TensorType::kFloat32, {1, 1}, {}, 0, false, {}}};
  g.inputs = {0};
  g.outputs = {2};
  Operator op;
  op.builtin_code = tflite::BuiltinOp::kFullyConnected;
  op.builtin_name = "FULLY_CONNECTED";
  op.inputs = {0, 1, -1};
  op.outputs = {2};
  op.options = FullyConnectedOptions{};
  g.operators = {op};
  m.subgraphs = {g};
  return m;
}

// Worked by hand from TFLM's allocation sequence (tail = persistent bytes
// from the end, head/temp from the start; 64-bit struct sizes):
//   constructor: buffer allocator 72, GreedyMemoryPlanner 72,
//     MicroAllocator 72                                    tail 216
//   StartModelAllocation: builtin data allocator 16 -> 232; head = 12
//     scratch requests x 16 = 192; SubgraphAllocations 16 -> 248;
//     3 TfLiteEvalTensor x 24 -> 320; 1 NodeAndRegistration 64 -> 384
//   TfLiteFullyConnectedParams 16 -> 400; OpDataFullyConnected 64, 16-
//     aligned -> 464
//   Prepare: temporary TfLiteTensor 64 for input, filter and output (no
//     bias, float: no quantization): temp 192 + 192 = 384; 384 + 464 = 848
//   planning: temp 192 + 8 + 3 AllocationInfo x 32 = 296; planner needs
//     round16(296) + 40 x 2 buffers + 464 = 848
//   head = 32 (the plan); input pointer array 8 (16-aligned) -> 480,
//     TfLiteTensor 64 -> 544; output likewise -> 560 -> 624; 32 + 624 = 656
// Largest: 848 (Prepare and planning tie; the first one reached is kept).
TEST(TflmArena, ReplayMatchesHandWorkedTinyModel) {
  const TflmArena a =
      ModelTflmArena(TinyFloatModel(), {}, 32, {}, TflmPlannerKind::kGreedy);
  EXPECT_EQ(a.arena, 848u);
  EXPECT_EQ(a.persistent, 624u);
  EXPECT_NE(a.binding_step.find("Prepare of operator 0"), std::string::npos)
      << a.binding_step;
  EXPECT_TRUE(a.notes.empty());
}

// With the shim the firmware passes its own planner: no GreedyMemoryPlanner
// in the arena and no planner scratch area. Tail: 72 + 72 = 144, + 16 + 16
// + 72 + 64 = 312, params 16 -> 328, OpData 64 16-aligned -> 400.
// Prepare: 384 + 400 = 784. Planning: 296 + 400 = 696. End: pointer arrays
// and TfLiteTensors -> 416, 480, 496, 560; 32 + 560 = 592. Largest 784.
TEST(TflmArena, ShimLeavesOutThePlannerAndItsScratchArea) {
  const TflmArena a =
      ModelTflmArena(TinyFloatModel(), {}, 32, {}, TflmPlannerKind::kShim);
  EXPECT_EQ(a.arena, 784u);
  EXPECT_EQ(a.persistent, 560u);
}

struct Measured {
  const char* model;
  std::uint64_t unplanned_section;  ///< TFLM's head without the plan.
  std::uint64_t planned_section;    ///< TFLM's head with arenaplan's plan.
  std::uint64_t smallest_arena;     ///< Smallest working arena, planned.
};

// Measured with TFLM commit 90b983c host build (docs/tflm.md).
constexpr Measured kMeasured[] = {
    {"hello_world_int8", 32, 32, 1608},
    {"hello_world_float", 128, 128, 1608},
    {"micro_speech_quantized", 5968, 5968, 7304},
    {"keyword_scrambled", 672, 672, 17632},
    {"person_detect", 55296, 55296, 85016},
    {"vww_96_int8", 73728, 55296, 84960},
    {"kws_ref_model", 16000, 16000, 23992},
    {"pretrainedResnet_quant", 49152, 49152, 55704},
    {"ad01_int8", 768, 768, 4080},
};

std::uint64_t After(const std::string& text, const std::string& key) {
  const std::size_t at = text.find(key);
  if (at == std::string::npos) return 0;
  return std::strtoull(text.c_str() + at + key.size(), nullptr, 10);
}

// The acceptance check: the printed section equals TFLM's with the
// plan and is no larger than TFLM's own; the printed simulation of TFLM's
// own planner equals TFLM's; kTensorArenaSize is at least TFLM's smallest
// working arena and at most 5 % (or 256 bytes) above it.
TEST(TflmArena, PrintedFiguresMatchTflmOnEverySharedModel) {
  const testing_util::ScopedTempDir tmp("arenaplan_tflm_arena_test_");
  ASSERT_FALSE(tmp.path().empty());
  const std::filesystem::path dir = tmp.path();
  const std::string log = (dir / "log.txt").string();
  for (const Measured& m : kMeasured) {
    SCOPED_TRACE(m.model);
    const std::string cmd = std::string(ARENAPLAN_BINARY) + " tflm " + kModels +
                            m.model + ".tflite --assume-dim 1 --out " +
                            (dir / "planned.tflite").string() + " > " + log +
                            " 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << ReadFile(log);
    const std::string out = ReadFile(log);
    EXPECT_EQ(After(out, "kTensorArenaNonPersistentBytes = "),
              m.planned_section)
        << out;
    EXPECT_LE(m.planned_section, m.unplanned_section);
    EXPECT_EQ(After(out, "without the plan: "), m.unplanned_section) << out;
    const std::uint64_t arena = After(out, "kTensorArenaSize = ");
    EXPECT_GE(arena, m.smallest_arena) << out;
    EXPECT_LE(arena, std::max(m.smallest_arena + 256,
                              m.smallest_arena + m.smallest_arena / 20))
        << out;
  }
}

}  // namespace
}  // namespace arenaplan::tflm
