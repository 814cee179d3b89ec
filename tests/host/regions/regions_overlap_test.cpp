// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Planning across memory regions with allowed overlaps
// (codegen/regions/regions.hpp, docs/regions.md "With allowed overlaps"):
// hand-derived instances (a pair whose overlapped footprint fits the fast
// region is used there; a pair whose tensors end up in two regions is not
// used), random instances with random pairs (every region's plan valid
// against the pairs inside it, checked here from the assignment alone; the
// (cost, total bytes) with overlap never above without), the shared models,
// and the CLI and header end to end.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/regions/regions.hpp"
#include "codegen/validator/validator.hpp"
#include "tests/host/support/test_util.hpp"
#include "tests/host/support/usage_problems.hpp"

namespace arenaplan {
namespace {

using testing_util::Alias;
using testing_util::Below;
using testing_util::CommandResult;
using testing_util::Problem;
using testing_util::RandomPairs;
using testing_util::RandomRecords;
using testing_util::Regions;
using testing_util::RunCommand;

PlanOptions WithOverlap(bool overlap) {
  PlanOptions options;
  options.overlap = overlap;
  return options;
}

/// What every plan across regions with overlap must satisfy, derived from
/// its assignment alone: plan.overlaps is exactly the pairs of the input
/// whose two tensors are in one region; each region's records, with the
/// pairs inside it (renumbered here), pass the host validator within the
/// region's capacity; its bytes are the end of its last tensor; the cost is
/// traffic x rank.
void ExpectSoundWithPairs(const RegionPlan& plan,
                          const std::vector<RegionSpec>& regions) {
  const std::size_t n = plan.problem.records.size();
  ASSERT_TRUE(plan.overlap);
  ASSERT_EQ(plan.region_of.size(), n);
  std::vector<OverlapPair> inside;
  for (const OverlapPair& p : plan.problem.overlaps) {
    if (plan.region_of[p.input] == plan.region_of[p.output])
      inside.push_back(p);
  }
  ASSERT_EQ(plan.overlaps.size(), inside.size());
  for (std::size_t k = 0; k < inside.size(); ++k) {
    EXPECT_EQ(plan.overlaps[k].input, inside[k].input);
    EXPECT_EQ(plan.overlaps[k].output, inside[k].output);
  }
  std::uint64_t cost = 0;
  for (std::size_t r = 0; r < regions.size(); ++r) {
    std::vector<TensorUsageRecord> records;
    std::vector<std::uint64_t> offsets;
    std::vector<std::uint32_t> position(n, 0);
    std::uint64_t end = 0;
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_LT(plan.region_of[i], regions.size());
      if (plan.region_of[i] != r) continue;
      position[i] = static_cast<std::uint32_t>(records.size());
      records.push_back(plan.problem.records[i]);
      offsets.push_back(plan.offsets[i]);
      if (plan.problem.records[i].size != 0) {
        end = std::max(end, plan.offsets[i] + plan.problem.records[i].size);
      }
      cost += plan.traffic[i] * r;
    }
    std::vector<OverlapPair> pairs;
    for (const OverlapPair& p : inside) {
      if (plan.region_of[p.input] != r) continue;
      OverlapPair q = p;
      q.input = position[p.input];
      q.output = position[p.output];
      pairs.push_back(q);
    }
    const ValidationReport report = ValidateOffsets(
        records, offsets, regions[r].capacity, plan.alignment, pairs);
    EXPECT_TRUE(report.ok())
        << "region " << r << ": " << ToString(report.result);
    EXPECT_EQ(plan.region_bytes[r], end);
    EXPECT_LE(plan.region_bytes[r], regions[r].capacity);
  }
  EXPECT_EQ(plan.cost, cost);
}

// A [0,1] and B [1,2], 64 B each; operator 1 reads A for the last time and
// creates B, which may start 0 bytes below A (the same offset). The fast
// region holds 64 B. Both fit it only overlapped: footprint at operator 1
// max(64 + 0, 64) = 64. Without overlap they need 128, so B (the second
// by density, ties to the lower index) goes to the slow region: cost
// traffic(B) x 1 = 64 x 2 operators = 128.
TEST(RegionsOverlap, CountsTheOverlappedFootprintInTheFastRegion) {
  const UsageProblem p = Problem({{0, 1, 64}, {1, 2, 64}}, {Below(0, 1, 1, 0)});
  const std::vector<RegionSpec> regions = Regions({64, 1024});
  const RegionPlan plain =
      PlanRegions(p, regions, WithOverlap(false), RegionSearch::kGreedy);
  EXPECT_EQ(plain.region_of, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_EQ(plain.cost, 128u);
  EXPECT_FALSE(plain.overlap);

  const RegionPlan with =
      PlanRegions(p, regions, WithOverlap(true), RegionSearch::kGreedy);
  ExpectSoundWithPairs(with, regions);
  EXPECT_EQ(with.region_of, (std::vector<std::uint32_t>{0, 0}));
  EXPECT_EQ(with.cost, 0u);
  EXPECT_EQ(with.region_bytes[0], 64u);
  EXPECT_EQ(with.offsets[0], with.offsets[1]);
  EXPECT_EQ(with.overlaps.size(), 1u);
  EXPECT_EQ(UsedPairCount(with), 1u);
  EXPECT_FALSE(with.kept_assignment_without_overlaps);
}

// The same tensors with a distance of 16: overlapped they need
// max(64 + 16, 64) = 80 B at operator 1, more than the fast region's 64, so
// they are split (A fast, B slow, as without overlap) and the pair, its
// tensors in two regions, is not used and not among plan.overlaps.
TEST(RegionsOverlap, DoesNotUseAPairSplitAcrossRegions) {
  const UsageProblem p =
      Problem({{0, 1, 64}, {1, 2, 64}}, {Below(0, 1, 1, 16)});
  const std::vector<RegionSpec> regions = Regions({64, 1024});
  for (RegionSearch search : {RegionSearch::kGreedy, RegionSearch::kExact}) {
    const RegionPlan with = PlanRegions(p, regions, WithOverlap(true), search);
    ExpectSoundWithPairs(with, regions);
    EXPECT_EQ(with.region_of, (std::vector<std::uint32_t>{0, 1}));
    EXPECT_EQ(with.problem.overlaps.size(), 1u);
    EXPECT_TRUE(with.overlaps.empty());
    EXPECT_EQ(UsedPairCount(with), 0u);
    EXPECT_EQ(with.region_bytes, (std::vector<std::uint64_t>{64, 64}));
    EXPECT_EQ(with.cost, 128u);
  }
}

// A pair whose overlapped footprint exceeds both regions together is
// proven infeasible by the overlap bound (80 B against 32 + 32).
TEST(RegionsOverlap, ProvesInfeasibilityWithTheOverlapBound) {
  const UsageProblem p =
      Problem({{0, 1, 64}, {1, 2, 64}}, {Below(0, 1, 1, 16)});
  try {
    (void)PlanRegions(p, Regions({32, 32}), WithOverlap(true),
                      RegionSearch::kGreedy);
    FAIL() << "no plan expected";
  } catch (const InfeasibleError& e) {
    EXPECT_NE(std::string(e.what()).find("proven"), std::string::npos)
        << e.what();
  }
}

// Where the assignment found with the pairs is no better, the one found
// without them is kept. Fast 96 B, slow 160 B; traffic = size x operators:
//   0: [6,9] 96 B (384)   1: [6,9] 16 B (64)   2: [5,8] 80 B (320)
//   3: [4,5] 112 B (224), and 3 -> 2 at operator 5, 2 at least 16 B below 3.
// Without the pair, the greedy by density (0, 2, 1, 3) finds no place for 3
// (alone 112 > 96; with 2 at operator 5, 192 > 160), nor does first fit by
// size; the naive split moves 3 and 0 to the slow region: fast {1, 2} 96 B,
// slow {0, 3} 112 B (never alive together), cost 384 + 224 = 608, 208 B.
// With the pair, the greedy puts 0 fast and 2, 1, 3 slow (3 over 2 needs
// max(80, 112 + 16) = 128 B at operator 5; 2 and 1 need 96 B after it):
// cost 320 + 64 + 224 = 608 as well, but 96 + 128 = 224 B. The same cost in
// fewer bytes: the assignment without the pair is kept.
TEST(RegionsOverlap, KeepsTheAssignmentWithoutPairsWhenItIsSmaller) {
  const UsageProblem p = Problem(
      {{6, 9, 96}, {6, 9, 16}, {5, 8, 80}, {4, 5, 112}}, {Below(3, 2, 5, 16)});
  const std::vector<RegionSpec> regions = Regions({96, 160});
  const RegionPlan plain =
      PlanRegions(p, regions, WithOverlap(false), RegionSearch::kGreedy);
  EXPECT_EQ(plain.region_of, (std::vector<std::uint32_t>{1, 0, 0, 1}));
  EXPECT_EQ(plain.cost, 608u);
  EXPECT_EQ(TotalBytes(plain), 208u);
  const RegionPlan with =
      PlanRegions(p, regions, WithOverlap(true), RegionSearch::kGreedy);
  ExpectSoundWithPairs(with, regions);
  EXPECT_TRUE(with.kept_assignment_without_overlaps);
  EXPECT_EQ(with.region_of, plain.region_of);
  EXPECT_EQ(with.cost, 608u);
  EXPECT_EQ(TotalBytes(with), 208u);
  EXPECT_TRUE(with.overlaps.empty());  // 3 and 2 are in two regions
}

// A pair that names no tensor, or an operator where its input does not
// die, is refused (InputError) before anything is planned.
TEST(RegionsOverlap, RefusesAMalformedPair) {
  for (const OverlapPair& bad : {Below(0, 1, 0, 0), Below(0, 5, 1, 0)}) {
    const UsageProblem p = Problem({{0, 1, 64}, {1, 2, 64}}, {bad});
    EXPECT_THROW((void)PlanRegions(p, Regions({64, 1024}), WithOverlap(true),
                                   RegionSearch::kGreedy),
                 InputError);
  }
}

/// Random records (sizes multiples of 16) with random well-formed pairs:
/// for every tensor pair where one dies at the operator that creates the
/// other, a pair with probability 2/3 (an alias for equal sizes, one time
/// in four, else a distance of 0 to 3 x 16 bytes).
UsageProblem RandomProblem(std::mt19937_64& rng) {
  const std::uint32_t ops = 2 + rng() % 10;
  const std::size_t n = 2 + rng() % 14;
  const std::vector<TensorUsageRecord> records = RandomRecords(
      rng, ops, n, [](std::mt19937_64& g) { return 16 * (1 + g() % 8); });
  const std::vector<OverlapPair> pairs =
      RandomPairs(rng, records,
                  [&](std::mt19937_64& g, std::uint32_t in,
                      std::uint32_t out) -> std::optional<OverlapPair> {
                    if (g() % 3 == 0) return std::nullopt;
                    const std::uint32_t op = records[in].last_op;
                    if (records[in].size == records[out].size && g() % 4 == 0) {
                      return Alias(in, out, op);
                    }
                    return Below(in, out, op, 16 * (g() % 4));
                  });
  return Problem(records, pairs);
}

// Random instances, 2 or 3 regions of random capacities, both searches:
// whenever the plan without overlap exists, the plan with overlap exists,
// is sound with the pairs inside its regions, and its (cost, total bytes)
// is not above the plan without overlap's; pairs split across regions
// occur and are never among the pairs used.
TEST(RegionsOverlap, NeverAboveThePlanWithoutOverlapOnRandomInstances) {
  std::mt19937_64 rng(20261126);
  int compared = 0;
  int cheaper = 0;
  int split_pairs = 0;
  int used_pairs = 0;
  for (int round = 0; round < 300; ++round) {
    const UsageProblem p = RandomProblem(rng);
    const std::uint64_t lb = SummarizeProfiles(p.records).offsets_lower_bound;
    const std::size_t count = 2 + rng() % 2;
    std::vector<std::uint64_t> caps;
    for (std::size_t r = 0; r < count; ++r) {
      caps.push_back(16 * ((lb / count / 2 + rng() % (lb + 1)) / 16));
    }
    const std::vector<RegionSpec> regions = Regions(caps);
    const RegionSearch search =
        round % 3 == 0 ? RegionSearch::kExact : RegionSearch::kGreedy;
    RegionPlan plain;
    try {
      plain = PlanRegions(p, regions, WithOverlap(false), search);
    } catch (const InfeasibleError&) {
      continue;
    }
    const RegionPlan with = PlanRegions(p, regions, WithOverlap(true), search);
    ExpectSoundWithPairs(with, regions);
    EXPECT_LE(std::make_pair(with.cost, TotalBytes(with)),
              std::make_pair(plain.cost, TotalBytes(plain)))
        << "round " << round;
    if (search == RegionSearch::kExact && with.cost_optimal &&
        plain.cost_optimal) {
      EXPECT_LE(with.cost, plain.cost);
    }
    ++compared;
    cheaper += with.cost < plain.cost;
    split_pairs +=
        static_cast<int>(with.problem.overlaps.size() - with.overlaps.size());
    used_pairs += static_cast<int>(UsedPairCount(with));
  }
  EXPECT_GT(compared, 150);
  EXPECT_GT(cheaper, 10);
  EXPECT_GT(split_pairs, 50);
  EXPECT_GT(used_pairs, 100);
}

constexpr char kModels[] = ARENAPLAN_SHARED_DIR "/models/";

// The shared models the firmware runs split (32 KiB dtcm + 1 MiB ram), with
// their kernels' pairs: sound, and not above the plan without overlap.
TEST(RegionsOverlap, PlansTheSharedModelsNoWorseThanWithoutOverlap) {
  for (const char* model : {"vww_96_int8", "kws_ref_model", "person_detect"}) {
    const std::string path = std::string(kModels) + model + ".tflite";
    const std::vector<RegionSpec> regions = Regions({32768, 1048576});
    const CommandResult with = testing_util::RunArenaplan(
        "plan " + path +
        " --overlap --region r0:32768 --region r1:1048576 "
        "--json");
    const CommandResult plain = testing_util::RunArenaplan(
        "plan " + path + " --region r0:32768 --region r1:1048576 --json");
    ASSERT_EQ(with.status, 0) << with.output;
    ASSERT_EQ(plain.status, 0) << plain.output;
    const auto field = [](const std::string& json, const std::string& key) {
      const std::size_t at = json.find("\"" + key + "\":");
      EXPECT_NE(at, std::string::npos) << key;
      return std::stoull(json.substr(at + key.size() + 3));
    };
    EXPECT_LE(field(with.output, "cost"), field(plain.output, "cost")) << model;
    if (field(with.output, "cost") == field(plain.output, "cost")) {
      EXPECT_LE(field(with.output, "arena_bytes"),
                field(plain.output, "arena_bytes"))
          << model;
    }
    EXPECT_NE(with.output.find("\"overlap\":true"), std::string::npos);
    EXPECT_EQ(plain.output.find("\"overlap\""), std::string::npos);
  }
}

class RegionsOverlapCli : public ::testing::Test {
 protected:
  testing_util::ScopedTempDir tmp_{"arenaplan_regions_overlap_"};
  const std::string dir_ = tmp_.path();
};

// One region with --overlap is the plan with --overlap without regions: the
// same header, and compile writes the same three files.
TEST_F(RegionsOverlapCli, OneRegionPlansWhatOverlapAlonePlans) {
  const std::string model = std::string(kModels) + "vww_96_int8.tflite";
  ASSERT_EQ(testing_util::RunArenaplan("plan " + model +
                                       " --overlap --header " + dir_ + "/a.hpp")
                .status,
            0);
  const CommandResult r = testing_util::RunArenaplan(
      "plan " + model + " --overlap --region ram:1048576 --header " + dir_ +
      "/b.hpp");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string text = testing_util::ReadFile(dir_ + "/a.hpp");
  EXPECT_NE(text.find("kOverlaps[] = {"), std::string::npos);
  EXPECT_EQ(testing_util::ReadFile(dir_ + "/b.hpp"), text);
  ASSERT_EQ(testing_util::RunArenaplan("compile " + model +
                                       " --overlap --namespace model "
                                       "--out-dir " +
                                       dir_ + "/c1")
                .status,
            0);
  ASSERT_EQ(testing_util::RunArenaplan("compile " + model +
                                       " --overlap --namespace model "
                                       "--region ram:1048576 --out-dir " +
                                       dir_ + "/c2")
                .status,
            0);
  for (const char* f :
       {"model_arena.hpp", "model_model.hpp", "model_model.cpp"}) {
    const std::string one = testing_util::ReadFile(dir_ + "/c1/" + f);
    EXPECT_FALSE(one.empty()) << f;
    EXPECT_EQ(testing_util::ReadFile(dir_ + "/c2/" + f), one) << f;
  }
}

// `compile --overlap --region ...` is accepted (it was refused); its header
// lists the pairs inside one region and compiles; weakening a used pair's
// permit (a distance no placement of it meets) stops it compiling, naming
// the region.
TEST_F(RegionsOverlapCli, HeaderChecksEachRegionWithItsPairs) {
  const std::string out = dir_ + "/gen";
  const CommandResult r = testing_util::RunArenaplan(
      std::string("compile ") + kModels +
      "vww_96_int8.tflite --overlap --out-dir " + out +
      " --namespace model --region dtcm:32768 --region ram:1048576");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string header = out + "/model_arena.hpp";
  std::string text = testing_util::ReadFile(header);
  ASSERT_NE(text.find("kOverlaps[] = {"), std::string::npos);
  ASSERT_NE(text.find("kOperatorCount, kOverlaps, kOverlapCount);"),
            std::string::npos);
  const std::string main = dir_ + "/main.cpp";
  testing_util::WriteFile(main,
                          "#include \"model_arena.hpp\"\n"
                          "int main() { return 0; }\n");
  const std::string cxx =
      testing_util::HostCompileCommand("c++17", "-Wall -Wextra -Werror") +
      "-I" + out + " -fsyntax-only ";
  const CommandResult good = RunCommand(cxx + main);
  ASSERT_EQ(good.status, 0) << good.output;

  // Every kOutputBelowBy distance raised to 1 MiB: a pair whose tensors
  // share bytes no longer holds.
  const std::string from = "kOutputBelowBy, ";
  std::size_t at = text.find("kOverlaps[] = {");
  int edited = 0;
  while ((at = text.find(from, at)) != std::string::npos) {
    const std::size_t num = at + from.size();
    const std::size_t end = text.find('}', num);
    text.replace(num, end - num, "1048576");
    at = num;
    ++edited;
  }
  ASSERT_GT(edited, 0);
  testing_util::WriteFile(header, text);
  const CommandResult broken = RunCommand(cxx + main);
  EXPECT_NE(broken.status, 0);
  EXPECT_NE(broken.output.find("overlap in their region"), std::string::npos)
      << broken.output;
}

}  // namespace
}  // namespace arenaplan
