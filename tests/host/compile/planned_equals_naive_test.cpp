// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// A property of `compile` that needs no oracle: for random graphs
// (tests/host/support/random_graph.hpp), the code compiled in each mode
// (default, --overlap, --fuse) gives, at its planned offsets, the output
// bytes of the same model compiled with every tensor in its own buffer
// (--strategy naive), on the same seeded inputs, each arena pre-filled with
// its own poison. An error or crash of the compiler on a graph the naive
// build accepts, generated code that does not build, and a crash of the
// generated code are failures too; graphs even the naive build refuses
// (InputError) are counted and left out.
//
// How it stays fast: every model is compiled in-process (CompileModel), in
// a child process per unit of graphs (a crash of the compiler is reported,
// not fatal), and each unit's models are built as one translation unit at
// -O0 (the kernels' headers parsed once), two units at a time; one runner
// (planned_equals_naive_runner.cpp) links them all and compares.
//
// Environment: ARENAPLAN_PROPERTY_GRAPHS (graphs; default kDefaultGraphs),
// ARENAPLAN_PROPERTY_FIRST (first seed, default 0), ARENAPLAN_PROPERTY_JOBS
// (units built at once, default 2). A failing graph's .tflite is kept in the
// test's directory (printed, with the command that reproduces it).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/tflite/model.hpp"
#include "tests/host/support/model_builder.hpp"
#include "tests/host/support/random_graph.hpp"
#include "tests/host/support/sanitizers.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

namespace fs = std::filesystem;
using testing_util::CommandResult;
using testing_util::RunCommand;

/// Fewer under the sanitizers: the in-process compiles run slower there.
constexpr std::uint32_t kDefaultGraphs = ARENAPLAN_TEST_ASAN ? 300 : 2000;
constexpr std::uint32_t kGraphsPerUnit = 40;
/// Mode 0 is the reference; 1.. are the modes under test.
constexpr int kModes = 4;
constexpr const char* kModeNames[kModes] = {"naive", "default", "overlap",
                                            "fuse"};
constexpr const char* kModeFlags[kModes] = {"--strategy naive", "", "--overlap",
                                            "--fuse"};

std::uint32_t EnvNumber(const char* name, std::uint32_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0'
             ? static_cast<std::uint32_t>(std::strtoul(v, nullptr, 10))
             : fallback;
}

compile::CompileOptions ModeOptions(int mode, std::uint32_t graph) {
  compile::CompileOptions o;
  char ns[32];
  std::snprintf(ns, sizeof ns, "g%06u_%s", graph, kModeNames[mode]);
  o.namespace_name = ns;
  o.input_sha256 = std::string(64, '0');
  if (mode == 0) o.plan.strategy = "naive";
  if (mode == 2) o.input.overlap = o.plan.overlap = true;
  if (mode == 3) o.fuse = true;
  return o;
}

std::string OneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n') c = ' ';
  }
  return s.substr(0, 300);
}

/// One unit of graphs [first, first + count), built in `dir`/u<index>/.
struct Unit {
  std::uint32_t index, first, count;
  std::set<std::pair<std::uint32_t, int>> crashed;  ///< Skipped on retry.
};

fs::path UnitDir(const fs::path& dir, const Unit& u) {
  return dir / ("u" + std::to_string(u.index));
}

/// Builds the unit's translation unit into unit.o, leaving out models
/// whose code does not build (reported as "build G M first-line").
void BuildUnit(const fs::path& ud, const Unit& u,
               std::vector<std::pair<std::uint32_t, int>> models,
               std::FILE* status) {
  for (int attempt = 0; attempt < 4; ++attempt) {
    std::string tu = "#include \"planned_equals_naive_entry.hpp\"\n";
    std::string table;
    for (const auto& [g, m] : models) {
      const std::string ns = ModeOptions(m, g).namespace_name;
      tu += "#include \"" + ns + "_model.cpp\"\n";
      table += "    PROPERTY_ENTRY(" + ns + ", " + std::to_string(g) + "u, " +
               std::to_string(m) + "),\n";
    }
    if (models.empty()) table = "    {},\n";
    tu += "namespace {\nconst property::Entry kEntries[] = {\n" + table +
          "};\n}  // namespace\nextern const property::Table kTable" +
          std::to_string(u.index) + ";\nconst property::Table kTable" +
          std::to_string(u.index) + " = {kEntries, " +
          std::to_string(models.size()) + "};\n";
    testing_util::WriteFile(ud / "unit.cpp", tu);
    const CommandResult r = RunCommand(
        testing_util::HostCompileCommand("c++17",
                                         "-O0 -DARENAPLAN_NO_ARENA_SECTION",
                                         testing_util::FastHostCxx()) +
        "-I" ARENAPLAN_SOURCE_DIR "/kernels/include -I" ARENAPLAN_SOURCE_DIR
        "/tests/host/compile -I" +
        ud.string() + " -c " + (ud / "unit.cpp").string() + " -o " +
        (ud / "unit.o").string());
    if (r.status == 0) return;
    std::vector<std::pair<std::uint32_t, int>> kept;
    for (const auto& gm : models) {
      const std::string ns = ModeOptions(gm.second, gm.first).namespace_name;
      const std::size_t at = r.output.find(ns + "_");
      if (at == std::string::npos) {
        kept.push_back(gm);
        continue;
      }
      const std::size_t eol = r.output.find('\n', at);
      std::fprintf(status, "build %u %d %s\n", gm.first, gm.second,
                   OneLine(r.output.substr(at, eol - at)).c_str());
    }
    if (kept.size() == models.size()) break;  // No model named: give up.
    models = kept;
  }
  std::fprintf(status, "unitfail %u\n", u.index);
}

