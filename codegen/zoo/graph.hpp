// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// A tiny graph builder for the paper's model zoo: operators in execution
// order, each with its input tensors and one output tensor of a known shape.
// Only shapes matter (no weights, no arithmetic): the builder exists to
// derive the paper's tensor usage records (§3) from a published
// architecture.
#ifndef ARENAPLAN_CODEGEN_ZOO_GRAPH_HPP_
#define ARENAPLAN_CODEGEN_ZOO_GRAPH_HPP_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "codegen/records.hpp"

namespace arenaplan::zoo {

/// Index of a tensor in a GraphBuilder (its creation order).
using TensorId = std::size_t;

/// TensorFlow's two padding modes for windowed operators.
enum class Padding : std::uint8_t {
  kSame,   ///< output = ceil(input / stride)
  kValid,  ///< output = floor((input - effective_kernel) / stride) + 1
};

/// Builds a graph operator by operator. Tensors are NHWC (batch 1) or any
/// other rank for reshapes; every element is a 4-byte float (the paper's
/// 32-bit setting, §6). Operators are appended in execution order, so the
/// order of AddOp calls IS the topological order the records use.
class GraphBuilder {
 public:
  /// A graph input (not an intermediate tensor: no usage record).
  TensorId AddInput(std::string name, std::vector<std::uint64_t> shape);

  /// Appends operator `op` (a TFLite builtin name, e.g. "CONV_2D") reading
  /// `inputs` and producing a new tensor `output_name` of `output_shape`.
  TensorId AddOp(std::string op, std::string output_name,
                 std::vector<TensorId> inputs,
                 std::vector<std::uint64_t> output_shape);

  [[nodiscard]] const std::vector<std::uint64_t>& Shape(TensorId t) const;
  /// Channels (last dimension) of an NHWC tensor.
  [[nodiscard]] std::uint64_t Channels(TensorId t) const;
  [[nodiscard]] std::size_t OperatorCount() const { return ops_.size(); }

  // --- NHWC layer helpers (one operator each; activations and batch norm
  // are fused into the convolution, as the TFLite converter emits them) ---

  /// CONV_2D with a kh x kw kernel. `dilation` > 1 is atrous convolution
  /// (effective kernel (k - 1) * dilation + 1).
  TensorId Conv(TensorId x, std::string name, std::uint64_t out_channels,
                std::uint64_t kh = 1, std::uint64_t kw = 1,
                std::uint64_t stride = 1, Padding padding = Padding::kSame,
                std::uint64_t dilation = 1);
  /// DEPTHWISE_CONV_2D, depth multiplier 1.
  TensorId DepthwiseConv(TensorId x, std::string name, std::uint64_t k = 3,
                         std::uint64_t stride = 1,
                         Padding padding = Padding::kSame,
                         std::uint64_t dilation = 1);
  TensorId MaxPool(TensorId x, std::string name, std::uint64_t k,
                   std::uint64_t stride, Padding padding);
  TensorId AvgPool(TensorId x, std::string name, std::uint64_t k,
                   std::uint64_t stride, Padding padding);
  /// AVERAGE_POOL_2D over the whole H x W plane: output 1 x 1 x 1 x C.
  TensorId GlobalAvgPool(TensorId x, std::string name);
  /// ADD of two tensors of the same shape.
  TensorId Add(TensorId a, TensorId b, std::string name);
  /// CONCATENATION along `axis` (-1: the last dimension, channels).
  TensorId Concat(std::vector<TensorId> inputs, std::string name,
                  int axis = -1);
  /// PAD of the channel dimension up to `channels` (zero padding).
  TensorId PadChannels(TensorId x, std::string name, std::uint64_t channels);
  TensorId ResizeBilinear(TensorId x, std::string name, std::uint64_t h,
                          std::uint64_t w);
  TensorId Reshape(TensorId x, std::string name,
                   std::vector<std::uint64_t> shape);
  TensorId Softmax(TensorId x, std::string name);

  /// Tensor usage records of the intermediate tensors: every tensor that is
  /// neither a graph input nor one of `outputs` (Figure 1's caption). A
  /// record spans its producer to its last consumer, both operators
  /// included; size = elements * 4 bytes, not aligned. Throws
  /// InternalError when an intermediate tensor has no consumer.
  [[nodiscard]] UsageProblem Build(std::span<const TensorId> outputs,
                                   std::string source) const;

 private:
  struct Tensor {
    std::string name;
    std::vector<std::uint64_t> shape;
    bool is_input = false;
    std::size_t producer = 0;       ///< Operator index (not for inputs).
    std::size_t last_consumer = 0;  ///< Valid when has_consumer.
    bool has_consumer = false;
  };
  /// Appends a tensor named `name` of `shape`; returns it (valid until the
  /// next append).
  Tensor& NewTensor(std::string name, std::vector<std::uint64_t> shape);
  TensorId Windowed(const char* op, TensorId x, std::string name,
                    std::uint64_t out_channels, std::uint64_t kh,
                    std::uint64_t kw, std::uint64_t stride, Padding padding,
                    std::uint64_t dilation);

  std::vector<Tensor> tensors_;
  std::vector<std::string> ops_;
};

}  // namespace arenaplan::zoo

#endif  // ARENAPLAN_CODEGEN_ZOO_GRAPH_HPP_
