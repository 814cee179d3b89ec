// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The `arenaplan` command line: parses every sub-command and calls down into
// the pipeline (readers, planner, emitters, compiler). Nothing under codegen/
// includes this room; exit statuses are in codegen/base/errors.hpp.
#ifndef ARENAPLAN_CODEGEN_CLI_CLI_HPP_
#define ARENAPLAN_CODEGEN_CLI_CLI_HPP_

namespace arenaplan {

/// Runs the command line; returns the exit status (kExit* in errors.hpp).
int RunCli(int argc, char** argv);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_CLI_CLI_HPP_
