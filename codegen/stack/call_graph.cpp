// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/stack/call_graph.hpp"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codegen/base/errors.hpp"

namespace arenaplan::stack {
namespace {

/// The `key: value` fields of one `node: { ... }` or `edge: { ... }` line.
using Fields = std::map<std::string, std::string, std::less<>>;

/// Reads the fields of `line` after its opening '{' at `at`: keys of
/// lowercase letters, values quoted (backslash escapes '"' and '\\'; any
/// other backslash pair is kept as written, as GCC's "\n" in labels) or a
/// bare word; the line must end with '}'. Throws InputError via `fail`.
template <typename Fail>
Fields ReadFields(std::string_view line, std::size_t at, const Fail& fail) {
  Fields fields;
  auto skip = [&] {
    while (at < line.size() && (line[at] == ' ' || line[at] == '\t')) ++at;
  };
  for (;;) {
    skip();
    if (at >= line.size()) fail("no closing '}'");
    if (line[at] == '}') {
      ++at;
      skip();
      if (at != line.size()) fail("text after the closing '}'");
      return fields;
    }
    std::string key;
    while (at < line.size() && line[at] >= 'a' && line[at] <= 'z') {
      key += line[at++];
    }
    if (key.empty()) fail("expected a field name");
    skip();
    if (at >= line.size() || line[at] != ':') {
      fail("expected ':' after '" + key + "'");
    }
    ++at;
    skip();
    std::string value;
    if (at < line.size() && line[at] == '"') {
      ++at;
      for (;;) {
        if (at >= line.size()) fail("a string without its closing quote");
        const char c = line[at++];
        if (c == '"') break;
        if (c == '\\' && at < line.size()) {
          const char next = line[at++];
          if (next != '"' && next != '\\') value += c;
          value += next;
          continue;
        }
        value += c;
      }
    } else {
      while (at < line.size() && line[at] != ' ' && line[at] != '}') {
        value += line[at++];
      }
      if (value.empty()) fail("expected a value after '" + key + ":'");
    }
    if (!fields.emplace(key, std::move(value)).second) {
      fail("field '" + key + "' given twice");
    }
  }
}

/// Parses "N bytes (KIND)": true and the frame when `text` is one.
bool ParseFrame(std::string_view text, std::uint64_t* bytes, FrameKind* kind) {
  std::size_t i = 0;
  std::uint64_t n = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (i >= 18) return false;  // more than 10^18 bytes: not a frame
    n = n * 10 + static_cast<std::uint64_t>(text[i] - '0');
    ++i;
  }
  if (i == 0) return false;
  const std::string_view rest = text.substr(i);
  if (rest == " bytes (static)") {
    *kind = FrameKind::kStatic;
  } else if (rest == " bytes (dynamic,bounded)") {
    *kind = FrameKind::kBounded;
  } else if (rest == " bytes (dynamic)") {
    *kind = FrameKind::kDynamic;
  } else {
    return false;
  }
  *bytes = n;
  return true;
}

/// The parts of a label separated by GCC's two-character "\n".
std::vector<std::string> LabelParts(const std::string& label) {
  std::vector<std::string> parts;
  std::size_t from = 0;
  for (;;) {
    const std::size_t k = label.find("\\n", from);
    parts.push_back(label.substr(from, k - from));
    if (k == std::string::npos) return parts;
    from = k + 2;
  }
}

/// The value of field `key`, or fail("... no KEY").
template <typename Fail>
const std::string& Need(const Fields& fields, std::string_view what,
                        std::string_view key, const Fail& fail) {
  const auto it = fields.find(key);
  if (it == fields.end() || it->second.empty()) {
    fail(std::string(what) + " without a " + std::string(key));
  }
  return it->second;
}

/// Adds one node line's function to `graph` (merging with another file's
/// node of the same title).
template <typename Fail>
void AddNode(const Fields& fields, const std::string& where, const Fail& fail,
             CallGraph* graph) {
  const std::string& title = Need(fields, "node", "title", fail);
  const std::string& label = Need(fields, "node", "label", fail);
  const auto shape = fields.find("shape");
  const bool ellipse = shape != fields.end() && shape->second == "ellipse";
  if (shape != fields.end() && !ellipse) {
    fail("node " + title + ": unknown shape '" + shape->second + "'");
  }
  const std::vector<std::string> parts = LabelParts(label);
  Function node;
  node.title = title;
  node.declaration = parts.front();
  node.where = where;
  node.defined = parts.size() > 1 &&
                 ParseFrame(parts.back(), &node.frame_bytes, &node.kind);
  if (!node.defined && !ellipse) {
    fail("node " + title +
         ": its label ends without a frame \"N bytes (static|dynamic|"
         "dynamic,bounded)\" (compile with -fcallgraph-info=su)");
  }
  auto [it, added] = graph->functions.emplace(title, node);
  Function& f = it->second;
  if (added || !node.defined) return;
  if (!f.defined || node.frame_bytes > f.frame_bytes ||
      node.kind == FrameKind::kDynamic) {
    f.declaration = node.declaration;
    f.where = node.where;
    f.frame_bytes = std::max(f.frame_bytes, node.frame_bytes);
    f.kind = f.defined && f.kind == FrameKind::kDynamic ? f.kind : node.kind;
    f.defined = true;
  }
}

/// The node an edge to `target` reaches: `target` itself when declared;
/// else, for a complete-object constructor or destructor ("C1E", "D1E" in
/// the assembler name), its base-object twin ("C2E", "D2E"), which GCC
/// emits once and calls through an alias without a node of its own.
std::string CtorAlias(const std::string& target,
                      const std::set<std::string, std::less<>>& declared) {
  if (declared.contains(target)) return target;
  const std::size_t name = target.rfind(':') + 1;  // npos + 1 == 0
  for (const char* marker : {"C1E", "D1E"}) {
    const std::size_t at = target.rfind(marker);
    if (at == std::string::npos || at < name) continue;
    std::string twin = target;
    twin[at + 1] = '2';
    if (declared.contains(twin)) return twin;
  }
  return target;
}

}  // namespace