/// The child process of one unit: compiles every graph of `u` in every
/// mode (status lines "begin", then "ok G M FUSED", "input G M what",
/// "internal G M what"), then builds the unit. Never returns.
[[noreturn]] void UnitChild(const fs::path& dir, const Unit& u) {
  const fs::path ud = UnitDir(dir, u);
  fs::create_directories(ud);
  std::FILE* status = std::fopen((ud / "status").string().c_str(), "w");
  std::setvbuf(status, nullptr, _IONBF, 0);
  std::vector<std::pair<std::uint32_t, int>> built;
  for (std::uint32_t g = u.first; g < u.first + u.count; ++g) {
    const std::vector<std::uint8_t> bytes =
        testing_util::SerializeModel(testing_util::RandomGraph(g));
    for (int m = 0; m < kModes; ++m) {
      if (u.crashed.count({g, m}) != 0) continue;
      std::fprintf(status, "begin %u %d\n", g, m);
      try {
        const tflite::Model model = tflite::ReadModel(bytes, "graph.tflite");
        const compile::CompiledModel out =
            compile::CompileModel(model, "graph.tflite", ModeOptions(m, g));
        testing_util::WriteFile(ud / out.arena_header_name, out.arena_header);
        testing_util::WriteFile(ud / out.model_header_name, out.model_header);
        testing_util::WriteFile(ud / out.model_source_name, out.model_source);
        const bool fused =
            out.model_source.find("k::RunResolved") != std::string::npos;
        std::fprintf(status, "ok %u %d %d\n", g, m, fused ? 1 : 0);
        built.emplace_back(g, m);
      } catch (const InputError& e) {
        std::fprintf(status, "input %u %d %s\n", g, m,
                     OneLine(e.what()).c_str());
        if (m == 0) break;  // Refused: no reference.
      } catch (const std::exception& e) {
        std::fprintf(status, "internal %u %d %s\n", g, m,
                     OneLine(e.what()).c_str());
      }
    }
  }
  BuildUnit(ud, u, built, status);
  std::fclose(status);
  std::_Exit(0);
}

/// What happened to one graph in one mode.
struct Result {
  std::string kind;  ///< ok, input, internal, crash, build, mismatch, ...
  std::string detail;
  bool fused = false;
};
using Results = std::map<std::pair<std::uint32_t, int>, Result>;

/// Reads a unit's status file into `results`; returns the (graph, mode)
/// begun and not finished, if any ({UINT32_MAX, -1} when none).
std::pair<std::uint32_t, int> ReadStatus(const fs::path& file, Results& results,
                                         bool* unit_failed) {
  std::istringstream in(testing_util::ReadFile(file));
  std::string line;
  std::pair<std::uint32_t, int> open{UINT32_MAX, -1};
  while (std::getline(in, line)) {
    std::istringstream l(line);
    std::string kind;
    std::uint32_t g = 0;
    int m = 0;
    l >> kind >> g;
    if (kind == "unitfail") {
      *unit_failed = true;
      continue;
    }
    l >> m;
    std::string rest;
    std::getline(l, rest);
    if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
    if (kind == "begin") {
      open = {g, m};
      continue;
    }
    if (std::make_pair(g, m) == open) open = {UINT32_MAX, -1};
    Result& r = results[{g, m}];
    if (kind == "ok") {
      r.kind = "ok";
      r.fused = rest == "1";
    } else {
      r.kind = kind;
      r.detail = rest;
    }
  }
  return open;
}

