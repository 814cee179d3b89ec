// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `arenaplan stack FILE.ci... --root NAME [--external NAME=BYTES]...
// [--indirect NAME=BYTES]... [--recursion NAME=N]... [--header FILE
// --namespace NS --arena-bytes N]`:
// the worst-case stack of one function from the call graphs GCC writes
// with -fstack-usage -fcallgraph-info=su (codegen/stack/, docs/stack.md).
// Prints one line
//   stack ROOT: N bytes (NAME F + NAME F + ...)
// (the worst path, each function with its frame in bytes, " x N" after
// a frame N activations of a bounded recursion repeat) and, with
// --header, writes kStackBytes and kPeakRamBytes (emit/stack_header.hpp).

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "codegen/base/atomic_file.hpp"
#include "codegen/base/errors.hpp"
#include "codegen/cli/commands.hpp"
#include "codegen/emit/stack_header.hpp"
#include "codegen/input/input.hpp"
#include "codegen/stack/bound.hpp"
#include "codegen/stack/call_graph.hpp"

namespace arenaplan {
namespace {

/// Largest .ci file read, bytes (a model's is well under 1 MiB).
constexpr std::uint64_t kMaxCallGraphBytes = std::uint64_t{1} << 28;

struct StackArgs {
  std::vector<std::string> files;
  std::string root;
  std::vector<std::string> external;
  std::vector<std::string> indirect;
  std::vector<std::string> recursion;
  std::string header;
  std::string namespace_name;
  std::optional<std::uint64_t> arena_bytes;
};

/// `NAME=BYTES` of option `option` into `map`.
void ParseStated(const std::vector<std::string>& texts,
                 const std::string& option,
                 std::map<std::string, std::uint64_t, std::less<>>* map) {
  for (const std::string& text : texts) {
    const std::size_t eq = text.rfind('=');
    std::uint64_t bytes = 0;
    const std::string_view digits = eq == std::string::npos
                                        ? std::string_view()
                                        : std::string_view(text).substr(eq + 1);
    const auto [end, ec] =
        std::from_chars(digits.data(), digits.data() + digits.size(), bytes);
    if (eq == 0 || eq == std::string::npos || digits.empty() ||
        ec != std::errc() || end != digits.data() + digits.size()) {
      throw InputError(option + " " + text + ": expected NAME=BYTES");
    }
    if (!map->emplace(text.substr(0, eq), bytes).second) {
      throw InputError(option + " " + text + ": " + text.substr(0, eq) +
                       " given twice");
    }
  }
}

int RunStack(const StackArgs& args) {
  if (!args.header.empty() &&
      (args.namespace_name.empty() || !args.arena_bytes)) {
    throw InputError("--header needs --namespace and --arena-bytes");
  }
  stack::CallGraph graph;
  for (const std::string& file : args.files) {
    stack::ReadCallGraph(ReadInputBytes(file, kMaxCallGraphBytes), file,
                         &graph);
  }
  stack::BoundOptions options;
  options.root = args.root;
  ParseStated(args.external, "--external", &options.external);
  ParseStated(args.indirect, "--indirect", &options.indirect);
  ParseStated(args.recursion, "--recursion", &options.recursion);
  const stack::StackBound bound = stack::BoundStack(graph, options);

  // The path, repeated steps (a bounded recursion) written once with
  // their count: "NAME F x N".
  StackHeaderFigures figures;
  std::string summary;
  for (std::size_t i = 0; i < bound.path.size();) {
    const stack::PathStep& step = bound.path[i];
    std::size_t n = 1;
    while (i + n < bound.path.size() && bound.path[i + n].name == step.name &&
           bound.path[i + n].bytes == step.bytes) {
      ++n;
    }
    const std::string text = step.name + " " + std::to_string(step.bytes) +
                             (n > 1 ? " x " + std::to_string(n) : "") +
                             (step.stated ? " (stated)" : "");
    figures.path.push_back(text);
    summary += (summary.empty() ? "" : " + ") + text;
    i += n;
  }
  if (!args.header.empty()) {
    figures.namespace_name = args.namespace_name;
    figures.root = args.root;
    figures.stack_bytes = bound.bytes;
    figures.arena_bytes = *args.arena_bytes;
    OutputSet files;
    for (const std::string& file : args.files)
      files.KeepUnchanged(file, "FILE");
    files.Add(args.header, EmitStackHeader(figures), "--header");
    files.Commit();
  }
  std::cout << "stack " << args.root << ": " << bound.bytes << " bytes ("
            << summary << ")\n";
  return kExitOk;
}

}  // namespace

void RegisterStackCommand(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<StackArgs>();
  CLI::App* cmd = app.add_subcommand(
      "stack",
      "Bound a function's worst-case stack from GCC's call graphs "
      "(-fstack-usage -fcallgraph-info=su .ci files)");
  cmd->add_option("FILE", args->files, ".ci files of every object")->required();
  cmd->add_option("--root", args->root,
                  "The function bounded: assembler or qualified name")
      ->required();
  cmd->add_option("--external", args->external,
                  "NAME=BYTES: the whole stack of a function no FILE "
                  "defines");
  cmd->add_option("--indirect", args->indirect,
                  "NAME=BYTES: allow NAME's indirect calls, each using at "
                  "most BYTES of stack");
  cmd->add_option("--recursion", args->recursion,
                  "NAME=N: allow recursion through NAME, at most N "
                  "activations of it on one call path");
  cmd->add_option("--header", args->header,
                  "Write kStackBytes and kPeakRamBytes to this header");
  cmd->add_option("--namespace", args->namespace_name,
                  "C++ namespace of the header's constants");
  cmd->add_option("--arena-bytes", args->arena_bytes,
                  "The arena's bytes, for kPeakRamBytes");
  cmd->callback([args, exit_code] { *exit_code = RunStack(*args); });
}

}  // namespace arenaplan
