// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The sub-commands, one Register* function per file of codegen/cli/.
// cli.cpp calls each once; a sub-command's callback stores its exit status
// in `*exit_code` (kExit* in codegen/base/errors.hpp) and reports bad input by
// throwing InputError (cli.cpp prints it as one line and exits 2).
#ifndef ARENAPLAN_CODEGEN_CLI_COMMANDS_HPP_
#define ARENAPLAN_CODEGEN_CLI_COMMANDS_HPP_

#include <CLI/CLI.hpp>

namespace arenaplan {

/// `plan`, `strategies` (plan_command.cpp).
void RegisterPlanCommands(CLI::App& app, int* exit_code);
/// `records`, `inspect`, `tflm` (model_commands.cpp).
void RegisterModelCommands(CLI::App& app, int* exit_code);
/// `zoo`, `paper` (zoo_commands.cpp).
void RegisterZooCommands(CLI::App& app, int* exit_code);
/// `compile` (compile_command.cpp).
void RegisterCompileCommand(CLI::App& app, int* exit_code);
/// `report` (report_command.cpp).
void RegisterReportCommand(CLI::App& app, int* exit_code);
/// `stack` (stack_command.cpp).
void RegisterStackCommand(CLI::App& app, int* exit_code);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_CLI_COMMANDS_HPP_
