// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#ifndef ARENAPLAN_CODEGEN_CLI_HPP_
#define ARENAPLAN_CODEGEN_CLI_HPP_

namespace arenaplan {

/// Exit statuses of the `arenaplan` command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInternal = 1;  ///< A bug: e.g. a plan failed validation.
inline constexpr int kExitBadInput = 2;  ///< Bad input or usage.
inline constexpr int kExitInfeasible = 3;  ///< No plan fits --capacity.

/// Runs the command line; returns the exit status.
int RunCli(int argc, char** argv);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_CLI_HPP_
