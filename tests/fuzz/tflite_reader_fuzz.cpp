// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target over the TFLite reader: any byte string must either read
// (and then plan into records, give an allowed-overlap list whose pairs
// meet their lifetime conditions, and round-trip through the offline-plan
// writer, whose output must read back) or raise a one-line InputError.
// Built by mk/fuzz.mk with -fsanitize=fuzzer,address,undefined.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "codegen/emit/tflm_model.hpp"
#include "codegen/base/errors.hpp"
#include "codegen/overlap/overlap_pairs.hpp"
#include "codegen/records.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"
#include "codegen/tflm/offline_plan.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace {

using namespace arenaplan;          // NOLINT
using namespace arenaplan::tflite;  // NOLINT
using arenaplan::tflm::ReadOfflinePlan;

using fuzz::Check;

/// Both inputs are named "fuzz..." (the model and the writer's output).
void CheckMessage(const std::string& what) { fuzz::CheckMessage(what, "fuzz"); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  Model model;
  try {
    model = ReadModel(bytes, "fuzz.tflite");
  } catch (const InputError& e) {
    CheckMessage(e.what());
    return 0;
  }
  try {
    InputOptions options;
    options.assume_dim = 2;
    options.scratch.push_back({0, 64});
    const TfliteProblem problem = BuildProblem(model, options);
    Check(problem.problem.records.size() == problem.record_tensor.size());
  } catch (const InputError& e) {
    CheckMessage(e.what());
  }
  try {
    // TFLM's shape rule (no --assume-dim): each warning is one line too.
    const TfliteProblem problem = BuildProblem(model, InputOptions());
    for (const std::string& w : problem.problem.warnings) CheckMessage(w);
    // The allowed-overlap list never throws, and every pair meets the
    // lifetime conditions of codegen/overlap/overlap_pairs.hpp.
    const auto& records = problem.problem.records;
    for (const OverlapPair& p : overlap::FindOverlapPairs(model, problem)) {
      Check(p.input < records.size() && p.output < records.size() &&
            p.input != p.output);
      Check(records[p.input].last_op == p.op &&
            records[p.output].first_op == p.op);
      Check(p.relation == OverlapRelation::kAlias
                ? p.distance == 0 &&
                      records[p.input].size == records[p.output].size
                : p.distance < records[p.output].size);
    }
  } catch (const InputError& e) {
    CheckMessage(e.what());
  }
  try {
    // The writer on an all-run-time plan: its output must verify and carry
    // exactly these words.
    std::size_t tensors = 0;
    for (const Subgraph& g : model.subgraphs) tensors += g.tensors.size();
    std::vector<std::int32_t> words(3 + tensors, -1);
    words[0] = 0;
    words[1] = static_cast<std::int32_t>(model.subgraphs.size());
    words[2] = static_cast<std::int32_t>(tensors);
    const std::vector<std::uint8_t> out = WithOfflinePlan(bytes, model, words);
    const Model back = ReadModel(out, "fuzz-out.tflite");
    Check(ReadOfflinePlan(back) == words);
  } catch (const InputError& e) {
    CheckMessage(e.what());
  }
  return 0;
}
