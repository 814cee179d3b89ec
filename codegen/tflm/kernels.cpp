// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflm/kernels.hpp"

#include <limits>

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
      : model_(model),
        graph_(model.subgraphs[subgraph]),
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
  const Model& model_;
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

// fully_connected.cc (FullyConnectedInit, FullyConnectedPrepare) and
// fully_connected_common.cc (CalculateOpDataFullyConnected); parameters:
// TfLiteFullyConnectedParams (ParseFullyConnected).
KernelFacts FullyConnected(const OpView& v) {
  KernelFacts f;
  f.params_bytes = 16;
  f.op_data_bytes = 64;  // OpDataFullyConnected
  const std::int32_t in = v.Input(0), filter_t = v.Input(1);
  const std::int32_t bias = v.Input(2), out = v.Output(0);
  f.prepare = {Temp(in), Temp(filter_t), Temp(bias), Temp(out)};
  const Tensor& input = v.Need(in, "input");
  const Tensor& filter = v.Need(filter_t, "filter");
  if (filter.type == TensorType::kInt4) {
    f.prepare.push_back(Scratch(v.FlatSize(filter, "filter")));
  }
  // Per-channel multiplier and shift (int32 each) when the filter has more
  // than one scale; not for float models.
  if (input.type != TensorType::kFloat32 &&
      filter.quantization.scale.size() > 1) {
    const std::uint64_t c = filter.quantization.scale.size();
    f.prepare.push_back(Persistent(v.Mul(4, c)));
    f.prepare.push_back(Persistent(v.Mul(4, c)));
  }
  return f;
}

// conv_common.cc (ConvInit, ConvPrepare, CalculateOpDataConv); parameters:
// TfLiteConvParams (ParseConv2D). Per-channel arrays of filter dim 0
// (kConvQuantizedDimension), allocated for every input type.
KernelFacts Conv2D(const OpView& v) {
  KernelFacts f;
  f.params_bytes = 28;
  f.op_data_bytes = 72;  // OpDataConv
  const std::int32_t in = v.Input(0), filter_t = v.Input(1);
  const std::int32_t bias = v.Input(2), out = v.Output(0);
  const Tensor& filter = v.Need(filter_t, "filter");
  v.Need(in, "input");
  const std::uint64_t c = v.Dim(filter, 0, "filter");
  f.prepare = {Temp(out), Temp(in), Temp(filter_t), Persistent(v.Mul(4, c)),
               Persistent(v.Mul(4, c))};
  // CalculateOpDataConv fetches the tensors again.
  for (std::int32_t t : {in, filter_t, bias, out}) f.prepare.push_back(Temp(t));
  if (filter.type == TensorType::kInt4) {
    f.prepare.push_back(Scratch(v.FlatSize(filter, "filter")));
  }
  return f;
}

// depthwise_conv.cc (DepthwiseConvInit) and depthwise_conv_common.cc
// (DepthwiseConvPrepare, CalculateOpDataDepthwiseConv); parameters:
// TfLiteDepthwiseConvParams. Per-channel arrays of filter dim 3
// (kDepthwiseConvQuantizedDimension).
KernelFacts DepthwiseConv2D(const OpView& v) {
  KernelFacts f;
  f.params_bytes = 28;
  f.op_data_bytes = 72;  // OpDataConv
  const std::int32_t in = v.Input(0), filter_t = v.Input(1);
  const std::int32_t bias = v.Input(2), out = v.Output(0);
  const Tensor& filter = v.Need(filter_t, "filter");
  v.Need(in, "input");
  const std::uint64_t c = v.Dim(filter, 3, "filter");
  f.prepare = {Temp(out), Temp(in), Temp(filter_t), Persistent(v.Mul(4, c)),
               Persistent(v.Mul(4, c))};
  if (filter.type == TensorType::kInt4) {
    f.prepare.push_back(Scratch(v.FlatSize(filter, "filter")));
  }
  for (std::int32_t t : {in, filter_t, bias, out}) f.prepare.push_back(Temp(t));
  return f;
}

// svdf.cc (InitSvdf) and svdf_common.cc (PrepareSvdf); parameters:
// TfLiteSVDFParams. Scratch: batch x num_filters int32 (int8 models:
// plus batch x num_units int32), num_filters = weights_feature dim 0,
// num_units = num_filters / rank, batch = input dim 0; float models:
// batch x num_filters float.
KernelFacts Svdf(const OpView& v) {
  KernelFacts f;
  f.params_bytes = 12;
  f.op_data_bytes = 36;  // OpDataSvdf
  f.prepare = {Temp(v.Input(0)), Temp(v.Input(1)), Temp(v.Input(2)),
               Temp(v.Input(3)), Temp(v.Input(4)), Temp(v.Output(0))};
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
  return f;
}

