// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The .ci reader (codegen/stack/call_graph.hpp) on hand-written call graphs
// in GCC's -fcallgraph-info=su form: nodes, frames, merging of objects, and
// a one-line error naming the file and line for each malformed form.
#include "codegen/stack/call_graph.hpp"

#include <gtest/gtest.h>

#include <string>

#include "codegen/base/errors.hpp"

namespace arenaplan::stack {
namespace {

/// The message ReadCallGraph throws for `text` read as "x.ci", or "".
std::string ErrorOf(const std::string& text) {
  CallGraph graph;
  try {
    ReadCallGraph(text, "x.ci", &graph);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CallGraph, ReadsNodesFramesAndCalls) {
  const std::string text =
      "graph: { title: \"a.cpp\"\n"
      "node: { title: \"_Z1fv\" label: \"void ns::f()\\na.cpp:1:6\\n24 bytes "
      "(static)\" }\n"
      "node: { title: \"a.cpp:_Z1gi\" label: \"int g(int)\\na.cpp:2:5\\n8 "
      "bytes (dynamic,bounded)\" }\n"
      "edge: { sourcename: \"_Z1fv\" targetname: \"a.cpp:_Z1gi\" label: "
      "\"a.cpp:1:12\" }\n"
      "node: { title: \"ext\" label: \"void ext()\\na.cpp:3:6\" shape : "
      "ellipse }\n"
      "edge: { sourcename: \"_Z1fv\" targetname: \"ext\" }\n"
      "edge: { sourcename: \"_Z1fv\" targetname: \"ext\" }\n"
      "}\n";
  CallGraph graph;
  ReadCallGraph(text, "a.ci", &graph);
  ASSERT_EQ(graph.functions.size(), 3u);
  const Function& f = graph.functions.at("_Z1fv");
  EXPECT_TRUE(f.defined);
  EXPECT_EQ(f.frame_bytes, 24u);
  EXPECT_EQ(f.kind, FrameKind::kStatic);
  EXPECT_EQ(f.declaration, "void ns::f()");
  EXPECT_EQ(f.where, "a.ci:2");
  ASSERT_EQ(f.calls.size(), 3u);
  EXPECT_EQ(f.calls[0].callee, "a.cpp:_Z1gi");
  EXPECT_EQ(f.calls[0].where, "a.ci:4");
  EXPECT_EQ(f.calls[2].callee, "ext");
  const Function& g = graph.functions.at("a.cpp:_Z1gi");
  EXPECT_EQ(g.frame_bytes, 8u);
  EXPECT_EQ(g.kind, FrameKind::kBounded);
  EXPECT_FALSE(graph.functions.at("ext").defined);
}

TEST(CallGraph, MergesAFunctionOneObjectCallsAndAnotherDefines) {
  CallGraph graph;
  ReadCallGraph(
      "graph: { title: \"a.cpp\"\n"
      "node: { title: \"ext\" label: \"void ext()\\na.cpp:3:6\" shape : "
      "ellipse }\n"
      "}\n",
      "a.ci", &graph);
  ReadCallGraph(
      "graph: { title: \"b.cpp\"\n"
      "node: { title: \"ext\" label: \"void ext()\\nb.cpp:1:6\\n40 bytes "
      "(static)\" }\n"
      "}\n",
      "b.ci", &graph);
  // The same inline function compiled in a third object with a smaller
  // frame: the larger one stays.
  ReadCallGraph(
      "graph: { title: \"c.cpp\"\n"
      "node: { title: \"ext\" label: \"void ext()\\nc.cpp:1:6\\n16 bytes "
      "(static)\" }\n"
      "}\n",
      "c.ci", &graph);
  const Function& ext = graph.functions.at("ext");
  EXPECT_TRUE(ext.defined);
  EXPECT_EQ(ext.frame_bytes, 40u);
  EXPECT_EQ(ext.where, "b.ci:2");
}

TEST(CallGraph, ReachesAConstructorThroughItsAlias) {
  // The call names the complete-object constructor C1, the node is C2.
  const std::string text =
      "graph: { title: \"a.cpp\"\n"
      "node: { title: \"a.cpp:_ZN1SC2Ev\" label: \"S::S()\\na:1:1\\n8 "
      "bytes (static)\" }\n"
      "node: { title: \"_Z1fv\" label: \"void f()\\na:2:1\\n4 bytes "
      "(static)\" }\n"
      "edge: { sourcename: \"_Z1fv\" targetname: \"a.cpp:_ZN1SC1Ev\" }\n"
      "}\n";
  CallGraph graph;
  ReadCallGraph(text, "a.ci", &graph);
  ASSERT_EQ(graph.functions.at("_Z1fv").calls.size(), 1u);
  EXPECT_EQ(graph.functions.at("_Z1fv").calls[0].callee, "a.cpp:_ZN1SC2Ev");
  // Without the twin the edge is refused.
  EXPECT_EQ(ErrorOf("graph: { title: \"a\"\n"
                    "node: { title: \"f\" label: \"f\\nx\\n4 bytes "
                    "(static)\" }\n"
                    "edge: { sourcename: \"f\" targetname: \"_ZN1SC1Ev\" "
                    "}\n}\n"),
            "x.ci:3: edge to _ZN1SC1Ev, which no earlier node declares");
}

TEST(CallGraph, NamesTheQualifiedFunction) {
  EXPECT_EQ(QualifiedName("void model::Invoke(int8_t*)"), "model::Invoke");
  EXPECT_EQ(QualifiedName("constexpr int32_t a::b::C(int32_t, int)"),
            "a::b::C");
  EXPECT_EQ(QualifiedName("void k::F<M<A> >(const P&) [with M = A]"),
            "k::F<M<A> >");
  EXPECT_EQ(QualifiedName("k::F<M<A> >(const P&)::<lambda(int32_t)>"),
            "k::F<M<A> >::<lambda>");
  EXPECT_EQ(QualifiedName("int8_t k::Stage::Leftover(int32_t) const"),
            "k::Stage::Leftover");
  // A member of a class local to model::Invoke is not model::Invoke.
  EXPECT_EQ(QualifiedName("static void model::Invoke(int8_t*)::Rows::Row("
                          "const k::Op&, int8_t*)"),
            "model::Invoke(int8_t*)::Rows::Row");
  EXPECT_EQ(QualifiedName("__aeabi_ldivmod"), "__aeabi_ldivmod");
}

TEST(CallGraph, RefusesMalformedLinesNamingFileAndLine) {
  const std::string head = "graph: { title: \"a.cpp\"\n";
  const std::string f =
      "node: { title: \"f\" label: \"void f()\\na.cpp:1:1\\n8 bytes "
      "(static)\" }\n";
  EXPECT_EQ(ErrorOf(""), "x.ci:1: empty: no call graph");
  EXPECT_EQ(ErrorOf("digraph {\n"),
            "x.ci:1: expected 'graph: {' (a call graph of -fcallgraph-info)");
  EXPECT_EQ(ErrorOf(head + "node: { title: \"f }\n"),
            "x.ci:2: a string without its closing quote");
  EXPECT_EQ(ErrorOf(head + "node: { title: \"f\" label: \"void f()\" }\n"),
            "x.ci:2: node f: its label ends without a frame \"N bytes "
            "(static|dynamic|dynamic,bounded)\" (compile with "
            "-fcallgraph-info=su)");
  EXPECT_EQ(ErrorOf(head + "node: { title: \"f\" label: \"void f()\\nx\\n8 "
                           "bytes (huge)\" }\n"),
            "x.ci:2: node f: its label ends without a frame \"N bytes "
            "(static|dynamic|dynamic,bounded)\" (compile with "
            "-fcallgraph-info=su)");
  EXPECT_EQ(ErrorOf(head + "node: { label: \"void f()\" }\n"),
            "x.ci:2: node without a title");
  EXPECT_EQ(ErrorOf(head + f + f), "x.ci:3: node f declared twice");
  EXPECT_EQ(ErrorOf(head + f +
                    "edge: { sourcename: \"g\" targetname: \"f\" "
                    "}\n"),
            "x.ci:3: edge from g, which no earlier node declares");
  EXPECT_EQ(ErrorOf(head + f +
                    "edge: { sourcename: \"f\" targetname: \"h\" "
                    "}\n"),
            "x.ci:3: edge to h, which no earlier node declares");
  EXPECT_EQ(ErrorOf(head + f + "edge: { sourcename: \"f\" }\n"),
            "x.ci:3: edge without a targetname");
  EXPECT_EQ(ErrorOf(head + f + "node: { title: \"f\"\n"),
            "x.ci:3: no closing '}'");
  EXPECT_EQ(ErrorOf(head + f + "node: { title: \"g\" } x\n"),
            "x.ci:3: text after the closing '}'");
  EXPECT_EQ(ErrorOf(head + f + "vertex: { }\n"),
            "x.ci:3: expected 'node: {', 'edge: {' or '}'");
  EXPECT_EQ(ErrorOf(head + f), "x.ci:2: the graph has no closing '}'");
  EXPECT_EQ(ErrorOf(head + f + "}\n" + f),
            "x.ci:4: text after the graph's "
            "closing '}'");
  EXPECT_EQ(ErrorOf(head + "node: { title: \"f\" title: \"g\" }\n"),
            "x.ci:2: field 'title' given twice");
  EXPECT_EQ(ErrorOf(head + "node: { title: \"f\" label: \"f\" shape : box "
                           "}\n"),
            "x.ci:2: node f: unknown shape 'box'");
  // A frame of 19 digits is not read as a number that could wrap.
  EXPECT_NE(ErrorOf(head + "node: { title: \"f\" label: \"f\\nx\\n"
                           "1234567890123456789 bytes (static)\" }\n}\n"),
            "");
}

}  // namespace
}  // namespace arenaplan::stack
