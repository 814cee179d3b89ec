// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/tflite/builtin_ops.hpp"

namespace arenaplan::tflite {

std::string BuiltinOpName(BuiltinOp op) {
  switch (op) {
#define ARENAPLAN_TFLITE_BUILTIN_OP_NAME(e, v, name) \
  case BuiltinOp::e:                                 \
    return name;
    ARENAPLAN_TFLITE_BUILTIN_OPS(ARENAPLAN_TFLITE_BUILTIN_OP_NAME)
#undef ARENAPLAN_TFLITE_BUILTIN_OP_NAME
  }
  return "BUILTIN_" + std::to_string(static_cast<std::int32_t>(op));
}

}  // namespace arenaplan::tflite
