// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The `--region` option's values (ParseRegion, CheckRegions) and the
// traffic of every record (RecordTraffic); codegen/regions/regions.hpp.
#include <algorithm>
#include <charconv>
#include <limits>
#include <set>
#include <string_view>

#include "codegen/base/errors.hpp"
#include "codegen/base/saturating.hpp"
#include "codegen/regions/regions.hpp"

namespace arenaplan {
namespace {

constexpr std::uint64_t kMaxRegionBytes =
    static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
constexpr std::size_t kMaxNameLength = 64;

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

/// Input-section patterns (ld globs: '*' any run of characters) a section
/// of a region must not match, because the generated regions.ld includes
/// port/cortex_m.ld first and the first rule that matches places the
/// array: every input-section pattern of port/cortex_m.ld, its /DISCARD/
/// ones included (tests/host/regions/regions_test.cpp reads that file and
/// checks that each is here), then names the toolchain gives a meaning
/// (link-once, notes, debugging, unwinding, constructors, thread-local
/// data, the runtime's stack and heap).
constexpr const char* kTakenSections[] = {
    // port/cortex_m.ld
    ".vectors", ".text", ".text.*", ".rodata", ".rodata.*", ".init_array.*",
    ".init_array", ".ARM.exidx*", ".gnu.linkonce.armexidx.*", ".data",
    ".data.*", ".bss", ".bss.*", ".arena", ".arena.*", ".note.GNU-stack",
    ".comment",
    // the toolchain's
    ".ARM", ".ARM.*", ".gnu*", ".note*", ".comment*", ".debug*", ".stab*",
    ".line", ".eh_frame*", ".gcc_except_table*", ".fini_array*",
    ".preinit_array*", ".init", ".fini", ".ctors*", ".dtors*", ".tdata*",
    ".tbss*", ".got*", ".plt*", ".rel.*", ".rela.*", ".interp", ".dynamic",
    ".dynsym", ".dynstr", ".hash", ".stack*", ".heap*", ".noinit*"};

/// Whether `text` matches the ld glob `pattern` ('*': any characters).
bool GlobMatches(std::string_view pattern, std::string_view text) {
  const std::size_t star = pattern.find('*');
  if (star == std::string_view::npos) return pattern == text;
  if (text.substr(0, star) != pattern.substr(0, star)) return false;
  const std::string_view rest = pattern.substr(star + 1);
  for (std::size_t k = star; k <= text.size(); ++k) {
    if (GlobMatches(rest, text.substr(k))) return true;
  }
  return false;
}

}  // namespace

const char* TakenBy(const std::string& section) {
  for (const char* pattern : kTakenSections) {
    if (GlobMatches(pattern, section)) return pattern;
  }
  return nullptr;
}

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
    if (const char* rule = TakenBy(spec.section)) {
      throw InputError(what + ": SECTION " + spec.section +
                       " is placed by the toolchain or port/cortex_m.ld (" +
                       rule + "); name a section of the region's memory");
    }
  }
  return spec;
}

void CheckRegions(const std::vector<RegionSpec>& regions) {
  if (regions.empty()) throw InputError("--region: no region given");
  // Names name memories (run/run.sh writes them in capitals): unique
  // whatever their case.
  std::set<std::string> names;
  std::set<std::string> sections;
  for (const RegionSpec& r : regions) {
    std::string folded = r.name;
    std::transform(folded.begin(), folded.end(), folded.begin(), [](char c) {
      return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
    });
    if (!names.insert(folded).second) {
      throw InputError("--region " + r.name +
                       ": the name is given twice (names are compared "
                       "without regard to case)");
    }
    if (!sections.insert(r.section).second) {
      throw InputError("--region " + r.name + ": section " + r.section +
                       " is given twice");
    }
  }
  // One region plans the one arena of a plan without regions, in the
  // section ARENAPLAN_ARENA_SECTION gives: a SECTION of its own would be
  // ignored, so it is refused.
  if (regions.size() == 1 &&
      regions.front().section != ".arena_" + regions.front().name) {
    throw InputError("--region " + regions.front().name +
                     ": one region is the arena of a plan without regions "
                     "(its section is ARENAPLAN_ARENA_SECTION's); give no "
                     "SECTION, or two or more regions");
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

}  // namespace arenaplan
