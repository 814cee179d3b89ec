// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflite/model.hpp"

#include <algorithm>
#include <cmath>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <type_traits>

#include "codegen/base/errors.hpp"
#include "codegen/input/input.hpp"
#include "tflite_subset_generated.h"

namespace arenaplan::tflite {
namespace {

namespace fb = ::arenaplan::tflite::fb;

constexpr std::array<std::string_view, kMaxTensorType + 1> kTypeNames = {
    "FLOAT32", "FLOAT16",  "INT32",     "UINT8",  "INT64",   "STRING",
    "BOOL",    "INT16",    "COMPLEX64", "INT8",   "FLOAT64", "COMPLEX128",
    "UINT64",  "RESOURCE", "VARIANT",   "UINT32", "UINT16",  "INT4"};

/// Largest file accepted: flatbuffers' 32-bit offsets address 2 GiB.
constexpr std::size_t kMaxModelBytes = std::size_t{1} << 31;

/// Copies an optional flatbuffers vector of scalars (null = empty).
/// Elements are copied byte-wise: the verifier checks only the 4-byte
/// alignment of a vector's length prefix, so a 64-bit element may sit off
/// its natural alignment in a file that verifies (and any element may, when
/// the caller's span is not 8-byte aligned).
template <typename Out, typename In>
std::vector<Out> ToVector(const flatbuffers::Vector<In>* v) {
  static_assert(std::is_arithmetic_v<In>);
  std::vector<Out> out;
  if (v == nullptr) return out;
  out.reserve(v->size());
  const std::uint8_t* p = v->Data();
  for (flatbuffers::uoffset_t i = 0; i < v->size(); ++i, p += sizeof(In)) {
    In x;
    std::memcpy(&x, p, sizeof(In));
    out.push_back(static_cast<Out>(flatbuffers::EndianScalar(x)));
  }
  return out;
}

std::string Str(const flatbuffers::String* s) {
  return s == nullptr ? std::string() : std::string(s->data(), s->size());
}

class Reader {
 public:
  explicit Reader(const std::string& source) : source_(source) {}

  [[noreturn]] void Fail(const std::string& place,
                         const std::string& what) const {
    throw InputError(source_ + ": " + place + ": " + what);
  }

  void CheckTensorIndices(const std::vector<std::int32_t>& indices,
                          std::size_t tensor_count, bool allow_missing,
                          const std::string& place) const {
    for (std::size_t i = 0; i < indices.size(); ++i) {
      const std::int32_t t = indices[i];
      if (t == -1 && allow_missing) continue;
      if (t < 0 || static_cast<std::size_t>(t) >= tensor_count) {
        Fail(place + " " + std::to_string(i),
             "tensor index " + std::to_string(t) + " out of range (" +
                 std::to_string(tensor_count) + " tensors)");
      }
    }
  }

  Tensor ReadTensor(const fb::Tensor& in, std::size_t buffer_count,
                    const std::string& place) const {
    Tensor t;
    t.name = Str(in.name());
    const int type = in.type();
    if (type < 0 || type > kMaxTensorType) {
      Fail(place, "unknown tensor type " + std::to_string(type));
    }
    t.type = static_cast<TensorType>(type);
    t.shape = ToVector<std::int32_t>(in.shape());
    t.shape_signature = ToVector<std::int32_t>(in.shape_signature());
    t.buffer = in.buffer();
    if (t.buffer >= buffer_count && !(t.buffer == 0 && buffer_count == 0)) {
      Fail(place, "buffer index " + std::to_string(t.buffer) +
                      " out of range (" + std::to_string(buffer_count) +
                      " buffers)");
    }
    t.is_variable = in.is_variable();
    if (const auto* q = in.quantization()) {
      t.quantization.scale = ToVector<float>(q->scale());
      t.quantization.zero_point = ToVector<std::int64_t>(q->zero_point());
      t.quantization.quantized_dimension = q->quantized_dimension();
    }
    return t;
  }

