// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// A TensorFlow Lite model read into plain C++ values: everything the memory
// planner and the firmware generator need, with no flatbuffers types. The
// reader verifies the file with the flatbuffers verifier and checks every
// index it keeps, so a Model returned by ReadModel() is safe to walk: every
// tensor index in it is in range (operator inputs may be -1 = optional
// input left out), every buffer index is in range, every type is known.
#ifndef ARENAPLAN_CODEGEN_TFLITE_MODEL_HPP_
#define ARENAPLAN_CODEGEN_TFLITE_MODEL_HPP_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "codegen/tflite/builtin_ops.hpp"

namespace arenaplan::tflite {

/// TFLite `TensorType` values (schema v3).
enum class TensorType : std::int8_t {
  kFloat32 = 0,
  kFloat16 = 1,
  kInt32 = 2,
  kUint8 = 3,
  kInt64 = 4,
  kString = 5,
  kBool = 6,
  kInt16 = 7,
  kComplex64 = 8,
  kInt8 = 9,
  kFloat64 = 10,
  kComplex128 = 11,
  kUint64 = 12,
  kResource = 13,
  kVariant = 14,
  kUint32 = 15,
  kUint16 = 16,
  kInt4 = 17,
};
/// Largest TensorType value the reader accepts.
inline constexpr int kMaxTensorType = 17;

/// "FLOAT32", "INT8", ...; "TYPE_<n>" for values outside the enum.
[[nodiscard]] std::string TensorTypeName(TensorType type);

/// A shape as text, e.g. "[1,96,96,3]"; "[]" for a scalar. The one
/// shape-to-text helper of the generator (messages, inspect, comments).
[[nodiscard]] std::string ShapeText(std::span<const std::int32_t> shape);
/// Bytes per element of a dense tensor of `type`; nullopt for types whose
/// elements have no static size (STRING, RESOURCE, VARIANT, INT4 packed).
[[nodiscard]] std::optional<std::uint32_t> ElementSize(TensorType type);

enum class Padding : std::uint8_t { kSame = 0, kValid = 1 };
/// Fused activation (`ActivationFunctionType`), stored as in the file.
enum class Activation : std::uint8_t {
  kNone = 0,
  kRelu = 1,
  kReluN1To1 = 2,
  kRelu6 = 3,
  kTanh = 4,
  kSignBit = 5,
};

// Decoded builtin options. Field meanings and defaults are the schema's.
/// What every 2-D window operator's options hold.
struct WindowOptions {
  Padding padding = Padding::kSame;
  std::int32_t stride_w = 0, stride_h = 0;
  Activation activation = Activation::kNone;
};
struct Conv2DOptions : WindowOptions {
  std::int32_t dilation_w = 1, dilation_h = 1;
};
struct DepthwiseConv2DOptions : Conv2DOptions {
  std::int32_t depth_multiplier = 0;
};
/// AVERAGE_POOL_2D, MAX_POOL_2D, L2_POOL_2D.
struct Pool2DOptions : WindowOptions {
  std::int32_t filter_w = 0, filter_h = 0;
};
struct FullyConnectedOptions {
  Activation activation = Activation::kNone;
  std::int8_t weights_format = 0;  ///< 0 DEFAULT, 1 SHUFFLED4x16INT8.
  bool keep_num_dims = false;
  bool asymmetric_quantize_inputs = false;
  /// The schema's quantized_bias_type (a TensorType; 0 FLOAT32 = unset).
  std::int8_t quantized_bias_type = 0;
};
struct SvdfOptions {
  std::int32_t rank = 0;
  Activation activation = Activation::kNone;
  bool asymmetric_quantize_inputs = false;
};
struct SoftmaxOptions {
  float beta = 0.0f;
};
struct ReshapeOptions {
  std::vector<std::int32_t> new_shape;  ///< Empty when absent.
};
/// ADD, SUB, MUL, DIV.
struct ElementwiseOptions {
  Activation activation = Activation::kNone;
  bool pot_scale_int16 = true;  ///< ADD and SUB only.
};
struct ConcatenationOptions {
  std::int32_t axis = 0;
  Activation activation = Activation::kNone;
};
struct SqueezeOptions {
  std::vector<std::int32_t> squeeze_dims;
};
struct StridedSliceOptions {
  std::int32_t begin_mask = 0, end_mask = 0, ellipsis_mask = 0;
  std::int32_t new_axis_mask = 0, shrink_axis_mask = 0;
  bool offset = false;
};
/// MEAN, SUM, REDUCE_MAX, ...
struct ReducerOptions {
  bool keep_dims = false;
};
struct LeakyReluOptions {
  float alpha = 0.0f;
};
struct UnpackOptions {
  std::int32_t num = 0;  ///< Number of outputs.
  std::int32_t axis = 0;
};
struct ResizeNearestNeighborOptions {
  bool align_corners = false;
  bool half_pixel_centers = false;
};
struct ResizeBilinearOptions {
  bool align_corners = false;
  bool half_pixel_centers = false;
};
struct GatherOptions {
  std::int32_t axis = 0;
  std::int32_t batch_dims = 0;
};
struct TransposeConvOptions : WindowOptions {
  /// The schema's quantized_bias_type (a TensorType; 0 FLOAT32 = unset).
  std::int8_t quantized_bias_type = 0;
};
struct BatchMatMulOptions {
  bool adj_x = false, adj_y = false;
  bool asymmetric_quantize_inputs = false;
};
/// UNIDIRECTIONAL_SEQUENCE_LSTM (clips: 0 = none).
struct SequenceLstmOptions {
  Activation activation = Activation::kNone;
  float cell_clip = 0.0f, proj_clip = 0.0f;
  bool time_major = false;  ///< Input [time, batch, ...], else [batch, time].
  bool asymmetric_quantize_inputs = false;
  bool diagonal_recurrent_tensors = false;
};
/// IF, WHILE, CALL_ONCE, CALL: the subgraphs the operator runs (-1: none).
struct ControlFlowOptions {
  std::int32_t first_subgraph = -1;   ///< then / cond / init / called.
  std::int32_t second_subgraph = -1;  ///< else / body.
};

/// monostate: the operator has no options, or options of a kind this reader
/// does not decode (consumers that need them report the operator).
using BuiltinOptions =
    std::variant<std::monostate, Conv2DOptions, DepthwiseConv2DOptions,
                 Pool2DOptions, FullyConnectedOptions, SoftmaxOptions,
                 ReshapeOptions, ElementwiseOptions, ConcatenationOptions,
                 SqueezeOptions, StridedSliceOptions, ReducerOptions,
                 LeakyReluOptions, ControlFlowOptions, SvdfOptions,
                 ResizeNearestNeighborOptions, UnpackOptions,
                 ResizeBilinearOptions, GatherOptions, TransposeConvOptions,
                 BatchMatMulOptions, SequenceLstmOptions>;

/// Per-tensor or per-channel affine quantization: real = scale * (q - zp).
struct Quantization {
  std::vector<float> scale;  ///< Empty: not quantized.
  std::vector<std::int64_t> zero_point;
  std::int32_t quantized_dimension = 0;
};

struct Tensor {
  std::string name;
  TensorType type = TensorType::kFloat32;
  std::vector<std::int32_t> shape;  ///< May hold -1 (dynamic).
  /// The schema's optional `shape_signature` (-1 = unknown dimension);
  /// empty when the file has none.
  std::vector<std::int32_t> shape_signature;
  std::uint32_t buffer = 0;  ///< Index into Model::buffers (0 = no data).
  bool is_variable = false;
  Quantization quantization;
  /// Set only by FoldGraph (codegen/tflite/fold.hpp), never read from a
  /// file: the tensor lives inside tensor `alias_of` (which is no alias
  /// itself), starting `alias_offset` bytes into it, and gets no record of
  /// its own. -1: not an alias.
  std::int32_t alias_of = -1;
  std::uint64_t alias_offset = 0;
};

struct Buffer {
  /// Constant data, copied out of the file (little-endian, as stored).
  std::vector<std::uint8_t> data;
  /// Models over 2 GiB keep data outside the flatbuffer: file offset and
  /// size in bytes (both 0 when unused; the schema says valid when > 1).
  std::uint64_t external_offset = 0;
  std::uint64_t external_size = 0;
  [[nodiscard]] bool HasData() const {
    return !data.empty() || (external_offset > 1 && external_size > 0);
  }
};

struct Operator {
  /// max(deprecated_builtin_code, builtin_code) of the file.
  BuiltinOp builtin_code = BuiltinOp::kAdd;
  std::string builtin_name;  ///< BuiltinOpName(builtin_code).
  std::string custom_code;   ///< CUSTOM operators only.
  std::int32_t version = 1;
  std::vector<std::int32_t> inputs;  ///< Tensor indices; -1 = left out.
  std::vector<std::int32_t> outputs;
  std::vector<std::int32_t> intermediates;
  BuiltinOptions options;
  /// Set only by FoldGraph (codegen/tflite/fold.hpp), never read from a
  /// file. `folded` non-empty: the operator was removed from the graph (a
  /// PAD folded into its consumer, a CONCATENATION written in place, a
  /// RESHAPE made an alias); it says where its work went, the operator
  /// touches no tensor and runs no kernel. `extra_padding`: elements a
  /// folded PAD put around input 0's rows (top, bottom) and columns (left,
  /// right), which tflite::CheckConv / CheckPool add to the operator's own.
  std::string folded;
  struct ExtraPadding {
    std::int32_t top = 0, bottom = 0, left = 0, right = 0;
  } extra_padding;
};

struct Subgraph {
  std::string name;
  std::vector<Tensor> tensors;
  std::vector<std::int32_t> inputs;   ///< Graph input tensor indices.
  std::vector<std::int32_t> outputs;  ///< Graph output tensor indices.
  std::vector<Operator> operators;    ///< In execution order.
};

struct MetadataEntry {
  std::string name;
  std::uint32_t buffer = 0;  ///< Index into Model::buffers.
};

struct Model {
  std::string source;  ///< The path (or name) errors are reported against.
  std::uint32_t version = 0;
  std::string description;
  std::vector<Subgraph> subgraphs;  ///< At least one; [0] is the main graph.
  std::vector<Buffer> buffers;
  std::vector<MetadataEntry> metadata;

  /// True when tensor `t` holds constant data (its buffer has bytes).
  [[nodiscard]] bool IsConstant(const Tensor& t) const {
    return t.buffer < buffers.size() && buffers[t.buffer].HasData();
  }
};

/// True for an int8 activation as the lowering accepts it
/// (compile::Lowerer::Int8Activation): one finite positive scale and one
/// zero point in [-128, 127]. The overlap contracts and the fused segments
/// use it to stay within what compile lowers.
[[nodiscard]] bool IsInt8Activation(const Tensor& t);

/// Verifies `bytes` as a TFLite flatbuffer ("TFL3") and reads it. Errors
/// throw InputError "SOURCE: place: what" (never read past the input).
[[nodiscard]] Model ReadModel(std::span<const std::uint8_t> bytes,
                              const std::string& source);

/// Reads the whole file at `path` (InputError when it cannot).
[[nodiscard]] std::vector<std::uint8_t> ReadFileBytes(const std::string& path);

/// ReadModel(ReadFileBytes(path), path).
[[nodiscard]] Model ReadModelFile(const std::string& path);

}  // namespace arenaplan::tflite

#endif  // ARENAPLAN_CODEGEN_TFLITE_MODEL_HPP_