void ReadCallGraph(std::string_view text, const std::string& file,
                   CallGraph* graph) {
  std::set<std::string, std::less<>> declared;  // node titles of this file
  bool opened = false;
  bool closed = false;
  std::size_t line_number = 0;
  std::size_t from = 0;
  while (from < text.size()) {
    std::size_t end = text.find('\n', from);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(from, end - from);
    from = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::string where = file + ":" + std::to_string(line_number);
    auto fail = [&](const std::string& why) -> void {
      throw InputError(where + ": " + why);
    };
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    if (closed) fail("text after the graph's closing '}'");
    if (!opened) {
      constexpr std::string_view kGraph = "graph: {";
      if (line.substr(0, kGraph.size()) != kGraph) {
        fail("expected 'graph: {' (a call graph of -fcallgraph-info)");
      }
      // The graph's own title line has no closing '}' on it.
      opened = true;
      continue;
    }
    if (line == "}") {
      closed = true;
      continue;
    }
    constexpr std::string_view kNode = "node: {";
    constexpr std::string_view kEdge = "edge: {";
    if (line.substr(0, kNode.size()) == kNode) {
      const Fields fields = ReadFields(line, kNode.size(), fail);
      const std::string& title = Need(fields, "node", "title", fail);
      if (!declared.insert(title).second) {
        fail("node " + title + " declared twice");
      }
      AddNode(fields, where, fail, graph);
    } else if (line.substr(0, kEdge.size()) == kEdge) {
      const Fields fields = ReadFields(line, kEdge.size(), fail);
      const std::string& source = Need(fields, "edge", "sourcename", fail);
      const std::string& target = Need(fields, "edge", "targetname", fail);
      if (!declared.contains(source)) {
        fail("edge from " + source + ", which no earlier node declares");
      }
      const std::string callee = CtorAlias(target, declared);
      if (!declared.contains(callee)) {
        fail("edge to " + target + ", which no earlier node declares");
      }
      graph->functions.find(source)->second.calls.push_back({callee, where});
    } else {
      fail("expected 'node: {', 'edge: {' or '}'");
    }
  }
  if (!opened) {
    throw InputError(file + ":1: empty: no call graph");
  }
  if (!closed) {
    throw InputError(file + ":" + std::to_string(line_number) +
                     ": the graph has no closing '}'");
  }
}

std::string QualifiedName(std::string_view declaration) {
  std::string_view d = declaration.substr(0, declaration.find(" [with "));
  // A lambda's label is its enclosing function's, then "::<lambda(...)>".
  if (const std::size_t lambda = d.find("::<lambda");
      lambda != std::string_view::npos) {
    return QualifiedName(d.substr(0, lambda)) + "::<lambda>";
  }
  // The parameter list: the last parenthesised group (a local class's
  // function names its enclosing function's parameters before it).
  const std::size_t close = d.rfind(')');
  if (close == std::string_view::npos) return std::string(d);
  std::size_t open = close;
  for (int depth = 0;; --open) {
    if (d[open] == ')') ++depth;
    if (d[open] == '(' && --depth == 0) break;
    if (open == 0) return std::string(d);
  }
  // The return type ends at the last blank outside brackets.
  const std::string_view head = d.substr(0, open);
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i < head.size(); ++i) {
    if (head[i] == '<' || head[i] == '(') ++depth;
    if (head[i] == '>' || head[i] == ')') --depth;
    if (head[i] == ' ' && depth == 0) start = i + 1;
  }
  return std::string(head.substr(start));
}

}  // namespace arenaplan::stack
