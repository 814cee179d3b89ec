// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/overlap/overlap_pairs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <variant>

#include "arenaplan/kernels/add.hpp"
#include "arenaplan/kernels/conv.hpp"
#include "arenaplan/kernels/pad.hpp"
#include "arenaplan/kernels/pooling.hpp"
#include "arenaplan/kernels/quantize.hpp"
#include "codegen/tflite/geometry.hpp"

namespace arenaplan::overlap {
namespace {

namespace k = ::arenaplan::kernels;
using tflite::Tensor;
using tflite::TensorType;

using tflite::BuiltinOp;

/// The kernels' shape of an accepted geometry's NHWC shape; nullopt when
/// its element count passes int32 (the kernels count in int32).
std::optional<k::Shape4> KernelShape(const tflite::Nhwc& d) {
  if (d.Count() > INT32_MAX) return std::nullopt;
  return k::Shape4{d.n, d.h, d.w, d.c};
}

/// At most 4 positive dimensions as NHWC, padded with leading 1s
/// (Lowerer::Shape), within the kernels' int32 count; nullopt otherwise.
std::optional<k::Shape4> KernelShape(const Tensor& t) {
  if (t.shape.size() > 4) return std::nullopt;
  tflite::Nhwc d;
  std::int32_t* dims[4] = {&d.n, &d.h, &d.w, &d.c};
  const std::size_t skip = 4 - t.shape.size();
  for (std::size_t i = 0; i < t.shape.size(); ++i) {
    if (t.shape[i] <= 0) return std::nullopt;
    *dims[skip + i] = t.shape[i];
  }
  return KernelShape(d);
}

/// Elements of `t` when every dimension is positive (1 for a scalar).
std::optional<std::int64_t> Count(const Tensor& t) {
  std::int64_t n = 1;
  for (std::int32_t d : t.shape) {
    if (d <= 0 || __builtin_mul_overflow(n, std::int64_t{d}, &n) ||
        n > INT32_MAX) {
      return std::nullopt;
    }
  }
  return n;
}

/// NONE, RELU, RELU_N1_TO_1, RELU6: the activations the kernels clamp.
bool IsClamp(tflite::Activation a) {
  return a == tflite::Activation::kNone || a == tflite::Activation::kRelu ||
         a == tflite::Activation::kReluN1To1 || a == tflite::Activation::kRelu6;
}

struct Contract {
  OverlapRelation relation = OverlapRelation::kOutputBelowBy;
  std::uint64_t distance = 0;
};

/// The bytes of one element of an activation a kernel with a contract
/// reads or writes: 1 for an int8 per-tensor activation, 2 for int16
/// (16x8 layers, per-tensor as their lowerings require), 4 for float32;
/// nullopt for any other tensor.
std::optional<std::int64_t> ActivationBytes(const Tensor& t) {
  if (tflite::IsInt8Activation(t)) return 1;
  if (t.type == TensorType::kInt16) return 2;
  if (t.type == TensorType::kFloat32) return 4;
  return std::nullopt;
}

/// Elements of `t` times its activation element size (ActivationBytes):
/// the bytes a record of it holds.
std::optional<std::uint64_t> Bytes(const Tensor& t) {
  const auto n = Count(t);
  const auto size = ActivationBytes(t);
  if (!n || !size) return std::nullopt;
  return static_cast<std::uint64_t>(*n * *size);
}

/// The element size shared by `in` and `out` (same type; ActivationBytes),
/// or nullopt.
std::optional<std::int64_t> SharedBytes(const Tensor& in, const Tensor& out) {
  if (in.type != out.type) return std::nullopt;
  const auto a = ActivationBytes(in), b = ActivationBytes(out);
  if (!a || !b) return std::nullopt;
  return a;
}

/// A contract of kOutputBelowBy `elements` counted in elements of `size`
/// bytes (kernels/overlap.hpp's ScaledOverlapDistance).
Contract BelowBy(std::int64_t elements, std::int64_t size) {
  return Contract{
      OverlapRelation::kOutputBelowBy,
      static_cast<std::uint64_t>(k::ScaledOverlapDistance(elements, size))};
}

/// CONV_2D / DEPTHWISE_CONV_2D as codegen/compile/lower_conv.cpp accepts
/// them (the same tflite::CheckConv); the kernel's own distance function.
std::optional<Contract> ConvContract(const tflite::Model& model,
                                     const tflite::Subgraph& sg,
                                     const tflite::Operator& op,
                                     bool depthwise) {
  if (op.inputs.size() < 2 || op.inputs[0] < 0 || op.inputs[1] < 0) {
    return std::nullopt;
  }
  const Tensor& in = sg.tensors[static_cast<std::size_t>(op.inputs[0])];
  const Tensor& w = sg.tensors[static_cast<std::size_t>(op.inputs[1])];
  const Tensor& out = sg.tensors[static_cast<std::size_t>(op.outputs[0])];
  // int8 and 16x8 layers take a constant int8 filter (conv.hpp,
  // int16/conv.hpp), float32 ones a constant float32 one (float/conv.hpp).
  const auto size = SharedBytes(in, out);
  if (!size) return std::nullopt;
  const TensorType filter_type =
      *size == 4 ? TensorType::kFloat32 : TensorType::kInt8;
  if (!model.IsConstant(w) || w.type != filter_type) return std::nullopt;
  const auto checked = tflite::CheckConv(op, in, w, out, depthwise);
  const auto* g = std::get_if<tflite::ConvGeometry>(&checked);
  if (g == nullptr || !IsClamp(g->activation)) return std::nullopt;
  const auto is = KernelShape(g->in), fs = KernelShape(g->filter),
             os = KernelShape(g->out);
  if (!is || !fs || !os) return std::nullopt;
  const k::DilatedConvParams p{
      {0, 0, -128, 127, g->stride_h, g->stride_w, g->pad_h.pad_before,
       g->pad_w.pad_before, g->depth_multiplier},
      g->dilation_h,
      g->dilation_w};
  const std::int64_t d =
      depthwise ? k::DepthwiseConv2DOverlapDistance(p, *is, *fs, *os)
                : k::Conv2DOverlapDistance(p, *is, *fs, *os);
  return BelowBy(d, *size);
}

/// AVERAGE_POOL_2D / MAX_POOL_2D as codegen/compile/lower_pool.cpp accepts
/// them (the same tflite::CheckPool).
std::optional<Contract> PoolContract(const tflite::Subgraph& sg,
                                     const tflite::Operator& op) {
  if (op.inputs.empty() || op.inputs[0] < 0) return std::nullopt;
  const Tensor& in = sg.tensors[static_cast<std::size_t>(op.inputs[0])];
  const Tensor& out = sg.tensors[static_cast<std::size_t>(op.outputs[0])];
  const auto size = SharedBytes(in, out);  // pooling.hpp, int16/, float/
  if (!size) return std::nullopt;
  const auto g = tflite::ClampingPool(op, in, out);
  if (!g) return std::nullopt;
  const auto is = KernelShape(g->in), os = KernelShape(g->out);
  if (!is || !os) return std::nullopt;
  const k::PoolParams p{
      g->filter_h,         g->filter_w,         g->stride_h, g->stride_w,
      g->pad_h.pad_before, g->pad_w.pad_before, -128,        127};
  return BelowBy(k::PoolOverlapDistance(p, *is, *os), *size);
}

/// A binary element-wise operator with no broadcast: ADD, MUL, SUB, DIV
/// (add.hpp, mul.hpp, sub.hpp, div.hpp; `fused_clamp`: their fused activation
/// must be a clamp) and MAXIMUM, MINIMUM (maximum_minimum.hpp; no options): d =
/// 0 when both inputs and the output are int8 activations of one shape, or
/// (`wide`) int16 or float32 tensors of one type and shape
/// (int16/elementwise.hpp: ADD, SUB, MUL; float/elementwise.hpp: all six).
std::optional<Contract> ElementwiseBinaryContract(const tflite::Subgraph& sg,
                                                  const tflite::Operator& op,
                                                  bool fused_clamp,
                                                  bool int16) {
  if (op.inputs.size() != 2 || op.inputs[0] < 0 || op.inputs[1] < 0) {
    return std::nullopt;
  }
  const Tensor& a = sg.tensors[static_cast<std::size_t>(op.inputs[0])];
  const Tensor& b = sg.tensors[static_cast<std::size_t>(op.inputs[1])];
  const Tensor& out = sg.tensors[static_cast<std::size_t>(op.outputs[0])];
  const auto size = SharedBytes(a, out);
  if (!size || !SharedBytes(b, out) || (*size == 2 && !int16)) {
    return std::nullopt;
  }
  if (a.shape != b.shape || a.shape != out.shape || !Count(a)) {
    return std::nullopt;
  }
  if (fused_clamp) {
    const auto* o = std::get_if<tflite::ElementwiseOptions>(&op.options);
    if (o == nullptr || !IsClamp(o->activation)) return std::nullopt;
  }
  return Contract{OverlapRelation::kOutputBelowBy,
                  static_cast<std::uint64_t>(k::kElementwiseOverlapDistance)};
}

/// True when the operator's first input and its output are int8
/// activations with the same (known) element count: what QUANTIZE and
/// RESHAPE need for a contract.
bool Int8InputAndOutputOfOneCount(const tflite::Subgraph& sg,
                                  const tflite::Operator& op) {
  if (op.inputs.empty() || op.inputs[0] < 0) return false;
  const Tensor& in = sg.tensors[static_cast<std::size_t>(op.inputs[0])];
  const Tensor& out = sg.tensors[static_cast<std::size_t>(op.outputs[0])];
  if (!tflite::IsInt8Activation(in) || !tflite::IsInt8Activation(out))
    return false;
  const auto ci = Count(in), co = Count(out);
  return ci && co && *ci == *co;
}

/// A one-input element-wise operator of one element count whose input and
/// output are activations (ActivationBytes) of the types `accepts` allows:
/// ElementwiseOverlapDistance over the two element sizes (overlap.hpp).
std::optional<Contract> UnaryContract(const tflite::Subgraph& sg,
                                      const tflite::Operator& op,
                                      bool (*accepts)(TensorType in,
                                                      TensorType out)) {
  if (op.inputs.empty() || op.inputs[0] < 0) return std::nullopt;
  const Tensor& in = sg.tensors[static_cast<std::size_t>(op.inputs[0])];
  const Tensor& out = sg.tensors[static_cast<std::size_t>(op.outputs[0])];
  const auto si = ActivationBytes(in), so = ActivationBytes(out);
  const auto ci = Count(in), co = Count(out);
  if (!si || !so || !ci || !co || *ci != *co || !accepts(in.type, out.type)) {
    return std::nullopt;
  }
  return Contract{
      OverlapRelation::kOutputBelowBy,
      static_cast<std::uint64_t>(k::ElementwiseOverlapDistance(*ci, *si, *so))};
}

/// QUANTIZE (codegen/compile/lower_quantize.cpp): k::Requantize between
/// int8 and int16 (quantize.hpp), k::QuantizeFromFloat from float32
/// (float_quantize.hpp).
bool QuantizeTypes(TensorType /*in*/, TensorType out) {
  return out != TensorType::kFloat32;
}

/// DEQUANTIZE (lower_dequantize.cpp): int8 or int16 to float32
/// (float_quantize.hpp's DequantizeToFloat).
bool DequantizeTypes(TensorType in, TensorType out) {
  return in != TensorType::kFloat32 && out == TensorType::kFloat32;
}

/// LEAKY_RELU, LOGISTIC, TANH: int8, int16 (int16/elementwise.hpp,
/// int16/sigmoid.hpp) or float32 (LOGISTIC, TANH: float/transcendental.hpp;
/// the type table has no float32 LEAKY_RELU), one type in and out.
bool SameType(TensorType in, TensorType out) { return in == out; }

/// RELU, RELU6: int8 or float32 (float/elementwise.hpp).
bool SameTypeNotInt16(TensorType in, TensorType out) {
  return in == out && in != TensorType::kInt16;
}

/// HARD_SWISH: int8 only.
bool Int8Only(TensorType in, TensorType out) {
  return in == TensorType::kInt8 && out == TensorType::kInt8;
}

/// RESHAPE (codegen/compile/lower_reshape.cpp): int8, equal counts.
std::optional<Contract> ReshapeContract(const tflite::Subgraph& sg,
                                        const tflite::Operator& op) {
  if (!Int8InputAndOutputOfOneCount(sg, op)) return std::nullopt;
  return Contract{OverlapRelation::kAlias, 0};
}

/// PAD / PADV2 (codegen/compile/lower_pad.cpp) on int8: rank <= 4,
/// constant int32 paddings, non-negative, matching the output shape.
std::optional<Contract> PadContract(const tflite::Model& model,
                                    const tflite::Subgraph& sg,
                                    const tflite::Operator& op) {
  if (op.inputs.size() < 2 || op.inputs[0] < 0 || op.inputs[1] < 0) {
    return std::nullopt;
  }
  const Tensor& in = sg.tensors[static_cast<std::size_t>(op.inputs[0])];
  const Tensor& pads = sg.tensors[static_cast<std::size_t>(op.inputs[1])];
  const Tensor& out = sg.tensors[static_cast<std::size_t>(op.outputs[0])];
  const auto size = SharedBytes(in, out);  // pad.hpp's k::Pad<T>
  if (!size) return std::nullopt;
  const std::size_t rank = in.shape.size();
  if (rank > 4 || out.shape.size() != rank || !model.IsConstant(pads) ||
      pads.type != TensorType::kInt32) {
    return std::nullopt;
  }
  const auto& data = model.buffers[pads.buffer].data;
  if (data.size() != 8 * rank) return std::nullopt;
  std::int32_t before[4] = {0, 0, 0, 0}, after[4] = {0, 0, 0, 0};
  for (std::size_t d = 0; d < rank; ++d) {
    std::int32_t b = 0, a = 0;
    std::memcpy(&b, data.data() + 8 * d, 4);  // little-endian host
    std::memcpy(&a, data.data() + 8 * d + 4, 4);
    if (b < 0 || a < 0 || b > (1 << 24) || a > (1 << 24) ||
        std::int64_t{in.shape[d]} + b + a != out.shape[d]) {
      return std::nullopt;
    }
    before[4 - rank + d] = b;
    after[4 - rank + d] = a;
  }
  const auto is = KernelShape(in);
  if (!is || !KernelShape(out)) return std::nullopt;
  const k::PadParams p{*is,
                       k::Shape4{before[0], before[1], before[2], before[3]},
                       k::Shape4{after[0], after[1], after[2], after[3]}};
  return BelowBy(k::PadOverlapDistance(p), *size);
}

/// The contract of operator `op`'s kernel (nullopt: none); sets
/// `streamed_inputs` to the inputs it covers (1, or 2 for the binary
/// element-wise operators).
std::optional<Contract> ContractOf(const tflite::Model& model,
                                   const tflite::Subgraph& sg,
                                   const tflite::Operator& op,
                                   std::size_t& streamed_inputs) {
  std::optional<Contract> c;
  streamed_inputs = 1;
  switch (op.builtin_code) {
    case BuiltinOp::kConv2D:
      c = ConvContract(model, sg, op, /*depthwise=*/false);
      break;
    case BuiltinOp::kDepthwiseConv2D:
      c = ConvContract(model, sg, op, /*depthwise=*/true);
      break;
    case BuiltinOp::kAveragePool2D:
    case BuiltinOp::kMaxPool2D:
      c = PoolContract(sg, op);
      break;
    case BuiltinOp::kAdd:
    case BuiltinOp::kMul:  // mul.hpp: element-wise when no input is broadcast
    case BuiltinOp::kSub:  // sub.hpp: the same
      c = ElementwiseBinaryContract(sg, op, /*fused_clamp=*/true,
                                    /*int16=*/true);
      streamed_inputs = 2;
      break;
    case BuiltinOp::kDiv:  // div.hpp: the same
      c = ElementwiseBinaryContract(sg, op, /*fused_clamp=*/true,
                                    /*int16=*/false);
      streamed_inputs = 2;
      break;
    case BuiltinOp::kMaximum:  // maximum_minimum.hpp, no broadcast
    case BuiltinOp::kMinimum:
      c = ElementwiseBinaryContract(sg, op, /*fused_clamp=*/false,
                                    /*int16=*/false);
      streamed_inputs = 2;
      break;
    case BuiltinOp::kQuantize:
      c = UnaryContract(sg, op, &QuantizeTypes);
      break;
    case BuiltinOp::kDequantize:
      c = UnaryContract(sg, op, &DequantizeTypes);
      break;
    case BuiltinOp::kReshape:
    case BuiltinOp::kExpandDims:  // lowered as a RESHAPE
    case BuiltinOp::kSqueeze:     // lowered as a RESHAPE
      c = ReshapeContract(sg, op);
      break;
    case BuiltinOp::kLeakyRelu:  // element-wise (leaky_relu.hpp, int16/)
    case BuiltinOp::kLogistic:   // element-wise (logistic.hpp, int16/, float/)
    case BuiltinOp::kTanh:       // element-wise (tanh.hpp, int16/, float/)
      c = UnaryContract(sg, op, &SameType);
      break;
    case BuiltinOp::kRelu:   // element-wise (relu.hpp, float/elementwise.hpp)
    case BuiltinOp::kRelu6:  // the same
      c = UnaryContract(sg, op, &SameTypeNotInt16);
      break;
    case BuiltinOp::kHardSwish:  // element-wise, int8 -> int8
                                 // (hard_swish.hpp)
      c = UnaryContract(sg, op, &Int8Only);
      break;
    case BuiltinOp::kPad:
    case BuiltinOp::kPadv2:
      c = PadContract(model, sg, op);
      break;
    default:
      break;
  }
  return c;
}

}  // namespace

std::vector<OverlapPair> FindOverlapPairs(
    const tflite::Model& model, const tflite::TfliteProblem& problem) {
  std::vector<OverlapPair> pairs;
  if (model.subgraphs.empty()) return pairs;
  const tflite::Subgraph& sg = model.subgraphs[0];
  const std::vector<TensorUsageRecord>& records = problem.problem.records;
  std::vector<std::int64_t> record_of(sg.tensors.size(), -1);
  for (std::size_t r = 0; r < problem.record_tensor.size(); ++r) {
    const std::int32_t t = problem.record_tensor[r];
    if (t >= 0 && static_cast<std::size_t>(t) < record_of.size()) {
      record_of[static_cast<std::size_t>(t)] = static_cast<std::int64_t>(r);
    }
  }
  // A folded alias (codegen/tflite/fold.hpp) is read and written in its
  // home tensor's record; the size checks below keep only an alias that is
  // the whole record (a RESHAPE's, offset 0), not a part of it.
  for (std::size_t t = 0; t < sg.tensors.size(); ++t) {
    const std::int32_t a = sg.tensors[t].alias_of;
    if (a >= 0 && sg.tensors[t].alias_offset == 0 &&
        static_cast<std::size_t>(a) < record_of.size()) {
      record_of[t] = record_of[static_cast<std::size_t>(a)];
    }
  }
  for (std::size_t k = 0; k < sg.operators.size(); ++k) {
    const tflite::Operator& op = sg.operators[k];
    if (op.outputs.size() != 1 || op.outputs[0] < 0) continue;
    if (!op.folded.empty()) continue;  // runs no kernel (tflite/fold.hpp)
    std::size_t streamed_inputs = 1;   // Inputs the contract covers.
    const std::optional<Contract> c =
        ContractOf(model, sg, op, streamed_inputs);
    if (!c) continue;
    const std::int32_t out_t = op.outputs[0];
    const std::int64_t out_r = record_of[static_cast<std::size_t>(out_t)];
    if (out_r < 0) continue;
    const TensorUsageRecord& out_rec = records[static_cast<std::size_t>(out_r)];
    // The record holds the tensor's bytes exactly (not so under --fp32,
    // which counts 4 bytes for an int8 element).
    const auto out_bytes = Bytes(sg.tensors[static_cast<std::size_t>(out_t)]);
    if (out_rec.first_op != k || !out_bytes || *out_bytes != out_rec.size) {
      continue;
    }
    if (c->relation == OverlapRelation::kOutputBelowBy &&
        c->distance >= out_rec.size) {
      continue;  // Disjoint anyway: nothing to allow.
    }
    std::vector<std::int64_t> done;
    for (std::size_t i = 0; i < streamed_inputs && i < op.inputs.size(); ++i) {
      const std::int32_t in_t = op.inputs[i];
      if (in_t < 0 || in_t == out_t) continue;
      if (tflite::HoldsGraphOutput(sg, in_t)) {
        continue;  // A graph output, under any name, survives to the end.
      }
      const std::int64_t in_r = record_of[static_cast<std::size_t>(in_t)];
      if (in_r < 0 || in_r == out_r ||
          std::find(done.begin(), done.end(), in_r) != done.end())
        continue;
      const TensorUsageRecord& in_rec = records[static_cast<std::size_t>(in_r)];
      const auto in_bytes = Bytes(sg.tensors[static_cast<std::size_t>(in_t)]);
      if (in_rec.last_op != k || !in_bytes || *in_bytes != in_rec.size) {
        continue;
      }
      if (c->relation == OverlapRelation::kAlias &&
          in_rec.size != out_rec.size) {
        continue;
      }
      done.push_back(in_r);
      pairs.push_back(OverlapPair{
          static_cast<std::uint32_t>(in_r), static_cast<std::uint32_t>(out_r),
          static_cast<std::uint32_t>(k), c->relation, c->distance});
    }
  }
  return pairs;
}

}  // namespace arenaplan::overlap
