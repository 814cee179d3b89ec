// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target over the records CSV reader and everything behind it: any
// byte string must either read (and then plan with every strategy of both
// approaches and with the exact search, each plan passing the validator) or
// raise a one-line InputError naming the input. On instances small enough
// for the brute force (tests/host/support/exhaustive.hpp), the exact search's
// proven optimum must equal it. An input whose last line starts with "--region
// " also plans across regions: the rest of that line, split on spaces, is the
// `--region` values (names, sections, capacities; at most 4), each refused in
// one line naming --region or planned by PlanRegions (greedy, and exact on few
// tensors), every region within its capacity and passing the validator, or
// InfeasibleError. Built by mk/fuzz.mk with
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
#include "codegen/regions/regions.hpp"
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

/// Splits off a last line "--region A B ..." (returned without it).
std::string SplitRegionLine(std::string text, std::vector<std::string>& specs) {
  const std::size_t start =
      text.rfind('\n', text.size() > 0 ? text.size() - 2 : 0);
  const std::size_t line = start == std::string::npos ? 0 : start + 1;
  if (text.compare(line, 9, "--region ") != 0) return text;
  std::string rest = text.substr(line + 9);
  text.resize(line);
  std::size_t k = 0;
  while (k < rest.size() && specs.size() < 4) {
    std::size_t end = rest.find_first_of(" \n", k);
    if (end == std::string::npos) end = rest.size();
    if (end > k) specs.push_back(rest.substr(k, end - k));
    k = end + 1;
  }
  return text;
}

void CheckRegionMessage(const std::string& what) {
  Check(what.find('\n') == std::string::npos &&
        (what.rfind("--region", 0) == 0 || what.rfind("fuzz.csv", 0) == 0));
}

/// Plans `problem` across the regions `specs` give (see the file comment).
void PlanAcrossRegions(const UsageProblem& problem,
                       const std::vector<std::string>& specs) {
  std::vector<RegionSpec> regions;
  try {
    for (const std::string& spec : specs) regions.push_back(ParseRegion(spec));
    CheckRegions(regions);
  } catch (const InputError& e) {
    CheckRegionMessage(e.what());
    return;
  }
  for (const RegionSpec& r : regions) Check(TakenBy(r.section) == nullptr);
  std::size_t sized = 0;
  for (const TensorUsageRecord& r : problem.records) sized += r.size != 0;
  for (const RegionSearch search :
       {RegionSearch::kGreedy, RegionSearch::kExact}) {
    if (search == RegionSearch::kExact && sized > 10) continue;
    PlanOptions options;
    options.strategy = "greedy-by-size";
    options.time_limit_s = 1e308;  // clamped; the tensors are few
    try {
      const RegionPlan plan = PlanRegions(problem, regions, options, search);
      Check(plan.region_of.size() == problem.records.size());
      for (std::size_t r = 0; r < regions.size(); ++r) {
        std::vector<TensorUsageRecord> records;
        std::vector<std::uint64_t> offsets;
        for (std::size_t i = 0; i < plan.region_of.size(); ++i) {
          Check(plan.region_of[i] < regions.size());
          if (plan.region_of[i] != r) continue;
          records.push_back(plan.problem.records[i]);
          offsets.push_back(plan.offsets[i]);
        }
        Check(plan.region_bytes[r] <= regions[r].capacity);
        Check(ValidateOffsets(records, offsets, regions[r].capacity,
                              plan.alignment)
                  .ok());
      }
    } catch (const InfeasibleError& e) {
      Check(std::string(e.what()).find('\n') == std::string::npos);
    } catch (const InputError& e) {
      CheckRegionMessage(e.what());
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  std::vector<std::string> region_specs;
  std::istringstream in(SplitRegionLine(
      std::string(reinterpret_cast<const char*>(data), size), region_specs));
  UsageProblem problem;
  try {
    problem = ParseCsvProblem(in, "fuzz.csv");
  } catch (const InputError& e) {
    CheckMessage(e.what());
    return 0;
  }
  Check(problem.ids.size() == problem.records.size());
  if (problem.records.size() > kMaxPlannedRecords) return 0;
  if (!region_specs.empty()) PlanAcrossRegions(problem, region_specs);

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
