// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Small TFLite models for tests, built in memory and, when a test needs the
// file, written as a TFL3 flatbuffer with the flatbuffers library:
//   * ModelBuilder: tensors (int8 activations with scale 0.5 and zero point 0
//     unless told otherwise), constant tensors, operators and the graph's
//     inputs and outputs, as a tflite::Model (what the reader returns);
//   * SerializeModel: that model as the bytes of a .tflite file, for tests
//     of the reader, the CLI and fuzz seeds.
// Writing is test code only: the product reads models, it never writes one
// from scratch (emit/tflm_model.cpp edits a model's bytes in place).
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_MODEL_BUILDER_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_MODEL_BUILDER_HPP_

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "codegen/tflite/builtin_ops.hpp"
#include "codegen/tflite/model.hpp"
#include "tflite_subset_generated.h"

namespace arenaplan::testing_util {

/// Builds one-subgraph models. Tensor indices are returned as the int32
/// values operators and graph edges use.
class ModelBuilder {
 public:
  explicit ModelBuilder(std::string source = "synthetic.tflite") {
    model_.source = std::move(source);
    model_.version = 3;
    model_.subgraphs.emplace_back();
    model_.subgraphs[0].name = "main";
    model_.buffers.emplace_back();  // Buffer 0: no data (the schema's rule).
  }

  /// A tensor without data named "t<index>"; int8 tensors are quantized
  /// with `scale` and `zero_point`, other types only when `scale` > 0.
  std::int32_t Tensor(std::vector<std::int32_t> shape,
                      tflite::TensorType type = tflite::TensorType::kInt8,
                      float scale = 0.5f, std::int64_t zero_point = 0) {
    tflite::Tensor t;
    // Appended, not "t" + ...: GCC 12 warns (-Wrestrict, a false positive)
    // on operator+(const char*, std::string&&) inlined here.
    t.name = "t";
    t.name += std::to_string(graph().tensors.size());
    t.type = type;
    t.shape = std::move(shape);
    if (type == tflite::TensorType::kInt8 || scale > 0.0f) {
      t.quantization.scale = {scale};
      t.quantization.zero_point = {zero_point};
    }
    graph().tensors.push_back(std::move(t));
    return static_cast<std::int32_t>(graph().tensors.size() - 1);
  }

  /// A constant tensor holding `bytes` (little-endian, as a file stores
  /// them); the caller gives as many bytes as the shape and type need.
  std::int32_t Constant(std::vector<std::int32_t> shape,
                        tflite::TensorType type,
                        std::vector<std::uint8_t> bytes, float scale = 0.5f,
                        std::int64_t zero_point = 0) {
    const std::int32_t t = Tensor(std::move(shape), type, scale, zero_point);
    model_.buffers.push_back({});
    model_.buffers.back().data = std::move(bytes);
    graph().tensors[static_cast<std::size_t>(t)].buffer =
        static_cast<std::uint32_t>(model_.buffers.size() - 1);
    return t;
  }

  /// A constant int32 vector (shapes, axes, paddings, biases).
  std::int32_t Int32Constant(const std::vector<std::int32_t>& values) {
    std::vector<std::uint8_t> bytes;
    for (std::int32_t v : values) {
      const auto u = static_cast<std::uint32_t>(v);
      for (int b = 0; b < 4; ++b) {
        bytes.push_back(static_cast<std::uint8_t>(u >> (8 * b)));
      }
    }
    return Constant({static_cast<std::int32_t>(values.size())},
                    tflite::TensorType::kInt32, std::move(bytes), 0.0f);
  }

  /// Appends an operator (executed in the order added).
  void Op(tflite::BuiltinOp code, std::vector<std::int32_t> inputs,
          std::vector<std::int32_t> outputs,
          tflite::BuiltinOptions options = {}) {
    tflite::Operator op;
    op.builtin_code = code;
    op.builtin_name = tflite::BuiltinOpName(code);
    op.inputs = std::move(inputs);
    op.outputs = std::move(outputs);
    op.options = std::move(options);
    graph().operators.push_back(std::move(op));
  }

