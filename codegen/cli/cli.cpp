// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The `arenaplan` command line: one CLI11 app with every sub-command
// (registered by the other files of this room), and the one place where
// errors become a line on stderr and an exit status.
#include "codegen/cli/cli.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <new>

#include "codegen/base/errors.hpp"
#include "codegen/cli/commands.hpp"
#include "codegen/emit/cpp_text.hpp"

namespace arenaplan {

int RunCli(int argc, char** argv) {
  CLI::App app{
      "arenaplan: plans every activation tensor of a neural network into one "
      "static arena (Pisarchyk & Lee, 2019)",
      "arenaplan"};
  app.require_subcommand(1);
  int exit_code = kExitOk;

  RegisterPlanCommands(app, &exit_code);
  RegisterModelCommands(app, &exit_code);
  RegisterZooCommands(app, &exit_code);
  RegisterCompileCommand(app, &exit_code);
  RegisterReportCommand(app, &exit_code);
  RegisterStackCommand(app, &exit_code);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return kExitOk;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return kExitOk;
  } catch (const CLI::CallForVersion&) {
    std::cout << "arenaplan 0.1\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    std::cerr << "arenaplan: " << TerminalText(e.what())
              << " (see 'arenaplan --help')\n";
    return kExitBadInput;
  } catch (const InputError& e) {
    std::cerr << "arenaplan: " << TerminalText(e.what()) << '\n';
    return kExitBadInput;
  } catch (const InfeasibleError& e) {
    std::cerr << "arenaplan: " << TerminalText(e.what()) << '\n';
    return kExitInfeasible;
  } catch (const InternalError& e) {
    std::cerr << "arenaplan: " << TerminalText(e.what()) << '\n';
    return kExitInternal;
  } catch (const std::bad_alloc&) {
    std::cerr << "arenaplan: out of memory\n";
    return kExitInternal;
  } catch (const std::exception& e) {
    std::cerr << "arenaplan: internal error: " << TerminalText(e.what())
              << '\n';
    return kExitInternal;
  }
  return exit_code;
}

}  // namespace arenaplan