  /// The WindowOptions fields of a flatbuffers Conv2D, DepthwiseConv2D or
  /// Pool2D options table, in an `Out`.
  template <class Out, class Fb>
  static Out WindowFields(const Fb& o) {
    Out out;
    out.padding = static_cast<Padding>(o.padding());
    out.stride_w = o.stride_w();
    out.stride_h = o.stride_h();
    out.activation = static_cast<Activation>(o.fused_activation_function());
    return out;
  }
  /// WindowFields and the dilation of a convolution's options.
  template <class Out, class Fb>
  static Out ConvFields(const Fb& o) {
    Out out = WindowFields<Out>(o);
    out.dilation_w = o.dilation_w_factor();
    out.dilation_h = o.dilation_h_factor();
    return out;
  }
  /// ADD's or SUB's options (the same fields).
  template <class Fb>
  static ElementwiseOptions AddSubFields(const Fb& o) {
    return ElementwiseOptions{
        static_cast<Activation>(o.fused_activation_function()),
        o.pot_scale_int16()};
  }

  static BuiltinOptions ReadOptions(const fb::Operator& op) {
    using T = fb::BuiltinOptions;
    // The verifier accepts a union whose type is set but whose table is
    // absent; that reads as "no options", like a kind this reader skips.
    if (op.builtin_options() == nullptr) return std::monostate{};
    switch (op.builtin_options_type()) {
      case T::Conv2DOptions:
        return ConvFields<Conv2DOptions>(
            *op.builtin_options_as_Conv2DOptions());
      case T::DepthwiseConv2DOptions: {
        const auto* o = op.builtin_options_as_DepthwiseConv2DOptions();
        auto d = ConvFields<DepthwiseConv2DOptions>(*o);
        d.depth_multiplier = o->depth_multiplier();
        return d;
      }
      case T::Pool2DOptions: {
        const auto* o = op.builtin_options_as_Pool2DOptions();
        auto p = WindowFields<Pool2DOptions>(*o);
        p.filter_w = o->filter_width();
        p.filter_h = o->filter_height();
        return p;
      }
      case T::FullyConnectedOptions: {
        const auto* o = op.builtin_options_as_FullyConnectedOptions();
        return FullyConnectedOptions{
            static_cast<Activation>(o->fused_activation_function()),
            o->weights_format(), o->keep_num_dims(),
            o->asymmetric_quantize_inputs(), o->quantized_bias_type()};
      }
      case T::SVDFOptions: {
        const auto* o = op.builtin_options_as_SVDFOptions();
        return SvdfOptions{
            o->rank(), static_cast<Activation>(o->fused_activation_function()),
            o->asymmetric_quantize_inputs()};
      }
      case T::SoftmaxOptions:
        return SoftmaxOptions{op.builtin_options_as_SoftmaxOptions()->beta()};
      case T::ReshapeOptions:
        return ReshapeOptions{ToVector<std::int32_t>(
            op.builtin_options_as_ReshapeOptions()->new_shape())};
      default:
        return ReadElementwiseAndShapeOptions(op);
    }
  }

