// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Runs the built `arenaplan` binary as a user would.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/input/input.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/validator/validator.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

namespace fs = std::filesystem;

using CliRun = testing_util::CommandResult;

/// Runs the built CLI with `args`; output holds stdout and stderr together.
const auto Arenaplan = testing_util::RunArenaplan;

class CliTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& contents) {
    const std::string path = dir_ + "/" + name;
    testing_util::WriteFile(path, contents);
    return path;
  }
  static std::string Read(const std::string& path) {
    return testing_util::ReadFile(path);
  }
  testing_util::ScopedTempDir tmp_{"arenaplan_cli_"};
  const std::string dir_ = tmp_.path();
};

const char kExample[] =
    ARENAPLAN_SHARED_DIR "/benchmarks/minimalloc-challenging/example.12.csv";

TEST_F(CliTest, PlansACsvAndWritesAValidPlan) {
  const std::string out = dir_ + "/plan.csv";
  const CliRun r = Arenaplan(std::string("plan ") + kExample + " --out " + out);
  ASSERT_EQ(r.status, 0) << r.output;
  // Read the written plan back and check it with the validator.
  const UsageProblem problem = LoadCsvProblem(kExample);
  std::istringstream csv(Read(out));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "id,lower,upper,size,offset");
  std::vector<std::uint64_t> offsets;
  std::uint64_t arena = 0;
  for (std::size_t i = 0; std::getline(csv, line); ++i) {
    ASSERT_LT(i, problem.records.size());
    const std::uint64_t off = std::stoull(line.substr(line.rfind(',') + 1));
    EXPECT_EQ(line.substr(0, line.find(',')), problem.ids[i]);
    offsets.push_back(off);
    arena = std::max(arena, off + problem.records[i].size);
  }
  EXPECT_TRUE(ValidateOffsets(problem.records, offsets, arena, 1).ok());
  // MiniMalloc's example fits in its stated capacity of 12 bytes, which is
  // also its max breadth (b3 + b5 + b1 or b2 = 12): any optimal plan is 12.
  EXPECT_GE(arena, 12u);
}

TEST_F(CliTest, PrintsJsonWithTheContractKeys) {
  const CliRun r = Arenaplan(std::string("plan ") + kExample + " --json");
  ASSERT_EQ(r.status, 0) << r.output;
  for (const char* key :
       {"\"arena_bytes\":", "\"lower_bound\":12", "\"naive_bytes\":20",
        "\"strategy\":", "\"approach\":\"offsets\"", "\"tensors\":5",
        "\"plan_ms\":"}) {
    EXPECT_NE(r.output.find(key), std::string::npos)
        << key << " in " << r.output;
  }
}

TEST_F(CliTest, ReportsASpentWorkCapAndOnlyThen) {
  // 9,000 dense records (every interval from two random operators): Alg. 3
  // would examine about n^2 / 2 = 4 * 10^7 placed records, above the cap of
  // 2^24 + 16 * 9000 * 14 = 1.88 * 10^7 (work_cap.hpp).
  std::string dense = "id,lower,upper,size\n";
  std::uint64_t state = 12345;
  const auto next = [&state](std::uint64_t mod) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return (state >> 33) % mod;
  };
  for (int i = 0; i < 9000; ++i) {
    std::uint64_t a = next(9000);
    std::uint64_t b = next(9000);
    if (a > b) std::swap(a, b);
    dense += std::to_string(i) + "," + std::to_string(a) + "," +
             std::to_string(b + 1) + "," +
             std::to_string(16 * (1 + next(4096))) + "\n";
  }
  const std::string path = Write("dense.csv", dense);
  const CliRun text = Arenaplan("plan " + path + " --strategy greedy-by-size");
  ASSERT_EQ(text.status, 0) << text.output;
  EXPECT_NE(text.output.find("capped:      greedy-by-size spent its work cap "
                             "after "),
            std::string::npos)
      << text.output;
  const CliRun json =
      Arenaplan("plan " + path + " --strategy greedy-by-size --json");
  ASSERT_EQ(json.status, 0);
  const std::size_t at = json.output.find("\"capped_after\":");
  ASSERT_NE(at, std::string::npos);
  const std::uint64_t after = std::stoull(json.output.substr(at + 15));
  EXPECT_GT(after, 0u);
  EXPECT_LT(after, 9000u);
  // The MiniMalloc example is far below the cap: no line, no key.
  const CliRun small = Arenaplan(std::string("plan ") + kExample +
                                 " --strategy greedy-by-size --json");
  EXPECT_EQ(small.output.find("capped"), std::string::npos);
}

