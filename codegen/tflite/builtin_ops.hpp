// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// TFLite's builtin operator codes (the schema's `BuiltinOperator`, values
// 0 .. 161): the one spelling of an operator code in the generator.
// Readers, lowerings, overlap contracts and TFLM kernel rules name
// operators by these enumerators, never by number.
#ifndef ARENAPLAN_CODEGEN_TFLITE_BUILTIN_OPS_HPP_
#define ARENAPLAN_CODEGEN_TFLITE_BUILTIN_OPS_HPP_

#include <cstdint>
#include <string>

namespace arenaplan::tflite {

// One line per schema value: enumerator, value, the schema's name.
// clang-format off
#define ARENAPLAN_TFLITE_BUILTIN_OPS(X)                                       \
  X(kAdd, 0, "ADD")                                                          \
  X(kAveragePool2D, 1, "AVERAGE_POOL_2D")                                    \
  X(kConcatenation, 2, "CONCATENATION")                                      \
  X(kConv2D, 3, "CONV_2D")                                                   \
  X(kDepthwiseConv2D, 4, "DEPTHWISE_CONV_2D")                                \
  X(kDepthToSpace, 5, "DEPTH_TO_SPACE")                                      \
  X(kDequantize, 6, "DEQUANTIZE")                                            \
  X(kEmbeddingLookup, 7, "EMBEDDING_LOOKUP")                                 \
  X(kFloor, 8, "FLOOR")                                                      \
  X(kFullyConnected, 9, "FULLY_CONNECTED")                                   \
  X(kHashtableLookup, 10, "HASHTABLE_LOOKUP")                                \
  X(kL2Normalization, 11, "L2_NORMALIZATION")                                \
  X(kL2Pool2D, 12, "L2_POOL_2D")                                             \
  X(kLocalResponseNormalization, 13, "LOCAL_RESPONSE_NORMALIZATION")         \
  X(kLogistic, 14, "LOGISTIC")                                               \
  X(kLshProjection, 15, "LSH_PROJECTION")                                    \
  X(kLstm, 16, "LSTM")                                                       \
  X(kMaxPool2D, 17, "MAX_POOL_2D")                                           \
  X(kMul, 18, "MUL")                                                         \
  X(kRelu, 19, "RELU")                                                       \
  X(kReluN1To1, 20, "RELU_N1_TO_1")                                          \
  X(kRelu6, 21, "RELU6")                                                     \
  X(kReshape, 22, "RESHAPE")                                                 \
  X(kResizeBilinear, 23, "RESIZE_BILINEAR")                                  \
  X(kRnn, 24, "RNN")                                                         \
  X(kSoftmax, 25, "SOFTMAX")                                                 \
  X(kSpaceToDepth, 26, "SPACE_TO_DEPTH")                                     \
  X(kSvdf, 27, "SVDF")                                                       \
  X(kTanh, 28, "TANH")                                                       \
  X(kConcatEmbeddings, 29, "CONCAT_EMBEDDINGS")                              \
  X(kSkipGram, 30, "SKIP_GRAM")                                              \
  X(kCall, 31, "CALL")                                                       \
  X(kCustom, 32, "CUSTOM")                                                   \
  X(kEmbeddingLookupSparse, 33, "EMBEDDING_LOOKUP_SPARSE")                   \
  X(kPad, 34, "PAD")                                                         \
  X(kUnidirectionalSequenceRnn, 35, "UNIDIRECTIONAL_SEQUENCE_RNN")           \
  X(kGather, 36, "GATHER")                                                   \
  X(kBatchToSpaceNd, 37, "BATCH_TO_SPACE_ND")                                \
  X(kSpaceToBatchNd, 38, "SPACE_TO_BATCH_ND")                                \
  X(kTranspose, 39, "TRANSPOSE")                                             \
  X(kMean, 40, "MEAN")                                                       \
  X(kSub, 41, "SUB")                                                         \
  X(kDiv, 42, "DIV")                                                         \
  X(kSqueeze, 43, "SQUEEZE")                                                 \
  X(kUnidirectionalSequenceLstm, 44, "UNIDIRECTIONAL_SEQUENCE_LSTM")         \
  X(kStridedSlice, 45, "STRIDED_SLICE")                                      \
  X(kBidirectionalSequenceRnn, 46, "BIDIRECTIONAL_SEQUENCE_RNN")             \
  X(kExp, 47, "EXP")                                                         \
  X(kTopkV2, 48, "TOPK_V2")                                                  \
  X(kSplit, 49, "SPLIT")                                                     \
  X(kLogSoftmax, 50, "LOG_SOFTMAX")                                          \
  X(kDelegate, 51, "DELEGATE")                                               \
  X(kBidirectionalSequenceLstm, 52, "BIDIRECTIONAL_SEQUENCE_LSTM")           \
  X(kCast, 53, "CAST")                                                       \
  X(kPrelu, 54, "PRELU")                                                     \
  X(kMaximum, 55, "MAXIMUM")                                                 \
  X(kArgMax, 56, "ARG_MAX")                                                  \
  X(kMinimum, 57, "MINIMUM")                                                 \
  X(kLess, 58, "LESS")                                                       \
  X(kNeg, 59, "NEG")                                                         \
  X(kPadv2, 60, "PADV2")                                                     \
  X(kGreater, 61, "GREATER")                                                 \
  X(kGreaterEqual, 62, "GREATER_EQUAL")                                      \
  X(kLessEqual, 63, "LESS_EQUAL")                                            \
  X(kSelect, 64, "SELECT")                                                   \
  X(kSlice, 65, "SLICE")                                                     \
  X(kSin, 66, "SIN")                                                         \
  X(kTransposeConv, 67, "TRANSPOSE_CONV")                                    \
  X(kSparseToDense, 68, "SPARSE_TO_DENSE")                                   \
  X(kTile, 69, "TILE")                                                       \
  X(kExpandDims, 70, "EXPAND_DIMS")                                          \
  X(kEqual, 71, "EQUAL")                                                     \
  X(kNotEqual, 72, "NOT_EQUAL")                                              \
  X(kLog, 73, "LOG")                                                         \
  X(kSum, 74, "SUM")                                                         \
  X(kSqrt, 75, "SQRT")                                                       \
  X(kRsqrt, 76, "RSQRT")                                                     \
  X(kShape, 77, "SHAPE")                                                     \
  X(kPow, 78, "POW")                                                         \
  X(kArgMin, 79, "ARG_MIN")                                                  \
  X(kFakeQuant, 80, "FAKE_QUANT")                                            \
  X(kReduceProd, 81, "REDUCE_PROD")                                          \
  X(kReduceMax, 82, "REDUCE_MAX")                                            \
  X(kPack, 83, "PACK")                                                       \
  X(kLogicalOr, 84, "LOGICAL_OR")                                            \
  X(kOneHot, 85, "ONE_HOT")                                                  \
  X(kLogicalAnd, 86, "LOGICAL_AND")                                          \
  X(kLogicalNot, 87, "LOGICAL_NOT")                                          \
  X(kUnpack, 88, "UNPACK")                                                   \
  X(kReduceMin, 89, "REDUCE_MIN")                                            \
  X(kFloorDiv, 90, "FLOOR_DIV")                                              \
  X(kReduceAny, 91, "REDUCE_ANY")                                            \
  X(kSquare, 92, "SQUARE")                                                   \
  X(kZerosLike, 93, "ZEROS_LIKE")                                            \
  X(kFill, 94, "FILL")                                                       \
  X(kFloorMod, 95, "FLOOR_MOD")                                              \
  X(kRange, 96, "RANGE")                                                     \
  X(kResizeNearestNeighbor, 97, "RESIZE_NEAREST_NEIGHBOR")                   \
  X(kLeakyRelu, 98, "LEAKY_RELU")                                            \
  X(kSquaredDifference, 99, "SQUARED_DIFFERENCE")                            \
  X(kMirrorPad, 100, "MIRROR_PAD")                                           \
  X(kAbs, 101, "ABS")                                                        \
  X(kSplitV, 102, "SPLIT_V")                                                 \
  X(kUnique, 103, "UNIQUE")                                                  \
  X(kCeil, 104, "CEIL")                                                      \
  X(kReverseV2, 105, "REVERSE_V2")                                           \
  X(kAddN, 106, "ADD_N")                                                     \
  X(kGatherNd, 107, "GATHER_ND")                                             \
  X(kCos, 108, "COS")                                                        \
  X(kWhere, 109, "WHERE")                                                    \
  X(kRank, 110, "RANK")                                                      \
  X(kElu, 111, "ELU")                                                        \
  X(kReverseSequence, 112, "REVERSE_SEQUENCE")                               \
  X(kMatrixDiag, 113, "MATRIX_DIAG")                                         \
  X(kQuantize, 114, "QUANTIZE")                                              \
  X(kMatrixSetDiag, 115, "MATRIX_SET_DIAG")                                  \
  X(kRound, 116, "ROUND")                                                    \
  X(kHardSwish, 117, "HARD_SWISH")                                           \
  X(kIf, 118, "IF")                                                          \
  X(kWhile, 119, "WHILE")                                                    \
  X(kNonMaxSuppressionV4, 120, "NON_MAX_SUPPRESSION_V4")                     \
  X(kNonMaxSuppressionV5, 121, "NON_MAX_SUPPRESSION_V5")                     \
  X(kScatterNd, 122, "SCATTER_ND")                                           \
  X(kSelectV2, 123, "SELECT_V2")                                             \
  X(kDensify, 124, "DENSIFY")                                                \
  X(kSegmentSum, 125, "SEGMENT_SUM")                                         \
  X(kBatchMatmul, 126, "BATCH_MATMUL")                                       \
  X(kPlaceholderForGreaterOpCodes, 127, "PLACEHOLDER_FOR_GREATER_OP_CODES")  \
  X(kCumsum, 128, "CUMSUM")                                                  \
  X(kCallOnce, 129, "CALL_ONCE")                                             \
  X(kBroadcastTo, 130, "BROADCAST_TO")                                       \
  X(kRfft2d, 131, "RFFT2D")                                                  \
  X(kConv3D, 132, "CONV_3D")                                                 \
  X(kImag, 133, "IMAG")                                                      \
  X(kReal, 134, "REAL")                                                      \
  X(kComplexAbs, 135, "COMPLEX_ABS")                                         \
  X(kHashtable, 136, "HASHTABLE")                                            \
  X(kHashtableFind, 137, "HASHTABLE_FIND")                                   \
  X(kHashtableImport, 138, "HASHTABLE_IMPORT")                               \
  X(kHashtableSize, 139, "HASHTABLE_SIZE")                                   \
  X(kReduceAll, 140, "REDUCE_ALL")                                           \
  X(kConv3DTranspose, 141, "CONV_3D_TRANSPOSE")                              \
  X(kVarHandle, 142, "VAR_HANDLE")                                           \
  X(kReadVariable, 143, "READ_VARIABLE")                                     \
  X(kAssignVariable, 144, "ASSIGN_VARIABLE")                                 \
  X(kBroadcastArgs, 145, "BROADCAST_ARGS")                                   \
  X(kRandomStandardNormal, 146, "RANDOM_STANDARD_NORMAL")                    \
  X(kBucketize, 147, "BUCKETIZE")                                            \
  X(kRandomUniform, 148, "RANDOM_UNIFORM")                                   \
  X(kMultinomial, 149, "MULTINOMIAL")                                        \
  X(kGelu, 150, "GELU")                                                      \
  X(kDynamicUpdateSlice, 151, "DYNAMIC_UPDATE_SLICE")                        \
  X(kRelu0To1, 152, "RELU_0_TO_1")                                           \
  X(kUnsortedSegmentProd, 153, "UNSORTED_SEGMENT_PROD")                      \
  X(kUnsortedSegmentMax, 154, "UNSORTED_SEGMENT_MAX")                        \
  X(kUnsortedSegmentSum, 155, "UNSORTED_SEGMENT_SUM")                        \
  X(kAtan2, 156, "ATAN2")                                                    \
  X(kUnsortedSegmentMin, 157, "UNSORTED_SEGMENT_MIN")                        \
  X(kSign, 158, "SIGN")                                                      \
  X(kBitcast, 159, "BITCAST")                                                \
  X(kBitwiseXor, 160, "BITWISE_XOR")                                         \
  X(kRightShift, 161, "RIGHT_SHIFT")
// clang-format on

/// A builtin operator code as stored in the file. Values this build does
/// not list (newer schemas) are kept as they are: the enum's underlying
/// type holds any int32.
enum class BuiltinOp : std::int32_t {
#define ARENAPLAN_TFLITE_BUILTIN_OP_ENUMERATOR(e, v, name) e = v,
  ARENAPLAN_TFLITE_BUILTIN_OPS(ARENAPLAN_TFLITE_BUILTIN_OP_ENUMERATOR)
#undef ARENAPLAN_TFLITE_BUILTIN_OP_ENUMERATOR
};

/// Number of schema values listed above (0 .. kBuiltinOpCount - 1).
inline constexpr std::int32_t kBuiltinOpCount = 162;

/// "CONV_2D", ...; "BUILTIN_<n>" for codes this build does not know.
[[nodiscard]] std::string BuiltinOpName(BuiltinOp op);

}  // namespace arenaplan::tflite

#endif  // ARENAPLAN_CODEGEN_TFLITE_BUILTIN_OPS_HPP_
