// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/input.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <istream>
#include <limits>
#include <sstream>
#include <string_view>
#include <unordered_map>

#include "codegen/errors.hpp"

namespace arenaplan {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

std::vector<std::string_view> SplitCommas(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) {
      fields.push_back(Trim(line.substr(start)));
      return fields;
    }
    fields.push_back(Trim(line.substr(start, comma - start)));
    start = comma + 1;
  }
}

}  // namespace

UsageProblem LoadCsvProblem(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(path + ": cannot open: " + std::strerror(errno));
  }
  return ParseCsvProblem(in, path);
}

UsageProblem ParseCsvProblem(std::istream& in, const std::string& path) {
  auto fail = [&](std::size_t line, const std::string& what) {
    throw InputError(path + ":" + std::to_string(line) + ": " + what);
  };

  std::string line;
  std::size_t line_no = 0;
  // Header: the first non-blank line.
  bool have_header = false;
  while (std::getline(in, line)) {
    ++line_no;
    if (!Trim(line).empty()) {
      have_header = true;
      break;
    }
  }
  if (!have_header) {
    throw InputError(path +
                     ": empty file (expected header id,lower,upper,size)");
  }
  const std::vector<std::string_view> header = SplitCommas(line);
  constexpr std::string_view kRequired[] = {"id", "lower", "upper", "size"};
  std::size_t column[4];
  std::vector<std::size_t> extra_index;
  UsageProblem problem;
  problem.source = path;
  std::size_t name_column = std::numeric_limits<std::size_t>::max();
  {
    std::unordered_map<std::string_view, std::size_t> seen;
    for (std::size_t c = 0; c < header.size(); ++c) {
      if (header[c].empty()) fail(line_no, "empty column name in header");
      if (!seen.emplace(header[c], c).second) {
        fail(line_no, "column '" + std::string(header[c]) + "' appears twice");
      }
    }
    for (std::size_t k = 0; k < 4; ++k) {
      auto it = seen.find(kRequired[k]);
      if (it == seen.end()) {
        fail(line_no, "missing column '" + std::string(kRequired[k]) +
                          "' (expected header id,lower,upper,size)");
      }
      column[k] = it->second;
    }
    for (std::size_t c = 0; c < header.size(); ++c) {
      if (c == column[0] || c == column[1] || c == column[2] ||
          c == column[3]) {
        continue;
      }
      if (header[c] == "name") name_column = c;
      extra_index.push_back(c);
      problem.extra_columns.emplace_back(header[c]);
    }
  }

  auto number = [&](std::string_view text, std::string_view what) {
    std::uint64_t value = 0;
    if (text.empty()) fail(line_no, std::string(what) + " is empty");
    if (text.front() == '-') {
      fail(line_no,
           std::string(what) + " is negative: '" + std::string(text) + "'");
    }
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec == std::errc::result_out_of_range) {
      fail(line_no, std::string(what) + " does not fit 64 bits: '" +
                        std::string(text) + "'");
    }
    if (ec != std::errc() || ptr != end) {
      fail(line_no,
           std::string(what) + " is not a number: '" + std::string(text) + "'");
    }
    return value;
  };

  constexpr std::uint64_t kMaxOp = std::numeric_limits<std::uint32_t>::max();
  std::unordered_map<std::string, std::size_t> id_line;
  std::uint64_t total = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (Trim(line).empty()) continue;
    const std::vector<std::string_view> fields = SplitCommas(line);
    if (fields.size() != header.size()) {
      fail(line_no, "expected " + std::to_string(header.size()) +
                        " fields as in the header, found " +
                        std::to_string(fields.size()));
    }
    std::string id(fields[column[0]]);
    if (id.empty()) fail(line_no, "id is empty");
    const std::uint64_t lower = number(fields[column[1]], "lower");
    const std::uint64_t upper = number(fields[column[2]], "upper");
    const std::uint64_t size = number(fields[column[3]], "size");
    if (upper <= lower) {
      fail(line_no, "upper (" + std::to_string(upper) +
                        ") must exceed lower (" + std::to_string(lower) + ")");
    }
    if (upper > kMaxOp) {
      fail(line_no, "upper (" + std::to_string(upper) + ") exceeds " +
                        std::to_string(kMaxOp));
    }
    if (size > std::numeric_limits<std::uint64_t>::max() - total) {
      fail(line_no, "sizes sum past 2^64 bytes");
    }
    total += size;
    if (auto [it, fresh] = id_line.emplace(id, line_no); !fresh) {
      fail(line_no, "duplicate id '" + id + "' (first on line " +
                        std::to_string(it->second) + ")");
    }
    TensorUsageRecord r;
    r.first_op = static_cast<std::uint32_t>(lower);
    r.last_op = static_cast<std::uint32_t>(upper - 1);
    r.size = size;
    problem.records.push_back(r);
    problem.ids.push_back(std::move(id));
    problem.names.emplace_back(
        name_column < fields.size() ? fields[name_column] : std::string_view());
    std::vector<std::string> extras;
    extras.reserve(extra_index.size());
    for (std::size_t c : extra_index) extras.emplace_back(fields[c]);
    problem.extra_values.push_back(std::move(extras));
    problem.operator_count =
        std::max(problem.operator_count, static_cast<std::uint32_t>(upper));
  }
  if (in.bad()) fail(line_no, "read error");
  problem.default_alignment = Alignment();
  return problem;
}

}  // namespace arenaplan