TEST_F(CliTest, PrintsOneTableRowPerStrategy) {
  const CliRun list = Arenaplan("strategies --approach shared-objects");
  ASSERT_EQ(list.status, 0);
  const CliRun r = Arenaplan(std::string("plan ") + kExample +
                             " --strategy all --approach shared-objects");
  ASSERT_EQ(r.status, 0) << r.output;
  std::istringstream names(list.output);
  std::string name;
  int rows = 0;
  while (names >> name) {
    EXPECT_NE(r.output.find("\n" + name + " "), std::string::npos) << name;
    ++rows;
  }
  EXPECT_GE(rows, 1);
  const CliRun json =
      Arenaplan(std::string("plan ") + kExample + " --strategy all --json");
  ASSERT_EQ(json.status, 0);
  EXPECT_EQ(json.output.front(), '[');
}

TEST_F(CliTest, PlansHeaderOnlyFileAsZeroBytes) {
  const std::string in = Write("empty.csv", "id,lower,upper,size\n");
  const CliRun r = Arenaplan("plan " + in + " --json");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\"arena_bytes\":0,"), std::string::npos) << r.output;
}

TEST_F(CliTest, ZeroSizeTensorsTakeNoSpace) {
  // By hand: a and b (4 B each) share op 0, z is empty: arena 8.
  const std::string in =
      Write("z.csv", "id,lower,upper,size\na,0,1,4\nb,0,1,4\nz,0,1,0\n");
  const CliRun r = Arenaplan("plan " + in + " --json");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\"arena_bytes\":8,"), std::string::npos) << r.output;
}

TEST_F(CliTest, AlignsSizesAndOffsets) {
  // By hand: sizes 5 and 3 round up to 16 each, both live at op 0: 32.
  const std::string in =
      Write("a.csv", "id,lower,upper,size\na,0,1,5\nb,0,1,3\n");
  const CliRun r = Arenaplan("plan " + in + " --align 16 --json");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\"arena_bytes\":32,"), std::string::npos)
      << r.output;
  EXPECT_EQ(Arenaplan("plan " + in + " --align 12").status, 2);
}

TEST_F(CliTest, BadInputExitsTwoWithOneLineAndLeavesOutputUntouched) {
  const std::string out = Write("keep.csv", "precious\n");
  const std::string bad =
      Write("bad.csv", "id,lower,upper,size\na,0,1,4\nb,2,1,4\n");
  const CliRun r = Arenaplan("plan " + bad + " --out " + out);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.output,
            "arenaplan: " + bad + ":3: upper (1) must exceed lower (2)\n");
  EXPECT_EQ(Read(out), "precious\n");
  // No temporary file is left behind either.
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir_))
    files += e.is_regular_file();
  EXPECT_EQ(files, 2);
}

TEST_F(CliTest, MissingFileAndBadUsageExitTwo) {
  const CliRun missing = Arenaplan("plan " + dir_ + "/nope.csv");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.output.find("nope.csv: cannot open"), std::string::npos);
  EXPECT_EQ(Arenaplan(std::string("plan ") + kExample + " --strategy nonesuch")
                .status,
            2);
  EXPECT_EQ(Arenaplan(std::string("plan ") + kExample + " --approach sideways")
                .status,
            2);
  EXPECT_EQ(Arenaplan("plan").status, 2);
  EXPECT_EQ(Arenaplan("frobnicate").status, 2);
  EXPECT_EQ(
      Arenaplan(std::string("plan ") + kExample + " --strategy all --out x.csv")
          .status,
      2);
}

TEST_F(CliTest, WritesObjectColumnForSharedObjects) {
  const std::string out = dir_ + "/so.csv";
  const CliRun r = Arenaplan(std::string("plan ") + kExample +
                             " --approach shared-objects --out " + out);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(Read(out).substr(0, Read(out).find('\n')),
            "id,lower,upper,size,offset,object");
}

