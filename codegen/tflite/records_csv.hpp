// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#ifndef ARENAPLAN_CODEGEN_TFLITE_RECORDS_CSV_HPP_
#define ARENAPLAN_CODEGEN_TFLITE_RECORDS_CSV_HPP_

#include <string>

#include "codegen/records.hpp"

namespace arenaplan::tflite {

/// The planner's records CSV: header `id,lower,upper,size,name`, one row per
/// record in order, lower = first_op, upper = last_op + 1 (exclusive), size
/// as given (callers pass sizes already rounded to the alignment they plan
/// with, so that planning the CSV with any alignment that divides it gives
/// the same arena). The CSV reader does not unquote, so in names a comma
/// becomes ';' and control characters become ' '.
[[nodiscard]] std::string RecordsCsv(const UsageProblem& problem);

}  // namespace arenaplan::tflite

#endif  // ARENAPLAN_CODEGEN_TFLITE_RECORDS_CSV_HPP_
