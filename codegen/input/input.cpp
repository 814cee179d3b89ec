// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/input/input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <istream>
#include <limits>
#include <memory>
#include <span>
#include <string_view>
#include <unordered_map>

#include "codegen/base/errors.hpp"

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

/// Bytes of user input shown in a message: at most 64 of them (then "..."),
/// control bytes and DEL as \xNN, so a message stays one short line.
std::string Shown(std::string_view text) {
  constexpr std::size_t kMaxShown = 64;
  std::string out;
  const std::size_t n = std::min(text.size(), kMaxShown);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      char esc[5];
      std::snprintf(esc, sizeof esc, "\\x%02x", c);
      out += esc;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (text.size() > kMaxShown) out += "...";
  return out;
}

/// The CSV's lines one by one: each ends at LF, CRLF or a lone CR (the end
/// is not part of the line); the last line may have no end.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}

  /// Sets `line` to the next line; false at the end of the text.
  bool Next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    const std::size_t end = text_.find_first_of("\r\n", pos_);
    if (end == std::string_view::npos) {
      line = text_.substr(pos_);
      pos_ = text_.size();
      return true;
    }
    line = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    if (text_[end] == '\r' && pos_ < text_.size() && text_[pos_] == '\n') {
      ++pos_;
    }
    return true;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string ReadInputBytes(const std::string& path, std::uint64_t limit) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    throw InputError(path + ": cannot open: " + std::strerror(errno));
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  const std::string too_large = path + ": larger than the input limit of " +
                                std::to_string(limit) + " bytes";
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    throw InputError(path + ": cannot read: " + std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) throw InputError(path + ": is a directory");
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > limit) {
    throw InputError(too_large);
  }
  // Reads into blocks of 1 MiB (not zero-filled, never copied while
  // reading), so an endless input costs at most limit + 1 MiB before it is
  // refused; the blocks are joined once the end is reached.
  constexpr std::size_t kBlock = std::size_t{1} << 20;
  std::vector<std::unique_ptr<char[]>> blocks;
  std::uint64_t used = 0;
  std::size_t in_block = kBlock;  // bytes filled in blocks.back()
  while (true) {
    if (in_block == kBlock) {
      blocks.push_back(std::unique_ptr<char[]>(new char[kBlock]));
      in_block = 0;
    }
    const ::ssize_t got =
        ::read(fd, blocks.back().get() + in_block, kBlock - in_block);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw InputError(path + ": read error: " + std::strerror(errno));
    }
    if (got == 0) break;
    in_block += static_cast<std::size_t>(got);
    used += static_cast<std::uint64_t>(got);
    if (used > limit) throw InputError(too_large);
  }
  std::string bytes;
  bytes.reserve(static_cast<std::size_t>(used));
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    bytes.append(blocks[k].get(), k + 1 < blocks.size() ? kBlock : in_block);
    blocks[k].reset();
  }
  return bytes;
}

UsageProblem LoadCsvProblem(const std::string& path) {
  return ParseCsvText(ReadInputBytes(path, kMaxInputBytes), path);
}

UsageProblem ParseCsvProblem(std::istream& in, const std::string& source,
                             std::uint64_t max_bytes, std::size_t max_records) {
  std::string text;
  char chunk[64 * 1024];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    const auto got = static_cast<std::uint64_t>(in.gcount());
    if (text.size() + got > max_bytes) {
      throw InputError(source + ": larger than the input limit of " +
                       std::to_string(max_bytes) + " bytes");
    }
    text.append(chunk, static_cast<std::size_t>(got));
  }
  if (in.bad()) throw InputError(source + ": read error");
  return ParseCsvText(text, source, max_records);
}

