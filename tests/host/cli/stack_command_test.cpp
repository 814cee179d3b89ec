// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `arenaplan stack` as a command: the bound of a hand-written call graph
// printed and written as a header a C++17 compiler accepts with the
// hand-derived constants; bad input refused in one line, nothing written.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

namespace fs = std::filesystem;

/// f(16) -> g(24) -> memcpy (another object's, 8) and f -> h(30): the
/// worst path f, g, memcpy is 16 + 24 + 8 = 48 bytes.
constexpr const char* kA =
    "graph: { title: \"a.cpp\"\n"
    "node: { title: \"_Z1fv\" label: \"void m::f()\\na.cpp:1:6\\n16 bytes "
    "(static)\" }\n"
    "node: { title: \"a.cpp:_Z1gv\" label: \"void g()\\na.cpp:2:6\\n24 bytes "
    "(static)\" }\n"
    "node: { title: \"a.cpp:_Z1hv\" label: \"void h()\\na.cpp:3:6\\n30 bytes "
    "(dynamic,bounded)\" }\n"
    "node: { title: \"memcpy\" label: \"void* memcpy()\\na.cpp:4:6\" shape : "
    "ellipse }\n"
    "edge: { sourcename: \"_Z1fv\" targetname: \"a.cpp:_Z1gv\" }\n"
    "edge: { sourcename: \"_Z1fv\" targetname: \"a.cpp:_Z1hv\" }\n"
    "edge: { sourcename: \"a.cpp:_Z1gv\" targetname: \"memcpy\" }\n"
    "}\n";
constexpr const char* kB =
    "graph: { title: \"b.cpp\"\n"
    "node: { title: \"memcpy\" label: \"void* memcpy()\\nb.cpp:1:6\\n8 bytes "
    "(static)\" }\n"
    "}\n";

TEST(StackCommand, PrintsAndWritesTheBound) {
  testing_util::ScopedTempDir dir("arenaplan_stack_cmd_");
  const fs::path a = fs::path(dir.path()) / "a.ci";
  const fs::path b = fs::path(dir.path()) / "b.ci";
  const fs::path header = fs::path(dir.path()) / "m_stack.hpp";
  testing_util::WriteFile(a, kA);
  testing_util::WriteFile(b, kB);
  const auto r = testing_util::RunArenaplan(
      "stack " + a.string() + " " + b.string() +
      " --root m::f --namespace m --arena-bytes 1000 --header " +
      header.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output, "stack m::f: 48 bytes (m::f 16 + g 24 + memcpy 8)\n");
  // kPeakRamBytes = 1000 + 48.
  const fs::path check = fs::path(dir.path()) / "check.cpp";
  testing_util::WriteFile(check,
                          "#include \"m_stack.hpp\"\n"
                          "#include \"m_stack.hpp\"\n"
                          "static_assert(m::kStackBytes == 48, \"\");\n"
                          "static_assert(m::kPeakRamBytes == 1048, \"\");\n");
  const auto c = testing_util::RunCommand(
      testing_util::HostCompileCommand("c++17",
                                       "-fsyntax-only -Wall -Wextra -Werror") +
      "-I" + dir.path() + " " + check.string());
  EXPECT_EQ(c.status, 0) << c.output;
}

TEST(StackCommand, RefusesBadInputInOneLineAndWritesNothing) {
  testing_util::ScopedTempDir dir("arenaplan_stack_cmd_");
  const fs::path a = fs::path(dir.path()) / "a.ci";
  const fs::path header = fs::path(dir.path()) / "m_stack.hpp";
  const std::string tail =
      " --root m::f --namespace m --arena-bytes 1000 --header " +
      header.string();
  // Without b.ci, memcpy is defined nowhere; the call is kA's line 8 (the
  // graph line, four nodes, then the edges f>g, f>h, g>memcpy).
  testing_util::WriteFile(a, kA);
  auto r = testing_util::RunArenaplan("stack " + a.string() + tail);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "arenaplan: " + a.string() +
                          ":8: calls memcpy, which no call graph given "
                          "defines (add its object's .ci file, or state its "
                          "stack with --external memcpy=BYTES)\n");
  // Stated instead: 16 + 24 + 100.
  r = testing_util::RunArenaplan("stack " + a.string() +
                                 " --root m::f --external memcpy=100");
  EXPECT_EQ(r.output,
            "stack m::f: 140 bytes (m::f 16 + g 24 + memcpy 100 "
            "(stated))\n");
  // A malformed line.
  testing_util::WriteFile(a, "graph: { title: \"a\"\nnode: { title: }\n}\n");
  r = testing_util::RunArenaplan("stack " + a.string() + tail);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output, "arenaplan: " + a.string() +
                          ":2: expected a value after 'title:'\n");
  r = testing_util::RunArenaplan("stack " + a.string() +
                                 " --root m::f --external memcpy");
  EXPECT_EQ(r.status, 2);
  EXPECT_FALSE(fs::exists(header));
}

}  // namespace
}  // namespace arenaplan
