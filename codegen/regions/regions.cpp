// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/regions/regions.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <limits>
#include <numeric>
#include <set>
#include <string_view>

#include "codegen/base/errors.hpp"
#include "codegen/base/time_limit.hpp"
#include "codegen/validator/validator.hpp"

namespace arenaplan {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint64_t kMaxRegionBytes =
    static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
constexpr std::size_t kMaxNameLength = 64;
/// Default wall-clock cap of the exact assignment search, seconds.
constexpr double kExactSeconds = 10.0;
/// Cap of the greedy mode's last resort (the exact search), seconds.
constexpr double kGreedyFallbackSeconds = 2.0;
/// The exact assignment search refuses more sized tensors than this.
constexpr std::size_t kExactMaxTensors = 64;

bool IsIdentifierChar(char c, bool first) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         (!first && c >= '0' && c <= '9');
}

/// Printable form of untrusted option text for a message (non-printable
/// bytes become '?').
std::string Shown(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 80)) {
    out += static_cast<unsigned char>(c) >= 0x20 &&
                   static_cast<unsigned char>(c) < 0x7f
               ? c
               : '?';
  }
  if (text.size() > 80) out += "...";
  return out;
}

std::uint64_t SaturatingAdd(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b
             ? std::numeric_limits<std::uint64_t>::max()
             : a + b;
}

std::uint64_t SaturatingMul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) {
    return std::numeric_limits<std::uint64_t>::max();
  }
  return a * b;
}

/// The records of `members` (indices into `aligned`, ascending) as a problem
/// of their own: same operators, source and alignment.
UsageProblem SubProblem(const UsageProblem& aligned,
                        const std::vector<std::size_t>& members) {
  UsageProblem sub;
  sub.operator_count = aligned.operator_count;
  sub.operator_names = aligned.operator_names;
  sub.default_alignment = aligned.default_alignment;
  sub.source = aligned.source;
  for (std::size_t i : members) {
    sub.records.push_back(aligned.records[i]);
    sub.ids.push_back(i < aligned.ids.size() ? aligned.ids[i] : "");
    sub.names.push_back(i < aligned.names.size() ? aligned.names[i] : "");
  }
  return sub;
}

/// Largest operator breadth of the records `members` (bytes): a lower bound
/// of any arena holding them.
std::uint64_t Breadth(const UsageProblem& aligned,
                      const std::vector<std::size_t>& members) {
  std::vector<TensorUsageRecord> records;
  records.reserve(members.size());
  for (std::size_t i : members) records.push_back(aligned.records[i]);
  return SummarizeProfiles(records).offsets_lower_bound;
}

/// Everything one call shares.
struct Context {
  const UsageProblem* aligned = nullptr;
  const std::vector<RegionSpec>* regions = nullptr;
  PlanOptions heuristic;  ///< Every heuristic, no search, exact alignment.
  std::size_t fit_checks = 0;
};

/// The smallest arena any heuristic plans for `members` (bytes; 0 when
/// empty): cheap, and every plan it measures passed the validator.
std::uint64_t HeuristicBytes(Context& ctx,
                             const std::vector<std::size_t>& members) {
  if (members.empty()) return 0;
  ++ctx.fit_checks;
  const std::vector<PlanResult> plans =
      PlanAll(SubProblem(*ctx.aligned, members), ctx.heuristic);
  std::uint64_t best = std::numeric_limits<std::uint64_t>::max();
  for (const PlanResult& p : plans) best = std::min(best, p.arena_bytes);
  return best;
}

/// Whether `members` fit `capacity`: the breadth bound first (cheap, and
/// a proof when it fails), then the heuristics.
bool Fits(Context& ctx, const std::vector<std::size_t>& members,
          std::uint64_t capacity) {
  if (Breadth(*ctx.aligned, members) > capacity) return false;
  return HeuristicBytes(ctx, members) <= capacity;
}