// softmax_common.cc (SoftmaxInit, SoftmaxPrepare, InitializeLutForInt16);
// parameters: TfLiteSoftmaxParams. int16 input: two 513-entry int16 LUTs.
KernelFacts Softmax(const OpView& v) {
  KernelFacts f;
  f.params_bytes = 4;
  f.op_data_bytes = 80;  // SoftmaxParams
  f.prepare = {Temp(v.Input(0)), Temp(v.Output(0))};
  if (v.Need(v.Input(0), "input").type == TensorType::kInt16) {
    f.prepare.push_back(Persistent(2 * 513));
    f.prepare.push_back(Persistent(2 * 513));
  }
  return f;
}

// pooling.cc (PoolInit) and pooling_common.cc (PoolingPrepare);
// parameters: TfLitePoolParams.
KernelFacts Pool2D(const OpView& v) {
  KernelFacts f;
  f.params_bytes = 40;
  f.op_data_bytes = 32;  // OpDataPooling
  f.prepare = {Temp(v.Input(0)), Temp(v.Output(0))};
  return f;
}

// add.cc (AddInit) and add_common.cc (AddPrepare); parameters:
// TfLiteAddParams.
KernelFacts Add(const OpView& v) {
  KernelFacts f;
  f.params_bytes = 8;
  f.op_data_bytes = 60;  // OpDataAdd
  f.prepare = {Temp(v.Input(0)), Temp(v.Input(1)), Temp(v.Output(0))};
  return f;
}

// quantize.cc (Init: OpDataQuantizeReference) and quantize_common.cc
// (PrepareQuantizeReference); ParseQuantize allocates no parameters.
KernelFacts Quantize(const OpView& v) {
  KernelFacts f;
  f.op_data_bytes = 32;
  f.prepare = {Temp(v.Input(0)), Temp(v.Output(0))};
  return f;
}

// dequantize.cc (DequantizeInit: DequantizeOpData) and
// dequantize_common.cc (DequantizePrepare, which accepts int8, int16 and
// uint8 inputs only); no parameters.
KernelFacts Dequantize(const OpView& v) {
  KernelFacts f;
  f.op_data_bytes = 32;
  f.prepare = {Temp(v.Input(0)), Temp(v.Output(0))};
  const TensorType in = v.Need(v.Input(0), "input").type;
  if (in != TensorType::kInt8 && in != TensorType::kInt16 &&
      in != TensorType::kUint8) {
    f.note = "TFLM's reference kernel rejects " + tflite::TensorTypeName(in) +
             " input (dequantize_common.cc); AllocateTensors will fail";
  }
  return f;
}

// reshape.cc (no Init) and reshape_common.cc (PrepareReshapeReference);
// parameters: TfLiteReshapeParams.
KernelFacts Reshape(const OpView& v) {
  KernelFacts f;
  f.params_bytes = 36;
  f.prepare = {Temp(v.Input(0)), Temp(v.Output(0))};
  return f;
}

// concatenation.cc (ConcatenationInit: OpData = ConcatenationParams,
// ConcatenationPrepare: input 0, the output, then every input again);
// parameters: TfLiteConcatenationParams.
KernelFacts Concatenation(const OpView& v) {
  KernelFacts f;
  f.params_bytes = 8;
  f.op_data_bytes = 40;
  f.prepare = {Temp(v.Input(0)), Temp(v.Output(0))};
  for (std::size_t i = 0; i < v.op().inputs.size(); ++i) {
    f.prepare.push_back(Temp(v.Input(i)));
  }
  return f;
}

// pad_common.cc (PadInit: OpData of pad.h, PadPrepare); ParsePad
// allocates no parameters.
KernelFacts Pad(const OpView& v) {
  KernelFacts f;
  f.op_data_bytes = 56;
  f.prepare = {Temp(v.Input(0)), Temp(v.Input(1))};
  if (v.op().inputs.size() == 3) f.prepare.push_back(Temp(v.Input(2)));
  f.prepare.push_back(Temp(v.Output(0)));
  return f;
}

// activations.cc (ReluInit: ReluOpData) and activations_common.cc
// (ReluPrepare); no parameters.
KernelFacts Relu(const OpView& v) {
  KernelFacts f;
  f.op_data_bytes = 28;
  f.prepare = {Temp(v.Input(0)), Temp(v.Output(0))};
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
  switch (v.op().builtin_code) {
    case BuiltinOp::kFullyConnected:
      return FullyConnected(v);
    case BuiltinOp::kConv2D:
      return Conv2D(v);
    case BuiltinOp::kDepthwiseConv2D:
      return DepthwiseConv2D(v);
    case BuiltinOp::kSvdf:
      return Svdf(v);
    case BuiltinOp::kSoftmax:
      return Softmax(v);
    case BuiltinOp::kAveragePool2D:
    case BuiltinOp::kMaxPool2D:
      return Pool2D(v);
    case BuiltinOp::kAdd:
      return Add(v);
    case BuiltinOp::kQuantize:
      return Quantize(v);
    case BuiltinOp::kDequantize:
      return Dequantize(v);
    case BuiltinOp::kReshape:
      return Reshape(v);
    case BuiltinOp::kConcatenation:
      return Concatenation(v);
    case BuiltinOp::kPad:
      return Pad(v);
    case BuiltinOp::kRelu:
      return Relu(v);
    default:
      return Unmodelled(v);
  }
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
