// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The lowering table: one line per supported TFLite builtin operator. To add
// an operator, see docs/compile.md.
#include <array>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {
namespace {

using tflite::BuiltinOp;

// The order is the order of the "supported: ..." list in error messages.
constexpr std::array kTable = {
    Lowering{BuiltinOp::kConv2D, LowerConv2D},
    Lowering{BuiltinOp::kDepthwiseConv2D, LowerDepthwiseConv2D},
    Lowering{BuiltinOp::kAveragePool2D, LowerAveragePool2D},
    Lowering{BuiltinOp::kMaxPool2D, LowerMaxPool2D},
    Lowering{BuiltinOp::kFullyConnected, LowerFullyConnected},
    Lowering{BuiltinOp::kSoftmax, LowerSoftmax},
    Lowering{BuiltinOp::kReshape, LowerReshape},
    Lowering{BuiltinOp::kAdd, LowerAdd},
    Lowering{BuiltinOp::kQuantize, LowerQuantize},
    Lowering{BuiltinOp::kSvdf, LowerSvdf},
    Lowering{BuiltinOp::kDequantize, LowerDequantize},
    Lowering{BuiltinOp::kPad, LowerPad},
    Lowering{BuiltinOp::kPadv2, LowerPad},
    Lowering{BuiltinOp::kMean, LowerMean},
    Lowering{BuiltinOp::kShape, LowerShape},
    Lowering{BuiltinOp::kStridedSlice, LowerStridedSlice},
    Lowering{BuiltinOp::kPack, LowerPack},
    Lowering{BuiltinOp::kConcatenation, LowerConcatenation},
    Lowering{BuiltinOp::kLeakyRelu, LowerLeakyRelu},
    Lowering{BuiltinOp::kResizeNearestNeighbor, LowerResizeNearestNeighbor},
    Lowering{BuiltinOp::kExpandDims, LowerReshape},  // a RESHAPE
    Lowering{BuiltinOp::kSqueeze, LowerReshape},     // a RESHAPE
    Lowering{BuiltinOp::kTranspose, LowerTranspose},
    Lowering{BuiltinOp::kRelu, LowerRelu},
    Lowering{BuiltinOp::kMul, LowerMul},
    Lowering{BuiltinOp::kLogistic, LowerLogistic},
    Lowering{BuiltinOp::kTanh, LowerTanh},
    Lowering{BuiltinOp::kRelu6, LowerRelu6},
    Lowering{BuiltinOp::kMaximum, LowerMaximum},
    Lowering{BuiltinOp::kMinimum, LowerMinimum},
    Lowering{BuiltinOp::kSub, LowerSub},
    Lowering{BuiltinOp::kSplit, LowerSplit},
    Lowering{BuiltinOp::kSplitV, LowerSplitV},
    Lowering{BuiltinOp::kUnpack, LowerUnpack},
    Lowering{BuiltinOp::kHardSwish, LowerHardSwish},
    Lowering{BuiltinOp::kGather, LowerGather},
    Lowering{BuiltinOp::kDiv, LowerDiv},
    Lowering{BuiltinOp::kResizeBilinear, LowerResizeBilinear},
    Lowering{BuiltinOp::kCast, LowerCast},
    Lowering{BuiltinOp::kTile, LowerTile},
    Lowering{BuiltinOp::kBatchMatmul, LowerBatchMatmul},
    Lowering{BuiltinOp::kTransposeConv, LowerTransposeConv},
    Lowering{BuiltinOp::kUnidirectionalSequenceLstm,
             LowerUnidirectionalSequenceLstm},
};

}  // namespace

std::span<const Lowering> LoweringTable() { return kTable; }

LowerFn FindLowering(BuiltinOp builtin_code) {
  for (const Lowering& l : kTable) {
    if (l.builtin_code == builtin_code) return l.lower;
  }
  return nullptr;
}

std::string SupportedOperatorNames() {
  std::string names;
  for (const Lowering& l : kTable) {
    if (!names.empty()) names += ", ";
    names += tflite::BuiltinOpName(l.builtin_code);
  }
  return names;
}

}  // namespace arenaplan::compile
