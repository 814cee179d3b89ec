// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/load/load_problem.hpp"

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>

#include "codegen/base/errors.hpp"
#include "codegen/overlap/overlap_pairs.hpp"
#include "codegen/scratch/kernel_scratch.hpp"
#include "codegen/tflite/fold_model.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"
#include "codegen/zoo/load.hpp"

namespace arenaplan {
namespace {

constexpr std::string_view kZooPrefix = "zoo:";

/// True when the input is named *.tflite or its bytes start like a TFLite
/// flatbuffer ("TFL3" at byte 4).
bool LooksLikeTflite(const std::string& path, std::string_view bytes) {
  if (path.size() >= 7 && path.compare(path.size() - 7, 7, ".tflite") == 0) {
    return true;
  }
  return bytes.size() >= 8 && bytes.substr(4, 4) == "TFL3";
}

}  // namespace

UsageProblem LoadProblem(const std::string& input,
                         const InputOptions& options) {
  if (input.rfind(kZooPrefix, 0) == 0) {
    if (options.overlap) {
      throw InputError(input +
                       ": --overlap needs a .tflite model (the zoo's records "
                       "carry no kernels)");
    }
    return LoadZooProblem(input.substr(kZooPrefix.size()), options);
  }
  // Read once, then decide the kind on the bytes (a pipe cannot be re-read).
  const std::string bytes = ReadInputBytes(input, kMaxInputBytes);
  if (LooksLikeTflite(input, bytes)) {
    if (options.overlap && options.fp32) {
      throw InputError(input +
                       ": --overlap and --fp32 exclude each other (the "
                       "kernels' overlap contracts are for int8 tensors)");
    }
    // Folded as compile folds it (codegen/tflite/fold_model.hpp), so the
    // plan is the one compile emits code for.
    const tflite::FoldedModel folded = tflite::FoldModel(
        tflite::ReadModel(
            std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                      bytes.size()),
            input),
        options);
    tflite::TfliteProblem problem = tflite::BuildProblem(
        folded.model, scratch::WithKernelScratch(
                          folded.model, tflite::StepOptions(folded, options)));
    if (options.overlap) {
      problem.problem.overlaps =
          overlap::FindOverlapPairs(folded.model, problem);
    }
    return std::move(problem.problem);
  }
  if (options.overlap) {
    throw InputError(input +
                     ": --overlap needs a .tflite model (CSV records carry no "
                     "kernels)");
  }
  if (options.fp32 || options.assume_dim || !options.scratch.empty() ||
      options.kernel_scratch) {
    throw InputError(input +
                     ": --fp32, --assume-dim, --scratch and --kernel-scratch "
                     "apply to models, not to records CSV");
  }
  return ParseCsvText(bytes, input);
}

}  // namespace arenaplan
