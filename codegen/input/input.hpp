// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The records CSV reader, and the options every model reader takes
// (codegen/tflite/, codegen/zoo/). codegen/load/ picks the reader for an
// INPUT argument.
#ifndef ARENAPLAN_CODEGEN_INPUT_INPUT_HPP_
#define ARENAPLAN_CODEGEN_INPUT_INPUT_HPP_

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
  /// --kernel-scratch (models): one record per scratch buffer of
  /// arenaplan's compiled kernels, as compile plans them
  /// (codegen/scratch/kernel_scratch.hpp); compile always sets it.
  bool kernel_scratch = false;
  /// --overlap: fill UsageProblem::overlaps from the kernels' overlap
  /// contracts (models only).
  bool overlap = false;
  /// Models: compute constant operators and fold the graph first
  /// (codegen/tflite/fold_model.hpp); --no-fold clears it.
  bool fold = true;
};

/// Largest input file read, in bytes (1 GiB): larger inputs (and endless
/// ones such as /dev/zero) are refused with an InputError once this many
/// bytes have been read, so memory stays bounded.
inline constexpr std::uint64_t kMaxInputBytes = std::uint64_t{1} << 30;

/// Largest number of records a CSV may hold (10^7 data rows).
inline constexpr std::size_t kMaxInputRecords = 10'000'000;

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

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_INPUT_INPUT_HPP_