  /// The model with these graph inputs and outputs.
  [[nodiscard]] tflite::Model Finish(std::vector<std::int32_t> inputs,
                                     std::vector<std::int32_t> outputs) {
    graph().inputs = std::move(inputs);
    graph().outputs = std::move(outputs);
    return model_;
  }

  tflite::Model& model() { return model_; }
  tflite::Subgraph& graph() { return model_.subgraphs[0]; }

 private:
  tflite::Model model_;
};

namespace model_writer_detail {

namespace fb = ::arenaplan::tflite::fb;
using Union = std::pair<fb::BuiltinOptions, flatbuffers::Offset<void>>;

inline std::int8_t Act(tflite::Activation a) {
  return static_cast<std::int8_t>(a);
}
inline std::int8_t Pad(tflite::Padding p) {
  return static_cast<std::int8_t>(p);
}

/// The options union of `op` (its type depends on the operator code for
/// the options structs several operators share). Throws for a kind this
/// writer does not know, so that a test never writes a silently wrong file.
inline Union WriteOptions(flatbuffers::FlatBufferBuilder& fbb,
                          const tflite::Operator& op) {
  using tflite::BuiltinOp;
  const BuiltinOp code = op.builtin_code;
  return std::visit(
      [&](const auto& o) -> Union {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return {fb::BuiltinOptions::NONE, 0};
        } else if constexpr (std::is_same_v<T,
                                            tflite::DepthwiseConv2DOptions>) {
          return {fb::BuiltinOptions::DepthwiseConv2DOptions,
                  fb::CreateDepthwiseConv2DOptions(
                      fbb, Pad(o.padding), o.stride_w, o.stride_h,
                      o.depth_multiplier, Act(o.activation), o.dilation_w,
                      o.dilation_h)
                      .Union()};
        } else if constexpr (std::is_same_v<T, tflite::Conv2DOptions>) {
          return {fb::BuiltinOptions::Conv2DOptions,
                  fb::CreateConv2DOptions(fbb, Pad(o.padding), o.stride_w,
                                          o.stride_h, Act(o.activation),
                                          o.dilation_w, o.dilation_h)
                      .Union()};
        } else if constexpr (std::is_same_v<T, tflite::Pool2DOptions>) {
          return {fb::BuiltinOptions::Pool2DOptions,
                  fb::CreatePool2DOptions(fbb, Pad(o.padding), o.stride_w,
                                          o.stride_h, o.filter_w, o.filter_h,
                                          Act(o.activation))
                      .Union()};
        } else if constexpr (std::is_same_v<T, tflite::FullyConnectedOptions>) {
          return {fb::BuiltinOptions::FullyConnectedOptions,
                  fb::CreateFullyConnectedOptions(
                      fbb, Act(o.activation), o.weights_format, o.keep_num_dims,
                      o.asymmetric_quantize_inputs, o.quantized_bias_type)
                      .Union()};
        } else if constexpr (std::is_same_v<T, tflite::SvdfOptions>) {
          return {fb::BuiltinOptions::SVDFOptions,
                  fb::CreateSVDFOptions(fbb, o.rank, Act(o.activation),
                                        o.asymmetric_quantize_inputs)
                      .Union()};
        } else if constexpr (std::is_same_v<T, tflite::SoftmaxOptions>) {
          return {fb::BuiltinOptions::SoftmaxOptions,
                  fb::CreateSoftmaxOptions(fbb, o.beta).Union()};
        } else if constexpr (std::is_same_v<T, tflite::ReshapeOptions>) {
          return {fb::BuiltinOptions::ReshapeOptions,
                  fb::CreateReshapeOptionsDirect(fbb, &o.new_shape).Union()};
        } else if constexpr (std::is_same_v<T, tflite::ElementwiseOptions>) {
          switch (code) {
            case BuiltinOp::kAdd:
              return {fb::BuiltinOptions::AddOptions,
                      fb::CreateAddOptions(fbb, Act(o.activation),
                                           o.pot_scale_int16)
                          .Union()};
            case BuiltinOp::kSub:
              return {fb::BuiltinOptions::SubOptions,
                      fb::CreateSubOptions(fbb, Act(o.activation),
                                           o.pot_scale_int16)
                          .Union()};
            case BuiltinOp::kMul:
              return {fb::BuiltinOptions::MulOptions,
                      fb::CreateMulOptions(fbb, Act(o.activation)).Union()};
            case BuiltinOp::kDiv:
              return {fb::BuiltinOptions::DivOptions,
                      fb::CreateDivOptions(fbb, Act(o.activation)).Union()};
            default:
              break;
          }
        } else if constexpr (std::is_same_v<T, tflite::ConcatenationOptions>) {
          return {fb::BuiltinOptions::ConcatenationOptions,
                  fb::CreateConcatenationOptions(fbb, o.axis, Act(o.activation))
                      .Union()};
        } else if constexpr (std::is_same_v<T, tflite::SqueezeOptions>) {
          return {fb::BuiltinOptions::SqueezeOptions,
                  fb::CreateSqueezeOptionsDirect(fbb, &o.squeeze_dims).Union()};
        } else if constexpr (std::is_same_v<T, tflite::StridedSliceOptions>) {
          return {fb::BuiltinOptions::StridedSliceOptions,
                  fb::CreateStridedSliceOptions(
                      fbb, o.begin_mask, o.end_mask, o.ellipsis_mask,
                      o.new_axis_mask, o.shrink_axis_mask, o.offset)
                      .Union()};
        } else if constexpr (std::is_same_v<T, tflite::ReducerOptions>) {
          return {fb::BuiltinOptions::ReducerOptions,
                  fb::CreateReducerOptions(fbb, o.keep_dims).Union()};
        } else if constexpr (std::is_same_v<T, tflite::LeakyReluOptions>) {
          return {fb::BuiltinOptions::LeakyReluOptions,
                  fb::CreateLeakyReluOptions(fbb, o.alpha).Union()};
        } else if constexpr (std::is_same_v<T, tflite::UnpackOptions>) {
          return {fb::BuiltinOptions::UnpackOptions,
                  fb::CreateUnpackOptions(fbb, o.num, o.axis).Union()};
        } else if constexpr (std::is_same_v<
                                 T, tflite::ResizeNearestNeighborOptions>) {
          return {fb::BuiltinOptions::ResizeNearestNeighborOptions,
                  fb::CreateResizeNearestNeighborOptions(fbb, o.align_corners,
                                                         o.half_pixel_centers)
                      .Union()};
        } else if constexpr (std::is_same_v<T, tflite::ResizeBilinearOptions>) {
          return {fb::BuiltinOptions::ResizeBilinearOptions,
                  fb::CreateResizeBilinearOptions(fbb, o.align_corners,
                                                  o.half_pixel_centers)
                      .Union()};
        } else if constexpr (std::is_same_v<T, tflite::GatherOptions>) {
          return {fb::BuiltinOptions::GatherOptions,
                  fb::CreateGatherOptions(fbb, o.axis, o.batch_dims).Union()};
        } else if constexpr (std::is_same_v<T, tflite::TransposeConvOptions>) {
          return {fb::BuiltinOptions::TransposeConvOptions,
                  fb::CreateTransposeConvOptions(
                      fbb, Pad(o.padding), o.stride_w, o.stride_h,
                      Act(o.activation), o.quantized_bias_type)
                      .Union()};
        } else if constexpr (std::is_same_v<T, tflite::BatchMatMulOptions>) {
          return {fb::BuiltinOptions::BatchMatMulOptions,
                  fb::CreateBatchMatMulOptions(fbb, o.adj_x, o.adj_y,
                                               o.asymmetric_quantize_inputs)
                      .Union()};
        } else if constexpr (std::is_same_v<T, tflite::SequenceLstmOptions>) {
          return {fb::BuiltinOptions::UnidirectionalSequenceLSTMOptions,
                  fb::CreateUnidirectionalSequenceLSTMOptions(
                      fbb, Act(o.activation), o.cell_clip, o.proj_clip,
                      o.time_major, o.asymmetric_quantize_inputs,
                      o.diagonal_recurrent_tensors)
                      .Union()};
        }
        throw std::logic_error("SerializeModel: no writer for the options of " +
                               op.builtin_name);
      },
      op.options);
}

inline flatbuffers::Offset<fb::Tensor> WriteTensor(
    flatbuffers::FlatBufferBuilder& fbb, const tflite::Tensor& t) {
  flatbuffers::Offset<fb::QuantizationParameters> q = 0;
  if (!t.quantization.scale.empty() || !t.quantization.zero_point.empty()) {
    q = fb::CreateQuantizationParametersDirect(
        fbb, nullptr, nullptr, &t.quantization.scale,
        &t.quantization.zero_point, fb::QuantizationDetails::NONE, 0,
        t.quantization.quantized_dimension);
  }
  return fb::CreateTensorDirect(
      fbb, &t.shape, static_cast<std::int8_t>(t.type), t.buffer, t.name.c_str(),
      q, t.is_variable, 0,
      t.shape_signature.empty() ? nullptr : &t.shape_signature);
}

}  // namespace model_writer_detail

