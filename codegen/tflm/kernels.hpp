// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// What TensorFlow Lite Micro's reference kernels ask of the arena while a
// model is prepared: the scratch buffers they request
// (RequestScratchBufferInArena), their builtin parameter struct, the OpData
// they allocate in Init, and the temporary and persistent allocations of
// their Prepare. One rule per kernel, each citing the kernel's source file
// in TFLM (tensorflow/lite/micro/kernels/ unless said otherwise), as of
// kTflmVersion. Sizes are those of a 64-bit (LP64) host build.
#ifndef ARENAPLAN_CODEGEN_TFLM_KERNELS_HPP_
#define ARENAPLAN_CODEGEN_TFLM_KERNELS_HPP_

#include <cstdint>
#include <string>
#include <vector>

#include "codegen/input/input.hpp"
#include "codegen/tflite/model.hpp"

namespace arenaplan::tflm {

/// The TFLM source these rules follow.
inline constexpr char kTflmVersion[] =
    "tflite-micro commit 90b983c2b3f1480642e040bbd2ddb37b998f3424";

/// One scratch buffer a kernel requests in Prepare. It lives for its
/// operator's step only.
struct ScratchRequest {
  std::uint32_t op = 0;     ///< Operator index in subgraph 0.
  std::uint64_t bytes = 0;  ///< As requested (TFLM rounds to 16).
};

/// One allocation a kernel's Prepare makes, in order.
struct PrepareStep {
  enum class Kind : std::uint8_t {
    kTempTensor,  ///< AllocateTemp{Input,Output}Tensor of `tensor`.
    kPersistent,  ///< context->AllocatePersistentBuffer(bytes), 16-aligned.
    kScratch,     ///< RequestScratchBufferInArena(bytes).
  };
  Kind kind = Kind::kTempTensor;
  std::int32_t tensor = -1;  ///< kTempTensor: tensor index (-1: none).
  std::uint64_t bytes = 0;   ///< kPersistent, kScratch.
};

/// A kernel's demands on the arena while the model is prepared.
struct KernelFacts {
  /// False: the operator has no rule here; the figures are a cautious
  /// guess (see TflmKernelFacts) and `note` says so.
  bool modelled = true;
  /// Builtin parameter struct the op's parser allocates (0: none).
  std::uint64_t params_bytes = 0;
  std::uint64_t params_align = 4;
  /// OpData the kernel's Init allocates, 16-aligned (0: no Init).
  std::uint64_t op_data_bytes = 0;
  std::vector<PrepareStep> prepare;
  /// Non-empty when something is not modelled or TFLM will refuse the
  /// operator (one line, without the operator's name).
  std::string note;
};

/// The facts of operator `op` of subgraph `subgraph` of `model`.
/// `options.assume_dim` resolves dynamic dimensions. Throws InputError
/// (naming the operator) when a tensor the rule needs is missing or has
/// the wrong rank.
[[nodiscard]] KernelFacts TflmKernelFacts(const tflite::Model& model,
                                          std::size_t subgraph, std::size_t op,
                                          const InputOptions& options);

/// The scratch requests of every operator of subgraph 0, in the order TFLM
/// records them (operator order, then each kernel's request order), plus
/// one line per operator whose kernel may request scratch but has no rule
/// here (`not_modelled`).
[[nodiscard]] std::vector<ScratchRequest> TflmScratchRequests(
    const tflite::Model& model, const InputOptions& options,
    std::vector<std::string>* not_modelled);

}  // namespace arenaplan::tflm

#endif  // ARENAPLAN_CODEGEN_TFLM_KERNELS_HPP_
