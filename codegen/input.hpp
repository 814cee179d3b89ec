// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Turns an INPUT argument into tensor usage records: a records CSV, a
// .tflite model, or a network of the paper's zoo ("zoo:NAME").
#ifndef ARENAPLAN_CODEGEN_INPUT_HPP_
#define ARENAPLAN_CODEGEN_INPUT_HPP_

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codegen/records.hpp"

namespace arenaplan {

/// Options that change how a model becomes records. Sizes in the returned
/// problem are NOT yet rounded to any alignment: the planner does that.
struct InputOptions {
  /// --fp32: count every tensor as 4-byte elements (the paper's setting).
  bool fp32 = false;
  /// --assume-dim N: the value substituted for dynamic (-1) dimensions.
  std::optional<std::uint64_t> assume_dim;
  /// --scratch OP:BYTES (repeatable): a buffer alive for that one operator.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> scratch;
};

/// Largest input file read, in bytes (1 GiB): larger inputs (and endless
/// ones such as /dev/zero) are refused with an InputError once this many
/// bytes have been read, so memory stays bounded.
inline constexpr std::uint64_t kMaxInputBytes = std::uint64_t{1} << 30;

/// Largest number of records a CSV may hold (10^7 data rows).
inline constexpr std::size_t kMaxInputRecords = 10'000'000;

/// Reads INPUT by its kind: "zoo:NAME", a file starting with the TFLite
/// identifier "TFL3" (at byte 4) or ending in .tflite, else a records CSV.
/// Files are read once (ReadInputBytes, at most kMaxInputBytes) and the
/// kind is decided on the bytes read, so pipes (/dev/stdin, <(...)) work.
/// Throws InputError with a one-line "FILE[:LINE]: what" message.
[[nodiscard]] UsageProblem LoadProblem(const std::string& input,
                                       const InputOptions& options);

/// The whole content of the file at `path` (a regular file, a pipe, a
/// character device...), read once from the start. Throws InputError
/// "PATH: what" when it cannot be opened or read, is a directory, or holds
/// more than `limit` bytes (reading stops there: at most limit + 1 bytes are
/// ever buffered).
[[nodiscard]] std::string ReadInputBytes(const std::string& path,
                                         std::uint64_t limit);

/// The records CSV reader (MiniMalloc's format: header id,lower,upper,size;
/// `upper` exclusive; extra columns allowed, a `name` column is kept). Lines
/// end in LF, CRLF or a lone CR; a leading UTF-8 byte order mark is skipped;
/// at most kMaxInputBytes bytes and kMaxInputRecords records.
[[nodiscard]] UsageProblem LoadCsvProblem(const std::string& path);

/// The same reader over an open stream; `source` names it in messages. The
/// stream is read up to `max_bytes` (more is an error), then parsed.
[[nodiscard]] UsageProblem ParseCsvProblem(
    std::istream& in, const std::string& source,
    std::uint64_t max_bytes = kMaxInputBytes,
    std::size_t max_records = kMaxInputRecords);

/// The same reader over the CSV's bytes.
[[nodiscard]] UsageProblem ParseCsvText(
    std::string_view text, const std::string& source,
    std::size_t max_records = kMaxInputRecords);

/// Implemented in codegen/tflite/ (issue: TFLite reader).
[[nodiscard]] UsageProblem LoadTfliteProblem(const std::string& path,
                                             const InputOptions& options);

/// Implemented in codegen/zoo/ (issue: paper's tables). `name` is without
/// the "zoo:" prefix.
[[nodiscard]] UsageProblem LoadZooProblem(const std::string& name,
                                          const InputOptions& options);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_INPUT_HPP_