/// Inserts `i` into the ascending `members`.
void InsertSorted(std::vector<std::size_t>& members, std::size_t i) {
  members.insert(std::lower_bound(members.begin(), members.end(), i), i);
}

/// Records with size > 0, in `order`'s order, each into the fastest region
/// where it still fits. Returns the region of every record (zero-size
/// records: 0), or empty when a record fits nowhere.
std::vector<std::uint32_t> FirstFit(Context& ctx,
                                    const std::vector<std::size_t>& order) {
  const std::size_t regions = ctx.regions->size();
  std::vector<std::vector<std::size_t>> members(regions);
  std::vector<std::uint32_t> region_of(ctx.aligned->records.size(), 0);
  for (std::size_t i : order) {
    bool placed = false;
    for (std::size_t r = 0; r < regions && !placed; ++r) {
      std::vector<std::size_t> trial = members[r];
      InsertSorted(trial, i);
      if (Fits(ctx, trial, (*ctx.regions)[r].capacity)) {
        members[r] = std::move(trial);
        region_of[i] = static_cast<std::uint32_t>(r);
        placed = true;
      }
    }
    if (!placed) return {};
  }
  return region_of;
}

std::vector<std::size_t> SizedRecords(const UsageProblem& aligned) {
  std::vector<std::size_t> sized;
  for (std::size_t i = 0; i < aligned.records.size(); ++i) {
    if (aligned.records[i].size != 0) sized.push_back(i);
  }
  return sized;
}

/// Sized records by access density, densest first: traffic / size compared
/// as traffic_a * size_b > traffic_b * size_a (128-bit), ties to the larger
/// traffic, then the lower index.
std::vector<std::size_t> ByDensity(const UsageProblem& aligned,
                                   const std::vector<std::uint64_t>& traffic) {
  std::vector<std::size_t> order = SizedRecords(aligned);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     const unsigned __int128 lhs =
                         static_cast<unsigned __int128>(traffic[a]) *
                         aligned.records[b].size;
                     const unsigned __int128 rhs =
                         static_cast<unsigned __int128>(traffic[b]) *
                         aligned.records[a].size;
                     if (lhs != rhs) return lhs > rhs;
                     return traffic[a] > traffic[b];
                   });
  return order;
}

/// Sized records, largest first (ties: lower index).
std::vector<std::size_t> BySize(const UsageProblem& aligned) {
  std::vector<std::size_t> order = SizedRecords(aligned);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return aligned.records[a].size > aligned.records[b].size;
                   });
  return order;
}

std::uint64_t Cost(const std::vector<std::uint32_t>& region_of,
                   const std::vector<std::uint64_t>& traffic) {
  std::uint64_t cost = 0;
  for (std::size_t i = 0; i < region_of.size(); ++i) {
    cost = SaturatingAdd(cost, SaturatingMul(traffic[i], region_of[i]));
  }
  return cost;
}

/// Branch and bound over assignments of the sized records (densest first):
/// a node's bound is the traffic x rank of the records assigned so far plus,
/// for each record left, its traffic x the rank of the fastest region not
/// smaller than it (no completion costs less); a node is cut when its bound
/// reaches the best, or when a region's records
/// no longer fit (breadth bound, then the heuristics; see docs/regions.md
/// for what "fit" means here). Returns the best assignment found (starting
/// from `incumbent`, which may be empty) and whether the search finished.
struct ExactAssignment {
  std::vector<std::uint32_t> region_of;
  std::uint64_t cost = std::numeric_limits<std::uint64_t>::max();
  bool complete = false;
};

