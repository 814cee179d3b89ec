// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `--kernel-scratch` on plan (text, --json, --svg) and inspect: the
// scratch records of the compiled kernels appear, named "scratch of
// operator K BUILTIN", with the bytes derived by hand from fast_conv.hpp;
// without the option they do not; CSV input refuses it.
#include <gtest/gtest.h>

#include <string>

#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

const auto Arenaplan = testing_util::RunArenaplan;
const std::string kKws = testing_util::kModels + "kws_ref_model.tflite";

// kws_ref_model's operator 0: CONV_2D, filter [64, 10, 4, 1]: a gathered
// window of 40 bytes (at most 64: in triples), 64 outputs: 6 x 40 widened
// (three windows) + 3 x 40 windows + 64 = 424 bytes. Operator 2: CONV_2D
// 1x1 of 64 channels, 64 outputs: pointwise without tails, in groups of
// five: 10 x 64 widened (five windows) + 64 zero points + 64 (a pair's
// second pixel's bytes; a group without tails holds none back) = 768.
// Operator 1:
// DEPTHWISE_CONV_2D 3x3 of 64 channels: two tables of 9 addresses (8 bytes
// on this host) + 64 = 208.
TEST(KernelScratchOption, InspectListsTheKernelsScratch) {
  const auto r = Arenaplan("inspect " + kKws + " --kernel-scratch");
  ASSERT_EQ(r.status, 0) << r.output;
  for (const char* row :
       {"scratch0           424      0  scratch of operator 0 CONV_2D",
        "scratch1           208      1  scratch of operator 1 "
        "DEPTHWISE_CONV_2D",
        "scratch2           768      2  scratch of operator 2 CONV_2D"}) {
    EXPECT_NE(r.output.find(row), std::string::npos) << row << r.output;
  }
  const auto plain = Arenaplan("inspect " + kKws);
  ASSERT_EQ(plain.status, 0) << plain.output;
  EXPECT_EQ(plain.output.find("scratch of operator"), std::string::npos)
      << plain.output;
}

TEST(KernelScratchOption, PlanJsonAndSvgNameTheScratch) {
  const testing_util::ScopedTempDir tmp("arenaplan_kernel_scratch_");
  const std::string svg = tmp.path() + "/plan.svg";
  const auto r =
      Arenaplan("plan " + kKws + " --kernel-scratch --json --svg " + svg);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\"scratch of operator 0 CONV_2D\""),
            std::string::npos)
      << r.output;
  EXPECT_NE(testing_util::ReadFile(svg).find("scratch of operator 1 "
                                             "DEPTHWISE_CONV_2D"),
            std::string::npos);
  const auto plain = Arenaplan("plan " + kKws + " --json");
  ASSERT_EQ(plain.status, 0) << plain.output;
  EXPECT_EQ(plain.output.find("scratch of operator"), std::string::npos);
}

TEST(KernelScratchOption, CsvInputRefusesIt) {
  const testing_util::ScopedTempDir tmp("arenaplan_kernel_scratch_csv_");
  const std::string csv = tmp.path() + "/r.csv";
  testing_util::WriteFile(csv, "id,lower,upper,size\n0,0,1,8\n");
  const auto r = Arenaplan("plan " + csv + " --kernel-scratch");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--kernel-scratch apply to models"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace arenaplan