  /// ReadOptions for the element-wise, shape and reduction operators.
  static BuiltinOptions ReadElementwiseAndShapeOptions(const fb::Operator& op) {
    using T = fb::BuiltinOptions;
    switch (op.builtin_options_type()) {
      case T::AddOptions:
        return AddSubFields(*op.builtin_options_as_AddOptions());
      case T::SubOptions:
        return AddSubFields(*op.builtin_options_as_SubOptions());
      case T::MulOptions:
        return ElementwiseOptions{static_cast<Activation>(
            op.builtin_options_as_MulOptions()->fused_activation_function())};
      case T::DivOptions:
        return ElementwiseOptions{static_cast<Activation>(
            op.builtin_options_as_DivOptions()->fused_activation_function())};
      case T::ConcatenationOptions: {
        const auto* o = op.builtin_options_as_ConcatenationOptions();
        return ConcatenationOptions{
            o->axis(), static_cast<Activation>(o->fused_activation_function())};
      }
      case T::SqueezeOptions:
        return SqueezeOptions{ToVector<std::int32_t>(
            op.builtin_options_as_SqueezeOptions()->squeeze_dims())};
      case T::StridedSliceOptions: {
        const auto* o = op.builtin_options_as_StridedSliceOptions();
        return StridedSliceOptions{o->begin_mask(),       o->end_mask(),
                                   o->ellipsis_mask(),    o->new_axis_mask(),
                                   o->shrink_axis_mask(), o->offset()};
      }
      case T::ReducerOptions:
        return ReducerOptions{
            op.builtin_options_as_ReducerOptions()->keep_dims()};
      case T::LeakyReluOptions:
        return LeakyReluOptions{
            op.builtin_options_as_LeakyReluOptions()->alpha()};
      case T::UnpackOptions: {
        const auto* o = op.builtin_options_as_UnpackOptions();
        return UnpackOptions{o->num(), o->axis()};
      }
      case T::UnidirectionalSequenceLSTMOptions: {
        const auto* o =
            op.builtin_options_as_UnidirectionalSequenceLSTMOptions();
        return SequenceLstmOptions{
            static_cast<Activation>(o->fused_activation_function()),
            o->cell_clip(),
            o->proj_clip(),
            o->time_major(),
            o->asymmetric_quantize_inputs(),
            o->diagonal_recurrent_tensors()};
      }
      case T::ResizeNearestNeighborOptions: {
        const auto* o = op.builtin_options_as_ResizeNearestNeighborOptions();
        return ResizeNearestNeighborOptions{o->align_corners(),
                                            o->half_pixel_centers()};
      }
      case T::ResizeBilinearOptions: {
        const auto* o = op.builtin_options_as_ResizeBilinearOptions();
        return ResizeBilinearOptions{o->align_corners(),
                                     o->half_pixel_centers()};
      }
      case T::GatherOptions: {
        const auto* o = op.builtin_options_as_GatherOptions();
        return GatherOptions{o->axis(), o->batch_dims()};
      }
      case T::TransposeConvOptions: {
        const auto* o = op.builtin_options_as_TransposeConvOptions();
        auto t = WindowFields<TransposeConvOptions>(*o);
        t.quantized_bias_type = o->quantized_bias_type();
        return t;
      }
      case T::BatchMatMulOptions: {
        const auto* o = op.builtin_options_as_BatchMatMulOptions();
        return BatchMatMulOptions{o->adj_x(), o->adj_y(),
                                  o->asymmetric_quantize_inputs()};
      }
      default:
        return ReadControlFlowOptions(op);
    }
  }

  /// ReadOptions for IF, WHILE, CALL_ONCE and CALL.
  static BuiltinOptions ReadControlFlowOptions(const fb::Operator& op) {
    using T = fb::BuiltinOptions;
    switch (op.builtin_options_type()) {
      case T::IfOptions: {
        const auto* o = op.builtin_options_as_IfOptions();
        return ControlFlowOptions{o->then_subgraph_index(),
                                  o->else_subgraph_index()};
      }
      case T::WhileOptions: {
        const auto* o = op.builtin_options_as_WhileOptions();
        return ControlFlowOptions{o->cond_subgraph_index(),
                                  o->body_subgraph_index()};
      }
      case T::CallOnceOptions:
        return ControlFlowOptions{
            op.builtin_options_as_CallOnceOptions()->init_subgraph_index(), -1};
      case T::CallOptions: {
        const std::uint32_t s = op.builtin_options_as_CallOptions()->subgraph();
        return ControlFlowOptions{
            s > static_cast<std::uint32_t>(
                    std::numeric_limits<std::int32_t>::max())
                ? -2
                : static_cast<std::int32_t>(s),
            -1};
      }
      default:
        return std::monostate{};
    }
  }