/// Builds every unit, `jobs` child processes at a time; a child that dies
/// leaves its open (graph, mode) a "crash" and the unit is redone without.
void BuildUnits(const fs::path& dir, std::vector<Unit>& units, int jobs,
                Results& results, std::vector<std::uint32_t>& unit_failures) {
  std::map<pid_t, std::size_t> running;
  std::vector<std::size_t> queue;
  for (std::size_t i = units.size(); i > 0; --i) queue.push_back(i - 1);
  std::cout.flush();
  while (!queue.empty() || !running.empty()) {
    while (!queue.empty() && static_cast<int>(running.size()) < jobs) {
      const std::size_t i = queue.back();
      queue.pop_back();
      const pid_t pid = fork();
      if (pid == 0) UnitChild(dir, units[i]);
      ASSERT_GT(pid, 0) << "fork failed";
      running[pid] = i;
    }
    int wstatus = 0;
    const pid_t pid = wait(&wstatus);
    ASSERT_GT(pid, 0) << "wait failed";
    const std::size_t i = running.at(pid);
    running.erase(pid);
    Unit& u = units[i];
    bool unit_failed = false;
    Results partial;
    const auto open =
        ReadStatus(UnitDir(dir, u) / "status", partial, &unit_failed);
    const bool exited = WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0;
    if (!exited && open.second >= 0 && u.crashed.size() < 8) {
      u.crashed.insert(open);
      results[open] = {
          "crash",
          "the compiler died (signal " +
              std::to_string(WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0) +
              ")",
          false};
      queue.push_back(i);
      continue;
    }
    for (auto& [key, r] : partial) {
      if (results[key].kind != "crash") results[key] = r;
    }
    if (!exited || unit_failed) unit_failures.push_back(u.index);
  }
}

/// Links the runner with every unit that built and runs it, restarting
/// past a comparison whose generated code crashed; records mismatches and
/// crashes in `results` and counts the comparisons made per mode.
void RunComparisons(const fs::path& dir, const std::vector<Unit>& units,
                    const std::vector<std::uint32_t>& unit_failures,
                    Results& results, std::map<int, std::uint32_t>& compared) {
  std::string tables, objects;
  std::string list;
  std::size_t count = 0;
  for (const Unit& u : units) {
    bool failed = false;
    for (std::uint32_t f : unit_failures) failed = failed || f == u.index;
    if (failed) continue;
    const std::string t = "kTable" + std::to_string(u.index);
    tables += "extern const property::Table " + t + ";\n";
    list += "&" + t + ", ";
    objects += " " + (UnitDir(dir, u) / "unit.o").string();
    ++count;
  }
  testing_util::WriteFile(
      dir / "tables.cpp",
      "#include \"planned_equals_naive_entry.hpp\"\n" + tables +
          "extern const property::Table* const kTables[] = {" + list +
          "nullptr};\nextern const std::size_t kTableCount = " +
          std::to_string(count) + ";\n");
  const std::string runner = (dir / "runner").string();
  const CommandResult link = RunCommand(
      testing_util::HostCompileCommand("c++17", "-O1",
                                       testing_util::FastHostCxx()) +
      "-I" ARENAPLAN_SOURCE_DIR "/tests/host/compile " ARENAPLAN_SOURCE_DIR
      "/tests/host/compile/planned_equals_naive_runner.cpp " +
      (dir / "tables.cpp").string() + objects + " -o " + runner);
  ASSERT_EQ(link.status, 0) << link.output;
  std::size_t first = 0;
  for (int restarts = 0; restarts < 16; ++restarts) {
    const CommandResult run = RunCommand(runner + " " + std::to_string(first));
    std::istringstream in(run.output);
    std::string line;
    std::pair<std::uint32_t, int> open{UINT32_MAX, -1};
    bool done = false;
    while (std::getline(in, line)) {
      std::istringstream l(line);
      std::string kind;
      l >> kind;
      std::uint32_t g = 0;
      int m = 0;
      if (kind == "run") {
        l >> first >> g >> m;
        open = {g, m};
        ++compared[m];
      } else if (kind == "done") {
        done = true;
      } else if (kind == "shared") {
        l >> g;
        results[{g, 0}] = {"shared", "the naive plan shares bytes", false};
      } else {
        l >> g >> m;
        std::string rest;
        std::getline(l, rest);
        results[{g, m}] = {kind, rest, results[{g, m}].fused};
      }
    }
    if (done && run.status == 0) return;
    if (open.second < 0) {
      ADD_FAILURE() << "runner failed before any comparison:\n" << run.output;
      return;
    }
    results[open] = {"runcrash",
                     "the generated code crashed (runner status " +
                         std::to_string(run.status) + ")",
                     results[open].fused};
    ++first;
  }
  ADD_FAILURE() << "runner crashed 16 times; gave up";
}

