// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "codegen/base/errors.hpp"
#include "codegen/input/input.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

/// A CSV file in a fresh temporary directory, removed afterwards.
class CsvFile {
 public:
  explicit CsvFile(const std::string& contents) {
    testing_util::WriteFile(path_, contents);
  }
  const std::string& path() const { return path_; }

 private:
  testing_util::ScopedTempDir dir_{"arenaplan_csv_"};
  std::string path_ = dir_.path() + "/records.csv";
};

std::string ErrorOf(const std::string& contents) {
  CsvFile f(contents);
  try {
    (void)LoadCsvProblem(f.path());
  } catch (const InputError& e) {
    const std::string what = e.what();
    // Every message names the file first.
    EXPECT_EQ(what.rfind(f.path(), 0), 0u) << what;
    return what.substr(f.path().size());
  }
  ADD_FAILURE() << "no error for:\n" << contents;
  return "";
}

TEST(LoadCsvProblem, ReadsMiniMallocFormatWithExclusiveUpper) {
  CsvFile f("id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\n");
  const UsageProblem p = LoadCsvProblem(f.path());
  ASSERT_EQ(p.records.size(), 2u);
  EXPECT_EQ(p.ids[0], "b1");
  EXPECT_EQ(p.records[0].first_op, 0u);
  EXPECT_EQ(p.records[0].last_op, 2u);  // upper 3 is exclusive
  EXPECT_EQ(p.records[1].first_op, 3u);
  EXPECT_EQ(p.records[1].last_op, 8u);
  EXPECT_EQ(p.records[1].size, 4u);
  EXPECT_EQ(p.operator_count, 9u);
  EXPECT_EQ(p.default_alignment.bytes(), 1u);
}

TEST(LoadCsvProblem, KeepsExtraColumnsAndNames) {
  CsvFile f("name,size,id,upper,lower,note\nconv,16,7,2,0,x\n");
  const UsageProblem p = LoadCsvProblem(f.path());
  ASSERT_EQ(p.records.size(), 1u);
  EXPECT_EQ(p.ids[0], "7");
  EXPECT_EQ(p.names[0], "conv");
  EXPECT_EQ(p.records[0].size, 16u);
  EXPECT_EQ(p.extra_columns, (std::vector<std::string>{"name", "note"}));
  EXPECT_EQ(p.extra_values[0], (std::vector<std::string>{"conv", "x"}));
}

TEST(LoadCsvProblem, AcceptsHeaderOnlyAndZeroSizes) {
  CsvFile empty("id,lower,upper,size\n");
  EXPECT_TRUE(LoadCsvProblem(empty.path()).records.empty());
  CsvFile zero("id,lower,upper,size\r\na,0,1,0\r\n");
  EXPECT_EQ(LoadCsvProblem(zero.path()).records[0].size, 0u);
}

TEST(LoadCsvProblem, RejectsBadInputNamingTheLine) {
  EXPECT_EQ(ErrorOf(""), ": empty file (expected header id,lower,upper,size)");
  EXPECT_EQ(ErrorOf("id,lower,size\n"),
            ":1: missing column 'upper' (expected header id,lower,upper,size)");
  EXPECT_EQ(ErrorOf("id,lower,upper,size,size\n"),
            ":1: column 'size' appears twice");
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,0,1\n"),
            ":2: expected 4 fields as in the header, found 3");
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,0,1,4,5\n"),
            ":2: expected 4 fields as in the header, found 5");
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,0,1,4\nb,0,1,x4\n"),
            ":3: size is not a number: 'x4'");
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,0,1,1.5\n"),
            ":2: size is not a number: '1.5'");
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,-1,1,4\n"),
            ":2: lower is negative: '-1'");
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,3,3,4\n"),
            ":2: upper (3) must exceed lower (3)");
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,0,1,4\na,1,2,4\n"),
            ":3: duplicate id 'a' (first on line 2)");
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,0,1,99999999999999999999\n"),
            ":2: size does not fit 64 bits: '99999999999999999999'");
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,0,1,18446744073709551615\n"
                    "b,0,1,1\n"),
            ":3: sizes sum past 2^64 bytes");
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,0,4294967296,1\n"),
            ":2: upper (4294967296) exceeds 4294967295");
  EXPECT_EQ(ErrorOf("id,lower,upper,size\n,0,1,1\n"), ":2: id is empty");
}

TEST(LoadCsvProblem, RejectsMissingFile) {
  try {
    (void)LoadCsvProblem("/nonexistent/records.csv");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(
        e.what(),
        "/nonexistent/records.csv: cannot open: No such file or directory");
  }
}

TEST(LoadCsvProblem, SkipsUtf8ByteOrderMark) {
  CsvFile f("\xEF\xBB\xBFid,lower,upper,size\na,0,2,8\n");
  const UsageProblem p = LoadCsvProblem(f.path());
  ASSERT_EQ(p.records.size(), 1u);
  EXPECT_EQ(p.ids[0], "a");
  EXPECT_EQ(p.records[0].size, 8u);
}

