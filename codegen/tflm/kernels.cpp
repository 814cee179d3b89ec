// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflm/kernels.hpp"

#include <limits>
#include <string_view>

#include "codegen/base/errors.hpp"

namespace arenaplan::tflm {

using tflite::BuiltinOp;
using tflite::Model;
using tflite::Operator;
using tflite::Subgraph;
using tflite::Tensor;
using tflite::TensorType;

namespace {

/// Kernels of TFLM that call RequestScratchBufferInArena and have no rule
/// here (add_n.cc, mirror_pad.cc, reduce_common.cc, transpose_conv.cc,
/// unidirectional_sequence_lstm.cc; detection_postprocess.cc is CUSTOM).
bool MayRequestScratch(BuiltinOp code) {
  switch (code) {
    case BuiltinOp::kMean:
    case BuiltinOp::kUnidirectionalSequenceLstm:
    case BuiltinOp::kTransposeConv:
    case BuiltinOp::kSum:
    case BuiltinOp::kReduceProd:
    case BuiltinOp::kReduceMax:
    case BuiltinOp::kReduceMin:
    case BuiltinOp::kMirrorPad:
    case BuiltinOp::kAddN:
    case BuiltinOp::kCustom:
      return true;
    default:
      return false;
  }
}

class OpView {
 public:
  OpView(const Model& model, std::size_t subgraph, std::size_t op,
         const InputOptions& options)
      : graph_(model.subgraphs[subgraph]),
        op_(graph_.operators[op]),
        options_(options),
        where_(model.source + ": subgraph " + std::to_string(subgraph) +
               ": operator " + std::to_string(op) + " " + op_.builtin_name) {}

  const Operator& op() const { return op_; }
  const std::string& where() const { return where_; }

  /// Tensor index of input `i` (-1 when absent or left out), as TFLM's
  /// GetTensorIndex (micro_context.cc).
  std::int32_t Input(std::size_t i) const {
    return i < op_.inputs.size() ? op_.inputs[i] : -1;
  }
  std::int32_t Output(std::size_t i) const {
    return i < op_.outputs.size() ? op_.outputs[i] : -1;
  }
  const Tensor& Need(std::int32_t t, const char* what) const {
    if (t < 0 || static_cast<std::size_t>(t) >= graph_.tensors.size()) {
      throw InputError(where_ + ": " + what + " tensor missing");
    }
    return graph_.tensors[static_cast<std::size_t>(t)];
  }
  /// Dimension `d` of `tensor` (dynamic dimensions resolved by
  /// --assume-dim).
  std::uint64_t Dim(const Tensor& tensor, std::size_t d,
                    const char* what) const {
    if (d >= tensor.shape.size()) {
      throw InputError(where_ + ": " + what + " tensor has rank " +
                       std::to_string(tensor.shape.size()) + ", needs " +
                       std::to_string(d + 1));
    }
    const std::int32_t v = tensor.shape[d];
    if (v >= 0) return static_cast<std::uint64_t>(v);
    if (!options_.assume_dim) {
      throw InputError(where_ + ": " + what +
                       " tensor has a dynamic dimension; give --assume-dim N");
    }
    return *options_.assume_dim;
  }
  /// a x b, refused above 2^48 bytes (no TFLM arena is that large).
  std::uint64_t Mul(std::uint64_t a, std::uint64_t b) const {
    constexpr std::uint64_t kLimit = std::uint64_t{1} << 48;
    if (a > kLimit || b > kLimit || (b != 0 && a > kLimit / b)) {
      throw InputError(where_ + ": buffer size exceeds 2^48 bytes");
    }
    return a * b;
  }
  std::uint64_t FlatSize(const Tensor& tensor, const char* what) const {
    std::uint64_t n = 1;
    for (std::size_t d = 0; d < tensor.shape.size(); ++d) {
      n = Mul(n, Dim(tensor, d, what));
    }
    return n;
  }

