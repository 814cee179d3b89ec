// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/compile/profile.hpp"

#include <string>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/emit/cpp_text.hpp"

namespace arenaplan::compile {
namespace {

/// True when the line of `body` at `at` opens a step: "  // operator " or
/// "  // operators " and then a digit (Lowerer::Run, FuseBody).
bool OpensStep(const std::string& body, std::size_t at) {
  for (const char* marker : {"  // operator ", "  // operators "}) {
    const std::string m = marker;
    if (body.compare(at, m.size(), m) == 0 && at + m.size() < body.size() &&
        body[at + m.size()] >= '0' && body[at + m.size()] <= '9') {
      return true;
    }
  }
  return false;
}

std::string MarkLine(std::size_t step) {
  return "  ARENAPLAN_PROFILE_MARK(" + std::to_string(step) + ")\n";
}

}  // namespace

std::vector<ProfileStep> ProfileSteps(
    const tflite::Subgraph& sg, const std::vector<std::size_t>& file_index,
    const std::vector<std::uint64_t>& constants_before,
    const UsageProblem& planned, const fuse::FusePlan* fused) {
  const std::size_t count = sg.operators.size();
  if (constants_before.size() != count + 1) {
    throw InternalError("profile: constant bytes of " +
                        std::to_string(constants_before.size()) +
                        " operators, expected " + std::to_string(count + 1));
  }
  std::vector<std::size_t> first, last;  // Lowered operator indices.
  if (fused != nullptr) {
    first.assign(fused->step_first_op.begin(), fused->step_first_op.end());
    last.assign(fused->step_last_op.begin(), fused->step_last_op.end());
  } else {
    for (std::size_t k = 0; k < count; ++k) {
      first.push_back(k);
      last.push_back(k);
    }
  }
  auto file = [&](std::size_t k) {
    return k < file_index.size() ? file_index[k] : k;
  };
  std::vector<ProfileStep> steps(first.size());
  for (std::size_t s = 0; s < steps.size(); ++s) {
    ProfileStep& p = steps[s];
    if (first[s] > last[s] || last[s] >= count) {
      throw InternalError("profile: step " + std::to_string(s) +
                          " covers no lowered operators");
    }
    p.first_operator = file(first[s]);
    p.last_operator = file(last[s]);
    for (std::size_t k = first[s]; k <= last[s]; ++k) {
      p.operators += (k == first[s] ? "" : "+") + sg.operators[k].builtin_name;
    }
    p.constant_bytes =
        constants_before[last[s] + 1] - constants_before[first[s]];
    for (const TensorUsageRecord& r : planned.records) {
      if (r.first_op <= s && s <= r.last_op) p.live_bytes += r.size;
    }
  }
  return steps;
}

std::string ProfileMacroText() {
  return "\n// `make run ... PROFILE=1`: with ARENAPLAN_PROFILE, Invoke() "
         "calls\n"
         "// ::arenaplan::profile::Mark(s) as step s starts (and after the "
         "last);\n"
         "// without it the marks are nothing.\n"
         "#ifdef ARENAPLAN_PROFILE\n"
         "#include \"arenaplan/profile.hpp\"\n"
         "#define ARENAPLAN_PROFILE_MARK(step) "
         "::arenaplan::profile::Mark(step);\n"
         "#else\n"
         "#define ARENAPLAN_PROFILE_MARK(step)\n"
         "#endif\n";
}

std::string WithProfileMarks(const std::string& body, std::size_t step_count) {
  std::string out;
  std::size_t steps = 0;
  std::size_t at = 0;
  while (at < body.size()) {
    std::size_t end = body.find('\n', at);
    end = end == std::string::npos ? body.size() : end + 1;
    out.append(body, at, end - at);
    if (OpensStep(body, at)) {
      if (out.back() != '\n') out += '\n';
      out += MarkLine(steps++);
    }
    at = end;
  }
  if (steps != step_count) {
    throw InternalError("profile: Invoke() opens " + std::to_string(steps) +
                        " steps, the plan has " + std::to_string(step_count));
  }
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out + MarkLine(step_count);
}

std::string ProfileTableText(const std::vector<ProfileStep>& steps) {
  std::string h =
      "#ifdef ARENAPLAN_PROFILE\n"
      "/// One step of Invoke() (an operator or a fused segment), in order:\n"
      "/// ::arenaplan::profile::Mark(s) is called as step s starts and\n"
      "/// Mark(kProfileStepCount) after the last.\n"
      "struct ProfileStep {\n"
      "  const char* operators;  ///< Builtin names, '+' between a "
      "segment's.\n"
      "  std::uint32_t first_operator;  ///< The file's indices, both "
      "included.\n"
      "  std::uint32_t last_operator;\n"
      "  /// Bytes of the constant arrays its lowering emitted (flash; an "
      "array\n"
      "  /// two steps read counts in the first).\n"
      "  std::uint64_t constant_bytes;\n"
      "  /// Sum of the sizes of the kPlan records alive at the step "
      "(bytes).\n"
      "  std::uint64_t live_bytes;\n"
      "};\n" +
      std::string("inline constexpr std::size_t kProfileStepCount = ") +
      std::to_string(steps.size()) +
      ";\ninline constexpr ProfileStep kProfileSteps[] = {\n";
  for (const ProfileStep& p : steps) {
    h += "    {" + StringLiteral(p.operators) + ", " +
         std::to_string(p.first_operator) + ", " +
         std::to_string(p.last_operator) + ", " +
         std::to_string(p.constant_bytes) + ", " +
         std::to_string(p.live_bytes) + "},\n";
  }
  return h + "};\n#endif  // ARENAPLAN_PROFILE\n\n";
}

}  // namespace arenaplan::compile
