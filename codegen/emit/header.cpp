// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/emit/header.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

#include "codegen/base/errors.hpp"
#include "codegen/emit/cpp_text.hpp"
#include "codegen/emit/header_parts.hpp"

namespace arenaplan {
namespace {

/// Longest identifier body (after the "k") made from a tensor name.
constexpr std::size_t kMaxIdentifierBody = 48;

/// Names the generated header defines itself; a tensor id never takes one.
const std::set<std::string>& ReservedIdentifiers() {
  static const std::set<std::string> kReserved = {
      "kArenaSize",   "kAlignment",     "kOperatorCount", "kTensorCount",
      "kLowerBound",  "kNaiveBytes",    "kPlan",          "kTensorBytes",
      "kTensorNames", "kPlanViolation", "Plan",           "Arena"};
  return kReserved;
}

bool IsAsciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9');
}

/// The maximal runs of ASCII letters and digits in `text`, each with its
/// first letter capitalised ("conv1/relu_6" -> {"Conv1", "Relu", "6"}).
std::vector<std::string> CamelWords(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  for (char c : text) {
    if (IsAsciiAlnum(c)) {
      word += c;
    } else if (!word.empty()) {
      words.push_back(word);
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(word);
  for (std::string& w : words) {
    if (w[0] >= 'a' && w[0] <= 'z') w[0] = static_cast<char>(w[0] - 'a' + 'A');
  }
  return words;
}

/// The trailing words of `words`, joined, at most kMaxIdentifierBody chars
/// (the tail of a long path-like name is its most specific part).
std::string JoinTail(const std::vector<std::string>& words) {
  std::string body;
  for (auto it = words.rbegin(); it != words.rend(); ++it) {
    if (!body.empty() && body.size() + it->size() > kMaxIdentifierBody) break;
    body = *it + body;
  }
  if (body.size() > kMaxIdentifierBody) body.resize(kMaxIdentifierBody);
  return body;
}

/// "93696 bytes (91.5 KiB)".
std::string Bytes(std::uint64_t n) {
  std::string s = std::to_string(n) + (n == 1 ? " byte" : " bytes");
  if (n >= 1024) {
    char buf[48];
    if (n >= 1024 * 1024) {
      std::snprintf(buf, sizeof buf, " (%.1f MiB)",
                    static_cast<double>(n) / (1024.0 * 1024.0));
    } else {
      std::snprintf(buf, sizeof buf, " (%.1f KiB)",
                    static_cast<double>(n) / 1024.0);
    }
    s += buf;
  }
  return s;
}

}  // namespace

bool IsValidNamespace(std::string_view name) {
  return NamespaceProblem(name).empty();
}

std::vector<std::string> TensorIdentifiers(const UsageProblem& problem) {
  const std::size_t n = problem.records.size();
  std::vector<std::string> base(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::string name = ElementOrEmpty(problem.names, i);
    // TFLite joins the names of fused ops with ';': keep the first.
    const std::size_t semicolon = name.find(';');
    if (semicolon != std::string::npos && semicolon > 0) {
      name.resize(semicolon);
    }
    std::string body = JoinTail(CamelWords(name));
    if (body.empty()) {
      body = "Tensor" + JoinTail(CamelWords(ElementOrEmpty(problem.ids, i)));
      if (body == "Tensor") body += std::to_string(i);
    }
    base[i] = "k" + body;
  }
  // The first record with a given identifier keeps it; later ones, and any
  // that would shadow the header's own names, get "_<index>". Base
  // identifiers hold no '_', so the suffixed ones cannot collide.
  std::vector<std::string> out(n);
  std::set<std::string> taken;
  for (std::size_t i = 0; i < n; ++i) {
    if (ReservedIdentifiers().count(base[i]) != 0 ||
        !taken.insert(base[i]).second) {
      out[i] = base[i] + "_" + std::to_string(i);
    } else {
      out[i] = base[i];
    }
  }
  return out;
}

namespace {

/// Every record's exact size in bytes: options.tensor_bytes when given
/// (each at most the planned size), else the planned sizes.
std::vector<std::uint64_t> ExactSizes(const PlanResult& plan,
                                      const HeaderOptions& options) {
  const UsageProblem& problem = plan.problem;
  const std::size_t n = problem.records.size();
  std::vector<std::uint64_t> exact(n);
  if (options.tensor_bytes.empty()) {
    for (std::size_t i = 0; i < n; ++i) exact[i] = problem.records[i].size;
  } else {
    if (options.tensor_bytes.size() != n) {
      throw InternalError(
          "header: " + std::to_string(options.tensor_bytes.size()) +
          " exact sizes for " + std::to_string(n) + " records");
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (options.tensor_bytes[i] > problem.records[i].size) {
        throw InternalError("header: record " + std::to_string(i) +
                            ": exact size exceeds the planned size");
      }
      exact[i] = options.tensor_bytes[i];
    }
  }
  return exact;
}

/// The largest number the header writes (an offset, size, top or
/// operator), which std::size_t must hold.
std::uint64_t LargestValue(const PlanResult& plan) {
  std::uint64_t largest = plan.arena_bytes;
  for (std::size_t i = 0; i < plan.problem.records.size(); ++i) {
    const TensorUsageRecord& r = plan.problem.records[i];
    largest = std::max({largest, plan.offsets[i], r.size,
                        std::uint64_t{r.last_op}, plan.offsets[i] + r.size});
  }
  return largest;
}

/// The opening comment: input, strategy, arena and bounds.
void WritePlanComment(std::ostringstream& o, const PlanResult& plan,
                      const HeaderOptions& options) {
  const UsageProblem& problem = plan.problem;
  const std::size_t n = problem.records.size();
  std::size_t empty_tensors = 0;
  for (const TensorUsageRecord& r : problem.records) {
    if (r.size == 0) ++empty_tensors;
  }
  const bool offsets = plan.approach == Approach::kOffsets;
  EmitInputComment(o, problem, options);
  o << "// Strategy:      " << CommentText(plan.strategy) << " ("
    << (offsets ? "Offset Calculation" : "Shared Objects, placed contiguously")
    << ")\n"
    << "// Alignment:     " << Bytes(plan.alignment) << "\n"
    << "// Arena:         " << Bytes(plan.arena_bytes) << "\n"
    << "// Lower bound:   " << Bytes(plan.lower_bound)
    << (offsets ? " (largest operator breadth)"
                : " (sum of positional maximums)")
    << "\n"
    << "// Naive:         " << Bytes(plan.naive_bytes)
    << " (every tensor in its own buffer)\n"
    << "// Tensors:       " << n << " planned (" << empty_tensors
    << " of size 0), " << problem.operator_count << " operators\n"
    << "//\n"
    << "// C++17; include path: core/include. Offsets and sizes are in bytes;\n"
    << "// operator intervals [first_op, last_op] include both ends.\n";
}

/// kPlan: every tensor in input order, named by its identifier.
void WritePlanTable(std::ostringstream& o, const PlanResult& plan,
                    const std::vector<std::string>& idents) {
  const UsageProblem& problem = plan.problem;
  const std::size_t n = problem.records.size();
  // An empty plan still needs one element of storage: C++ has no
  // zero-length arrays. kTensorCount stays 0 and nothing reads the filler.
  // The tables' extents come from their initializers, so an edited
  // kTensorCount no longer matches them (see the static_asserts below).
  o << "/// Every tensor in input order: {offset, size, first_op, last_op}; "
       "size\n"
    << "/// rounded up to kAlignment, both operator indices included.\n"
    << "inline constexpr arenaplan::Placement kPlan[] = {\n";
  if (n == 0) o << "    {0, 0, 0, 0},  // filler: the plan is empty\n";
  for (std::size_t i = 0; i < n; ++i) {
    const TensorUsageRecord& r = problem.records[i];
    o << "    {" << plan.offsets[i] << ", " << r.size << ", " << r.first_op
      << ", " << r.last_op << "},  // " << i << " " << idents[i] << "\n";
  }
  o << "};\n\n"
    << "/// Every tensor's exact size in bytes, before rounding (typed access\n"
    << "/// takes element counts from it).\n";
}

/// The arena's storage, and the Plan and Arena types over it.
void WriteArenaAndTypes(std::ostringstream& o, const PlanResult& plan) {
  const std::vector<OverlapPair>& overlaps = plan.problem.overlaps;
  o << "/// The arena: exactly kArenaSize bytes aligned to kAlignment, in the\n"
    << "/// section ARENAPLAN_ARENA_SECTION (default \".arena\"; the linker\n"
    << "/// script marks it NOLOAD). Reach it through Arena, below.\n";
  if (plan.arena_bytes == 0) {
    o << "inline constexpr std::byte* arena_storage = nullptr;  // empty "
         "arena\n\n";
  } else {
    o << "alignas(kAlignment) ARENAPLAN_ARENA_ATTRIBUTES inline std::byte\n"
      << "    arena_storage[kArenaSize];\n\n";
  }
  o << "/// This plan as a type, and its static arena: "
       "Arena::Get<float>(kSomeTensor)\n"
    << "/// is the tensor's elements at their planned address.\n"
    << "using Plan = arenaplan::PlanTraits<kArenaSize, kAlignment, "
       "kOperatorCount,\n"
    << "                                   kTensorCount, kPlan, "
       "kTensorBytes,\n"
    << "                                   arena_storage"
    << (overlaps.empty() ? "" : ", kOverlaps, kOverlapCount") << ">;\n"
    << "using Arena = arenaplan::Arena<Plan>;\n\n";
}

/// kPlanViolation and the static_asserts proving the plan sound.
void WritePlanChecks(std::ostringstream& o,
                     const std::vector<OverlapPair>& overlaps) {
  struct Check {
    const char* result;
    const char* message;
  };
  static constexpr std::array<Check, 8> kChecks = {{
      {"kCountMismatch",
       "kPlan does not hold kTensorCount entries (was kTensorCount "
       "edited?)"},
      {"kBadAlignment", "kAlignment is not a power of two"},
      {"kBadInterval", "a tensor's first_op is after its last_op"},
      {"kMisaligned", "a tensor's offset is not a multiple of kAlignment"},
      {"kOutOfBounds",
       "a tensor lies outside the arena (offset + size > "
       "kArenaSize)"},
      {"kOperatorOutOfRange", "a tensor's last_op is not below kOperatorCount"},
      {"kBadOverlapPermit",
       "a kOverlaps entry names a tensor outside the plan, or an operator "
       "where its input does not die or its output is not born"},
      {"kOverlap",
       "two tensors alive at a common operator overlap in the "
       "arena"},
  }};
  // Without overlaps the arguments and the checks are those of headers
  // made before overlaps existed (byte-identical output).
  const std::string permits =
      overlaps.empty() ? "" : ", kOverlaps, kOverlapCount";
  o << "// The plan is proven sound at compile time. If a check fails, the\n"
    << "// compiler's note on PlanCheck<..., first, second> names the kPlan\n"
    << "// indices of the tensor(s) at fault.\n"
    << "inline constexpr arenaplan::Violation kPlanViolation =\n"
    << "    arenaplan::FindTableViolation(kPlan, kTensorCount, kArenaSize,\n"
    << "                                  kAlignment, kOperatorCount" << permits
    << ");\n";
  for (const Check& check : kChecks) {
    if (overlaps.empty() &&
        std::string_view(check.result) == "kBadOverlapPermit") {
      continue;
    }
    EmitPlanCheck(o, check.result, "kPlanViolation",
                  std::string("arenaplan: unsound plan: ") + check.message);
  }
  EmitTableChecks(o, "TensorBytesFit");
  o << "static_assert(arenaplan::ValidateTable(kPlan, kTensorCount, "
       "kArenaSize,\n"
    << "                                       kAlignment, kOperatorCount"
    << permits
    << ") "
       "==\n"
    << "                  arenaplan::ValidationResult::kOk,\n"
    << "              \"arenaplan: unsound plan: kPlan fails "
       "arenaplan::ValidateTable()\");\n\n";
}

}  // namespace

std::string EmitHeader(const PlanResult& plan, const HeaderOptions& options) {
  CheckHeaderNamespace(options.namespace_name);
  const UsageProblem& problem = plan.problem;
  const std::size_t n = problem.records.size();
  if (plan.offsets.size() != n) {
    throw InternalError("header: plan has " +
                        std::to_string(plan.offsets.size()) + " offsets for " +
                        std::to_string(n) + " records");
  }
  const std::vector<std::uint64_t> exact = ExactSizes(plan, options);
  const std::vector<std::string> idents = TensorIdentifiers(problem);
  const std::string& ns = options.namespace_name;
  const std::string guard = IncludeGuard("ARENAPLAN_GENERATED_", ns);

  std::ostringstream o;
  WritePlanComment(o, plan, options);
  EmitGuardAndIncludes(o, guard);
  o << "namespace " << ns << " {\n\n";
  EmitSizeTCheck(o, LargestValue(plan));
  o << "/// Bytes of the arena: the largest offset + size of any tensor.\n"
    << "inline constexpr std::size_t kArenaSize = " << plan.arena_bytes << ";\n"
    << "/// Bytes; every offset is a multiple of it and so is the arena's "
       "address.\n"
    << "inline constexpr std::size_t kAlignment = " << plan.alignment << ";\n";
  EmitCountConstants(o, problem.operator_count, n);
  o << "/// The strategy's lower bound and the naive footprint, in bytes.\n";
  EmitBoundConstants(o, plan.lower_bound, plan.naive_bytes);
  WritePlanTable(o, plan, idents);
  EmitTensorBytesTable(o, exact);
  EmitTensorNamesTable(o, problem);
  if (!problem.overlaps.empty()) {
    EmitOverlapsTable(o, problem.overlaps, idents);
  }
  WriteArenaAndTypes(o, plan);
  EmitTensorIds(o, problem, idents, exact, plan.offsets, {});
  WritePlanChecks(o, problem.overlaps);
  EmitClosing(o, ns, guard);
  return o.str();
}

}  // namespace arenaplan