TEST_F(CliTest, ListsEveryStrategyNameOnceALine) {
  const CliRun all = Arenaplan("strategies");
  ASSERT_EQ(all.status, 0);
  std::istringstream lines(all.output);
  std::vector<std::string> names;
  for (std::string line; std::getline(lines, line);) names.push_back(line);
  // The paper's strategies and the prior work it compares against (§6).
  for (const char* want :
       {"greedy-by-size", "greedy-by-size-improved", "greedy-by-breadth",
        "greedy-in-order", "strip-packing-best-fit", "min-cost-flow",
        "naive"}) {
    EXPECT_EQ(std::count(names.begin(), names.end(), want), 1) << want;
  }
  const CliRun offsets = Arenaplan("strategies --approach offsets");
  EXPECT_EQ(offsets.output.find("min-cost-flow"), std::string::npos);
  EXPECT_NE(offsets.output.find("strip-packing-best-fit\n"), std::string::npos);
}

TEST_F(CliTest, CompileCreatesTheOutDirWithItsParents) {
  const std::string out = dir_ + "/not/yet/there";
  ASSERT_FALSE(fs::exists(dir_ + "/not"));
  const CliRun r = Arenaplan("compile " ARENAPLAN_SHARED_DIR
                             "/models/hello_world_int8.tflite"
                             " --assume-dim 1 --namespace hw --out-dir " +
                             out);
  ASSERT_EQ(r.status, 0) << r.output;
  for (const char* f : {"hw_arena.hpp", "hw_model.hpp", "hw_model.cpp"}) {
    EXPECT_TRUE(fs::is_regular_file(out + "/" + f)) << f;
  }
}

TEST_F(CliTest, CompileCreatesNoOutDirWhenTheModelIsRefused) {
  // The model has an operator no kernel supports: exit 2, nothing created.
  const std::string out = dir_ + "/not/yet/there";
  const CliRun r = Arenaplan(
      "compile " ARENAPLAN_SHARED_DIR
      "/corpus/tflm_audio_preprocessor_int8.tflite --namespace fd "
      "--out-dir " +
      out);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_FALSE(fs::exists(dir_ + "/not"));
}

TEST_F(CliTest, CompileRefusesAnOutDirThatIsAFile) {
  const std::string file = Write("occupied", "x");
  const CliRun r = Arenaplan("compile " ARENAPLAN_SHARED_DIR
                             "/models/hello_world_int8.tflite"
                             " --assume-dim 1 --namespace hw --out-dir " +
                             file + "/sub");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--out-dir " + file + "/sub"), std::string::npos)
      << r.output;
  EXPECT_EQ(Read(file), "x");
}

TEST_F(CliTest, PlanWritesNoOutputWhenAnyOutputIsRefused) {
  // --svg names a directory: exit 2, and --out and --header keep their old
  // contents (they used to be replaced before the directory was found).
  const std::string out = Write("a.csv", "old csv\n");
  const std::string header = Write("a.hpp", "old header\n");
  fs::create_directory(dir_ + "/d");
  const CliRun r = Arenaplan(std::string("plan ") + kExample + " --out " + out +
                             " --header " + header + " --svg " + dir_ + "/d/");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(r.output, "arenaplan: --svg " + dir_ +
                          "/d/: is a directory; only regular files are "
                          "replaced\n");
  EXPECT_EQ(Read(out), "old csv\n");
  EXPECT_EQ(Read(header), "old header\n");
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir_))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"a.csv", "a.hpp", "d"}));
}

TEST_F(CliTest, TflmWritesNeitherFileWhenTheShimIsRefused) {
  const std::string out = Write("planned.tflite", "old model");
  fs::create_directory(dir_ + "/shim.hpp");
  const CliRun r = Arenaplan("tflm " ARENAPLAN_SHARED_DIR
                             "/models/hello_world_int8.tflite --assume-dim 1"
                             " --out " +
                             out + " --shim " + dir_ + "/shim.hpp");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(Read(out), "old model");
}

TEST_F(CliTest, CompileWritesNoFileWhenOneOfItsThreeIsRefused) {
  const std::string arena = Write("hw_arena.hpp", "old arena");
  fs::create_directory(dir_ + "/hw_model.cpp");
  const CliRun r = Arenaplan("compile " ARENAPLAN_SHARED_DIR
                             "/models/hello_world_int8.tflite"
                             " --assume-dim 1 --namespace hw --out-dir " +
                             dir_);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(Read(arena), "old arena");
  EXPECT_FALSE(fs::exists(dir_ + "/hw_model.hpp"));
}

