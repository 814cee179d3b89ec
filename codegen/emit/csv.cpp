// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/emit/csv.hpp"

#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace arenaplan {
namespace {

/// Appends comma-separated rows to a string.
class CsvWriter {
 public:
  /// Starts a row or, within one, adds a field after a comma.
  CsvWriter& operator<<(std::string_view field) {
    if (in_row_) text_ += ',';
    text_ += field;
    in_row_ = true;
    return *this;
  }
  CsvWriter& operator<<(std::uint64_t value) {
    return *this << std::string_view(std::to_string(value));
  }
  CsvWriter& operator<<(std::int64_t value) {
    return *this << std::string_view(std::to_string(value));
  }
  void EndRow() {
    text_ += '\n';
    in_row_ = false;
  }
  [[nodiscard]] std::string Take() { return std::move(text_); }

 private:
  std::string text_;
  bool in_row_ = false;
};

/// The columns both CSVs start with; `upper` exclusive.
void WriteRecord(CsvWriter& csv, const std::string& id,
                 const TensorUsageRecord& r) {
  csv << id << std::uint64_t{r.first_op} << std::uint64_t{r.last_op} + 1
      << r.size;
}

}  // namespace

std::string CsvText(std::string text) {
  for (char& c : text) {
    if (c == ',') c = ';';
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return text;
}

std::string PlanCsv(const PlanResult& plan) {
  const UsageProblem& p = plan.problem;
  const bool objects = plan.approach == Approach::kSharedObjects;
  CsvWriter csv;
  csv << "id"
      << "lower"
      << "upper"
      << "size"
      << "offset";
  if (objects) csv << "object";
  for (const std::string& c : p.extra_columns) csv << c;
  csv.EndRow();
  for (std::size_t i = 0; i < p.records.size(); ++i) {
    WriteRecord(csv, p.ids[i], p.records[i]);
    csv << plan.offsets[i];
    if (objects) csv << plan.object_of[i];
    if (i < p.extra_values.size()) {
      for (const std::string& v : p.extra_values[i]) csv << v;
    }
    csv.EndRow();
  }
  return csv.Take();
}

std::string RecordsCsv(const UsageProblem& problem) {
  CsvWriter csv;
  csv << "id"
      << "lower"
      << "upper"
      << "size"
      << "name";
  csv.EndRow();
  for (std::size_t i = 0; i < problem.records.size(); ++i) {
    WriteRecord(csv, problem.ids[i], problem.records[i]);
    csv << CsvText(i < problem.names.size() ? problem.names[i] : "");
    csv.EndRow();
  }
  return csv.Take();
}

}  // namespace arenaplan
