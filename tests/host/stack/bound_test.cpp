// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The worst-case stack (codegen/stack/bound.hpp) of hand-written call
// graphs: every expected bound is the largest sum of frames over the
// paths, derived by hand in the comment beside it.
#include "codegen/stack/bound.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/stack/call_graph.hpp"

namespace arenaplan::stack {
namespace {

/// One .ci text: "name:bytes" defines `name` with a static frame,
/// "name:bytes:dynamic" or ":dynamic,bounded" with that kind, "name" alone
/// declares an external (ellipse) node; `edges` are "from>to" pairs (to
/// may be __indirect_call, declared when used).
std::string Ci(const std::vector<std::string>& nodes,
               const std::vector<std::string>& edges) {
  std::string s = "graph: { title: \"t.cpp\"\n";
  bool indirect = false;
  for (const std::string& n : nodes) {
    const std::size_t c = n.find(':');
    if (c == std::string::npos) {
      s += "node: { title: \"" + n + "\" label: \"void " + n +
           "()\\nt.cpp:1:1\" shape : ellipse }\n";
      continue;
    }
    const std::string name = n.substr(0, c);
    std::string bytes = n.substr(c + 1);
    std::string kind = "static";
    if (const std::size_t k = bytes.find(':'); k != std::string::npos) {
      kind = bytes.substr(k + 1);
      bytes = bytes.substr(0, k);
    }
    s += "node: { title: \"" + name + "\" label: \"void ns::" + name +
         "()\\nt.cpp:1:1\\n" + bytes + " bytes (" + kind + ")\" }\n";
  }
  for (const std::string& e : edges) {
    const std::size_t gt = e.find('>');
    const std::string to = e.substr(gt + 1);
    if (to == "__indirect_call" && !indirect) {
      s += "node: { title: \"__indirect_call\" label: \"Indirect Call "
           "Placeholder\" shape : ellipse }\n";
      indirect = true;
    }
    s += "edge: { sourcename: \"" + e.substr(0, gt) + "\" targetname: \"" + to +
         "\" label: \"t.cpp:9:9\" }\n";
  }
  return s + "}\n";
}

CallGraph Graph(const std::vector<std::string>& nodes,
                const std::vector<std::string>& edges) {
  CallGraph g;
  ReadCallGraph(Ci(nodes, edges), "t.ci", &g);
  return g;
}

std::uint64_t Bound(const CallGraph& g, const std::string& root) {
  BoundOptions o;
  o.root = root;
  return BoundStack(g, o).bytes;
}

std::string ErrorOf(const CallGraph& g, const BoundOptions& o) {
  try {
    (void)BoundStack(g, o);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string ErrorOf(const CallGraph& g, const std::string& root) {
  BoundOptions o;
  o.root = root;
  return ErrorOf(g, o);
}

TEST(StackBound, AddsTheFramesOfAChain) {
  // a -> b -> c: 16 + 24 + 8 = 48.
  const CallGraph g = Graph({"a:16", "b:24", "c:8"}, {"a>b", "b>c"});
  const StackBound s = BoundStack(g, {"a", {}, {}, {}});
  EXPECT_EQ(s.bytes, 48u);
  ASSERT_EQ(s.path.size(), 3u);
  EXPECT_EQ(s.path[0].name, "ns::a");
  EXPECT_EQ(s.path[1].bytes, 24u);
  EXPECT_EQ(s.path[2].name, "ns::c");
  // A leaf alone: its own frame.
  EXPECT_EQ(Bound(g, "c"), 8u);
}

TEST(StackBound, TakesTheDeeperSideOfADiamond) {
  // a -> b -> d and a -> c -> d: 8 + max(100 + 10, 40 + 10) = 118.
  const CallGraph g =
      Graph({"a:8", "b:100", "c:40", "d:10"}, {"a>c", "a>b", "b>d", "c>d"});
  EXPECT_EQ(Bound(g, "a"), 118u);
  // The deeper side is the one with the smaller first frame when its
  // callee is deep: a -> b(4) -> e(200) against a -> c(50):
  // 8 + max(4 + 200, 50) = 212.
  const CallGraph h =
      Graph({"a:8", "b:4", "c:50", "e:200"}, {"a>c", "a>b", "b>e"});
  const StackBound s = BoundStack(h, {"a", {}, {}, {}});
  EXPECT_EQ(s.bytes, 212u);
  ASSERT_EQ(s.path.size(), 3u);
  EXPECT_EQ(s.path[1].name, "ns::b");
}

TEST(StackBound, CountsACalleeOnlyOncePerPath) {
  // a calls b three times, b is not nested: 12 + 20 = 32.
  const CallGraph g = Graph({"a:12", "b:20"}, {"a>b", "a>b", "a>b"});
  EXPECT_EQ(Bound(g, "a"), 32u);
}

TEST(StackBound, RefusesRecursion) {
  const CallGraph g = Graph({"a:8", "b:8", "c:8"}, {"a>b", "b>c", "c>a"});
  // The edges are on lines 5, 6, 7 of t.ci: the one closing the cycle is c>a.
  EXPECT_EQ(ErrorOf(g, "a"),
            "t.ci:7: recursion: ns::a -> ns::b -> ns::c -> ns::a (a "
            "recursive call has no stack bound; state the most activations at "
            "once with --recursion NAME=N)");
  const CallGraph self = Graph({"r:32"}, {"r>r"});
  EXPECT_EQ(ErrorOf(self, "r"),
            "t.ci:3: recursion: ns::r -> ns::r (a recursive call has no "
            "stack bound; state the most activations at once with "
            "--recursion NAME=N)");
  // Recursion no path from the root reaches does not matter: a -> b only.
  const CallGraph apart = Graph({"a:8", "b:4", "r:32"}, {"a>b", "r>r"});
  EXPECT_EQ(Bound(apart, "a"), 12u);
}

TEST(StackBound, BoundsRecursionOfAStatedDepth) {
  // a(8) -> r(20) -> r ..., r -> c(5); at most 3 activations of r:
  // a, r, r, r, c = 8 + 3 x 20 + 5 = 73.
  const CallGraph g = Graph({"a:8", "r:20", "c:5"}, {"a>r", "r>r", "r>c"});
  EXPECT_EQ(BoundStack(g, {"a", {}, {}, {{"r", 3}}}).bytes, 73u);
  EXPECT_EQ(BoundStack(g, {"a", {}, {}, {{"ns::r", 1}}}).bytes, 33u);
  // A cycle of two, p(10) -> q(6) -> p, p at most twice:
  // a(4), p, q, p, q = 4 + 10 + 6 + 10 + 6 = 36.
  const CallGraph two = Graph({"a:4", "p:10", "q:6"}, {"a>p", "p>q", "q>p"});
  EXPECT_EQ(BoundStack(two, {"a", {}, {}, {{"p", 2}}}).bytes, 36u);
  // A statement about another function does not cover r's cycle.
  EXPECT_NE(ErrorOf(g, {"a", {}, {}, {{"c", 3}}}), "");
}

TEST(StackBound, RefusesAnIndirectCallUnlessBounded) {
  const CallGraph g = Graph({"a:8", "b:16"}, {"a>b", "b>__indirect_call"});
  EXPECT_EQ(ErrorOf(g, "a"),
            "t.ci:6: ns::b makes an indirect call, whose stack is unknown "
            "(state a bound with --indirect b=BYTES)");
  // Bounded at 100 bytes: 8 + 16 + 100 = 124; by qualified name too.
  EXPECT_EQ(BoundStack(g, {"a", {}, {{"b", 100}}, {}}).bytes, 124u);
  EXPECT_EQ(BoundStack(g, {"a", {}, {{"ns::b", 100}}, {}}).bytes, 124u);
  // A bound for another function does not cover b's call.
  EXPECT_NE(ErrorOf(g, {"a", {}, {{"a", 100}}, {}}), "");
}

TEST(StackBound, RefusesAnUndefinedFunctionUnlessStated) {
  const CallGraph g = Graph({"a:8", "memcpy"}, {"a>memcpy"});
  EXPECT_EQ(ErrorOf(g, "a"),
            "t.ci:4: calls memcpy, which no call graph given defines (add "
            "its object's .ci file, or state its stack with --external "
            "memcpy=BYTES)");
  // 8 + 24 stated = 32.
  const StackBound s = BoundStack(g, {"a", {{"memcpy", 24}}, {}, {}});
  EXPECT_EQ(s.bytes, 32u);
  ASSERT_EQ(s.path.size(), 2u);
  EXPECT_TRUE(s.path[1].stated);
}

TEST(StackBound, ResolvesACallIntoAnotherObject) {
  // a.ci: f(16) calls memcpy; b.ci defines memcpy(8) calling
  // its local helper h(4): 16 + 8 + 4 = 28. A local h of a.ci with a
  // larger frame is another function.
  CallGraph g;
  ReadCallGraph(
      "graph: { title: \"a.cpp\"\n"
      "node: { title: \"f\" label: \"void f()\\na:1:1\\n16 bytes (static)\" "
      "}\n"
      "node: { title: \"a.cpp:h\" label: \"void h()\\na:2:1\\n400 bytes "
      "(static)\" }\n"
      "node: { title: \"memcpy\" label: \"void* memcpy()\\na:3:1\" shape : "
      "ellipse }\n"
      "edge: { sourcename: \"f\" targetname: \"memcpy\" }\n"
      "}\n",
      "a.ci", &g);
  ReadCallGraph(
      "graph: { title: \"b.cpp\"\n"
      "node: { title: \"memcpy\" label: \"void* memcpy()\\nb:1:1\\n8 bytes "
      "(static)\" }\n"
      "node: { title: \"b.cpp:h\" label: \"void h()\\nb:2:1\\n4 bytes "
      "(static)\" }\n"
      "edge: { sourcename: \"memcpy\" targetname: \"b.cpp:h\" }\n"
      "}\n",
      "b.ci", &g);
  EXPECT_EQ(Bound(g, "f"), 28u);
}

TEST(StackBound, CountsABoundedFrameAndRefusesADynamicOne) {
  // a(8) -> b(64, dynamic,bounded): 72.
  const CallGraph g =
      Graph({"a:8", "b:64:dynamic,bounded", "c:16:dynamic"}, {"a>b"});
  EXPECT_EQ(Bound(g, "a"), 72u);
  const CallGraph h = Graph({"a:8", "c:16:dynamic"}, {"a>c"});
  EXPECT_EQ(ErrorOf(h, "a"),
            "t.ci:3: ns::c: its frame is dynamic without a bound "
            "(-fstack-usage: \"dynamic\"), so no stack bound exists");
}

TEST(StackBound, RefusesACallPathDeeperThanAThousand) {
  // f0 -> f1 -> ... -> fN, each 4 bytes: 1000 functions are bounded
  // (4,000 bytes), 1001 are refused at the edge into the 1001st.
  for (const int n : {1000, 1001}) {
    std::vector<std::string> nodes;
    std::vector<std::string> edges;
    for (int i = 0; i < n; ++i) {
      nodes.push_back("f" + std::to_string(i) + ":4");
      if (i > 0) {
        edges.push_back("f" + std::to_string(i - 1) + ">f" + std::to_string(i));
      }
    }
    const CallGraph g = Graph(nodes, edges);
    if (n == 1000) {
      EXPECT_EQ(Bound(g, "f0"), 4000u);
    } else {
      // The edge f999 > f1000 is line 1 + 1001 + 1000 of t.ci.
      EXPECT_EQ(ErrorOf(g, "f0"),
                "t.ci:2002: a call path deeper than 1000 functions");
    }
  }
}

TEST(StackBound, FindsTheRootByEitherName) {
  const CallGraph g = Graph({"a:8", "b:4"}, {"a>b"});
  EXPECT_EQ(Bound(g, "ns::a"), 12u);
  EXPECT_EQ(ErrorOf(g, "zz"),
            "--root zz: no call graph given defines a function of that name");
  // Two objects' locals of one name: the qualified name is ambiguous.
  CallGraph two;
  for (const char* file : {"x", "y"}) {
    ReadCallGraph(std::string("graph: { title: \"") + file +
                      "\"\nnode: { title: \"" + file +
                      ".cpp:_Z1hv\" label: \"void h()\\nz:1:1\\n4 bytes "
                      "(static)\" }\n}\n",
                  std::string(file) + ".ci", &two);
  }
  EXPECT_EQ(ErrorOf(two, "h"),
            "--root h: 2 functions have that name; give its assembler name");
}

}  // namespace
}  // namespace arenaplan::stack