class AssignmentSearch {
 public:
  AssignmentSearch(Context& ctx, const std::vector<std::uint64_t>& traffic,
                   std::vector<std::size_t> order, double seconds)
      : ctx_(ctx),
        traffic_(traffic),
        order_(std::move(order)),
        deadline_(DeadlineAfter(seconds)),
        members_(ctx.regions->size()),
        current_(ctx.aligned->records.size(), 0),
        rest_(order_.size() + 1, 0) {
    // rest_[d]: what the records order_[d..] cost at least, each in the
    // fastest region whose capacity is not below its size.
    for (std::size_t d = order_.size(); d-- > 0;) {
      const std::size_t i = order_[d];
      std::size_t rank = 0;
      while (rank < ctx.regions->size() &&
             (*ctx.regions)[rank].capacity < ctx.aligned->records[i].size) {
        ++rank;
      }
      rest_[d] = SaturatingAdd(rest_[d + 1], SaturatingMul(traffic_[i], rank));
    }
  }

  ExactAssignment Run(const std::vector<std::uint32_t>& incumbent) {
    if (!incumbent.empty()) {
      best_.region_of = incumbent;
      best_.cost = Cost(incumbent, traffic_);
    }
    stopped_ = false;
    Descend(0, 0);
    best_.complete = !stopped_;
    return best_;
  }

 private:
  void Descend(std::size_t depth, std::uint64_t cost) {
    if (stopped_ || SaturatingAdd(cost, rest_[depth]) >= best_.cost) return;
    if (depth == order_.size()) {
      best_.region_of = current_;
      best_.cost = cost;
      return;
    }
    if ((++nodes_ & 63) == 0 && Clock::now() > deadline_) {
      stopped_ = true;
      return;
    }
    const std::size_t i = order_[depth];
    for (std::size_t r = 0; r < members_.size(); ++r) {
      const std::uint64_t next =
          SaturatingAdd(cost, SaturatingMul(traffic_[i], r));
      if (next >= best_.cost) break;  // higher ranks cost no less
      std::vector<std::size_t> trial = members_[r];
      InsertSorted(trial, i);
      if (!Fits(ctx_, trial, (*ctx_.regions)[r].capacity)) continue;
      std::swap(members_[r], trial);
      current_[i] = static_cast<std::uint32_t>(r);
      Descend(depth + 1, next);
      current_[i] = 0;
      std::swap(members_[r], trial);
      if (stopped_) return;
    }
  }

  Context& ctx_;
  const std::vector<std::uint64_t>& traffic_;
  std::vector<std::size_t> order_;
  Clock::time_point deadline_;
  std::vector<std::vector<std::size_t>> members_;
  std::vector<std::uint32_t> current_;
  /// Lower bound of the cost of the records not yet assigned, by depth.
  std::vector<std::uint64_t> rest_;
  ExactAssignment best_;
  std::uint64_t nodes_ = 0;
  bool stopped_ = false;
};

/// Throws the InfeasibleError of a problem no assignment was found for.
[[noreturn]] void ReportNoAssignment(const UsageProblem& aligned,
                                     const std::vector<RegionSpec>& regions,
                                     bool proven_by_search) {
  std::uint64_t total = 0;
  std::uint64_t largest_region = 0;
  for (const RegionSpec& r : regions) {
    total = SaturatingAdd(total, r.capacity);
    largest_region = std::max(largest_region, r.capacity);
  }
  const std::uint64_t breadth =
      SummarizeProfiles(aligned.records).offsets_lower_bound;
  std::uint64_t largest_tensor = 0;
  for (const TensorUsageRecord& r : aligned.records) {
    largest_tensor = std::max(largest_tensor, r.size);
  }
  const std::string head = "no assignment of the tensors to the " +
                           std::to_string(regions.size()) + " regions fits (" +
                           std::to_string(total) + " bytes together)";
  if (breadth > total) {
    throw InfeasibleError(head + ": proven, the largest operator breadth is " +
                          std::to_string(breadth) + " bytes");
  }
  if (largest_tensor > largest_region) {
    throw InfeasibleError(head + ": proven, a tensor of " +
                          std::to_string(largest_tensor) +
                          " bytes exceeds the largest region (" +
                          std::to_string(largest_region) + " bytes)");
  }
  if (proven_by_search) {
    throw InfeasibleError(head +
                          ": the exact search tried every assignment the "
                          "heuristics can plan");
  }
  throw InfeasibleError(head +
                        ": none found (greedy by access density, first fit "
                        "by size, naive split), none proven impossible; try "
                        "--region-search exact");
}

}  // namespace

