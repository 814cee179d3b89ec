// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/scratch/kernel_scratch.hpp"

#include <variant>

#include "arenaplan/kernels/fast_conv.hpp"
#include "codegen/tflite/geometry.hpp"

namespace arenaplan::scratch {
namespace {

/// Bytes of the scratch of the CONV_2D or DEPTHWISE_CONV_2D `op` (0: none).
std::uint64_t ConvScratch(const tflite::Model& model,
                          const tflite::Operator& op, bool depthwise) {
  const tflite::Subgraph& sg = model.subgraphs[0];
  const auto tensor = [&](const std::vector<std::int32_t>& list,
                          std::size_t i) -> const tflite::Tensor* {
    if (i >= list.size() || list[i] < 0 ||
        static_cast<std::size_t>(list[i]) >= sg.tensors.size()) {
      return nullptr;
    }
    return &sg.tensors[static_cast<std::size_t>(list[i])];
  };
  const tflite::Tensor* in = tensor(op.inputs, 0);
  const tflite::Tensor* w = tensor(op.inputs, 1);
  const tflite::Tensor* out = tensor(op.outputs, 0);
  if (in == nullptr || w == nullptr || out == nullptr) return 0;
  // Only the int8 kernels take scratch; the int16 (16x8) and float32
  // convolutions (kernels/int16/, kernels/float/) use none.
  if (in->type != tflite::TensorType::kInt8) return 0;
  const auto checked = tflite::CheckConv(op, *in, *w, *out, depthwise);
  const auto* g = std::get_if<tflite::ConvGeometry>(&checked);
  if (g == nullptr) return 0;
  const bool dilated = g->dilation_h != 1 || g->dilation_w != 1;
  if (depthwise && g->in.c != 1) {  // DepthwiseConv2D(Dilated)Fast
    return kernels::DepthwiseConv2DFastTakes(g->depth_multiplier, g->filter.h,
                                             g->filter.w)
               ? static_cast<std::uint64_t>(
                     kernels::DepthwiseConv2DFastScratchBytes(kernels::Shape4{
                         1, g->filter.h, g->filter.w, g->filter.c}))
               : 0;
  }
  if (dilated) return 0;  // Conv2DDilatedFast: its own buffers
  const kernels::Shape4 filter =
      depthwise
          ? kernels::Shape4{g->out.c, g->filter.h, g->filter.w, 1}
          : kernels::Shape4{g->filter.n, g->filter.h, g->filter.w, g->filter.c};
  return static_cast<std::uint64_t>(kernels::Conv2DFastScratchBytes(filter));
}

}  // namespace

std::vector<std::pair<std::uint32_t, std::uint64_t>> KernelScratch(
    const tflite::Model& model) {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
  if (model.subgraphs.empty()) return out;
  const auto& ops = model.subgraphs[0].operators;
  for (std::size_t k = 0; k < ops.size(); ++k) {
    const tflite::Operator& op = ops[k];
    if (!op.folded.empty()) continue;  // fold.hpp: no kernel runs
    std::uint64_t bytes = 0;
    if (op.builtin_code == tflite::BuiltinOp::kConv2D) {
      bytes = ConvScratch(model, op, false);
    } else if (op.builtin_code == tflite::BuiltinOp::kDepthwiseConv2D) {
      bytes = ConvScratch(model, op, true);
    }
    if (bytes != 0) out.emplace_back(static_cast<std::uint32_t>(k), bytes);
  }
  return out;
}

InputOptions WithKernelScratch(const tflite::Model& model,
                               InputOptions options) {
  if (!options.kernel_scratch) return options;
  for (const auto& s : KernelScratch(model)) options.scratch.push_back(s);
  return options;
}

}  // namespace arenaplan::scratch