 private:
  const Subgraph& graph_;
  const Operator& op_;
  const InputOptions& options_;
  std::string where_;
};

PrepareStep Temp(std::int32_t tensor) {
  return {PrepareStep::Kind::kTempTensor, tensor, 0};
}
PrepareStep Persistent(std::uint64_t bytes) {
  return {PrepareStep::Kind::kPersistent, -1, bytes};
}
PrepareStep Scratch(std::uint64_t bytes) {
  return {PrepareStep::Kind::kScratch, -1, bytes};
}

// ---- one rule per kernel ----
//
// A rule is one table line: the builtin parameter struct the op's parser
// allocates, the OpData its Init allocates, the temporary tensors its
// Prepare fetches first, then (when the kernel does more) a function adding
// the rest of Prepare's steps. Each line cites the TFLM source it follows.

/// The Prepare steps after a rule's first temporary tensors.
using MoreSteps = void (*)(const OpView& v, KernelFacts& f);

struct KernelRule {
  BuiltinOp code;
  std::uint64_t params_bytes;   ///< Builtin parameter struct (0: none).
  std::uint64_t op_data_bytes;  ///< OpData of Init (0: no Init).
  /// Prepare's first temporary tensors, in order: '0'..'9' input i, 'o'
  /// output 0.
  std::string_view temps;
  MoreSteps more;  ///< nullptr: nothing else.
};

/// An int4 filter is unpacked into a scratch buffer of its element count.
void Int4Scratch(const OpView& v, const Tensor& filter, KernelFacts& f) {
  if (filter.type == TensorType::kInt4) {
    f.prepare.push_back(Scratch(v.FlatSize(filter, "filter")));
  }
}

/// The refetch of input, filter, bias and output by CalculateOpDataConv.
void RefetchConvTensors(const OpView& v, KernelFacts& f) {
  for (std::size_t i = 0; i < 3; ++i) f.prepare.push_back(Temp(v.Input(i)));
  f.prepare.push_back(Temp(v.Output(0)));
}

/// Per-channel multiplier and shift (int32 each) of `channels` channels.
void PerChannelArrays(const OpView& v, std::uint64_t channels, KernelFacts& f) {
  f.prepare.push_back(Persistent(v.Mul(4, channels)));
  f.prepare.push_back(Persistent(v.Mul(4, channels)));
}

// Per-channel arrays when the filter has more than one scale; not for
// float models.
void FullyConnectedSteps(const OpView& v, KernelFacts& f) {
  const Tensor& input = v.Need(v.Input(0), "input");
  const Tensor& filter = v.Need(v.Input(1), "filter");
  Int4Scratch(v, filter, f);
  if (input.type != TensorType::kFloat32 &&
      filter.quantization.scale.size() > 1) {
    PerChannelArrays(v, filter.quantization.scale.size(), f);
  }
}

// Per-channel arrays of filter dim 0 (kConvQuantizedDimension), allocated
// for every input type; then CalculateOpDataConv fetches the tensors again.
void Conv2DSteps(const OpView& v, KernelFacts& f) {
  const Tensor& filter = v.Need(v.Input(1), "filter");
  v.Need(v.Input(0), "input");
  PerChannelArrays(v, v.Dim(filter, 0, "filter"), f);
  RefetchConvTensors(v, f);
  Int4Scratch(v, filter, f);
}

// Per-channel arrays of filter dim 3 (kDepthwiseConvQuantizedDimension);
// the int4 scratch comes before the refetch.
void DepthwiseConv2DSteps(const OpView& v, KernelFacts& f) {
  const Tensor& filter = v.Need(v.Input(1), "filter");
  v.Need(v.Input(0), "input");
  PerChannelArrays(v, v.Dim(filter, 3, "filter"), f);
  Int4Scratch(v, filter, f);
  RefetchConvTensors(v, f);
}

// Scratch: batch x num_filters int32 (int8 models: plus batch x num_units
// int32), num_filters = weights_feature dim 0, num_units = num_filters /
// rank, batch = input dim 0; float models: batch x num_filters float.
void SvdfSteps(const OpView& v, KernelFacts& f) {
  const Tensor& input = v.Need(v.Input(0), "input");
  const Tensor& weights_feature = v.Need(v.Input(1), "weights_feature");
  const std::uint64_t batch = v.Dim(input, 0, "input");
  const std::uint64_t filters = v.Dim(weights_feature, 0, "weights_feature");
  const auto* o = std::get_if<tflite::SvdfOptions>(&v.op().options);
  const std::int32_t rank = o != nullptr ? o->rank : 0;
  if (rank <= 0 || filters % static_cast<std::uint64_t>(rank) != 0) {
    throw InputError(v.where() + ": rank " + std::to_string(rank) +
                     " does not divide " + std::to_string(filters) +
                     " filters");
  }
  const std::uint64_t units = filters / static_cast<std::uint64_t>(rank);
  f.prepare.push_back(Scratch(v.Mul(v.Mul(batch, filters), 4)));
  if (input.type == TensorType::kInt8) {
    f.prepare.push_back(Scratch(v.Mul(v.Mul(batch, units), 4)));
  }
}

// int16 input: two 513-entry int16 LUTs.
void SoftmaxSteps(const OpView& v, KernelFacts& f) {
  if (v.Need(v.Input(0), "input").type == TensorType::kInt16) {
    f.prepare.push_back(Persistent(2 * 513));
    f.prepare.push_back(Persistent(2 * 513));
  }
}

// DequantizePrepare accepts int8, int16 and uint8 inputs only.
void DequantizeSteps(const OpView& v, KernelFacts& f) {
  const TensorType in = v.Need(v.Input(0), "input").type;
  if (in != TensorType::kInt8 && in != TensorType::kInt16 &&
      in != TensorType::kUint8) {
    f.note = "TFLM's reference kernel rejects " + tflite::TensorTypeName(in) +
             " input (dequantize_common.cc); AllocateTensors will fail";
  }
}

// ConcatenationPrepare: after input 0 and the output, every input again.
void ConcatenationSteps(const OpView& v, KernelFacts& f) {
  for (std::size_t i = 0; i < v.op().inputs.size(); ++i) {
    f.prepare.push_back(Temp(v.Input(i)));
  }
}

// PadPrepare: the constant-values input only when given, then the output.
void PadSteps(const OpView& v, KernelFacts& f) {
  if (v.op().inputs.size() == 3) f.prepare.push_back(Temp(v.Input(2)));
  f.prepare.push_back(Temp(v.Output(0)));
}

// clang-format off
constexpr KernelRule kRules[] = {
    // fully_connected.cc (FullyConnectedInit, FullyConnectedPrepare),
    // fully_connected_common.cc (CalculateOpDataFullyConnected);
    // TfLiteFullyConnectedParams (ParseFullyConnected), OpDataFullyConnected.
    {BuiltinOp::kFullyConnected, 16, 64, "012o", FullyConnectedSteps},
    // conv_common.cc (ConvInit, ConvPrepare, CalculateOpDataConv);
    // TfLiteConvParams (ParseConv2D), OpDataConv.
    {BuiltinOp::kConv2D, 28, 72, "o01", Conv2DSteps},
    // depthwise_conv.cc (DepthwiseConvInit), depthwise_conv_common.cc
    // (DepthwiseConvPrepare, CalculateOpDataDepthwiseConv);
    // TfLiteDepthwiseConvParams, OpDataConv.
    {BuiltinOp::kDepthwiseConv2D, 28, 72, "o01", DepthwiseConv2DSteps},
    // svdf.cc (InitSvdf), svdf_common.cc (PrepareSvdf); TfLiteSVDFParams,
    // OpDataSvdf.
    {BuiltinOp::kSvdf, 12, 36, "01234o", SvdfSteps},
    // softmax_common.cc (SoftmaxInit, SoftmaxPrepare, InitializeLutForInt16);
    // TfLiteSoftmaxParams, SoftmaxParams.
    {BuiltinOp::kSoftmax, 4, 80, "0o", SoftmaxSteps},
    // pooling.cc (PoolInit), pooling_common.cc (PoolingPrepare);
    // TfLitePoolParams, OpDataPooling.
    {BuiltinOp::kAveragePool2D, 40, 32, "0o", nullptr},
    {BuiltinOp::kMaxPool2D, 40, 32, "0o", nullptr},
    // add.cc (AddInit), add_common.cc (AddPrepare); TfLiteAddParams,
    // OpDataAdd.
    {BuiltinOp::kAdd, 8, 60, "01o", nullptr},
    // quantize.cc (Init: OpDataQuantizeReference), quantize_common.cc
    // (PrepareQuantizeReference); ParseQuantize allocates no parameters.
    {BuiltinOp::kQuantize, 0, 32, "0o", nullptr},
    // dequantize.cc (DequantizeInit: DequantizeOpData), dequantize_common.cc
    // (DequantizePrepare); no parameters.
    {BuiltinOp::kDequantize, 0, 32, "0o", DequantizeSteps},
    // reshape.cc (no Init), reshape_common.cc (PrepareReshapeReference);
    // TfLiteReshapeParams.
    {BuiltinOp::kReshape, 36, 0, "0o", nullptr},
    // concatenation.cc (ConcatenationInit: OpData = ConcatenationParams,
    // ConcatenationPrepare); TfLiteConcatenationParams.
    {BuiltinOp::kConcatenation, 8, 40, "0o", ConcatenationSteps},
    // pad_common.cc (PadInit: OpData of pad.h, PadPrepare); ParsePad
    // allocates no parameters.
    {BuiltinOp::kPad, 0, 56, "01", PadSteps},
    // activations.cc (ReluInit: ReluOpData), activations_common.cc
    // (ReluPrepare); no parameters.
    {BuiltinOp::kRelu, 0, 28, "0o", nullptr},
};
// clang-format on

KernelFacts Apply(const KernelRule& rule, const OpView& v) {
  KernelFacts f;
  f.params_bytes = rule.params_bytes;
  f.op_data_bytes = rule.op_data_bytes;
  for (char c : rule.temps) {
    f.prepare.push_back(Temp(
        c == 'o' ? v.Output(0) : v.Input(static_cast<std::size_t>(c - '0'))));
  }
  if (rule.more != nullptr) rule.more(v, f);
  return f;
}

/// An operator without a rule: a cautious guess (parameters and OpData of
/// 128 bytes, every input and output fetched twice in Prepare).
KernelFacts Unmodelled(const OpView& v) {
  KernelFacts f;
  f.modelled = false;
  f.params_bytes = 128;
  f.params_align = 8;
  f.op_data_bytes = 128;
  for (int pass = 0; pass < 2; ++pass) {
    for (std::int32_t t : v.op().inputs) f.prepare.push_back(Temp(t));
    for (std::int32_t t : v.op().outputs) f.prepare.push_back(Temp(t));
  }
  f.note = "no TFLM kernel rule; the arena figure uses a cautious guess";
  if (MayRequestScratch(v.op().builtin_code)) {
    f.note += " and omit its scratch buffers (give --scratch)";
  }
  return f;
}

}  // namespace

KernelFacts TflmKernelFacts(const Model& model, std::size_t subgraph,
                            std::size_t op, const InputOptions& options) {
  const OpView v(model, subgraph, op, options);
  for (const KernelRule& rule : kRules) {
    if (rule.code == v.op().builtin_code) return Apply(rule, v);
  }
  return Unmodelled(v);
}

std::vector<ScratchRequest> TflmScratchRequests(
    const Model& model, const InputOptions& options,
    std::vector<std::string>* not_modelled) {
  std::vector<ScratchRequest> out;
  if (model.subgraphs.empty()) return out;
  const Subgraph& g = model.subgraphs[0];
  for (std::size_t k = 0; k < g.operators.size(); ++k) {
    const KernelFacts f = TflmKernelFacts(model, 0, k, options);
    if (!f.modelled && not_modelled != nullptr &&
        MayRequestScratch(g.operators[k].builtin_code)) {
      not_modelled->push_back("operator " + std::to_string(k) + " " +
                              g.operators[k].builtin_name + ": " + f.note);
    }
    for (const PrepareStep& s : f.prepare) {
      if (s.kind == PrepareStep::Kind::kScratch) {
        out.push_back({static_cast<std::uint32_t>(k), s.bytes});
      }
    }
  }
  return out;
}

}  // namespace arenaplan::tflm