  Model Read(std::span<const std::uint8_t> bytes) {
    if (bytes.size() < 8) Fail("header", "file too short for a flatbuffer");
    if (bytes.size() >= kMaxModelBytes) Fail("header", "file over 2 GiB");
    if (!fb::ModelBufferHasIdentifier(bytes.data())) {
      Fail("header", "file identifier is not \"TFL3\" (not a TFLite model)");
    }
    flatbuffers::Verifier verifier(bytes.data(), bytes.size());
    if (!fb::VerifyModelBuffer(verifier)) {
      Fail("flatbuffer",
           "rejected by the flatbuffers verifier (truncated or "
           "corrupted file)");
    }
    const fb::Model* in = fb::GetModel(bytes.data());
    Model m;
    m.source = source_;
    m.version = in->version();
    m.description = Str(in->description());
    ReadBuffersAndMetadata(*in, m);
    const std::vector<Code> codes = ReadCodes(*in);
    const auto* subgraphs = in->subgraphs();
    if (subgraphs == nullptr || subgraphs->size() == 0) {
      Fail("model", "no subgraphs");
    }
    for (flatbuffers::uoffset_t s = 0; s < subgraphs->size(); ++s) {
      m.subgraphs.push_back(ReadSubgraph(*subgraphs->Get(s),
                                         "subgraph " + std::to_string(s),
                                         m.buffers.size(), codes));
    }
    return m;
  }

 private:
  /// One entry of the model's operator_codes.
  struct Code {
    std::int32_t builtin;
    std::string custom;
    std::int32_t version;
  };

  void ReadBuffersAndMetadata(const fb::Model& in, Model& m) const {
    if (const auto* buffers = in.buffers()) {
      m.buffers.reserve(buffers->size());
      for (flatbuffers::uoffset_t i = 0; i < buffers->size(); ++i) {
        const fb::Buffer* b = buffers->Get(i);
        Buffer out;
        if (b->data() != nullptr) {
          out.data.assign(b->data()->begin(), b->data()->end());
        }
        out.external_offset = b->offset();
        out.external_size = b->size();
        m.buffers.push_back(std::move(out));
      }
    }
    const std::size_t buffer_count = m.buffers.size();
    if (const auto* meta = in.metadata()) {
      for (flatbuffers::uoffset_t i = 0; i < meta->size(); ++i) {
        const fb::Metadata* e = meta->Get(i);
        MetadataEntry entry{Str(e->name()), e->buffer()};
        if (entry.buffer >= buffer_count) {
          Fail("metadata " + std::to_string(i),
               "buffer index " + std::to_string(entry.buffer) +
                   " out of range (" + std::to_string(buffer_count) +
                   " buffers)");
        }
        m.metadata.push_back(std::move(entry));
      }
    }
  }

  static std::vector<Code> ReadCodes(const fb::Model& in) {
    std::vector<Code> codes;
    if (const auto* oc = in.operator_codes()) {
      for (const fb::OperatorCode* c : *oc) {
        // Files written before the int32 field carry the code in the
        // deprecated byte only; newer ones in both. The larger is right.
        const std::int32_t builtin = std::max<std::int32_t>(
            c->deprecated_builtin_code(), c->builtin_code());
        codes.push_back({builtin, Str(c->custom_code()), c->version()});
      }
    }
    return codes;
  }

  Subgraph ReadSubgraph(const fb::SubGraph& sg, const std::string& sp,
                        std::size_t buffer_count,
                        const std::vector<Code>& codes) const {
    Subgraph out;
    out.name = Str(sg.name());
    if (const auto* tensors = sg.tensors()) {
      out.tensors.reserve(tensors->size());
      for (flatbuffers::uoffset_t t = 0; t < tensors->size(); ++t) {
        out.tensors.push_back(ReadTensor(*tensors->Get(t), buffer_count,
                                         sp + ": tensor " + std::to_string(t)));
      }
    }
    const std::size_t n = out.tensors.size();
    out.inputs = ToVector<std::int32_t>(sg.inputs());
    out.outputs = ToVector<std::int32_t>(sg.outputs());
    CheckTensorIndices(out.inputs, n, false, sp + ": input");
    CheckTensorIndices(out.outputs, n, false, sp + ": output");
    if (const auto* ops = sg.operators()) {
      out.operators.reserve(ops->size());
      for (flatbuffers::uoffset_t k = 0; k < ops->size(); ++k) {
        out.operators.push_back(ReadOperator(
            *ops->Get(k), codes, n, sp + ": operator " + std::to_string(k)));
      }
    }
    return out;
  }