TEST_F(CliTest, TwoOptionsNamingOneFileAreAnError) {
  const std::string x = dir_ + "/x";
  fs::create_directory_symlink(dir_, dir_ + "/same");
  for (const std::string& second : {x, dir_ + "/./x", dir_ + "/same/x"}) {
    const CliRun r = Arenaplan(std::string("plan ") + kExample + " --out " + x +
                               " --header " + second);
    EXPECT_EQ(r.status, 2) << second << ": " << r.output;
    EXPECT_EQ(r.output, "arenaplan: --out " + x + " and --header " + second +
                            ": name the same file; give each output its own\n");
    EXPECT_FALSE(fs::exists(x));
  }
}

TEST_F(CliTest, OutRefusesAFifoAndASymlinkAndKeepsTheMode) {
  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  const std::string target = Write("target", "kept\n");
  const std::string link = dir_ + "/link";
  fs::create_symlink(target, link);
  for (const auto& [path, words] :
       {std::pair<std::string, std::string>{fifo, "is a FIFO"},
        {link, "is a symbolic link (not followed)"}}) {
    const CliRun r =
        Arenaplan(std::string("plan ") + kExample + " --out " + path);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_EQ(r.output, "arenaplan: --out " + path + ": " + words +
                            "; only regular files are replaced\n");
  }
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_EQ(Read(target), "kept\n");
  // A 0600 file stays 0600 when replaced.
  const std::string secret = Write("secret.csv", "old\n");
  ASSERT_EQ(chmod(secret.c_str(), 0600), 0);
  const CliRun r =
      Arenaplan(std::string("plan ") + kExample + " --out " + secret);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(Read(secret), "old\n");
  EXPECT_EQ(fs::status(secret).permissions(),
            fs::perms::owner_read | fs::perms::owner_write);
}

const char kHelloWorld[] =
    ARENAPLAN_SHARED_DIR "/models/hello_world_int8.tflite";

/// True when `output` is one line and names `option`.
bool OneLineNaming(const std::string& output, const std::string& option) {
  return std::count(output.begin(), output.end(), '\n') == 1 &&
         output.find(option) != std::string::npos;
}

TEST_F(CliTest, NegativeAndOutOfRangeNumbersExitTwo) {
  const std::string ex = kExample;
  const std::string hw = kHelloWorld;
  const std::string q = " --out " + dir_ + "/q";
  const std::pair<std::string, std::string> cases[] = {
      {"plan " + ex + " --capacity -1", "--capacity"},
      {"plan " + ex + " --capacity 18446744073709551616", "--capacity"},
      {"plan " + ex + " --align -16", "--align"},
      {"plan " + ex + " --align 0", "--align"},
      {"plan " + ex + " --align 24", "--align"},
      {"plan " + ex + " --time-limit nan", "--time-limit"},
      {"plan " + ex + " --time-limit inf", "--time-limit"},
      {"plan " + ex + " --time-limit -1", "--time-limit"},
      {"plan " + hw + " --assume-dim 0", "--assume-dim"},
      {"plan " + hw + " --assume-dim -1", "--assume-dim"},
      {"records " + hw + " --assume-dim 1 --align -16", "--align"},
      {"inspect " + hw + " --assume-dim 0", "--assume-dim"},
      {"tflm " + hw + " --assume-dim 1 --time-limit nan" + q, "--time-limit"},
      {"tflm " + hw + " --assume-dim 1 --align -16" + q, "--align"},
      {"compile " + hw + " --assume-dim 0 --namespace q --out-dir " + dir_,
       "--assume-dim"},
      {"compile " + hw +
           " --assume-dim 1 --align -16 --namespace q --out-dir " + dir_,
       "--align"},
  };
  for (const auto& [args, option] : cases) {
    const CliRun r = Arenaplan(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.output;
    EXPECT_TRUE(OneLineNaming(r.output, option)) << args << ": " << r.output;
    // A negative number is not reported wrapped around 2^64.
    if (args.find("18446744073709551616") == std::string::npos) {
      EXPECT_EQ(r.output.find("1844674407370955"), std::string::npos)
          << args << ": " << r.output;
    }
  }
  EXPECT_FALSE(fs::exists(dir_ + "/q"));
  EXPECT_FALSE(fs::exists(dir_ + "/q_model.cpp"));
  // Zero seconds is a limit (no search), not an error.
  EXPECT_EQ(Arenaplan("plan " + ex + " --time-limit 0").status, 0);
}

/// The help line of `option` in `help` (from "  --option" to the line's
/// end); empty when the command has no such option.
std::string HelpLine(const std::string& help, const std::string& option) {
  const std::size_t at = help.find("\n  " + option + " ");
  if (at == std::string::npos) return "";
  const std::size_t end = help.find('\n', at + 1);
  return help.substr(at + 1, end - at - 1);
}

// Options that several commands take are registered once: the same help
// line wherever they appear.
TEST_F(CliTest, SharedOptionsHaveOneHelpText) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> shared = {
      {"--align", {"plan", "compile", "records", "inspect", "tflm"}},
      {"--assume-dim", {"plan", "compile", "records", "inspect", "tflm"}},
      {"--fp32", {"plan", "records", "inspect", "tflm"}},
      {"--scratch", {"plan", "records", "inspect", "tflm"}},
      {"--overlap", {"plan", "compile"}},
      {"--region", {"plan", "compile"}},
      {"--region-search", {"plan", "compile"}}};
  for (const auto& [option, commands] : shared) {
    std::string first;
    for (const std::string& command : commands) {
      const CliRun r = Arenaplan(command + " --help");
      ASSERT_EQ(r.status, 0) << r.output;
      const std::string line = HelpLine(r.output, option);
      ASSERT_FALSE(line.empty()) << command << " has no " << option;
      if (first.empty()) first = line;
      EXPECT_EQ(line, first) << command << " " << option;
    }
  }
}