/// Writes graph `g`'s model to `dir`/failing/ and prints the failure and
/// how to reproduce it.
void ReportFailure(const fs::path& dir, std::uint32_t g, int m,
                   const Result& r) {
  fs::create_directories(dir / "failing");
  const fs::path model =
      dir / "failing" / ("graph_" + std::to_string(g) + ".tflite");
  const std::vector<std::uint8_t> bytes =
      testing_util::SerializeModel(testing_util::RandomGraph(g));
  testing_util::WriteFile(model, std::string(bytes.begin(), bytes.end()));
  std::string what = r.detail;
  if (r.kind == "mismatch") {
    std::istringstream l(r.detail);
    std::string output, byte, planned, naive;
    l >> output >> byte >> planned >> naive;
    what = "output " + output + " byte " + byte + ": " + planned +
           " at the planned offsets, " + naive + " with the naive plan";
  }
  std::cout << "FAIL graph " << g << " mode " << kModeNames[m] << ": " << r.kind
            << ": " << what << "\n  model: " << model.string()
            << "\n  reproduce: ARENAPLAN_PROPERTY_FIRST=" << g
            << " ARENAPLAN_PROPERTY_GRAPHS=1 ./planned_equals_naive_test"
            << "\n         or: " ARENAPLAN_BINARY " compile " << model.string()
            << " " << kModeFlags[m] << " --out-dir " << (dir / "repro").string()
            << " --namespace m\n";
}

TEST(PlannedEqualsNaive, EveryModeGivesTheNaiveOutputBytes) {
  const std::uint32_t first = EnvNumber("ARENAPLAN_PROPERTY_FIRST", 0);
  const std::uint32_t graphs =
      EnvNumber("ARENAPLAN_PROPERTY_GRAPHS", kDefaultGraphs);
  const int jobs = static_cast<int>(EnvNumber("ARENAPLAN_PROPERTY_JOBS", 2));
  char pattern[] = "/tmp/arenaplan_property_XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const fs::path dir = pattern;
  std::vector<Unit> units;
  for (std::uint32_t at = 0; at < graphs; at += kGraphsPerUnit) {
    units.push_back({static_cast<std::uint32_t>(units.size()),
                     first + at,
                     std::min(kGraphsPerUnit, graphs - at),
                     {}});
  }
  // Found once here, not in every child process.
  std::cout << "compiler: " << testing_util::FastHostCxx() << "\n";
  Results results;
  std::vector<std::uint32_t> unit_failures;
  BuildUnits(dir, units, std::max(jobs, 1), results, unit_failures);
  EXPECT_TRUE(unit_failures.empty())
      << unit_failures.size() << " units did not build (see " << dir.string()
      << ")";
  std::map<int, std::uint32_t> compared;
  RunComparisons(dir, units, unit_failures, results, compared);

  std::set<std::uint32_t> refused;
  std::uint32_t fused = 0;
  std::map<int, std::uint32_t> failures;
  std::map<std::string, std::uint32_t> kinds;
  for (const auto& [key, r] : results) {
    if (key.second == 0 && r.kind == "input") refused.insert(key.first);
    if (key.second == 3 && r.fused) ++fused;
  }
  std::map<int, std::string> failing;  // Graphs per mode, the first 200.
  for (const auto& [key, r] : results) {
    if (r.kind == "ok" || refused.count(key.first) != 0) continue;
    if (failures[key.second]++ < 25)
      ReportFailure(dir, key.first, key.second, r);
    if (failures[key.second] <= 200) {
      failing[key.second] += " " + std::to_string(key.first);
    }
    ++kinds[std::string(kModeNames[key.second]) + " " + r.kind];
  }
  std::cout << graphs << " graphs (seeds " << first << " .. "
            << first + graphs - 1 << "), " << refused.size()
            << " refused by the naive build, " << fused
            << " with a fused segment under --fuse\n";
  for (int m = 1; m < kModes; ++m) {
    std::cout << "  " << kModeNames[m] << ": " << compared[m] << " compared, "
              << failures[m] << " failing\n";
  }
  for (const auto& [k, n] : kinds) std::cout << "  " << n << " x " << k << "\n";
  for (const auto& [m, list] : failing) {
    std::cout << "  failing under " << kModeNames[m] << ":" << list << "\n";
  }
  for (int m = 0; m < kModes; ++m) {
    EXPECT_EQ(failures[m], 0u)
        << kModeNames[m] << " (kept " << dir.string() << ")";
  }
  // Every graph the naive build accepts is compared in every mode, and the
  // graphs exercise what they are meant to.
  for (int m = 1; m < kModes; ++m) {
    EXPECT_GE(compared[m] + failures[m], graphs - refused.size())
        << kModeNames[m];
  }
  EXPECT_LE(refused.size() * 50, graphs) << "more than 2 % refused";
  EXPECT_GE(fused * 5, graphs) << "fewer than 20 % form a fused segment";
  // Only the failing graphs' models are kept (a unit's files are about
  // 3.5 MB), and everything when a unit did not build.
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    if (unit_failures.empty() && e.path().filename() != "failing") {
      fs::remove_all(e.path());
    }
  }
  if (!::testing::Test::HasFailure()) fs::remove_all(dir);
}

}  // namespace
}  // namespace arenaplan