RegionSpec ParseRegion(const std::string& text) {
  const std::string what = "--region '" + Shown(text) + "'";
  const std::size_t c1 = text.find(':');
  if (c1 == std::string::npos) {
    throw InputError(what + ": expected NAME:BYTES[:SECTION]");
  }
  const std::size_t c2 = text.find(':', c1 + 1);
  RegionSpec spec;
  spec.name = text.substr(0, c1);
  const std::string bytes = text.substr(
      c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1);
  if (spec.name.empty() || spec.name.size() > kMaxNameLength ||
      !IsIdentifierChar(spec.name[0], true) ||
      !std::all_of(spec.name.begin(), spec.name.end(),
                   [](char c) { return IsIdentifierChar(c, false); })) {
    throw InputError(what +
                     ": NAME must be a C identifier (ASCII letters, digits, "
                     "'_', not starting with a digit) of 1 to 64 characters");
  }
  const char* end = bytes.data() + bytes.size();
  auto [p, ec] = std::from_chars(bytes.data(), end, spec.capacity);
  if (bytes.empty() ||
      bytes.find_first_not_of("0123456789") != std::string::npos ||
      ec != std::errc() || p != end || spec.capacity > kMaxRegionBytes) {
    throw InputError(what + ": BYTES must be a whole number below 2^63");
  }
  if (c2 == std::string::npos) {
    spec.section = ".arena_" + spec.name;
  } else {
    spec.section = text.substr(c2 + 1);
    const bool ok =
        spec.section.size() >= 2 && spec.section.size() <= kMaxNameLength &&
        spec.section[0] == '.' &&
        std::all_of(spec.section.begin() + 1, spec.section.end(), [](char c) {
          return IsIdentifierChar(c, false) || c == '.';
        });
    if (!ok) {
      throw InputError(what +
                       ": SECTION must be '.' and 1 to 63 ASCII letters, "
                       "digits, '_' or '.'");
    }
    // Sections the toolchain or port/cortex_m.ld already gives a meaning
    // (alone or with a '.' suffix): the region's array would land there.
    for (const char* taken :
         {".text", ".data", ".bss", ".rodata", ".arena", ".vectors",
          ".init_array", ".fini_array", ".ARM", ".stack", ".heap", ".noinit"}) {
      const std::string t = taken;
      if (spec.section == t || spec.section.rfind(t + ".", 0) == 0) {
        throw InputError(what + ": SECTION " + spec.section +
                         " is the toolchain's own; name a section of the "
                         "region's memory");
      }
    }
  }
  return spec;
}

void CheckRegions(const std::vector<RegionSpec>& regions) {
  if (regions.empty()) throw InputError("--region: no region given");
  std::set<std::string> names;
  std::set<std::string> sections;
  for (const RegionSpec& r : regions) {
    if (!names.insert(r.name).second) {
      throw InputError("--region " + r.name + ": the name is given twice");
    }
    if (!sections.insert(r.section).second) {
      throw InputError("--region " + r.name + ": section " + r.section +
                       " is given twice");
    }
  }
}

