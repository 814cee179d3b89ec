// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Writes the compile fuzz target's per-operator seeds: for every operator
// kind found in the given models (builtins by name, custom operators by
// their code), the first such operator as a one-operator .tflite file
// (tests/host/support/model_slice.hpp), named op_<KIND>.tflite, into OUT_DIR.
// Usage: fuzz_seed_models OUT_DIR MODEL.tflite...
// Run by mk/fuzz.mk before the compile target; prints one line per seed.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "codegen/tflite/model.hpp"
#include "tests/host/support/model_builder.hpp"
#include "tests/host/support/model_slice.hpp"

namespace {

/// A file-name-safe spelling of an operator kind.
std::string Kind(const arenaplan::tflite::Operator& op) {
  std::string k =
      op.custom_code.empty() ? op.builtin_name : "CUSTOM_" + op.custom_code;
  for (char& c : k) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                    (c >= '0' && c <= '9') || c == '_';
    if (!ok) c = '_';
  }
  return k;
}

}  // namespace

int main(int argc, char** argv) {
  namespace tl = arenaplan::tflite;
  namespace tu = arenaplan::testing_util;
  if (argc < 3) {
    std::fprintf(stderr, "usage: fuzz_seed_models OUT_DIR MODEL.tflite...\n");
    return 2;
  }
  const std::filesystem::path out_dir = argv[1];
  std::filesystem::create_directories(out_dir);
  std::set<std::string> written;
  for (int a = 2; a < argc; ++a) {
    try {
      const tl::Model m = tl::ReadModelFile(argv[a]);
      const auto& ops = m.subgraphs.at(0).operators;
      for (std::size_t i = 0; i < ops.size(); ++i) {
        const std::string kind = Kind(ops[i]);
        if (written.count(kind) != 0) continue;
        const auto slice = tu::SliceOperator(m, i);
        if (!slice) continue;
        const auto bytes = tu::SerializeModel(*slice);
        const std::filesystem::path file = out_dir / ("op_" + kind + ".tflite");
        std::ofstream f(file, std::ios::binary);
        f.write(reinterpret_cast<const char*>(bytes.data()),
                static_cast<std::streamsize>(bytes.size()));
        if (!f) {
          std::fprintf(stderr, "%s: cannot write\n", file.c_str());
          return 1;
        }
        written.insert(kind);
        std::printf("%s (%zu bytes, operator %zu of %s)\n", file.c_str(),
                    bytes.size(), i, argv[a]);
      }
    } catch (const std::exception& e) {
      // A model the writer cannot rewrite (options it does not know) adds
      // no seed; the fuzz target still gets the whole model as a seed.
      std::fprintf(stderr, "fuzz_seed_models: %s: %s (skipped)\n", argv[a],
                   e.what());
    }
  }
  return 0;
}