namespace {

[[noreturn]] void FailAt(const std::string& path, std::size_t line,
                         const std::string& what) {
  throw InputError(path + ":" + std::to_string(line) + ": " + what);
}

/// Where the header line puts each column.
struct CsvColumns {
  std::size_t count = 0;                  ///< Columns in the header.
  std::array<std::size_t, 4> required{};  ///< id, lower, upper, size.
  std::vector<std::size_t> extra;         ///< Every other column, in order.
  /// The "name" column, if any; SIZE_MAX when none.
  std::size_t name = std::numeric_limits<std::size_t>::max();
};

/// Reads the header `line` (line `line_no` of `path`): column names
/// non-empty and distinct, id, lower, upper and size present. The other
/// columns' names go to problem.extra_columns.
CsvColumns ReadHeader(std::string_view line, const std::string& path,
                      std::size_t line_no, UsageProblem& problem) {
  const std::vector<std::string_view> header = SplitCommas(line);
  constexpr std::string_view kRequired[] = {"id", "lower", "upper", "size"};
  CsvColumns columns;
  columns.count = header.size();
  std::unordered_map<std::string_view, std::size_t> seen;
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (header[c].empty()) FailAt(path, line_no, "empty column name in header");
    if (!seen.emplace(header[c], c).second) {
      FailAt(path, line_no, "column '" + Shown(header[c]) + "' appears twice");
    }
  }
  for (std::size_t k = 0; k < 4; ++k) {
    auto it = seen.find(kRequired[k]);
    if (it == seen.end()) {
      FailAt(path, line_no,
             "missing column '" + std::string(kRequired[k]) +
                 "' (expected header id,lower,upper,size)");
    }
    columns.required[k] = it->second;
  }
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (std::find(columns.required.begin(), columns.required.end(), c) !=
        columns.required.end()) {
      continue;
    }
    if (header[c] == "name") columns.name = c;
    columns.extra.push_back(c);
    problem.extra_columns.emplace_back(header[c]);
  }
  return columns;
}

/// The unsigned decimal `text` (field `what` on line `line_no` of `path`).
std::uint64_t ReadNumber(std::string_view text, std::string_view what,
                         const std::string& path, std::size_t line_no) {
  std::uint64_t value = 0;
  if (text.empty()) FailAt(path, line_no, std::string(what) + " is empty");
  if (text.front() == '-') {
    FailAt(path, line_no,
           std::string(what) + " is negative: '" + Shown(text) + "'");
  }
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range) {
    FailAt(path, line_no,
           std::string(what) + " does not fit 64 bits: '" + Shown(text) + "'");
  }
  if (ec != std::errc() || ptr != end) {
    FailAt(path, line_no,
           std::string(what) + " is not a number: '" + Shown(text) + "'");
  }
  return value;
}

}  // namespace

UsageProblem ParseCsvText(std::string_view text, const std::string& path,
                          std::size_t max_records) {
  auto fail = [&](std::size_t line, const std::string& what) {
    FailAt(path, line, what);
  };

  // A UTF-8 byte order mark (as some spreadsheets write) is not data.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (text.substr(0, kBom.size()) == kBom) text.remove_prefix(kBom.size());
  LineReader lines(text);
  std::string_view line;
  std::size_t line_no = 0;
  // Header: the first non-blank line.
  bool have_header = false;
  while (lines.Next(line)) {
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
  UsageProblem problem;
  problem.source = path;
  const CsvColumns columns = ReadHeader(line, path, line_no, problem);
  auto number = [&](std::string_view field, std::string_view what) {
    return ReadNumber(field, what, path, line_no);
  };

  constexpr std::uint64_t kMaxOp = std::numeric_limits<std::uint32_t>::max();
  std::unordered_map<std::string, std::size_t> id_line;
  std::uint64_t total = 0;
  while (lines.Next(line)) {
    ++line_no;
    if (Trim(line).empty()) continue;
    if (problem.records.size() >= max_records) {
      fail(line_no, "more than " + std::to_string(max_records) + " records");
    }
    const std::vector<std::string_view> fields = SplitCommas(line);
    if (fields.size() != columns.count) {
      fail(line_no, "expected " + std::to_string(columns.count) +
                        " fields as in the header, found " +
                        std::to_string(fields.size()));
    }
    std::string id(fields[columns.required[0]]);
    if (id.empty()) fail(line_no, "id is empty");
    const std::uint64_t lower = number(fields[columns.required[1]], "lower");
    const std::uint64_t upper = number(fields[columns.required[2]], "upper");
    const std::uint64_t size = number(fields[columns.required[3]], "size");
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
      fail(line_no, "duplicate id '" + Shown(id) + "' (first on line " +
                        std::to_string(it->second) + ")");
    }
    TensorUsageRecord r;
    r.first_op = static_cast<std::uint32_t>(lower);
    r.last_op = static_cast<std::uint32_t>(upper - 1);
    r.size = size;
    problem.records.push_back(r);
    problem.ids.push_back(std::move(id));
    problem.names.emplace_back(columns.name < fields.size()
                                   ? fields[columns.name]
                                   : std::string_view());
    std::vector<std::string> extras;
    extras.reserve(columns.extra.size());
    for (std::size_t c : columns.extra) extras.emplace_back(fields[c]);
    problem.extra_values.push_back(std::move(extras));
    problem.operator_count =
        std::max(problem.operator_count, static_cast<std::uint32_t>(upper));
  }
  problem.default_alignment = Alignment();
  return problem;
}

}  // namespace arenaplan