std::vector<std::uint64_t> RecordTraffic(const UsageProblem& problem) {
  const std::size_t n = problem.records.size();
  if (problem.traffic.size() == n) return problem.traffic;
  std::vector<std::uint64_t> traffic(n, 0);
  const auto column = std::find(problem.extra_columns.begin(),
                                problem.extra_columns.end(), "traffic");
  if (column != problem.extra_columns.end()) {
    const auto k =
        static_cast<std::size_t>(column - problem.extra_columns.begin());
    for (std::size_t i = 0; i < n; ++i) {
      const std::string v =
          i < problem.extra_values.size() && k < problem.extra_values[i].size()
              ? problem.extra_values[i][k]
              : std::string();
      const char* end = v.data() + v.size();
      auto [p, ec] = std::from_chars(v.data(), end, traffic[i]);
      if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos ||
          ec != std::errc() || p != end) {
        throw InputError(problem.source + ": tensor '" +
                         Shown(i < problem.ids.size() ? problem.ids[i] : "") +
                         "': traffic is not a whole number below 2^64: '" +
                         Shown(v) + "'");
      }
    }
    return traffic;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const TensorUsageRecord& r = problem.records[i];
    traffic[i] =
        SaturatingMul(r.size, std::uint64_t{r.last_op} - r.first_op + 1);
  }
  return traffic;
}

std::vector<std::uint32_t> NaiveSplit(const UsageProblem& aligned,
                                      const std::vector<RegionSpec>& regions) {
  if (regions.size() < 2) return {};
  Context ctx;
  ctx.aligned = &aligned;
  ctx.regions = &regions;
  ctx.heuristic.alignment = Alignment::FromBytes(1);
  std::vector<std::size_t> fast = SizedRecords(aligned);
  std::vector<std::size_t> slow;
  const std::vector<std::size_t> by_size = BySize(aligned);
  std::size_t moved = 0;
  while (!Fits(ctx, fast, regions.front().capacity)) {
    if (moved == by_size.size()) return {};
    const std::size_t i = by_size[moved++];
    fast.erase(std::find(fast.begin(), fast.end(), i));
    InsertSorted(slow, i);
  }
  if (!Fits(ctx, slow, regions.back().capacity)) return {};
  std::vector<std::uint32_t> region_of(aligned.records.size(), 0);
  for (std::size_t i : slow) {
    region_of[i] = static_cast<std::uint32_t>(regions.size() - 1);
  }
  return region_of;
}

