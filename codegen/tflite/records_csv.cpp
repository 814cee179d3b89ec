// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflite/records_csv.hpp"

namespace arenaplan::tflite {

std::string RecordsCsv(const UsageProblem& problem) {
  std::string out = "id,lower,upper,size,name\n";
  for (std::size_t i = 0; i < problem.records.size(); ++i) {
    const TensorUsageRecord& r = problem.records[i];
    std::string name = i < problem.names.size() ? problem.names[i] : "";
    for (char& c : name) {
      if (c == ',') c = ';';
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    }
    out += problem.ids[i] + "," + std::to_string(r.first_op) + "," +
           std::to_string(std::uint64_t{r.last_op} + 1) + "," +
           std::to_string(r.size) + "," + name + "\n";
  }
  return out;
}

}  // namespace arenaplan::tflite
