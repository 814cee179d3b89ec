// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// `make run` on the host: the code `arenaplan compile` generated for the
// model (namespace model) with the plan of the "naive" offsets strategy,
// in which every tensor has its own bytes (checked here: no two
// placements share a byte, whatever their lifetimes), so no plan can hide
// a kernel's fault nor cause one. run/run.sh compares its output with the
// firmware's byte for byte.
//
//   run_host INPUT.bin OUTPUT.bin
// reads the input tensors' bytes from INPUT.bin (exactly kInputTotalBytes:
// several inputs concatenated in input order),
// runs one inference in an arena first filled with 0xA5 (a kernel that
// read bytes no operator wrote would show), and writes the output
// tensors' raw bytes to OUTPUT.bin (kOutputTotalBytes, in output order). Exit 0
// on success, 2 on a bad input file, 1 when the plan shares bytes. Built with
// -DRUN_HOST_PLANNED (run/corpus.sh) it runs any plan, shared bytes and all.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>
#include <vector>

#include "model_model.hpp"

namespace {

/// True when no two placements of the plan share a byte.
[[maybe_unused]] bool NoSharing() {
  for (std::size_t i = 0; i < model::kTensorCount; ++i) {
    for (std::size_t j = i + 1; j < model::kTensorCount; ++j) {
      const auto& a = model::kPlan[i];
      const auto& b = model::kPlan[j];
      if (a.size && b.size && a.offset < b.offset + b.size &&
          b.offset < a.offset + a.size) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s INPUT.bin OUTPUT.bin\n", argv[0]);
    return 2;
  }
#ifndef RUN_HOST_PLANNED
  // RUN_HOST_PLANNED (run/corpus.sh): any plan, its tensors sharing bytes.
  if (!NoSharing()) {
    std::fprintf(stderr, "run_host: the plan shares bytes between tensors\n");
    return 1;
  }
#endif
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "%s: cannot open\n", argv[1]);
    return 2;
  }
  const std::vector<char> input((std::istreambuf_iterator<char>(in)),
                                std::istreambuf_iterator<char>());
  if (input.size() != model::kInputTotalBytes) {
    std::fprintf(stderr, "%s: %zu bytes, but the input tensors have %zu\n",
                 argv[1], input.size(), model::kInputTotalBytes);
    return 2;
  }
  auto* arena = static_cast<std::int8_t*>(
      ::operator new (model::kArenaSize, std::align_val_t{model::kAlignment}));
  std::memset(arena, 0xA5, model::kArenaSize);
  // Several inputs: their bytes concatenated in input order.
  std::size_t at = 0;
  for (std::size_t i = 0; i < model::kInputCount; ++i) {
    std::memcpy(arena + model::kPlan[model::kInputIndices[i]].offset,
                input.data() + at, model::kInputSizes[i]);
    at += model::kInputSizes[i];
  }
  model::Invoke(arena);
  std::ofstream out(argv[2], std::ios::binary);
  for (std::size_t i = 0; i < model::kOutputCount; ++i) {
    out.write(reinterpret_cast<const char*>(
                  arena + model::kPlan[model::kOutputIndices[i]].offset),
              static_cast<std::streamsize>(model::kOutputSizes[i]));
  }
  ::operator delete (arena, std::align_val_t{model::kAlignment});
  if (!out) {
    std::fprintf(stderr, "%s: cannot write\n", argv[2]);
    return 2;
  }
  return 0;
}