/// Writes the options table of an operator; returns its union type and
/// offset ({NONE, 0}: no options).
using OptionsWriter = std::function<model_writer_detail::Union(
    flatbuffers::FlatBufferBuilder&, const tflite::Operator&)>;

/// `model` as the bytes of a .tflite file (schema version 3, "TFL3"): one
/// operator code per distinct (builtin, custom code, version), in order of
/// first use; buffers, tensors and operators in the model's order; each
/// operator's options written by `write_options` (by default from its
/// tflite::BuiltinOptions).
[[nodiscard]] inline std::vector<std::uint8_t> SerializeModel(
    const tflite::Model& model,
    const OptionsWriter& write_options = model_writer_detail::WriteOptions) {
  namespace fb = ::arenaplan::tflite::fb;
  using model_writer_detail::WriteTensor;
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<fb::OperatorCode>> codes;
  std::map<std::tuple<int, std::string, int>, std::uint32_t> code_index;
  std::vector<flatbuffers::Offset<fb::SubGraph>> graphs;
  for (const tflite::Subgraph& g : model.subgraphs) {
    std::vector<flatbuffers::Offset<fb::Tensor>> tensors;
    for (const tflite::Tensor& t : g.tensors) {
      tensors.push_back(WriteTensor(fbb, t));
    }
    std::vector<flatbuffers::Offset<fb::Operator>> ops;
    for (const tflite::Operator& op : g.operators) {
      const int builtin = static_cast<int>(op.builtin_code);
      const auto key = std::make_tuple(builtin, op.custom_code, op.version);
      auto [it, added] = code_index.emplace(
          key, static_cast<std::uint32_t>(code_index.size()));
      if (added) {
        // Codes above 127 are stored in builtin_code only, with the
        // deprecated byte at 127 (PLACEHOLDER_FOR_GREATER_OP_CODES).
        codes.push_back(fb::CreateOperatorCodeDirect(
            fbb, static_cast<std::int8_t>(builtin < 127 ? builtin : 127),
            op.custom_code.empty() ? nullptr : op.custom_code.c_str(),
            op.version, builtin));
      }
      const auto [type, options] = write_options(fbb, op);
      ops.push_back(fb::CreateOperatorDirect(fbb, it->second, &op.inputs,
                                             &op.outputs, type, options));
    }
    graphs.push_back(fb::CreateSubGraphDirect(
        fbb, &tensors, &g.inputs, &g.outputs, &ops, g.name.c_str()));
  }
  std::vector<flatbuffers::Offset<fb::Buffer>> buffers;
  for (const tflite::Buffer& b : model.buffers) {
    if (b.data.empty()) {
      buffers.push_back(fb::CreateBuffer(fbb));
      continue;
    }
    fbb.ForceVectorAlignment(b.data.size(), sizeof(std::uint8_t), 16);
    buffers.push_back(fb::CreateBuffer(fbb, fbb.CreateVector(b.data)));
  }
  const auto root = fb::CreateModelDirect(
      fbb, model.version, &codes, &graphs,
      model.description.empty() ? nullptr : model.description.c_str(),
      &buffers);
  fb::FinishModelBuffer(fbb, root);
  return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

}  // namespace arenaplan::testing_util

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_MODEL_BUILDER_HPP_
