// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The lowering table: one line per supported TFLite builtin operator. To add
// an operator, see docs/compile.md.
#include <array>

#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {
namespace {

// Values of the schema's BuiltinOperator; the order is the order of the
// "supported: ..." list in error messages.
constexpr std::array kTable = {
    Lowering{3, LowerConv2D},           // CONV_2D
    Lowering{4, LowerDepthwiseConv2D},  // DEPTHWISE_CONV_2D
    Lowering{1, LowerAveragePool2D},    // AVERAGE_POOL_2D
    Lowering{17, LowerMaxPool2D},       // MAX_POOL_2D
    Lowering{9, LowerFullyConnected},   // FULLY_CONNECTED
    Lowering{25, LowerSoftmax},         // SOFTMAX
    Lowering{22, LowerReshape},         // RESHAPE
    Lowering{0, LowerAdd},              // ADD
    Lowering{114, LowerQuantize},       // QUANTIZE
    Lowering{27, LowerSvdf},            // SVDF
    Lowering{6, LowerDequantize},       // DEQUANTIZE
    Lowering{34, LowerPad},             // PAD
    Lowering{60, LowerPad},             // PADV2
    Lowering{40, LowerMean},            // MEAN
    Lowering{77, LowerShape},           // SHAPE
    Lowering{45, LowerStridedSlice},    // STRIDED_SLICE
    Lowering{83, LowerPack},            // PACK
    Lowering{2, LowerConcatenation},    // CONCATENATION
    Lowering{98, LowerLeakyRelu},       // LEAKY_RELU
    // RESIZE_NEAREST_NEIGHBOR
    Lowering{97, LowerResizeNearestNeighbor},
    Lowering{70, LowerReshape},  // EXPAND_DIMS (a RESHAPE)
    Lowering{43, LowerReshape},  // SQUEEZE (a RESHAPE)
    Lowering{39, LowerTranspose},  // TRANSPOSE
    Lowering{19, LowerRelu},       // RELU
    Lowering{18, LowerMul},        // MUL
    Lowering{14, LowerLogistic},   // LOGISTIC
    Lowering{28, LowerTanh},       // TANH
    Lowering{21, LowerRelu6},      // RELU6
};

}  // namespace

std::span<const Lowering> LoweringTable() { return kTable; }

LowerFn FindLowering(std::int32_t builtin_code) {
  for (const Lowering& l : kTable) {
    if (l.builtin_code == builtin_code) return l.lower;
  }
  return nullptr;
}

std::string SupportedOperatorNames() {
  std::string names;
  for (const Lowering& l : kTable) {
    if (!names.empty()) names += ", ";
    names += tflite::BuiltinOperatorName(l.builtin_code);
  }
  return names;
}

}  // namespace arenaplan::compile
