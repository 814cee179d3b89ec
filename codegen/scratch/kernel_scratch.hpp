// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The scratch buffers of arenaplan's compiled kernels: the bytes a kernel
// call needs beyond its operands (a gathered window, a pixel pair's widened
// windows), sized by the kernel header's own function beside the kernel
// (kernels/include/arenaplan/kernels/). Each becomes a record alive during
// its operator's step only (tflite::BuildProblem's scratch records), so the
// strategies, the exact search and the validator place it like a tensor,
// sharing bytes with tensors that are dead at that step.
#ifndef ARENAPLAN_CODEGEN_SCRATCH_KERNEL_SCRATCH_HPP_
#define ARENAPLAN_CODEGEN_SCRATCH_KERNEL_SCRATCH_HPP_

#include <cstdint>
#include <utility>
#include <vector>

#include "codegen/input/input.hpp"
#include "codegen/tflite/model.hpp"

namespace arenaplan::scratch {

/// The kernel scratch of every operator of subgraph 0 of `model` (the
/// folded model compile lowers): (operator index in `model`, bytes > 0), in
/// operator order. Of int8 activations only (the int16 and float32
/// convolutions take no scratch): an undilated CONV_2D, and an undilated
/// DEPTHWISE_CONV_2D of one input channel (lowered as a convolution of
/// filter [out_c, kh, kw, 1]): k::Conv2DFastScratchBytes of the filter, the
/// most of the DSP, scalar and Helium paths (fast_conv.hpp). A
/// DEPTHWISE_CONV_2D of more input channels that
/// k::DepthwiseConv2DFastTakes (dilated or not):
/// k::DepthwiseConv2DFastScratchBytes, which covers both paths. The bytes are
/// planned whenever the operator's geometry is one compile accepts (the
/// same tflite::CheckConv), also when its lowering picks the reference
/// kernel (negative weight scales it cannot negate), which leaves them
/// unused. Operators graph folding removed run no kernel and get none.
[[nodiscard]] std::vector<std::pair<std::uint32_t, std::uint64_t>>
KernelScratch(const tflite::Model& model);

/// `options` (for tflite::BuildProblem on `model`, --scratch already in
/// `model`'s operator indices) with KernelScratch(model) appended to its
/// scratch buffers when options.kernel_scratch (unchanged otherwise).
[[nodiscard]] InputOptions WithKernelScratch(const tflite::Model& model,
                                             InputOptions options);

}  // namespace arenaplan::scratch

#endif  // ARENAPLAN_CODEGEN_SCRATCH_KERNEL_SCRATCH_HPP_
