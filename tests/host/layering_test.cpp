// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The generator's rooms and which of them each may include (see
// docs/architecture.md): every `#include "codegen/..."` of every file under
// codegen/ must point to its own room or to a room its table entry lists,
// and the firmware (core/, kernels/, port/) includes nothing of codegen/.
// A new upward include (say records.hpp including codegen/cli/) fails here
// with the file, the line and the two rooms.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

namespace fs = std::filesystem;

/// One room: the paths it holds (a folder ending in '/', or a file stem
/// such as "codegen/records." for records.hpp and records.cpp) and the rooms
/// it may include besides itself.
struct Room {
  std::string name;
  std::vector<std::string> paths;
  std::vector<std::string> may_include;
};

/// The layering, lowest room first. Data flows one way: readers -> records
/// -> strategies / exact search -> validator -> planner -> emitters; the
/// CLI sits on top and nothing includes it.
const std::vector<Room>& Rooms() {
  static const std::vector<Room> rooms = {
      {"base", {"codegen/base/"}, {}},
      {"records",
       {"codegen/records.", "codegen/records_forced_bound."},
       {"base"}},
      {"input", {"codegen/input/"}, {"base", "records"}},
      {"tflite", {"codegen/tflite/"}, {"base", "records", "input"}},
      {"zoo", {"codegen/zoo/"}, {"base", "records", "input"}},
      {"overlap", {"codegen/overlap/"}, {"base", "records", "input", "tflite"}},
      {"fuse", {"codegen/fuse/"}, {"base", "records", "input", "tflite"}},
      {"scratch", {"codegen/scratch/"}, {"base", "records", "input", "tflite"}},
      {"load",
       {"codegen/load/"},
       {"base", "records", "input", "tflite", "zoo", "overlap", "scratch"}},
      {"solver", {"codegen/solver/"}, {"base", "records"}},
      {"strategies", {"codegen/strategies/"}, {"base", "records", "solver"}},
      {"validator", {"codegen/validator/"}, {"base", "records"}},
      {"trace", {"codegen/trace/"}, {"base", "records"}},
      {"stack", {"codegen/stack/"}, {"base"}},
      {"planner",
       {"codegen/planner/"},
       {"base", "records", "solver", "strategies", "validator"}},
      {"regions",
       {"codegen/regions/"},
       {"base", "records", "solver", "strategies", "validator", "planner"}},
      {"tflm",
       {"codegen/tflm/"},
       {"base", "records", "input", "tflite", "strategies", "planner"}},
      {"emit",
       {"codegen/emit/"},
       {"base", "records", "input", "tflite", "strategies", "validator",
        "planner", "regions", "tflm"}},
      {"compile",
       {"codegen/compile/"},
       {"base", "records", "input", "tflite", "overlap", "scratch", "solver",
        "strategies", "validator", "planner", "regions", "tflm", "emit", "fuse",
        "trace"}},
      {"cli",
       {"codegen/cli/"},
       {"base", "records", "input", "tflite", "zoo", "overlap", "scratch",
        "load", "solver", "strategies", "validator", "planner", "regions",
        "tflm", "emit", "compile", "fuse", "trace", "stack"}},
      {"main", {"codegen/main."}, {"cli"}},
  };
  return rooms;
}

/// The room holding `path` (relative to the source root), or nullptr.
const Room* RoomOf(const std::string& path) {
  const Room* best = nullptr;
  std::size_t best_len = 0;
  for (const Room& room : Rooms()) {
    for (const std::string& prefix : room.paths) {
      if (path.rfind(prefix, 0) == 0 && prefix.size() > best_len) {
        best = &room;
        best_len = prefix.size();
      }
    }
  }
  return best;
}

