// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/compile/type_rules.hpp"

#include "codegen/base/errors.hpp"

namespace arenaplan::compile {
namespace {

using tflite::BuiltinOp;
using tflite::TensorType;

constexpr TensorType I8 = TensorType::kInt8;
constexpr TensorType I16 = TensorType::kInt16;
constexpr TensorType I32 = TensorType::kInt32;
constexpr TensorType U8 = TensorType::kUint8;
constexpr TensorType F32 = TensorType::kFloat32;

constexpr TypeSlot In(std::uint8_t i, const char* role) {
  return {role, false, i};
}
constexpr TypeSlot Out() { return {"output", true, 0}; }

/// The combinations of an operator that moves elements of one type
/// (input and output alike): int8, int16, int32, float32.
const std::vector<std::vector<TensorType>> kMoved = {
    {I8, I8}, {I16, I16}, {I32, I32}, {F32, F32}};
/// kMoved for a rule of one slot (an input; the outputs checked alike).
const std::vector<std::vector<TensorType>> kMovedInput = {
    {I8}, {I16}, {I32}, {F32}};

// One line per operator: its slots, then every accepted combination.
const std::vector<TypeRule>& Table() {
  static const std::vector<TypeRule> table = {
      {BuiltinOp::kConv2D,
       {In(0, "input"), In(1, "filter"), Out()},
       {{I8, I8, I8}, {I16, I8, I16}, {F32, F32, F32}}},
      {BuiltinOp::kDepthwiseConv2D,
       {In(0, "input"), In(1, "filter"), Out()},
       {{I8, I8, I8}, {I16, I8, I16}, {F32, F32, F32}}},
      {BuiltinOp::kAveragePool2D,
       {In(0, "input"), Out()},
       {{I8, I8}, {I16, I16}, {F32, F32}}},
      {BuiltinOp::kMaxPool2D,
       {In(0, "input"), Out()},
       {{I8, I8}, {I16, I16}, {F32, F32}}},
      {BuiltinOp::kFullyConnected,
       {In(0, "input"), In(1, "weights"), Out()},
       {{I8, I8, I8}, {I16, I8, I16}, {F32, F32, F32}}},
      {BuiltinOp::kSoftmax,
       {In(0, "input"), Out()},
       {{I8, I8}, {I8, I16}, {I16, I16}, {F32, F32}}},
      {BuiltinOp::kReshape,
       {In(0, "input"), Out()},
       {{I8, I8}, {I16, I16}, {F32, F32}}},
      {BuiltinOp::kAdd,
       {In(0, "input 0"), In(1, "input 1"), Out()},
       {{I8, I8, I8}, {I16, I16, I16}, {F32, F32, F32}}},
      {BuiltinOp::kQuantize,
       {In(0, "input"), Out()},
       {{F32, I8},
        {F32, I16},
        {I8, I8},
        {I8, I16},
        {I8, I32},
        {I16, I8},
        {I16, I16},
        {I16, I32},
        {U8, I8},
        {U8, I16},
        {U8, I32},
        {I32, I8},
        {I32, I16}}},
      {BuiltinOp::kDequantize,
       {In(0, "input"), Out()},
       {{I8, F32}, {U8, F32}, {I16, F32}}},
      {BuiltinOp::kPad, {In(0, "input"), Out()}, kMoved},
      {BuiltinOp::kPadv2, {In(0, "input"), Out()}, kMoved},
      {BuiltinOp::kMean,
       {In(0, "input"), Out()},
       {{I8, I8}, {I16, I16}, {F32, F32}}},
      {BuiltinOp::kStridedSlice, {In(0, "input"), Out()}, kMoved},
      {BuiltinOp::kPack, {In(0, "input 0"), Out()}, kMoved},
      {BuiltinOp::kConcatenation, {In(0, "input 0"), Out()}, kMoved},
      {BuiltinOp::kLeakyRelu, {In(0, "input"), Out()}, {{I8, I8}, {I16, I16}}},
      {BuiltinOp::kResizeNearestNeighbor, {In(0, "input"), Out()}, kMoved},
      {BuiltinOp::kExpandDims,
       {In(0, "input"), Out()},
       {{I8, I8}, {I16, I16}, {F32, F32}}},
      {BuiltinOp::kSqueeze,
       {In(0, "input"), Out()},
       {{I8, I8}, {I16, I16}, {F32, F32}}},
      {BuiltinOp::kTranspose, {In(0, "input"), Out()}, kMoved},
      {BuiltinOp::kRelu, {In(0, "input"), Out()}, {{I8, I8}, {F32, F32}}},
      {BuiltinOp::kMul,
       {In(0, "input 0"), In(1, "input 1"), Out()},
       {{I8, I8, I8}, {I16, I16, I16}, {F32, F32, F32}}},
      {BuiltinOp::kLogistic,
       {In(0, "input"), Out()},
       {{I8, I8}, {I16, I16}, {F32, F32}}},
      {BuiltinOp::kTanh,
       {In(0, "input"), Out()},
       {{I8, I8}, {I16, I16}, {F32, F32}}},
      {BuiltinOp::kRelu6, {In(0, "input"), Out()}, {{I8, I8}, {F32, F32}}},
      {BuiltinOp::kMaximum,
       {In(0, "input 0"), In(1, "input 1"), Out()},
       {{I8, I8, I8}, {F32, F32, F32}}},
      {BuiltinOp::kMinimum,
       {In(0, "input 0"), In(1, "input 1"), Out()},
       {{I8, I8, I8}, {F32, F32, F32}}},
      {BuiltinOp::kSub,
       {In(0, "input 0"), In(1, "input 1"), Out()},
       {{I8, I8, I8}, {I16, I16, I16}, {F32, F32, F32}}},
      {BuiltinOp::kSplit, {In(1, "input")}, kMovedInput},
      {BuiltinOp::kSplitV, {In(0, "input")}, kMovedInput},
      {BuiltinOp::kUnpack, {In(0, "input")}, kMovedInput},
      {BuiltinOp::kDiv,
       {In(0, "input 0"), In(1, "input 1"), Out()},
       {{I8, I8, I8}, {F32, F32, F32}}},
      {BuiltinOp::kResizeBilinear,
       {In(0, "input"), Out()},
       {{I8, I8}, {F32, F32}}},
      {BuiltinOp::kUnidirectionalSequenceLstm,
       {In(0, "input"), In(2, "input-to-forget weights"), Out()},
       {{I8, I8, I8}, {F32, F32, F32}}},
      {BuiltinOp::kTransposeConv,
       {In(2, "input"), In(1, "filter"), Out()},
       {{I8, I8, I8}, {I16, I8, I16}, {F32, F32, F32}}},
  };
  return table;
}

std::string Combination(const std::vector<TensorType>& types) {
  std::string s = "(";
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (i > 0) s += ", ";
    s += tflite::TensorTypeName(types[i]);
  }
  return s + ")";
}

}  // namespace

