// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target over the records CSV reader and everything behind it: any
// byte string must either read (and then plan with every strategy of both
// approaches and with the exact search, each plan passing the validator) or
// raise a one-line InputError naming the input. On instances small enough
// for the brute force (tests/host/support/exhaustive.hpp), the exact search's proven
// optimum must equal it. Built by mk/fuzz.mk with
// -fsanitize=fuzzer,address,undefined.
#include <algorithm>
#include <cstdint>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/input/input.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/records.hpp"
#include "codegen/solver/exact.hpp"
#include "codegen/validator/validator.hpp"
#include "tests/fuzz/fuzz_check.hpp"
#include "tests/host/support/exhaustive.hpp"

namespace {

using namespace arenaplan;  // NOLINT

/// Inputs with more records are read but not planned: the heuristics are
/// quadratic, and the fuzzer is after reader and planner faults, not speed.
constexpr std::size_t kMaxPlannedRecords = 64;
/// Exact-search nodes per input: enough to finish tiny instances, a fixed
/// cut-off (never the clock) for larger ones.
constexpr std::uint64_t kNodeLimit = 2000;

using fuzz::Check;

void CheckMessage(const std::string& what) {
  fuzz::CheckMessage(what, "fuzz.csv");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  UsageProblem problem;
  try {
    problem = ParseCsvProblem(in, "fuzz.csv");
  } catch (const InputError& e) {
    CheckMessage(e.what());
    return 0;
  }
  Check(problem.ids.size() == problem.records.size());
  if (problem.records.size() > kMaxPlannedRecords) return 0;

  for (const Approach approach :
       {Approach::kOffsets, Approach::kSharedObjects}) {
    PlanOptions options;
    options.approach = approach;
    // Alignment 16 too: rounding may overflow, which must be an InputError.
    for (const std::uint64_t align : {std::uint64_t{1}, std::uint64_t{16}}) {
      options.alignment = Alignment::FromBytes(align);
      try {
        for (const PlanResult& plan : PlanAll(problem, options)) {
          Check(plan.arena_bytes >= plan.lower_bound);
          if (approach == Approach::kOffsets) {
            Check(ValidateOffsets(plan.problem.records, plan.offsets,
                                  plan.arena_bytes, plan.alignment)
                      .ok());
          } else {
            Check(ValidateSharedObjects(plan.problem.records, plan.object_of,
                                        plan.object_sizes)
                      .ok());
          }
        }
      } catch (const InputError& e) {
        CheckMessage(e.what());
      }
    }
  }

  ExactOptions exact;
  exact.node_limit = kNodeLimit;
  exact.time_limit_s = 1e9;  // the node limit decides, not the clock
  const ExactResult r = SolveOffsetsExactly(problem.records, exact);
  if (r.status == ExactResult::kOptimal || r.status == ExactResult::kFeasible) {
    Check(ValidateOffsets(problem.records, r.offsets, r.arena_bytes, 1).ok());
    Check(r.lower_bound <= r.arena_bytes);
  }
  if (problem.records.size() <= 6) {
    const std::uint64_t optimum =
        testing::ExhaustiveOffsetsOptimum(problem.records);
    Check(r.lower_bound <= optimum);
    if (r.status == ExactResult::kOptimal) Check(r.arena_bytes == optimum);
  }
  return 0;
}