TEST(LoadCsvProblem, AcceptsCrLfAndCrOnlyLineEndings) {
  for (const char* eol : {"\n", "\r\n", "\r"}) {
    const std::string e = eol;
    CsvFile f("id,lower,upper,size" + e + "a,0,2,8" + e + e + "b,1,3,16" + e);
    const UsageProblem p = LoadCsvProblem(f.path());
    ASSERT_EQ(p.records.size(), 2u) << "line ending " << int(e.back());
    EXPECT_EQ(p.ids[1], "b");
    EXPECT_EQ(p.records[1].size, 16u);
    EXPECT_EQ(p.records[1].last_op, 2u);
  }
  // Line numbers in messages count CR-only line ends too (line 4 below:
  // header, a, blank line, b).
  EXPECT_EQ(ErrorOf("id,lower,upper,size\ra,0,2,8\r\rb,0,2,x\r"),
            ":4: size is not a number: 'x'");
  EXPECT_EQ(ErrorOf("id,lower,upper,size\r\na,0,2,8\r\nb,0,2,x\r\n"),
            ":3: size is not a number: 'x'");
}

TEST(LoadCsvProblem, RejectsNegativeNumbersInEveryNumericColumn) {
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,0,1,-16\n"),
            ":2: size is negative: '-16'");
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,0,-1,16\n"),
            ":2: upper is negative: '-1'");
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,-0,1,16\n"),
            ":2: lower is negative: '-0'");
}

TEST(LoadCsvProblem, TruncatesLongQuotedInputInMessages) {
  // A 1 MB id appears in the message as its first 64 bytes and "...".
  const std::string id(1000000, 'x');
  const std::string msg =
      ErrorOf("id,lower,upper,size\n" + id + ",0,1,4\n" + id + ",0,1,4\n");
  EXPECT_EQ(msg, ":3: duplicate id '" + std::string(64, 'x') +
                     "...' (first on line 2)");
  const std::string number(5000, '7');
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,0,1," + number + "\n"),
            ":2: size does not fit 64 bits: '" + std::string(64, '7') + "...'");
  // Control bytes are shown escaped, so the message stays one line.
  EXPECT_EQ(ErrorOf("id,lower,upper,size\na,0,1,4\x1b[2J\n"),
            ":2: size is not a number: '4\\x1b[2J'");
}

TEST(LoadCsvProblem, RefusesInputLargerThanTheLimit) {
  std::istringstream in("id,lower,upper,size\na,0,1,4\n");  // 28 bytes
  try {
    (void)ParseCsvProblem(in, "small.csv", 27);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "small.csv: larger than the input limit of 27 bytes");
  }
  std::istringstream exact("id,lower,upper,size\na,0,1,4\n");
  EXPECT_EQ(ParseCsvProblem(exact, "exact.csv", 28).records.size(), 1u);
  // /dev/zero never ends: refused once the limit is reached.
  try {
    (void)ReadInputBytes("/dev/zero", 1 << 20);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "/dev/zero: larger than the input limit of 1048576 bytes");
  }
}

TEST(LoadCsvProblem, RefusesMoreRecordsThanTheLimit) {
  EXPECT_EQ(kMaxInputRecords, 10000000u);
  std::istringstream in("id,lower,upper,size\na,0,1,4\nb,0,1,4\nc,0,1,4\n");
  try {
    (void)ParseCsvProblem(in, "rows.csv", kMaxInputBytes, 2);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "rows.csv:4: more than 2 records");
  }
}

TEST(ReadInputBytes, RefusesDirectoryWithOneLine) {
  testing_util::ScopedTempDir dir("arenaplan_dir_");
  try {
    (void)ReadInputBytes(dir.path(), kMaxInputBytes);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), dir.path() + ": is a directory");
  }
}

// --- Through the CLI
// ----------------------------------------------------------

const auto Arenaplan = testing_util::RunArenaplan;

TEST(LoadProblemCli, ReadsCsvFromPipesAndStdin) {
  const std::string csv = "id,lower,upper,size\na,0,2,8\nb,1,3,16\n";
  CsvFile f(csv);
  const testing_util::CommandResult file = Arenaplan("plan " + f.path());
  ASSERT_EQ(file.status, 0) << file.output;
  // The format sniff must not consume the pipe: same table as from the file.
  const testing_util::CommandResult stdin_run =
      Arenaplan("plan /dev/stdin < " + f.path());
  EXPECT_EQ(stdin_run.status, 0) << stdin_run.output;
  const testing_util::CommandResult piped = testing_util::RunCommand(
      "cat " + f.path() + " | " + std::string(ARENAPLAN_BINARY) +
      " plan /dev/stdin");
  EXPECT_EQ(piped.status, 0) << piped.output;
  const testing_util::CommandResult substituted =
      testing_util::RunCommand("bash -c '" + std::string(ARENAPLAN_BINARY) +
                               " plan <(cat " + f.path() + ")'");
  EXPECT_EQ(substituted.status, 0) << substituted.output;
  EXPECT_NE(stdin_run.output.find("greedy-by-size"), std::string::npos)
      << stdin_run.output;
}

TEST(LoadProblemCli, RefusesEndlessInputWithOneLine) {
  // Before the limit, this read /dev/zero until memory ran out.
  const testing_util::CommandResult r = testing_util::RunCommand(
      "timeout 120 " + std::string(ARENAPLAN_BINARY) + " plan /dev/zero");
  EXPECT_EQ(r.status, 2) << r.output.substr(0, 300);
  EXPECT_EQ(r.output, "arenaplan: /dev/zero: larger than the input limit of " +
                          std::to_string(kMaxInputBytes) + " bytes\n")
      << r.output.substr(0, 300);
}

}  // namespace
}  // namespace arenaplan
