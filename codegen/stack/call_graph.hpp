// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The call graph GCC writes with `-fcallgraph-info=su` (one FILE.ci per
// object, in VCG text): a `graph:` line, one `node:` line per function the
// object defines or calls, one `edge:` line per call site, and a closing
// `}`. A defined function's label ends with its frame as -fstack-usage
// reports it ("N bytes (static)", "N bytes (dynamic,bounded)" or "N bytes
// (dynamic)"); a function the object only calls is an ellipse node without
// a frame; every indirect call goes to the node `__indirect_call`.
// GCC emits a constructor (destructor) once, as the base-object one
// ("C2", "D2" in its assembler name), and calls the complete-object one
// ("C1", "D1") through an alias that has no node: such an edge reaches the
// twin. ReadCallGraph adds one file's nodes and edges to a CallGraph, so that
// the graphs of several objects merge into one: a call to a function
// another object defines reaches that object's node (GCC names global
// functions by their assembler name and prefixes local ones with the
// source file's path, so locals of two objects never merge).
#ifndef ARENAPLAN_CODEGEN_STACK_CALL_GRAPH_HPP_
#define ARENAPLAN_CODEGEN_STACK_CALL_GRAPH_HPP_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace arenaplan::stack {

/// The title GCC gives every indirect call's target.
inline constexpr std::string_view kIndirectCall = "__indirect_call";

/// How -fstack-usage qualifies a frame.
enum class FrameKind : std::uint8_t {
  kStatic,   ///< fixed size: the bytes are exact
  kBounded,  ///< "dynamic,bounded": the bytes are GCC's upper bound
  kDynamic,  ///< "dynamic": no bound known (alloca, variable-length array)
};

/// One call site: the callee's node title and where the edge was read.
struct Call {
  std::string callee;
  std::string where;  ///< "FILE.ci:LINE" (LINE 1-based)
};

/// One function (node) of the merged graph.
struct Function {
  std::string title;  ///< GCC's node title (assembler name, maybe prefixed)
  std::string declaration;  ///< the label's first line, e.g. "void f(int)"
  std::string where;        ///< "FILE.ci:LINE" of the node that gave its frame
                            ///< (of its first node when no object defines it)
  bool defined = false;     ///< some object compiled it (has a frame)
  std::uint64_t frame_bytes = 0;  ///< its own frame, bytes (when defined)
  FrameKind kind = FrameKind::kStatic;
  std::vector<Call> calls;  ///< in file order; repeated callees kept
};

/// Every function of the objects read so far, by node title.
struct CallGraph {
  std::map<std::string, Function> functions;
};

/// Adds the nodes and edges of one .ci file's `text` to `graph`; `file`
/// names it in messages. A function defined by several objects (an inline
/// function or template instance each compiled) keeps the largest frame
/// and the calls of every copy. Throws InputError, one line
/// "FILE:LINE: what is wrong", for a line that is not one of the four
/// forms above, a string without its closing quote, a node declared twice
/// in one file, a defined node's label without a frame, an edge from a
/// node the file has not declared before it, or no closing `}`.
void ReadCallGraph(std::string_view text, const std::string& file,
                   CallGraph* graph);

/// The qualified name in `declaration` (the text before its parameter
/// list, without the return type, template arguments kept):
/// "void model::Invoke(int8_t*)" gives "model::Invoke"; a lambda's gets
/// "::<lambda>" after its enclosing function's. The whole text when it has
/// no '('.
[[nodiscard]] std::string QualifiedName(std::string_view declaration);

}  // namespace arenaplan::stack

#endif  // ARENAPLAN_CODEGEN_STACK_CALL_GRAPH_HPP_