  Operator ReadOperator(const fb::Operator& op, const std::vector<Code>& codes,
                        std::size_t tensor_count,
                        const std::string& place) const {
    if (op.opcode_index() >= codes.size()) {
      Fail(place, "operator code index " + std::to_string(op.opcode_index()) +
                      " out of range (" + std::to_string(codes.size()) +
                      " codes)");
    }
    const Code& code = codes[op.opcode_index()];
    Operator o;
    o.builtin_code = static_cast<BuiltinOp>(code.builtin);
    o.builtin_name = BuiltinOpName(o.builtin_code);
    o.custom_code = code.custom;
    o.version = code.version;
    o.inputs = ToVector<std::int32_t>(op.inputs());
    o.outputs = ToVector<std::int32_t>(op.outputs());
    o.intermediates = ToVector<std::int32_t>(op.intermediates());
    CheckTensorIndices(o.inputs, tensor_count, true, place + ": input");
    CheckTensorIndices(o.outputs, tensor_count, false, place + ": output");
    CheckTensorIndices(o.intermediates, tensor_count, false,
                       place + ": intermediate");
    o.options = ReadOptions(op);
    return o;
  }

  const std::string& source_;
};

}  // namespace

std::string ShapeText(std::span<const std::int32_t> shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i != 0) s += ',';
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

std::string TensorTypeName(TensorType type) {
  const int v = static_cast<int>(type);
  if (v < 0 || v > kMaxTensorType) return "TYPE_" + std::to_string(v);
  return std::string(kTypeNames[static_cast<std::size_t>(v)]);
}

bool IsInt8Activation(const Tensor& t) {
  if (t.type != TensorType::kInt8) return false;
  const auto& q = t.quantization;
  return q.scale.size() == 1 && q.zero_point.size() == 1 && q.scale[0] > 0.0f &&
         std::isfinite(q.scale[0]) && q.zero_point[0] >= -128 &&
         q.zero_point[0] <= 127;
}

std::optional<std::uint32_t> ElementSize(TensorType type) {
  switch (type) {
    case TensorType::kBool:
    case TensorType::kInt8:
    case TensorType::kUint8:
      return 1;
    case TensorType::kFloat16:
    case TensorType::kInt16:
    case TensorType::kUint16:
      return 2;
    case TensorType::kFloat32:
    case TensorType::kInt32:
    case TensorType::kUint32:
      return 4;
    case TensorType::kInt64:
    case TensorType::kUint64:
    case TensorType::kFloat64:
    case TensorType::kComplex64:
      return 8;
    case TensorType::kComplex128:
      return 16;
    case TensorType::kString:
    case TensorType::kResource:
    case TensorType::kVariant:
    case TensorType::kInt4:
      return std::nullopt;
  }
  return std::nullopt;
}

Model ReadModel(std::span<const std::uint8_t> bytes,
                const std::string& source) {
  return Reader(source).Read(bytes);
}

std::vector<std::uint8_t> ReadFileBytes(const std::string& path) {
  // Bounded, and refuses directories: the same reading as every other input.
  const std::string bytes = ReadInputBytes(path, kMaxInputBytes);
  return std::vector<std::uint8_t>(bytes.begin(), bytes.end());
}

Model ReadModelFile(const std::string& path) {
  const std::vector<std::uint8_t> bytes = ReadFileBytes(path);
  return ReadModel(bytes, path);
}

}  // namespace arenaplan::tflite