// --overlap goes with --region (it was refused), and --region-search
// takes greedy or exact, in plan and compile alike.
TEST_F(CliTest, PlanAndCompileRefuseTheSameRegionOptions) {
  const std::string hw =
      std::string(ARENAPLAN_SHARED_DIR) + "/models/hello_world_int8.tflite";
  const std::string compile =
      "compile " + hw + " --assume-dim 1 --namespace q --out-dir " + dir_;
  for (const std::string& command : {"plan " + hw, compile}) {
    CliRun r =
        Arenaplan(command + " --overlap --region a:4096 --region b:65536");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(r.output.find("exclude each other"), std::string::npos)
        << r.output;
    r = Arenaplan(command + " --region a:4096 --region-search best");
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find("--region-search best: expected greedy or exact"),
              std::string::npos)
        << r.output;
  }
}

// Operator names of 24 characters and more (UNIDIRECTIONAL_SEQUENCE_LSTM,
// 28; the custom SignalFilterBankSquareRoot, 26) stay apart from the first
// input index: each row reads back as index, name, the model's inputs.
TEST_F(CliTest, InspectKeepsLongOperatorNamesApartFromTheInputs) {
  for (const char* file :
       {"tflm_mnist_lstm_int8.tflite", "tflm_audio_preprocessor_int8.tflite"}) {
    const std::string path =
        std::string(ARENAPLAN_SHARED_DIR) + "/corpus/" + file;
    const tflite::Model model = tflite::ReadModelFile(path);
    const CliRun r = Arenaplan("inspect " + path + " --assume-dim 1");
    ASSERT_EQ(r.status, 0) << r.output;
    std::istringstream lines(r.output);
    std::string line;
    while (std::getline(lines, line) && line != "operators (step = index):") {
    }
    std::getline(lines, line);  // Column titles.
    bool long_name = false;
    for (const tflite::Operator& op : model.subgraphs[0].operators) {
      ASSERT_TRUE(std::getline(lines, line));
      const std::string name = op.builtin_code == tflite::BuiltinOp::kCustom
                                   ? op.custom_code
                                   : op.builtin_name;
      long_name = long_name || name.size() >= 24;
      std::istringstream row(line);
      std::string index, shown, first_input;
      row >> index >> shown >> first_input;
      EXPECT_EQ(shown, name) << line;
      if (!op.inputs.empty()) {
        EXPECT_EQ(first_input, std::to_string(op.inputs[0])) << line;
      }
    }
    EXPECT_TRUE(long_name) << file;
  }
}

