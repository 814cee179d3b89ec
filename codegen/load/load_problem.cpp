// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/load/load_problem.hpp"

#include <cstring>
#include <fstream>
#include <string_view>

#include "codegen/errors.hpp"
#include "codegen/tflite/load.hpp"
#include "codegen/zoo/load.hpp"

namespace arenaplan {
namespace {

constexpr std::string_view kZooPrefix = "zoo:";

/// True when the file starts like a TFLite flatbuffer ("TFL3" at byte 4).
bool LooksLikeTflite(const std::string& path) {
  if (path.size() >= 7 && path.compare(path.size() - 7, 7, ".tflite") == 0) {
    return true;
  }
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  if (!in.read(head, sizeof head)) return false;
  return std::memcmp(head + 4, "TFL3", 4) == 0;
}

}  // namespace

UsageProblem LoadProblem(const std::string& input,
                         const InputOptions& options) {
  if (input.rfind(kZooPrefix, 0) == 0) {
    return LoadZooProblem(input.substr(kZooPrefix.size()), options);
  }
  if (LooksLikeTflite(input)) return LoadTfliteProblem(input, options);
  if (options.fp32 || options.assume_dim || !options.scratch.empty()) {
    throw InputError(input +
                     ": --fp32, --assume-dim and --scratch apply to models, "
                     "not to records CSV");
  }
  return LoadCsvProblem(input);
}

}  // namespace arenaplan
