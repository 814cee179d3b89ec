// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The stack header `arenaplan stack --header` writes after the model's code
// is compiled (docs/stack.md): the bound of Invoke()'s stack from the
// compiler's call graphs, and the peak RAM it implies with the arena.
#ifndef ARENAPLAN_CODEGEN_EMIT_STACK_HEADER_HPP_
#define ARENAPLAN_CODEGEN_EMIT_STACK_HEADER_HPP_

#include <cstdint>
#include <string>
#include <vector>

namespace arenaplan {

struct StackHeaderFigures {
  /// C++ namespace of the constants (NamespaceProblem's rules).
  std::string namespace_name;
  /// The function bounded, as the comment names it (e.g. "model::Invoke").
  std::string root;
  /// The bound of the root's stack below the stack pointer at its call,
  /// bytes.
  std::uint64_t stack_bytes = 0;
  /// The arena the root is called with, bytes (kArenaSize, or the sum of
  /// the regions' sizes).
  std::uint64_t arena_bytes = 0;
  /// The worst path, root first: one "NAME: N bytes" line each (any text;
  /// written as comment text).
  std::vector<std::string> path;
};

/// The header text: kStackBytes = stack_bytes and kPeakRamBytes =
/// arena_bytes + stack_bytes (std::size_t) in the namespace, and the path
/// as a comment. Deterministic. Throws InputError ("--namespace 'NAME':
/// why") for a namespace NamespaceProblem refuses, and InputError when the
/// sum does not fit 32 bits (no Cortex-M memory holds it).
[[nodiscard]] std::string EmitStackHeader(const StackHeaderFigures& figures);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_EMIT_STACK_HEADER_HPP_
