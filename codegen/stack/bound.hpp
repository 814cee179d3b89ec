// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The worst-case stack of one function from a merged call graph
// (call_graph.hpp): the largest sum of frames over every call path from
// the root, the root's own frame included. On Arm (and every target whose
// call instruction keeps the return address in a register or inside the
// callee's frame, as GCC's -fstack-usage counts it), that sum is the
// stack the root uses below the stack pointer at its call. A tail call
// counts as a call (the sum is then an over-estimate by the caller's
// frame). Refused, with a one-line InputError naming the .ci file and
// line: recursion (a path that reaches a function already on it) unless
// every cycle passes a function whose most activations are stated, an
// indirect call from a function without a stated bound, a call to a
// function no object defines and no stated bound covers, a frame GCC
// reports as "dynamic" (unbounded). A "dynamic,bounded" frame counts as
// GCC's bound.
#ifndef ARENAPLAN_CODEGEN_STACK_BOUND_HPP_
#define ARENAPLAN_CODEGEN_STACK_BOUND_HPP_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "codegen/stack/call_graph.hpp"

namespace arenaplan::stack {

struct BoundOptions {
  /// The function bounded: a node title ("_ZN5model6InvokeEPa", without
  /// the "FILE:" prefix GCC gives local functions) or the qualified name
  /// of its declaration ("model::Invoke"); exactly one node may match.
  std::string root;
  /// Functions no object defines (e.g. a library's), by node title: the
  /// whole stack each uses, its callees included, bytes.
  std::map<std::string, std::uint64_t, std::less<>> external;
  /// Functions whose indirect calls are allowed, by node title or
  /// qualified name: the whole stack of any callee reached through one of
  /// them, bytes.
  std::map<std::string, std::uint64_t, std::less<>> indirect;
  /// Recursive functions allowed, by node title or qualified name: the
  /// most activations of each one call path holds at once (the caller
  /// proves it, e.g. a schedule that recurses once per operator of a
  /// segment). A path that would enter one more time is not counted; a
  /// cycle through no function named here is still refused.
  std::map<std::string, std::uint64_t, std::less<>> recursion;
};

/// One step of the worst path.
struct PathStep {
  std::string name;         ///< the qualified name (or title) of the callee
  std::uint64_t bytes = 0;  ///< its frame, or the stated bound
  bool stated = false;      ///< bytes come from BoundOptions, not GCC
};

struct StackBound {
  std::uint64_t bytes = 0;     ///< the worst-case stack of the root, bytes
  std::vector<PathStep> path;  ///< a path that needs `bytes`, root first
};

/// The worst-case stack of options.root in `graph` (see the file comment).
/// Time O((F + C) x D) for F functions and C calls reachable from the root
/// and D the product of (stated depth + 1) over options.recursion.
[[nodiscard]] StackBound BoundStack(const CallGraph& graph,
                                    const BoundOptions& options);

}  // namespace arenaplan::stack

#endif  // ARENAPLAN_CODEGEN_STACK_BOUND_HPP_