TEST_F(CliTest, ZooRefusesModelOnlyOptionsAndHonoursScratch) {
  for (const char* option : {"--fp32", "--assume-dim 1"}) {
    const CliRun r = Arenaplan(std::string("plan zoo:mobilenet_v1 ") + option);
    EXPECT_EQ(r.status, 2) << option << ": " << r.output;
    EXPECT_EQ(r.output,
              "arenaplan: zoo:mobilenet_v1: --fp32 and --assume-dim apply to "
              ".tflite models; the zoo networks are fp32 with fixed shapes\n");
  }
  // --scratch is honoured: one more 1000-byte buffer, so the naive total
  // (every buffer its own memory) grows by exactly 1000.
  auto naive = [](const std::string& json) {
    const std::string key = "\"naive_bytes\":";
    return std::stoull(json.substr(json.find(key) + key.size()));
  };
  const CliRun plain = Arenaplan("plan zoo:mobilenet_v1 --json");
  const CliRun scratch =
      Arenaplan("plan zoo:mobilenet_v1 --json --scratch 5:1000");
  ASSERT_EQ(plain.status, 0) << plain.output;
  ASSERT_EQ(scratch.status, 0) << scratch.output;
  EXPECT_EQ(naive(scratch.output), naive(plain.output) + 1000);
}

TEST_F(CliTest, InvalidUtf8NamesGiveValidJsonAndSvg) {
  // Ids, names and the file name hold bytes that are not UTF-8 (a stray
  // continuation, an overlong '/', a surrogate, a cut sequence, 0xFF), a
  // control character, and U+FFFE (UTF-8, but not an XML character).
  const std::string in =
      Write("bad\xff\xc0\xaf.csv",
            "id,lower,upper,size,name\n"
            "a\x80,0,2,4,\xc0\xaf<&>\"'\n"
            "b\xed\xa0\x80,1,3,8,cut\xe2\x82\n"
            "c\xff,0,3,2,\x01tab\there \xef\xbf\xbe ok \xe2\x82\xac\n");
  const std::string json = dir_ + "/plan.json";
  const std::string svg = dir_ + "/plan.svg";
  const CliRun r =
      Arenaplan("plan '" + in + "' --json --svg " + svg + " > " + json);
  ASSERT_EQ(r.status, 0) << r.output;
  const CliRun json_ok = testing_util::RunCommand(
      "python3 -c 'import json,sys; json.loads(open(sys.argv[1],\"rb\")"
      ".read().decode(\"utf-8\",\"strict\"))' " +
      json);
  EXPECT_EQ(json_ok.status, 0) << json_ok.output << Read(json);
  const CliRun svg_ok = testing_util::RunCommand(
      "python3 -c 'import sys,xml.dom.minidom; "
      "xml.dom.minidom.parseString(open(sys.argv[1],\"rb\").read())' " +
      svg);
  EXPECT_EQ(svg_ok.status, 0) << svg_ok.output;
  // Valid characters pass through: the euro sign stays.
  EXPECT_NE(Read(svg).find("ok \xe2\x82\xac"), std::string::npos);
}

TEST_F(CliTest, HeaderRefusesAnArenaItsTypesCannotHold) {
  // 2^63 + 16 bytes: beyond the largest C++ object (PTRDIFF_MAX, 2^63 - 1).
  const std::string big = Write(
      "big.csv", "id,lower,upper,size\na,0,1,9223372036854775808\nb,0,1,16\n");
  const std::string header = dir_ + "/big.hpp";
  const CliRun r = Arenaplan("plan " + big + " --header " + header);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(OneLineNaming(r.output, "--header " + header)) << r.output;
  EXPECT_FALSE(fs::exists(header));
  // 2^62 bytes fits, and its header compiles.
  const std::string ok =
      Write("ok.csv", "id,lower,upper,size\na,0,1,4611686018427387904\n");
  const CliRun fits = Arenaplan("plan " + ok + " --header " + header);
  ASSERT_EQ(fits.status, 0) << fits.output;
  const std::string main_cpp =
      Write("main.cpp", "#include \"big.hpp\"\nint main() {}\n");
  const CliRun cc = testing_util::RunCommand(
      testing_util::HostCompileCommand("c++17",
                                       "-Wall -Wextra -Werror -fsyntax-only") +
      main_cpp);
  EXPECT_EQ(cc.status, 0) << cc.output;
}

TEST_F(CliTest, NoOutputOverwritesTheInput) {
  const std::string text = "id,lower,upper,size\na,0,1,4\n";
  const std::string in = Write("in.csv", text);
  fs::create_symlink(in, dir_ + "/alias.csv");
  for (const std::string& spelling : {in, dir_ + "/./in.csv"}) {
    const CliRun r = Arenaplan("plan " + dir_ + "/alias.csv --out " + spelling);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_EQ(r.output, "arenaplan: --out " + spelling + ": is the INPUT " +
                            dir_ + "/alias.csv; write elsewhere\n");
    EXPECT_EQ(Read(in), text);
  }
}

}  // namespace
}  // namespace arenaplan
