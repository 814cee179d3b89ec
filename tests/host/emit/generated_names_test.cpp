// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Names the user or the model chooses: namespaces that would not compile
// (macros of the standard headers, macros compilers predefine, `main`,
// reserved identifiers, parts that hide ::std or ::arenaplan) are refused by
// `plan --header` and `compile` with exit 2; include guards of different
// namespaces never collide; `compile --stem` takes only file-name-safe text;
// `inspect` prints no raw terminal control bytes from a model.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/emit/cpp_text.hpp"
#include "codegen/emit/header.hpp"
#include "tests/host/support/test_util.hpp"
#include "tests/host/support/tiny_plan.hpp"

namespace arenaplan {
namespace {

namespace fs = std::filesystem;
using testing_util::CommandResult;
using testing_util::HostCxx;
using testing_util::ReadFile;
using testing_util::RunCommand;
using testing_util::ScopedTempDir;
using testing_util::WriteFile;

const std::string kModel =
    std::string(ARENAPLAN_SHARED_DIR) + "/models/hello_world_int8.tflite";

const auto Cli = testing_util::RunArenaplan;

/// Namespaces that give a header that does not compile (or that silently
/// means something else) with g++ -std=gnu++17 on Linux.
const std::vector<std::string> kBadNamespaces = {
    "NULL",    "SIZE_MAX",     "INT8_C",    "UINT32_MAX", "PTRDIFF_MAX",
    "main",    "linux",        "unix",      "i386",       "offsetof",
    "a::std",  "a::arenaplan", "a::std::b", "std",        "arenaplan",
    "_model",  "a::_Big",      "a__b",      "__x",        "class",
    "a::NULL", "m::main"};

TEST(Namespace, RefusesMacrosKeywordsMainAndHidingParts) {
  for (const std::string& ns : kBadNamespaces) {
    EXPECT_NE(NamespaceProblem(ns), "") << ns;
    HeaderOptions options;
    options.namespace_name = ns;
    EXPECT_THROW((void)EmitHeader(testing_util::TinyPlan(), options),
                 InputError)
        << ns;
  }
  for (const std::string ns :
       {"model", "Model", "a_b", "a::b", "boards::person_detect_v2", "m2",
        "Null", "size_max_model"}) {
    EXPECT_EQ(NamespaceProblem(ns), "") << ns;
  }
}

// The names above do break the generated code: a header for each, compiled
// by g++ in GNU mode (linux, unix and i386 are macros there), fails; with
// the check, `plan --header` exits 2 naming the namespace and writes
// nothing.
TEST(Namespace, PlanHeaderAndCompileExitTwoOnEachRefusedName) {
  ScopedTempDir dir("arenaplan_names_");
  ASSERT_FALSE(dir.path().empty());
  for (const std::string& ns : kBadNamespaces) {
    const std::string header = dir.path() + "/h.hpp";
    const CommandResult plan =
        Cli("plan " + kModel + " --assume-dim 1 --header " + header +
            " --namespace '" + ns + "'");
    EXPECT_EQ(plan.status, 2) << ns << ": " << plan.output;
    EXPECT_NE(plan.output.find("--namespace '" + ns + "'"), std::string::npos)
        << plan.output;
    EXPECT_EQ(std::count(plan.output.begin(), plan.output.end(), '\n'), 1)
        << plan.output;
    EXPECT_FALSE(fs::exists(header)) << ns;
    const CommandResult compile =
        Cli("compile " + kModel + " --assume-dim 1 --out-dir " + dir.path() +
            "/c --namespace '" + ns + "'");
    EXPECT_EQ(compile.status, 2) << ns << ": " << compile.output;
    EXPECT_FALSE(fs::exists(dir.path() + "/c")) << ns;
  }
}

// Each refused name really breaks a header: the check is not arbitrary.
// (The header made with a valid namespace and then renamed textually.)
TEST(Namespace, RefusedNamesDoNotCompile) {
  ScopedTempDir dir("arenaplan_names_");
  ASSERT_FALSE(dir.path().empty());
  HeaderOptions options;
  options.namespace_name = "placeholder_ns";
  const std::string header = EmitHeader(testing_util::TinyPlan(), options);
  for (const std::string ns : {"NULL", "SIZE_MAX", "main", "linux", "unix",
                               "a::std", "a::arenaplan"}) {
    std::string text = header;
    for (std::size_t at;
         (at = text.find("placeholder_ns")) != std::string::npos;) {
      text.replace(at, 14, ns);
    }
    WriteFile(dir.path() + "/h.hpp", text);
    WriteFile(dir.path() + "/use.cpp",
              "#include \"h.hpp\"\nint main() { return 0; }\n");
    const CommandResult cc = RunCommand(
        testing_util::HostCompileCommand("gnu++17", "-fsyntax-only") +
        dir.path() + "/use.cpp");
    EXPECT_NE(cc.status, 0) << ns;
  }
}

// model/Model and a_b/a::b upper-case to the same letters; their headers
// must still be usable in one translation unit.
TEST(IncludeGuard, DiffersForNamesThatUpperCaseAlike) {
  EXPECT_NE(IncludeGuard("G_", "model"), IncludeGuard("G_", "Model"));
  EXPECT_NE(IncludeGuard("G_", "a_b"), IncludeGuard("G_", "a::b"));
  EXPECT_EQ(IncludeGuard("G_", "a::b"), IncludeGuard("G_", "a::b"));
  ScopedTempDir dir("arenaplan_guard_");
  ASSERT_FALSE(dir.path().empty());
  std::string use;
  for (const std::string ns : {"model", "Model", "a_b", "a::b"}) {
    HeaderOptions options;
    options.namespace_name = ns;
    std::string file = ns;
    std::replace(file.begin(), file.end(), ':', '_');
    file += ns == "a::b" ? "_nested.hpp" : ".hpp";
    if (ns == "Model") file = "Model_upper.hpp";
    WriteFile(dir.path() + "/" + file,
              EmitHeader(testing_util::TinyPlan(), options));
    use += "#include \"" + file + "\"\n";
  }
  use +=
      "static_assert(model::kArenaSize == Model::kArenaSize);\n"
      "static_assert(a_b::kTensorCount == a::b::kTensorCount);\n";
  WriteFile(dir.path() + "/use.cpp", use);
  const CommandResult cc =
      RunCommand(testing_util::HostCompileCommand("c++17", "-fsyntax-only") +
                 dir.path() + "/use.cpp");
  EXPECT_EQ(cc.status, 0) << cc.output;
}

TEST(CompileStem, RefusesTextThatIsNotAFileNameStem) {
  ScopedTempDir dir("arenaplan_stem_");
  ASSERT_FALSE(dir.path().empty());
  for (const std::string stem :
       {"a\\\"b", "a/b", "..", "-x", "a b", "a\\\\", "x\\$(id)"}) {
    const CommandResult r =
        Cli("compile " + kModel + " --assume-dim 1 --namespace m --out-dir " +
            dir.path() + "/o --stem \"" + stem + "\"");
    EXPECT_EQ(r.status, 2) << stem << ": " << r.output;
    EXPECT_FALSE(fs::exists(dir.path() + "/o")) << stem;
  }
  const CommandResult ok =
      Cli("compile " + kModel + " --assume-dim 1 --namespace m --out-dir " +
          dir.path() + "/o --stem hello.v2-x_y");
  EXPECT_EQ(ok.status, 0) << ok.output;
}

// A tensor name holding ESC [ 2 J (clear screen) and an OSC title
// sequence: inspect prints it escaped.
TEST(Inspect, EscapesControlBytesOfNames) {
  std::string bytes = ReadFile(kModel);
  const std::string name = "serving_default_dense_input:0";
  const std::size_t at = bytes.find(name);
  ASSERT_NE(at, std::string::npos);
  // Same length, so the flatbuffer stays valid.
  const std::string hostile = "\x1b[2J\x1b]0;pwn\x07\x9b\r\n";
  bytes.replace(at, hostile.size(), hostile);
  ScopedTempDir dir("arenaplan_inspect_");
  ASSERT_FALSE(dir.path().empty());
  WriteFile(dir.path() + "/m.tflite", bytes);
  const CommandResult r =
      Cli("inspect " + dir.path() + "/m.tflite --assume-dim 1");
  ASSERT_EQ(r.status, 0) << r.output;
  for (char c : r.output) {
    const auto u = static_cast<unsigned char>(c);
    EXPECT_TRUE(u == '\n' || (u >= 0x20 && u < 0x7f)) << int{u};
  }
  EXPECT_NE(r.output.find("\\x1b[2J\\x1b]0;pwn\\x07\\x9b\\x0d\\x0a"),
            std::string::npos)
      << r.output;
}

TEST(TerminalText, KeepsUtf8AndEscapesControlsIdempotently) {
  EXPECT_EQ(TerminalText("caf\xc3\xa9 \\ ok"), "caf\xc3\xa9 \\ ok");
  EXPECT_EQ(TerminalText("\x1b[0m\n\xc2\x9b\xff"),
            "\\x1b[0m\\x0a\\xc2\\x9b\\xff");
  for (int v = 0; v < 256; ++v) {
    const std::string once = TerminalText(std::string(1, static_cast<char>(v)));
    EXPECT_EQ(TerminalText(once), once) << v;
  }
}

}  // namespace
}  // namespace arenaplan
