// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/emit/plan_text.hpp"

#include <cstdio>
#include <sstream>

#include "codegen/emit/utf8.hpp"

namespace arenaplan {
namespace {

std::string FormatDouble(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string Ratio(const PlanResult& plan) {
  if (plan.lower_bound == 0) return plan.arena_bytes == 0 ? "1.0000" : "inf";
  return FormatDouble(static_cast<double>(plan.arena_bytes) /
                          static_cast<double>(plan.lower_bound),
                      4);
}

void Summary(std::ostringstream& out, const PlanResult& plan) {
  out << "\"arena_bytes\":" << plan.arena_bytes
      << ",\"lower_bound\":" << plan.lower_bound
      << ",\"naive_bytes\":" << plan.naive_bytes << ",\"strategy\":\""
      << JsonEscape(plan.strategy) << "\",\"approach\":\""
      << ApproachName(plan.approach)
      << "\",\"tensors\":" << plan.problem.records.size()
      << ",\"plan_ms\":" << FormatDouble(plan.plan_ms, 3)
      << ",\"alignment\":" << plan.alignment
      << ",\"operators\":" << plan.problem.operator_count
      << ",\"offsets_lower_bound\":" << plan.summary.offsets_lower_bound
      << ",\"shared_objects_lower_bound\":"
      << plan.summary.shared_objects_lower_bound
      << ",\"optimal\":" << (plan.optimal ? "true" : "false")
      << ",\"gap_bytes\":" << plan.gap_bytes;
  if (plan.overlap) {
    // --overlap: the bound with allowed overlaps subtracted, and the pairs
    // (allowed, and sharing bytes in this plan).
    std::size_t used = 0;
    for (std::size_t k = 0; k < plan.overlaps.size(); ++k) {
      used += OverlapUsed(plan, k) ? 1 : 0;
    }
    out << ",\"overlap_lower_bound\":" << plan.overlap_lower_bound
        << ",\"lower_bound_proven\":" << plan.lower_bound_proven
        << ",\"overlap_pairs\":" << plan.overlaps.size()
        << ",\"overlap_pairs_used\":" << used;
  }
  if (!plan.search_stopped_by.empty()) {
    // best / optimal: what the exact search proved and what ended it.
    out << ",\"lower_bound_proven\":" << plan.lower_bound_proven
        << ",\"search_stopped_by\":\"" << plan.search_stopped_by
        << "\",\"search_work\":" << plan.search_work
        << ",\"search_nodes\":" << plan.search_nodes;
  }
  if (plan.approach == Approach::kSharedObjects) {
    out << ",\"objects\":" << plan.object_sizes.size();
  }
  if (plan.capped_after != SIZE_MAX) {
    // The heuristic's work cap was spent (docs/strategies.md).
    out << ",\"capped_after\":" << plan.capped_after;
  }
}

}  // namespace

std::string JsonEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  // JSON text is UTF-8 (RFC 8259 §8.1): bytes that are not become U+FFFD.
  for (char c : ValidUtf8(s)) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string PlanJson(const PlanResult& plan, bool with_placements) {
  std::ostringstream out;
  out << '{';
  Summary(out, plan);
  if (with_placements) {
    const UsageProblem& p = plan.problem;
    out << ",\"placements\":[";
    for (std::size_t i = 0; i < p.records.size(); ++i) {
      const TensorUsageRecord& r = p.records[i];
      out << (i ? "," : "") << "{\"id\":\"" << JsonEscape(p.ids[i]) << '"';
      if (i < p.names.size() && !p.names[i].empty()) {
        out << ",\"name\":\"" << JsonEscape(p.names[i]) << '"';
      }
      out << ",\"first_op\":" << r.first_op << ",\"last_op\":" << r.last_op
          << ",\"size\":" << r.size << ",\"offset\":" << plan.offsets[i];
      if (plan.approach == Approach::kSharedObjects) {
        out << ",\"object\":" << plan.object_of[i];
      }
      out << '}';
    }
    out << ']';
    if (plan.overlap) {
      // The allowed overlaps (aligned distances) and whether each is used.
      out << ",\"overlaps\":[";
      for (std::size_t k = 0; k < plan.overlaps.size(); ++k) {
        const OverlapPair& q = plan.overlaps[k];
        out << (k ? "," : "") << "{\"input\":\"" << JsonEscape(p.ids[q.input])
            << "\",\"output\":\"" << JsonEscape(p.ids[q.output])
            << "\",\"op\":" << q.op << ",\"relation\":\""
            << (q.relation == OverlapRelation::kAlias ? "alias"
                                                      : "output_below_by")
            << "\",\"distance\":" << q.distance
            << ",\"used\":" << (OverlapUsed(plan, k) ? "true" : "false") << '}';
      }
      out << ']';
    }
  }
  out << "}\n";
  return out.str();
}

std::string StrategyTable(std::span<const PlanResult> plans, bool json) {
  std::ostringstream out;
  if (json) {
    out << '[';
    for (std::size_t i = 0; i < plans.size(); ++i) {
      out << (i ? "," : "") << '{';
      Summary(out, plans[i]);
      out << '}';
    }
    out << "]\n";
    return out.str();
  }
  if (plans.empty()) return "no strategy applies\n";
  char line[160];
  std::snprintf(line, sizeof line, "%-26s %14s %12s %12s\n", "strategy",
                "arena bytes", "arena / LB", "plan ms");
  out << "approach: " << ApproachName(plans.front().approach)
      << "   lower bound: " << plans.front().lower_bound << " bytes";
  if (plans.front().overlap) {
    out << "   overlap lower bound: " << plans.front().overlap_lower_bound
        << " bytes";
  }
  out << "   naive: " << plans.front().naive_bytes << " bytes\n" << line;
  for (const PlanResult& p : plans) {
    std::snprintf(line, sizeof line, "%-26s %14llu %12s %12s\n",
                  p.strategy.c_str(),
                  static_cast<unsigned long long>(p.arena_bytes),
                  Ratio(p).c_str(), FormatDouble(p.plan_ms, 3).c_str());
    out << line;
  }
  return out.str();
}

}  // namespace arenaplan
