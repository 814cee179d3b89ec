// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TFLM interop: the OfflineMemoryAllocation words (codegen/tflm/
// offline_plan.*), their writer (codegen/emit/tflm_model.*) and the `tflm`
// command (scratch, the recommended arena, the shim).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "codegen/base/alignment.hpp"
#include "codegen/emit/tflm_model.hpp"
#include "codegen/base/errors.hpp"
#include "codegen/input/input.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/tflite/load.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"
#include "codegen/tflm/offline_plan.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan::tflite {
namespace {

using testing_util::ReadFile;
using tflm::kOfflinePlanName;
using tflm::OfflinePlanWords;
using tflm::ReadOfflinePlan;

using testing_util::kModelNames;
using testing_util::kModels;

InputOptions AssumeOne() {
  InputOptions o;
  o.assume_dim = 1;
  return o;
}

struct Written {
  std::vector<std::uint8_t> original;
  std::vector<std::uint8_t> bytes;
  TfliteProblem problem;
  PlanResult plan;
  std::vector<std::int32_t> words;
};

Written WritePlanned(const std::vector<std::uint8_t>& original,
                     const std::string& source) {
  Written w;
  w.original = original;
  const Model model = ReadModel(original, source);
  w.problem = BuildProblem(model, AssumeOne());
  PlanOptions o;
  o.strategy = "greedy-by-size";
  o.alignment = kModelAlignment;
  w.plan = Plan(w.problem.problem, o);
  w.words = OfflinePlanWords(w.problem, w.plan, model.subgraphs.size());
  w.bytes = WithOfflinePlan(original, model, w.words);
  return w;
}

void ExpectSameGraph(const Model& a, const Model& b) {
  ASSERT_EQ(a.subgraphs.size(), b.subgraphs.size());
  for (std::size_t s = 0; s < a.subgraphs.size(); ++s) {
    const Subgraph& x = a.subgraphs[s];
    const Subgraph& y = b.subgraphs[s];
    EXPECT_EQ(x.inputs, y.inputs);
    EXPECT_EQ(x.outputs, y.outputs);
    ASSERT_EQ(x.tensors.size(), y.tensors.size());
    for (std::size_t t = 0; t < x.tensors.size(); ++t) {
      EXPECT_EQ(x.tensors[t].name, y.tensors[t].name);
      EXPECT_EQ(x.tensors[t].shape, y.tensors[t].shape);
      EXPECT_EQ(x.tensors[t].type, y.tensors[t].type);
      EXPECT_EQ(x.tensors[t].buffer, y.tensors[t].buffer);
    }
    ASSERT_EQ(x.operators.size(), y.operators.size());
    for (std::size_t k = 0; k < x.operators.size(); ++k) {
      EXPECT_EQ(x.operators[k].builtin_code, y.operators[k].builtin_code);
      EXPECT_EQ(x.operators[k].inputs, y.operators[k].inputs);
      EXPECT_EQ(x.operators[k].outputs, y.operators[k].outputs);
    }
  }
  // Every buffer the tensors use is byte for byte the same.
  for (const Subgraph& g : a.subgraphs) {
    for (const Tensor& t : g.tensors) {
      EXPECT_EQ(a.buffers[t.buffer].data, b.buffers[t.buffer].data);
    }
  }
}

TEST(TflmOfflinePlan, WrittenModelsCarryThePlanAndKeepTheGraph) {
  for (const char* name : kModelNames) {
    SCOPED_TRACE(name);
    const std::string path = kModels + name + ".tflite";
    const std::vector<std::uint8_t> original = ReadFileBytes(path);
    const Written w = WritePlanned(original, path);
    // The verifier accepts the output (ReadModel runs it first).
    const Model back = ReadModel(w.bytes, "out.tflite");
    const Model before = ReadModel(original, path);
    ExpectSameGraph(before, back);
    // The original bytes follow a prefix that keeps 16-byte alignment.
    ASSERT_GE(w.bytes.size(), original.size());
    const std::size_t prefix = w.bytes.size() - original.size();
    EXPECT_EQ(prefix % 16, 0u);
    EXPECT_TRUE(std::equal(original.begin(), original.end(),
                           w.bytes.begin() + static_cast<long>(prefix)));
    // Exactly one entry, and its words decode to the plan: tensor t of
    // subgraph 0 at the plan's offset, everything else -1.
    int entries = 0;
    for (const MetadataEntry& e : back.metadata) {
      entries += e.name == kOfflinePlanName;
    }
    EXPECT_EQ(entries, 1);
    const auto words = ReadOfflinePlan(back);
    ASSERT_TRUE(words.has_value());
    ASSERT_EQ(words->size(), 3 + before.subgraphs[0].tensors.size());
    EXPECT_EQ((*words)[0], 0);
    EXPECT_EQ((*words)[1], 1);
    EXPECT_EQ(static_cast<std::size_t>((*words)[2]),
              before.subgraphs[0].tensors.size());
    std::vector<std::int64_t> expected(before.subgraphs[0].tensors.size(), -1);
    for (std::size_t r = 0; r < w.problem.record_tensor.size(); ++r) {
      expected[static_cast<std::size_t>(w.problem.record_tensor[r])] =
          static_cast<std::int64_t>(w.plan.offsets[r]);
    }
    for (std::size_t t = 0; t < expected.size(); ++t) {
      EXPECT_EQ((*words)[3 + t], expected[t]) << "tensor " << t;
      if (before.IsConstant(before.subgraphs[0].tensors[t])) {
        EXPECT_EQ((*words)[3 + t], -1);
      }
    }
    // Planning the written model gives the same records.
    const TfliteProblem again = BuildProblem(back, AssumeOne());
    ASSERT_EQ(again.problem.records.size(), w.problem.problem.records.size());
    for (std::size_t r = 0; r < again.problem.records.size(); ++r) {
      EXPECT_EQ(again.problem.records[r].first_op,
                w.problem.problem.records[r].first_op);
      EXPECT_EQ(again.problem.records[r].last_op,
                w.problem.problem.records[r].last_op);
      EXPECT_EQ(again.problem.records[r].size,
                w.problem.problem.records[r].size);
    }
    EXPECT_EQ(again.problem.ids, w.problem.problem.ids);
  }
}

TEST(TflmOfflinePlan, ExistingPlanIsReplacedNotDuplicated) {
  const std::string path = kModels + "micro_speech_quantized.tflite";
  const Written first = WritePlanned(ReadFileBytes(path), path);
  const Model once = ReadModel(first.bytes, "once");
  const Written second = WritePlanned(first.bytes, "once");
  const Model twice = ReadModel(second.bytes, "twice");
  int entries = 0;
  for (const MetadataEntry& e : twice.metadata) {
    entries += e.name == kOfflinePlanName;
  }
  EXPECT_EQ(entries, 1);
  EXPECT_EQ(twice.metadata.size(), once.metadata.size());
  EXPECT_EQ(twice.buffers.size(), once.buffers.size());  // slot reused
  EXPECT_EQ(ReadOfflinePlan(twice), second.words);
  ExpectSameGraph(once, twice);
}

TEST(TflmOfflinePlan, CommandWritesModelAndShimOrNothing) {
  // A fresh directory: runs of this test in parallel do not share it.
  const testing_util::ScopedTempDir tmp("arenaplan_tflite_tflm_test_");
  ASSERT_FALSE(tmp.path().empty());
  const std::filesystem::path dir = tmp.path();
  const std::string out = (dir / "planned.tflite").string();
  const std::string shim = (dir / "plan.h").string();
  const std::string log = (dir / "log.txt").string();
  const std::string bin = ARENAPLAN_BINARY;
  const std::string ok = bin + " tflm " + kModels +
                         "micro_speech_quantized.tflite --out " + out +
                         " --shim " + shim + " > " + log + " 2>&1";
  ASSERT_EQ(std::system(ok.c_str()), 0) << ReadFile(log);
  const Model back = ReadModelFile(out);
  EXPECT_TRUE(ReadOfflinePlan(back).has_value());
  // micro_speech's planned tensors (hand derivation in
  // tflite_reader_test.cpp) fit in 5968 bytes.
  EXPECT_NE(ReadFile(log).find("non-persistent (head) arena: 5968 bytes"),
            std::string::npos)
      << ReadFile(log);
  const std::string h = ReadFile(shim);
  EXPECT_NE(h.find("kBufferCount = 5;"), std::string::npos) << h;

  // Bad input (the first half of a model): exit 2, one line naming the
  // file, nothing written.
  const std::string half = (dir / "half.tflite").string();
  {
    const std::vector<std::uint8_t> b =
        ReadFileBytes(kModels + "micro_speech_quantized.tflite");
    std::ofstream(half, std::ios::binary)
        .write(reinterpret_cast<const char*>(b.data()),
               static_cast<std::streamsize>(b.size() / 2));
  }
  const std::string bad_out = (dir / "never.tflite").string();
  const std::string bad =
      bin + " tflm " + half + " --out " + bad_out + " > " + log + " 2>&1";
  const int status = std::system(bad.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_FALSE(std::filesystem::exists(bad_out));
  EXPECT_EQ(ReadFile(log).rfind("arenaplan: " + half + ": ", 0), 0u)
      << ReadFile(log);
}

TEST(TflmOfflinePlan, ShimHeaderNamesTheClassTheArenaAndTheScratch) {
  // A fresh directory: runs of this test in parallel do not share it.
  const testing_util::ScopedTempDir tmp("arenaplan_tflite_shim_test_");
  ASSERT_FALSE(tmp.path().empty());
  const std::filesystem::path dir = tmp.path();
  const std::string bin = ARENAPLAN_BINARY;
  const std::string out = (dir / "planned.tflite").string();
  const std::string shim = (dir / "plan.h").string();
  const std::string log = (dir / "log.txt").string();
  const std::string model = kModels + "keyword_scrambled.tflite";
  ASSERT_EQ(std::system((bin + " tflm " + model + " --out " + out + " --shim " +
                         shim + " > " + log + " 2>&1")
                            .c_str()),
            0)
      << ReadFile(log);
  const std::string h = ReadFile(shim);
  EXPECT_NE(h.find("tflite::NonPersistentMemoryPlannerShim"),
            std::string::npos);
  EXPECT_EQ(h.find("tflite::micro::NonPersistentMemoryPlannerShim"),
            std::string::npos);
  EXPECT_NE(h.find("kTensorArenaSize = "), std::string::npos);
  EXPECT_NE(h.find("kModelBytes = " +
                   std::to_string(std::filesystem::file_size(model)) + ";"),
            std::string::npos);
  // 16 planned tensors and the 14 SVDF scratch buffers
  // (tflm_kernels_test.cpp), in TFLM's order.
  EXPECT_NE(h.find("kBufferCount = 30;"), std::string::npos) << h;

  // The planned copy given where the shim needs the original: refused,
  // nothing written.
  const std::string again = (dir / "again.tflite").string();
  const int status =
      std::system((bin + " tflm " + out + " --out " + again + " --shim " +
                   (dir / "again.h").string() + " > " + log + " 2>&1")
                      .c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_NE(ReadFile(log).find("original model"), std::string::npos)
      << ReadFile(log);
  EXPECT_FALSE(std::filesystem::exists(again));
}

TEST(TflmOfflinePlan, UnacceptedStrategyListsTheAcceptedOnes) {
  // A fresh directory: runs of this test in parallel do not share it.
  const testing_util::ScopedTempDir tmp("arenaplan_tflite_strat_test_");
  ASSERT_FALSE(tmp.path().empty());
  const std::filesystem::path dir = tmp.path();
  const std::string log = (dir / "log.txt").string();
  const int status =
      std::system((std::string(ARENAPLAN_BINARY) + " tflm " + kModels +
                   "ad01_int8.tflite --out " + (dir / "x.tflite").string() +
                   " --strategy min-cost-flow > " + log + " 2>&1")
                      .c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  const std::string text = ReadFile(log);
  for (const char* name : {"best", "optimal", "greedy-by-size", "naive"}) {
    EXPECT_NE(text.find(name), std::string::npos) << text;
  }
  EXPECT_EQ(text.find("arenaplan strategies"), std::string::npos) << text;
}

TEST(TflmOfflinePlan, PlanOfModelEqualsPlanOfItsRecordsThroughTheCli) {
  // A fresh directory: runs of this test in parallel do not share it.
  const testing_util::ScopedTempDir tmp("arenaplan_tflite_cli_test_");
  ASSERT_FALSE(tmp.path().empty());
  const std::filesystem::path dir = tmp.path();
  const std::string bin = ARENAPLAN_BINARY;
  const std::string model = kModels + "person_detect.tflite";
  const std::string csv = (dir / "records.csv").string();
  ASSERT_EQ(std::system((bin + " records " + model + " --out " + csv).c_str()),
            0);
  for (const char* strategy :
       {"greedy-by-size", "greedy-by-breadth", "greedy-in-order", "naive"}) {
    const std::string a = (dir / "a.txt").string(),
                      b = (dir / "b.txt").string();
    ASSERT_EQ(std::system((bin + " plan " + model + " --strategy " + strategy +
                           " --json > " + a)
                              .c_str()),
              0);
    ASSERT_EQ(std::system((bin + " plan " + csv + " --strategy " + strategy +
                           " --json > " + b)
                              .c_str()),
              0);
    auto arena = [](const std::string& json) {
      const std::size_t at = json.find("\"arena_bytes\":");
      return at == std::string::npos ? std::string("?")
                                     : json.substr(at, json.find(',', at) - at);
    };
    EXPECT_EQ(arena(ReadFile(a)), arena(ReadFile(b))) << strategy;
    EXPECT_NE(arena(ReadFile(a)), "?");
  }
}

}  // namespace
}  // namespace arenaplan::tflite
