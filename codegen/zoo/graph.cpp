// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/zoo/graph.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "codegen/base/errors.hpp"

namespace arenaplan::zoo {
namespace {

/// Bytes per element: the paper measures 32-bit floats (§6).
constexpr std::uint64_t kFloatBytes = 4;

/// Output length of one spatial dimension of a windowed operator.
std::uint64_t OutputLength(std::uint64_t in, std::uint64_t k,
                           std::uint64_t stride, Padding padding,
                           std::uint64_t dilation) {
  if (padding == Padding::kSame) return (in + stride - 1) / stride;
  const std::uint64_t effective = (k - 1) * dilation + 1;
  if (in < effective) {
    throw InternalError("zoo: VALID window larger than its input");
  }
  return (in - effective) / stride + 1;
}

}  // namespace

TensorId GraphBuilder::AddInput(std::string name,
                                std::vector<std::uint64_t> shape) {
  NewTensor(std::move(name), std::move(shape)).is_input = true;
  return tensors_.size() - 1;
}

TensorId GraphBuilder::AddOp(std::string op, std::string output_name,
                             std::vector<TensorId> inputs,
                             std::vector<std::uint64_t> output_shape) {
  const std::size_t index = ops_.size();
  for (TensorId in : inputs) {
    if (in >= tensors_.size()) {
      throw InternalError("zoo: operator " + op + " reads an unknown tensor");
    }
    tensors_[in].last_consumer = index;  // ops are appended in order
    tensors_[in].has_consumer = true;
  }
  ops_.push_back(std::move(op));
  NewTensor(std::move(output_name), std::move(output_shape)).producer = index;
  return tensors_.size() - 1;
}

GraphBuilder::Tensor& GraphBuilder::NewTensor(
    std::string name, std::vector<std::uint64_t> shape) {
  Tensor& t = tensors_.emplace_back();
  t.name = std::move(name);
  t.shape = std::move(shape);
  return t;
}

const std::vector<std::uint64_t>& GraphBuilder::Shape(TensorId t) const {
  return tensors_.at(t).shape;
}

std::uint64_t GraphBuilder::Channels(TensorId t) const {
  return Shape(t).back();
}

TensorId GraphBuilder::Windowed(const char* op, TensorId x, std::string name,
                                std::uint64_t out_channels, std::uint64_t kh,
                                std::uint64_t kw, std::uint64_t stride,
                                Padding padding, std::uint64_t dilation) {
  const std::vector<std::uint64_t>& s = Shape(x);
  if (s.size() != 4) throw InternalError("zoo: " + name + ": input not NHWC");
  return AddOp(
      op, std::move(name), {x},
      {s[0], OutputLength(s[1], kh, stride, padding, dilation),
       OutputLength(s[2], kw, stride, padding, dilation), out_channels});
}

TensorId GraphBuilder::Conv(TensorId x, std::string name,
                            std::uint64_t out_channels, std::uint64_t kh,
                            std::uint64_t kw, std::uint64_t stride,
                            Padding padding, std::uint64_t dilation) {
  return Windowed("CONV_2D", x, std::move(name), out_channels, kh, kw, stride,
                  padding, dilation);
}

TensorId GraphBuilder::DepthwiseConv(TensorId x, std::string name,
                                     std::uint64_t k, std::uint64_t stride,
                                     Padding padding, std::uint64_t dilation) {
  return Windowed("DEPTHWISE_CONV_2D", x, std::move(name), Channels(x), k, k,
                  stride, padding, dilation);
}

TensorId GraphBuilder::MaxPool(TensorId x, std::string name, std::uint64_t k,
                               std::uint64_t stride, Padding padding) {
  return Windowed("MAX_POOL_2D", x, std::move(name), Channels(x), k, k, stride,
                  padding, 1);
}

TensorId GraphBuilder::AvgPool(TensorId x, std::string name, std::uint64_t k,
                               std::uint64_t stride, Padding padding) {
  return Windowed("AVERAGE_POOL_2D", x, std::move(name), Channels(x), k, k,
                  stride, padding, 1);
}

TensorId GraphBuilder::GlobalAvgPool(TensorId x, std::string name) {
  const std::vector<std::uint64_t>& s = Shape(x);
  return AddOp("AVERAGE_POOL_2D", std::move(name), {x}, {s[0], 1, 1, s[3]});
}

TensorId GraphBuilder::Add(TensorId a, TensorId b, std::string name) {
  if (Shape(a) != Shape(b)) {
    throw InternalError("zoo: " + name + ": ADD of different shapes");
  }
  return AddOp("ADD", std::move(name), {a, b}, Shape(a));
}

TensorId GraphBuilder::Concat(std::vector<TensorId> inputs, std::string name,
                              int axis) {
  std::vector<std::uint64_t> shape = Shape(inputs.at(0));
  const std::size_t a =
      axis < 0 ? shape.size() - 1 : static_cast<std::size_t>(axis);
  shape.at(a) = 0;
  for (TensorId in : inputs) {
    const std::vector<std::uint64_t>& s = Shape(in);
    for (std::size_t d = 0; d < s.size(); ++d) {
      if (s.size() != shape.size() || (d != a && s[d] != shape[d])) {
        throw InternalError("zoo: " + name +
                            ": CONCATENATION of mismatched shapes");
      }
    }
    shape[a] += s[a];
  }
  return AddOp("CONCATENATION", std::move(name), std::move(inputs),
               std::move(shape));
}

TensorId GraphBuilder::PadChannels(TensorId x, std::string name,
                                   std::uint64_t channels) {
  std::vector<std::uint64_t> shape = Shape(x);
  shape.back() = channels;
  return AddOp("PAD", std::move(name), {x}, std::move(shape));
}

TensorId GraphBuilder::ResizeBilinear(TensorId x, std::string name,
                                      std::uint64_t h, std::uint64_t w) {
  const std::vector<std::uint64_t>& s = Shape(x);
  return AddOp("RESIZE_BILINEAR", std::move(name), {x}, {s[0], h, w, s[3]});
}

TensorId GraphBuilder::Reshape(TensorId x, std::string name,
                               std::vector<std::uint64_t> shape) {
  auto elements = [](const std::vector<std::uint64_t>& s) {
    return std::accumulate(s.begin(), s.end(), std::uint64_t{1},
                           std::multiplies<>());
  };
  if (elements(shape) != elements(Shape(x))) {
    throw InternalError("zoo: " + name + ": RESHAPE changes the element count");
  }
  return AddOp("RESHAPE", std::move(name), {x}, std::move(shape));
}

TensorId GraphBuilder::Softmax(TensorId x, std::string name) {
  return AddOp("SOFTMAX", std::move(name), {x}, Shape(x));
}

UsageProblem GraphBuilder::Build(std::span<const TensorId> outputs,
                                 std::string source) const {
  UsageProblem p;
  p.source = std::move(source);
  p.operator_count = static_cast<std::uint32_t>(ops_.size());
  p.operator_names = ops_;
  p.default_alignment = Alignment();
  for (TensorId id = 0; id < tensors_.size(); ++id) {
    const Tensor& t = tensors_[id];
    if (t.is_input) continue;
    if (std::find(outputs.begin(), outputs.end(), id) != outputs.end()) {
      continue;
    }
    if (!t.has_consumer) {
      throw InternalError(p.source + ": tensor '" + t.name +
                          "' is neither consumed nor a graph output");
    }
    const std::uint64_t elements = std::accumulate(
        t.shape.begin(), t.shape.end(), std::uint64_t{1}, std::multiplies<>());
    TensorUsageRecord r;
    r.first_op = static_cast<std::uint32_t>(t.producer);
    r.last_op = static_cast<std::uint32_t>(t.last_consumer);
    r.size = elements * kFloatBytes;
    p.records.push_back(r);
    p.ids.push_back(std::to_string(id));
    p.names.push_back(t.name);
  }
  return p;
}

}  // namespace arenaplan::zoo