std::span<const TypeRule> TypeRules() { return Table(); }

const TypeRule* FindTypeRule(BuiltinOp op) {
  for (const TypeRule& r : Table()) {
    if (r.op == op) return &r;
  }
  return nullptr;
}

std::string AcceptedTypesText(const TypeRule& rule) {
  std::string s;
  for (const auto& c : rule.accepted) {
    if (!s.empty()) s += ", ";
    s += Combination(c);
  }
  return s;
}

const std::vector<TensorType>& CheckTypes(const Lowerer& l,
                                          const tflite::Operator& op) {
  const TypeRule* rule = FindTypeRule(op.builtin_code);
  if (rule == nullptr) {
    throw InternalError("no type rule for " + op.builtin_name);
  }
  // Combinations still possible given the slots checked so far.
  std::vector<const std::vector<TensorType>*> left;
  for (const auto& c : rule->accepted) left.push_back(&c);
  for (std::size_t s = 0; s < rule->slots.size(); ++s) {
    const TypeSlot& slot = rule->slots[s];
    const tflite::Tensor& t =
        slot.output ? l.Output(op) : l.Input(op, slot.index);
    std::vector<const std::vector<TensorType>*> next;
    for (const auto* c : left) {
      if ((*c)[s] == t.type) next.push_back(c);
    }
    if (next.empty()) {
      std::string roles;
      for (const TypeSlot& r : rule->slots) {
        roles += roles.empty() ? "" : ", ";
        roles += r.role;
      }
      l.Fail(std::string(slot.role) + " " + l.Describe(t) + " is " +
             tflite::TensorTypeName(t.type) + "; " + op.builtin_name +
             " accepts (" + roles + ") as " + AcceptedTypesText(*rule));
    }
    left = std::move(next);
  }
  return *left.front();
}

}  // namespace arenaplan::compile