/// Every way the files under `root` break the layering, one line each:
/// "FILE:LINE: ..." (paths relative to `root`).
std::vector<std::string> LayeringViolations(const fs::path& root) {
  static const std::regex kInclude(R"(^\s*#\s*include\s*"(codegen/[^"]+)\")");
  std::vector<std::string> out;
  for (const char* top : {"codegen", "core", "kernels", "port"}) {
    if (!fs::exists(root / top)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(root / top)) {
      const std::string ext = e.path().extension().string();
      if (e.is_regular_file() &&
          (ext == ".cpp" || ext == ".hpp" || ext == ".h" || ext == ".c")) {
        files.push_back(e.path());
      }
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      const std::string rel = fs::relative(file, root).generic_string();
      const bool firmware = std::string_view(top) != "codegen";
      const Room* from = firmware ? nullptr : RoomOf(rel);
      if (!firmware && from == nullptr) {
        out.push_back(rel +
                      ": in no room (add it to layering_test.cpp and "
                      "docs/architecture.md)");
        continue;
      }
      std::ifstream in(file);
      std::string line;
      for (int line_no = 1; std::getline(in, line); ++line_no) {
        std::smatch m;
        if (!std::regex_search(line, m, kInclude)) continue;
        const std::string target = m[1].str();
        const std::string where = rel + ":" + std::to_string(line_no) + ": ";
        if (firmware) {
          out.push_back(where + "firmware includes " + target);
          continue;
        }
        const Room* to = RoomOf(target);
        if (to == nullptr) {
          out.push_back(where + "includes " + target + ", which is in no room");
        } else if (to != from &&
                   std::find(from->may_include.begin(), from->may_include.end(),
                             to->name) == from->may_include.end()) {
          out.push_back(where + "room '" + from->name + "' includes " + target +
                        " of room '" + to->name + "'");
        }
      }
    }
  }
  return out;
}

TEST(Layering, EveryTableEntryNamesKnownRoomsBelowIt) {
  std::set<std::string> seen;
  for (const Room& room : Rooms()) {
    for (const std::string& lower : room.may_include) {
      EXPECT_TRUE(seen.count(lower)) << room.name << " -> " << lower;
    }
    EXPECT_TRUE(seen.insert(room.name).second) << room.name;
  }
  // Nothing may include the CLI (main.cpp, which only starts it, aside).
  for (const Room& room : Rooms()) {
    if (room.name == "main") continue;
    EXPECT_EQ(std::count(room.may_include.begin(), room.may_include.end(),
                         std::string("cli")),
              0)
        << room.name;
  }
}

TEST(Layering, SourceTreeHasNoUpwardInclude) {
  const std::vector<std::string> bad = LayeringViolations(ARENAPLAN_SOURCE_DIR);
  std::string all;
  for (const std::string& b : bad) all += b + "\n";
  EXPECT_TRUE(bad.empty()) << all;
}

TEST(Layering, ReportsAnUpwardIncludeWithFileLineAndRooms) {
  testing_util::ScopedTempDir tmp("arenaplan_layering_");
  const fs::path root = tmp.path();
  fs::create_directories(root / "codegen/cli");
  fs::create_directories(root / "codegen/emit");
  fs::create_directories(root / "core/include");
  testing_util::WriteFile(root / "codegen/cli/cli.hpp",
                          "#include \"codegen/records.hpp\"\n");
  testing_util::WriteFile(root / "codegen/records.hpp",
                          "// records\n#include <cstdint>\n"
                          "  #  include \"codegen/cli/cli.hpp\"\n");
  testing_util::WriteFile(root / "codegen/emit/svg.cpp",
                          "#include \"codegen/emit/svg.hpp\"\n"
                          "#include \"codegen/planner/planner.hpp\"\n"
                          "  h += \"#include \\\"codegen/cli/cli.hpp\\\"\";\n");
  testing_util::WriteFile(root / "codegen/stray.cpp", "\n");
  testing_util::WriteFile(root / "core/include/x.hpp",
                          "#include \"codegen/records.hpp\"\n");
  const std::vector<std::string> bad = LayeringViolations(root);
  const std::vector<std::string> expected = {
      "codegen/records.hpp:3: room 'records' includes codegen/cli/cli.hpp of "
      "room 'cli'",
      "codegen/stray.cpp: in no room (add it to layering_test.cpp and "
      "docs/architecture.md)",
      "core/include/x.hpp:1: firmware includes codegen/records.hpp"};
  EXPECT_EQ(bad, expected);
}

}  // namespace
}  // namespace arenaplan
