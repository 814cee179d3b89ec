// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Sub-commands contributed by the generator's parts. cli.cpp calls each
// Register* function once; a sub-command's callback stores its exit status
// in `*exit_code` (see cli.hpp for the values) and reports bad input by
// throwing InputError (cli.cpp prints it as one line and exits 2).
#ifndef ARENAPLAN_CODEGEN_COMMANDS_HPP_
#define ARENAPLAN_CODEGEN_COMMANDS_HPP_

#include <CLI/CLI.hpp>

namespace arenaplan {

/// `records`, `inspect`, `tflm` (codegen/tflite/).
void RegisterTfliteCommands(CLI::App& app, int* exit_code);
/// `zoo`, `paper` (codegen/zoo/).
void RegisterZooCommands(CLI::App& app, int* exit_code);
/// `compile` (codegen/compile/).
void RegisterCompileCommand(CLI::App& app, int* exit_code);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_COMMANDS_HPP_