RegionPlan PlanRegions(const UsageProblem& problem,
                       const std::vector<RegionSpec>& regions,
                       const PlanOptions& options, RegionSearch search) {
  CheckRegions(regions);
  if (options.approach != Approach::kOffsets) {
    throw InputError(
        "--region: regions are planned with the offsets approach only");
  }
  const auto start = Clock::now();
  const Alignment alignment =
      options.alignment.value_or(problem.default_alignment);
  RegionPlan out;
  out.regions = regions;
  out.search = search;
  out.alignment = alignment.bytes();
  out.traffic = RecordTraffic(problem);
  out.problem = AlignProblem(problem, alignment);
  const UsageProblem& aligned = out.problem;
  const ProfileSummary summary = SummarizeProfiles(aligned.records);
  out.lower_bound = summary.offsets_lower_bound;
  out.naive_bytes = summary.naive_bytes;

  Context ctx;
  ctx.aligned = &aligned;
  ctx.regions = &regions;
  // Sizes are already aligned; every offset a heuristic gives is a sum of
  // sizes, so alignment 1 plans the same offsets.
  ctx.heuristic.alignment = Alignment::FromBytes(1);

  // Below, an empty assignment means "none found": a problem with no
  // record of size > 0 (none at all, say) is assigned here, all to region 0.
  const bool nothing_sized = SizedRecords(aligned).empty();
  std::vector<std::uint32_t> region_of =
      nothing_sized ? std::vector<std::uint32_t>(aligned.records.size(), 0)
                    : FirstFit(ctx, ByDensity(aligned, out.traffic));
  if (nothing_sized) {
    search = RegionSearch::kGreedy;  // nothing to search: cost 0 is minimal
    out.cost_optimal = true;
  }
  if (region_of.empty() && !nothing_sized) {
    region_of = FirstFit(ctx, BySize(aligned));
  }
  const std::vector<std::uint32_t> naive = NaiveSplit(aligned, regions);
  if (region_of.empty()) region_of = naive;
  if (region_of.empty() && !nothing_sized && search == RegionSearch::kGreedy &&
      SizedRecords(aligned).size() <= kExactMaxTensors) {
    // No quick assignment: the exact search, for a short while, as the
    // last resort (it proves infeasibility when it finishes).
    AssignmentSearch bnb(
        ctx, out.traffic, ByDensity(aligned, out.traffic),
        std::min(options.time_limit_s.value_or(kGreedyFallbackSeconds),
                 kGreedyFallbackSeconds));
    const ExactAssignment found = bnb.Run({});
    if (found.region_of.empty()) {
      ReportNoAssignment(aligned, regions, found.complete);
    }
    region_of = found.region_of;
  }
  if (search == RegionSearch::kExact) {
    const std::vector<std::size_t> order = ByDensity(aligned, out.traffic);
    if (order.size() > kExactMaxTensors) {
      throw InputError(
          "--region-search exact: " + std::to_string(order.size()) +
          " tensors of size > 0; the exact search takes at most " +
          std::to_string(kExactMaxTensors) + " (use greedy)");
    }
    AssignmentSearch bnb(ctx, out.traffic, order,
                         options.time_limit_s.value_or(kExactSeconds));
    const ExactAssignment exact = bnb.Run(region_of);
    if (exact.region_of.empty()) {
      ReportNoAssignment(aligned, regions, exact.complete);
    }
    region_of = exact.region_of;
    out.cost_optimal = exact.complete;
  }
  if (region_of.empty() && !nothing_sized) {
    ReportNoAssignment(aligned, regions, false);
  }

  // Each region: its records planned by the ordinary planner with the
  // options given (every plan validated there); when that plan is larger
  // than the region (a named heuristic, say), the heuristics' best, which
  // the assignment was checked with.
  const std::size_t n = aligned.records.size();
  out.region_of = region_of;
  out.offsets.assign(n, 0);
  out.region_bytes.assign(regions.size(), 0);
  out.region_traffic.assign(regions.size(), 0);
  for (std::size_t r = 0; r < regions.size(); ++r) {
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < n; ++i) {
      if (region_of[i] == r) members.push_back(i);
    }
    // All records in one region: the input itself, so that one region
    // plans exactly what planning without regions does.
    const UsageProblem sub =
        members.size() == n ? aligned : SubProblem(aligned, members);
    PlanOptions each = options;
    each.alignment = alignment;
    each.capacity.reset();
    PlanResult plan = Plan(sub, each);
    if (plan.arena_bytes > regions[r].capacity) {
      for (PlanResult& p : PlanAll(sub, each)) {
        if (p.arena_bytes < plan.arena_bytes) plan = std::move(p);
      }
    }
    if (plan.arena_bytes > regions[r].capacity) {
      throw InternalError("internal error: region " + regions[r].name +
                          " was assigned tensors that do not fit it");
    }
    const ValidationReport check = ValidateOffsets(
        plan.problem.records, plan.offsets, regions[r].capacity, out.alignment);
    if (!check.ok()) {
      throw InternalError("internal error: region " + regions[r].name +
                          ": invalid plan: " + ToString(check.result));
    }
    for (std::size_t k = 0; k < members.size(); ++k) {
      out.offsets[members[k]] = plan.offsets[k];
      out.region_traffic[r] =
          SaturatingAdd(out.region_traffic[r], out.traffic[members[k]]);
    }
    out.region_bytes[r] = plan.arena_bytes;
    out.plans.push_back(std::move(plan));
  }
  out.cost = Cost(region_of, out.traffic);
  if (!naive.empty()) {
    out.naive_split_traffic.assign(regions.size(), 0);
    for (std::size_t i = 0; i < n; ++i) {
      out.naive_split_traffic[naive[i]] =
          SaturatingAdd(out.naive_split_traffic[naive[i]], out.traffic[i]);
    }
  }
  out.plan_ms =
      std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return out;
}

}  // namespace arenaplan
