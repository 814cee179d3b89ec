// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The tensor types each lowered operator accepts: one table, one line per
// operator, read by the lowerings (CheckTypes) before anything else about
// the operator. A line names the operands it constrains (an operator input
// or output by index, with the role a message calls it) and lists every
// accepted combination of their types, in that order; e.g. CONV_2D's
// (input, filter, output) is (INT8, INT8, INT8) or (INT16, INT8, INT16).
// To accept a new combination, add it to the operator's line in
// type_rules.cpp and give the lowering the branch that takes it.
#ifndef ARENAPLAN_CODEGEN_COMPILE_TYPE_RULES_HPP_
#define ARENAPLAN_CODEGEN_COMPILE_TYPE_RULES_HPP_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "codegen/compile/lowering.hpp"
#include "codegen/tflite/builtin_ops.hpp"
#include "codegen/tflite/model.hpp"

namespace arenaplan::compile {

/// One operand a type rule constrains.
struct TypeSlot {
  const char* role;    ///< As messages name it, e.g. "input", "filter".
  bool output;         ///< An output of the operator (else an input).
  std::uint8_t index;  ///< Its position among the inputs or outputs.
};

/// The accepted type combinations of one operator.
struct TypeRule {
  tflite::BuiltinOp op;
  std::vector<TypeSlot> slots;
  /// Each of size slots.size(), the slots' types in the slots' order.
  std::vector<std::vector<tflite::TensorType>> accepted;
};

/// The table (type_rules.cpp), in the order of the lowering table.
[[nodiscard]] std::span<const TypeRule> TypeRules();

/// The rule of `op`; nullptr when the table has none.
[[nodiscard]] const TypeRule* FindTypeRule(tflite::BuiltinOp op);

/// "(INT8, INT8, INT8), (INT16, INT8, INT16)": a rule's combinations.
[[nodiscard]] std::string AcceptedTypesText(const TypeRule& rule);

/// The combination of the operator's types the table accepts (the slots'
/// types in order). Fails (Lowerer::Fail: the operator's index and name)
/// naming the first slot no accepted combination allows given the slots
/// before it: its role, tensor and type, and the accepted combinations,
/// e.g. "input tensor 0 'x' is FLOAT32; CONV_2D accepts (input, filter,
/// output) as (INT8, INT8, INT8), (INT16, INT8, INT16)". InternalError
/// when the table has no line for the operator.
const std::vector<tflite::TensorType>& CheckTypes(const Lowerer& l,
                                                  const tflite::Operator& op);

}  // namespace arenaplan::compile

#endif  // ARENAPLAN_CODEGEN_COMPILE_TYPE_RULES_HPP_
