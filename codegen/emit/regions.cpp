// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/emit/regions.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <set>
#include <sstream>

#include "codegen/base/errors.hpp"
#include "codegen/emit/cpp_text.hpp"
#include "codegen/emit/csv.hpp"
#include "codegen/emit/header_parts.hpp"
#include "codegen/emit/plan_text.hpp"

namespace arenaplan {
namespace {

/// The namespace of region `name`'s constants.
std::string RegionNamespace(const std::string& name) {
  return "region_" + name;
}

/// Every tensor's exact size (options.tensor_bytes, else the planned one).
std::vector<std::uint64_t> ExactSizes(const RegionPlan& plan,
                                      const HeaderOptions& options) {
  const UsageProblem& problem = plan.problem;
  const std::size_t n = problem.records.size();
  std::vector<std::uint64_t> exact(n);
  for (std::size_t i = 0; i < n; ++i) {
    exact[i] = problem.records[i].size;
    if (!options.tensor_bytes.empty()) {
      if (options.tensor_bytes.size() != n ||
          options.tensor_bytes[i] > problem.records[i].size) {
        throw InternalError("header: exact sizes do not match the plan");
      }
      exact[i] = options.tensor_bytes[i];
    }
  }
  return exact;
}

/// The header's opening comment: the input, the regions, the units.
void EmitRegionComment(std::ostringstream& o, const RegionPlan& plan,
                       const HeaderOptions& options) {
  const UsageProblem& problem = plan.problem;
  const std::size_t regions = plan.regions.size();
  EmitInputComment(o, problem, options);
  o << "// Regions:       " << regions << ", fastest first; assignment "
    << (plan.search == RegionSearch::kExact ? "exact" : "greedy") << ", cost "
    << plan.cost << " (traffic bytes x rank)\n";
  for (std::size_t r = 0; r < regions; ++r) {
    o << "//   " << r << " " << plan.regions[r].name << ": "
      << plan.region_bytes[r] << " of " << plan.regions[r].capacity
      << " bytes in " << plan.regions[r].section << ", traffic "
      << plan.region_traffic[r] << " bytes, strategy "
      << CommentText(plan.plans[r].strategy) << "\n";
  }
  if (plan.overlap) {
    o << "// Overlap:       " << plan.problem.overlaps.size()
      << " allowed pairs, " << plan.overlaps.size()
      << " with both tensors in one region (kOverlaps), " << UsedPairCount(plan)
      << " used\n";
  }
  o << "// Alignment:     " << plan.alignment << " bytes\n"
    << "// Tensors:       " << problem.records.size() << " planned, "
    << problem.operator_count << " operators\n"
    << "//\n"
    << "// C++17; include path: core/include. Offsets are in bytes from the\n"
    << "// start of the tensor's region; operator intervals [first_op,\n"
    << "// last_op] include both ends.\n";
}

/// Per region a namespace region_NAME with its constants and array, then
/// the tables kRegionSizes, kRegionNames and kRegionStorage.
void EmitRegionArrays(std::ostringstream& o, const RegionPlan& plan) {
  const std::size_t regions = plan.regions.size();
  for (std::size_t r = 0; r < regions; ++r) {
    const RegionSpec& spec = plan.regions[r];
    o << "/// Region " << r << ", " << spec.name
      << ": kRegionSize bytes aligned to kAlignment in section\n"
      << "/// kRegionSection (the board's linker script places it).\n"
      << "namespace " << RegionNamespace(spec.name) << " {\n"
      << "inline constexpr std::size_t kRegionIndex = " << r << ";\n"
      << "inline constexpr std::size_t kRegionSize = " << plan.region_bytes[r]
      << ";\n"
      << "inline constexpr std::size_t kRegionCapacity = " << spec.capacity
      << ";\n"
      << "inline constexpr char kRegionSection[] = "
      << StringLiteral(spec.section) << ";\n";
    if (plan.region_bytes[r] == 0) {
      o << "inline constexpr std::byte* storage = nullptr;  // empty region\n";
    } else {
      o << "alignas(kAlignment) ARENAPLAN_REGION_ATTRIBUTES("
        << StringLiteral(spec.section) << ") inline std::byte\n"
        << "    storage[kRegionSize];\n";
    }
    o << "}  // namespace " << RegionNamespace(spec.name) << "\n\n";
  }
  auto each_region = [&](const char* what) {
    std::string list;
    for (std::size_t r = 0; r < regions; ++r) {
      list +=
          (r ? ", " : "") + RegionNamespace(plan.regions[r].name) + "::" + what;
    }
    return list;
  };
  o << "/// Every region's bytes, name and array, in region order.\n"
    << "inline constexpr std::size_t kRegionSizes[] = {"
    << each_region("kRegionSize") << "};\n"
    << "inline constexpr const char* kRegionNames[] = {";
  for (std::size_t r = 0; r < regions; ++r) {
    o << (r ? ", " : "") << StringLiteral(plan.regions[r].name);
  }
  o << "};\n"
    << "inline constexpr std::byte* kRegionStorage[] = {"
    << each_region("storage") << "};\n\n";
}

/// kPlan: every tensor's {region, offset, size, first_op, last_op}.
void EmitRegionPlacements(std::ostringstream& o, const RegionPlan& plan,
                          const std::vector<std::string>& idents) {
  const UsageProblem& problem = plan.problem;
  const std::size_t n = problem.records.size();
  o << "/// Every tensor in input order: {region, offset, size, first_op,\n"
    << "/// last_op}; offset from the region's start, size rounded up to\n"
    << "/// kAlignment, both operator indices included.\n"
    << "inline constexpr arenaplan::RegionPlacement kPlan[] = {\n";
  if (n == 0) o << "    {0, 0, 0, 0, 0},  // filler: the plan is empty\n";
  for (std::size_t i = 0; i < n; ++i) {
    const TensorUsageRecord& r = problem.records[i];
    o << "    {" << plan.region_of[i] << ", " << plan.offsets[i] << ", "
      << r.size << ", " << r.first_op << ", " << r.last_op << "},  // " << i
      << " " << idents[i] << " in " << plan.regions[plan.region_of[i]].name
      << "\n";
  }
  o << "};\n\n";
}

/// Per region: the compile-time soundness checks of its tensors.
void EmitRegionChecks(std::ostringstream& o, const RegionPlan& plan) {
  const std::size_t regions = plan.regions.size();
  const bool permits = !plan.overlaps.empty();
  struct Check {
    const char* result;
    const char* message;
  };
  static constexpr std::array<Check, 8> kChecks = {{
      {"kCountMismatch",
       "kPlan does not hold kTensorCount entries (was kTensorCount edited?)"},
      {"kBadAlignment", "kAlignment is not a power of two"},
      {"kBadInterval", "a tensor's first_op is after its last_op"},
      {"kMisaligned", "a tensor's offset is not a multiple of kAlignment"},
      {"kOutOfBounds",
       "a tensor lies outside its region (offset + size > kRegionSize, or "
       "no such region)"},
      {"kOperatorOutOfRange", "a tensor's last_op is not below kOperatorCount"},
      {"kBadOverlapPermit",
       "a kOverlaps entry names a tensor outside the plan, tensors in two "
       "regions, or an operator where its input does not die or its output "
       "is not born"},
      {"kOverlap",
       "two tensors alive at a common operator overlap in their region"},
  }};
  o << "// Every region is proven sound at compile time, on its own. If a\n"
    << "// check fails, the compiler's note on PlanCheck<..., first, second>\n"
    << "// names the kPlan indices of the tensor(s) at fault.\n";
  for (std::size_t r = 0; r < regions; ++r) {
    const std::string rn = RegionNamespace(plan.regions[r].name);
    o << "namespace " << rn << " {\n"
      << "inline constexpr arenaplan::Violation kViolation =\n"
      << "    arenaplan::FindRegionViolation(kPlan, kTensorCount, "
         "kRegionIndex,\n"
      << "                                   kRegionCount, kRegionSize, "
         "kAlignment,\n"
      << "                                   kOperatorCount"
      << (permits ? ", kOverlaps, kOverlapCount" : "") << ");\n";
    for (const Check& check : kChecks) {
      // Without pairs, the checks of headers made before pairs existed.
      if (!permits && std::string(check.result) == "kBadOverlapPermit") {
        continue;
      }
      EmitPlanCheck(o, check.result, "kViolation",
                    "arenaplan: unsound plan in region " +
                        plan.regions[r].name + ": " + check.message);
    }
    o << "static_assert(kViolation.result == "
         "arenaplan::ValidationResult::kOk,\n"
      << "              \"arenaplan: unsound plan in region "
      << plan.regions[r].name << "\");\n"
      << "static_assert(kRegionSize <= kRegionCapacity,\n"
      << "              \"arenaplan: region " << plan.regions[r].name
      << " is larger than its capacity\");\n"
      << "}  // namespace " << rn << "\n";
  }
}

}  // namespace

std::string EmitRegionHeader(const RegionPlan& plan,
                             const HeaderOptions& options) {
  CheckHeaderNamespace(options.namespace_name);
  const UsageProblem& problem = plan.problem;
  const std::size_t n = problem.records.size();
  const std::size_t regions = plan.regions.size();
  if (plan.offsets.size() != n || plan.region_of.size() != n ||
      plan.region_bytes.size() != regions) {
    throw InternalError("header: the region plan is inconsistent");
  }
  const std::vector<std::uint64_t> exact = ExactSizes(plan, options);
  // The table of tensor ids, with the names this header adds kept free.
  static const std::set<std::string> kOwn = {"kRegionCount", "kRegionSizes",
                                             "kRegionNames", "kRegionStorage"};
  std::vector<std::string> idents = TensorIdentifiers(problem);
  for (std::size_t i = 0; i < n; ++i) {
    if (kOwn.count(idents[i]) != 0)
      idents[i].append(1, '_').append(std::to_string(i));
  }
  const std::string& ns = options.namespace_name;
  const std::string guard = IncludeGuard("ARENAPLAN_GENERATED_", ns);
  std::uint64_t largest = 0;
  for (std::uint64_t b : plan.region_bytes) largest = std::max(largest, b);
  for (std::size_t i = 0; i < n; ++i) {
    largest = std::max({largest, plan.offsets[i] + problem.records[i].size,
                        std::uint64_t{problem.records[i].last_op}});
  }

  std::ostringstream o;
  EmitRegionComment(o, plan, options);
  EmitGuardAndIncludes(o, guard);
  o << "/// Defined by every header of a plan across regions.\n"
    << "#define ARENAPLAN_PLAN_HAS_REGIONS 1\n\n"
    << "namespace " << ns << " {\n\n";
  EmitSizeTCheck(o, largest);
  o << "/// Bytes; every offset is a multiple of it and so is every region's "
       "address.\n"
    << "inline constexpr std::size_t kAlignment = " << plan.alignment << ";\n";
  EmitCountConstants(o, problem.operator_count, n);
  o << "/// Memory regions, fastest first (kPlan's `region` indexes them).\n"
    << "inline constexpr std::size_t kRegionCount = " << regions << ";\n"
    << "/// The whole plan's lower bound (largest operator breadth) and naive\n"
    << "/// footprint, in bytes.\n";
  EmitBoundConstants(o, plan.lower_bound, plan.naive_bytes);
  EmitRegionArrays(o, plan);
  EmitRegionPlacements(o, plan, idents);
  o << "/// Every tensor's exact size in bytes, before rounding.\n";
  EmitTensorBytesTable(o, exact);
  EmitTensorNamesTable(o, problem);
  if (!plan.overlaps.empty()) EmitOverlapsTable(o, plan.overlaps, idents);
  o << "/// This plan as a type; Arena::Get<float>(kSomeTensor) is the "
       "tensor's\n"
    << "/// elements at their planned address in their region.\n"
    << "using Plan = arenaplan::RegionPlanTraits<\n"
    << "    kAlignment, kOperatorCount, kTensorCount, kRegionCount, kPlan,\n"
    << "    kTensorBytes, kRegionSizes, kRegionStorage>;\n"
    << "using Arena = arenaplan::RegionArena<Plan>;\n\n";
  std::vector<std::string> where(n);
  for (std::size_t i = 0; i < n; ++i) {
    where[i] = plan.regions[plan.region_of[i]].name;
  }
  EmitTensorIds(o, problem, idents, exact, plan.offsets, where);

  EmitRegionChecks(o, plan);
  EmitTableChecks(o, "RegionTensorBytesFit");
  o << "\n";
  EmitClosing(o, ns, guard);
  return o.str();
}

std::string RegionPlanJson(const RegionPlan& plan) {
  const UsageProblem& p = plan.problem;
  std::uint64_t total = 0;
  for (std::uint64_t b : plan.region_bytes) total += b;
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.3f", plan.plan_ms);
  std::ostringstream out;
  out << "{\"arena_bytes\":" << total << ",\"lower_bound\":" << plan.lower_bound
      << ",\"naive_bytes\":" << plan.naive_bytes
      << ",\"approach\":\"offsets\",\"tensors\":" << p.records.size()
      << ",\"plan_ms\":" << ms << ",\"alignment\":" << plan.alignment
      << ",\"operators\":" << p.operator_count << ",\"region_search\":\""
      << (plan.search == RegionSearch::kExact ? "exact" : "greedy")
      << "\",\"cost\":" << plan.cost
      << ",\"cost_optimal\":" << (plan.cost_optimal ? "true" : "false");
  if (plan.overlap) {
    out << ",\"overlap\":true,\"overlap_lower_bound\":"
        << plan.overlap_lower_bound
        << ",\"overlap_pairs\":" << plan.problem.overlaps.size()
        << ",\"overlap_pairs_in_one_region\":" << plan.overlaps.size()
        << ",\"overlap_pairs_used\":" << UsedPairCount(plan)
        << ",\"assignment_without_overlaps_kept\":"
        << (plan.kept_assignment_without_overlaps ? "true" : "false");
  }
  out << ",\"regions\":[";
  for (std::size_t r = 0; r < plan.regions.size(); ++r) {
    out << (r ? "," : "") << "{\"name\":\"" << JsonEscape(plan.regions[r].name)
        << "\",\"capacity\":" << plan.regions[r].capacity
        << ",\"bytes\":" << plan.region_bytes[r]
        << ",\"traffic_bytes\":" << plan.region_traffic[r] << ",\"section\":\""
        << JsonEscape(plan.regions[r].section) << "\",\"strategy\":\""
        << JsonEscape(plan.plans[r].strategy) << '"';
    if (!plan.naive_split_traffic.empty()) {
      out << ",\"naive_split_traffic_bytes\":" << plan.naive_split_traffic[r];
    }
    out << '}';
  }
  out << "],\"placements\":[";
  for (std::size_t i = 0; i < p.records.size(); ++i) {
    const TensorUsageRecord& r = p.records[i];
    out << (i ? "," : "") << "{\"id\":\""
        << JsonEscape(ElementOrEmpty(p.ids, i)) << '"';
    if (!ElementOrEmpty(p.names, i).empty()) {
      out << ",\"name\":\"" << JsonEscape(p.names[i]) << '"';
    }
    out << ",\"first_op\":" << r.first_op << ",\"last_op\":" << r.last_op
        << ",\"size\":" << r.size << ",\"region\":\""
        << JsonEscape(plan.regions[plan.region_of[i]].name)
        << "\",\"offset\":" << plan.offsets[i]
        << ",\"traffic\":" << plan.traffic[i] << '}';
  }
  out << "]}\n";
  return out.str();
}

std::string RegionPlanCsv(const RegionPlan& plan) {
  const UsageProblem& p = plan.problem;
  std::string csv = "id,lower,upper,size,offset,region";
  for (const std::string& c : p.extra_columns) csv += "," + c;
  csv += '\n';
  for (std::size_t i = 0; i < p.records.size(); ++i) {
    const TensorUsageRecord& r = p.records[i];
    csv += ElementOrEmpty(p.ids, i) + "," + std::to_string(r.first_op) + "," +
           std::to_string(std::uint64_t{r.last_op} + 1) + "," +
           std::to_string(r.size) + "," + std::to_string(plan.offsets[i]) +
           "," + plan.regions[plan.region_of[i]].name;
    if (i < p.extra_values.size()) {
      for (const std::string& v : p.extra_values[i]) csv += "," + v;
    }
    csv += '\n';
  }
  return csv;
}

std::string RegionPlanSummary(const RegionPlan& plan) {
  std::ostringstream out;
  out << "input:       " << plan.problem.source << " ("
      << plan.problem.records.size() << " tensors, "
      << plan.problem.operator_count << " operators)\n"
      << "plan:        offsets across " << plan.regions.size()
      << " regions, assignment "
      << (plan.search == RegionSearch::kExact ? "exact" : "greedy")
      << ", alignment " << plan.alignment << "\n"
      << "cost:        " << plan.cost << " (traffic bytes x region rank"
      << (plan.cost_optimal ? ", proven minimal" : "") << ")\n";
  if (plan.overlap) {
    out << "overlap:     " << plan.problem.overlaps.size() << " allowed pairs, "
        << plan.overlaps.size() << " with both tensors in one region, "
        << UsedPairCount(plan) << " used; overlap lower bound "
        << plan.overlap_lower_bound << " bytes"
        << (plan.kept_assignment_without_overlaps
                ? "; the assignment found without the pairs costs less"
                : "")
        << "\n";
  }
  for (std::size_t r = 0; r < plan.regions.size(); ++r) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "region %-20s %12llu of %12llu bytes, traffic %14llu bytes "
                  "(%s)\n",
                  plan.regions[r].name.c_str(),
                  static_cast<unsigned long long>(plan.region_bytes[r]),
                  static_cast<unsigned long long>(plan.regions[r].capacity),
                  static_cast<unsigned long long>(plan.region_traffic[r]),
                  plan.plans[r].strategy.c_str());
    out << line;
  }
  return out.str();
}

}  // namespace arenaplan
