// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The trace check (codegen/trace/check.hpp) on every shared model and every
// corpus model, in the three modes of `compile`: default, --overlap and
// --fuse. CompileModel runs the check in every compile; a model the
// kernels do not support (InputError) is skipped, and no compile may stop
// at the check. Also prints what the check costs next to the whole
// compile.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/trace/check.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

using compile::CompiledModel;
using compile::CompileOptions;
using Clock = std::chrono::steady_clock;

/// Every .tflite file of the shared models and of the corpus, sorted.
std::vector<std::string> ModelFiles() {
  std::vector<std::string> files;
  for (const char* dir : {"/models", "/corpus"}) {
    const std::filesystem::path root = std::string(ARENAPLAN_SHARED_DIR) + dir;
    if (!std::filesystem::exists(root)) continue;
    for (const auto& e : std::filesystem::directory_iterator(root)) {
      if (e.path().extension() == ".tflite") files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

double Ms(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

TEST(TraceModels, EveryModelPassesInEveryMode) {
  const std::vector<std::string> files = ModelFiles();
  ASSERT_FALSE(files.empty());
  std::vector<std::string> compiled;
  for (const std::string& path : files) {
    const tflite::Model model = tflite::ReadModelFile(path);
    for (const char* mode : {"default", "overlap", "fuse"}) {
      CompileOptions o;
      o.namespace_name = "m";
      o.input.overlap = o.plan.overlap = std::string(mode) != "default";
      o.fuse = std::string(mode) == "fuse";
      const std::string name =
          std::filesystem::path(path).filename().string() + " " + mode;
      try {
        const Clock::time_point t0 = Clock::now();
        const CompiledModel out = compile::CompileModel(model, path, o);
        const Clock::time_point t1 = Clock::now();
        // The check again on the schedule it passed: its own cost.
        const trace::TraceCheck c = trace::CheckSchedule(out.schedule);
        const Clock::time_point t2 = Clock::now();
        EXPECT_EQ(c.result, trace::TraceResult::kOk) << name << c.message;
        std::size_t accesses = 0;
        for (const trace::Step& s : out.schedule.steps) {
          accesses += s.accesses.size();
        }
        std::printf(
            "%-48s %5zu steps %6zu accesses  compile %8.1f ms  check "
            "%6.2f ms\n",
            name.c_str(), out.schedule.steps.size(), accesses, Ms(t1 - t0),
            Ms(t2 - t1));
        compiled.push_back(name);
      } catch (const InputError&) {
        // Not supported by the kernels: nothing compiled, nothing checked.
      } catch (const InternalError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.find("trace check failed"), std::string::npos) << what;
        // Another error after the check passed (the fused body's own).
        std::printf("%-48s not compiled: %s\n", name.c_str(), what.c_str());
      }
    }
  }
  for (const char* must : {"person_detect.tflite", "vww_96_int8.tflite"}) {
    for (const char* mode : {" default", " overlap", " fuse"}) {
      EXPECT_NE(
          std::find(compiled.begin(), compiled.end(), std::string(must) + mode),
          compiled.end())
          << must << mode;
    }
  }
}

}  // namespace
}  // namespace arenaplan
