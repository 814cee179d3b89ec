// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The CSV outputs: a plan (records with offsets) and the records alone. Both
// go through one row writer; fields are written as they are (the CSV reader
// does not unquote), so text that may hold a comma goes through CsvText.
#ifndef ARENAPLAN_CODEGEN_EMIT_CSV_HPP_
#define ARENAPLAN_CODEGEN_EMIT_CSV_HPP_

#include <string>

#include "codegen/planner/planner.hpp"
#include "codegen/records.hpp"

namespace arenaplan {

/// CSV rows in input order: id,lower,upper,size,offset (shared objects add
/// `object`, -1 for zero-size tensors), then the input's extra columns.
/// `upper` is exclusive (last_op + 1); sizes are the aligned sizes.
[[nodiscard]] std::string PlanCsv(const PlanResult& plan);

/// The planner's records CSV: header `id,lower,upper,size,name`, one row per
/// record in order, lower = first_op, upper = last_op + 1 (exclusive), size
/// as given (callers pass sizes already rounded to the alignment they plan
/// with, so that planning the CSV with any alignment that divides it gives
/// the same arena). In names a comma becomes ';' and control characters
/// become ' ' (CsvText).
[[nodiscard]] std::string RecordsCsv(const UsageProblem& problem);

/// `text` as one CSV field the reader reads back as one field: ',' -> ';',
/// control characters -> ' '.
[[nodiscard]] std::string CsvText(std::string text);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_EMIT_CSV_HPP_
