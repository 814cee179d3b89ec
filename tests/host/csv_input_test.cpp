// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include <string>

#include "codegen/errors.hpp"
#include "codegen/input.hpp"
#include "tests/host/test_util.hpp"

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

}  // namespace
}  // namespace arenaplan
