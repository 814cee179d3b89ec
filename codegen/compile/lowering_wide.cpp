// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The Lowerer's constants of the int16-activation lowerings: int64 arrays
// (the 64-bit biases of the 16x8 convolutions) and shared int16 tables (the
// int16 softmax's).
#include <cinttypes>
#include <cstring>
#include <vector>

#include "codegen/compile/lowering.hpp"
#include "codegen/emit/cpp_text.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

std::vector<std::int64_t> Lowerer::Int64Values(const Tensor& t) const {
  const auto& data = Data(t, TensorType::kInt64, 8);
  std::vector<std::int64_t> v(data.size() / 8);
  std::memcpy(v.data(), data.data(), data.size());  // little-endian host
  return v;
}

std::string Lowerer::EmitInt16TableOnce(const std::string& id,
                                        const std::string& comment,
                                        const std::vector<std::int16_t>& v) {
  if (!tables_.insert(id).second) return id;
  consts_ += "// " + CommentText(comment) + "\n";
  consts_ += ConstArrayHead("std::int16_t", id, v.size(), 16) + " = {";
  for (std::size_t i = 0; i < v.size(); ++i) {
    consts_ += i % 16 == 0 ? "\n    " : " ";
    consts_ += std::to_string(v[i]) + ",";
  }
  consts_ += "\n};\n";
  const_bytes_ += 2 * v.size();
  return id;
}

std::string Lowerer::EmitInt64Array(const std::string& id,
                                    const std::string& comment,
                                    const std::vector<std::int64_t>& v) {
  consts_ += "// " + CommentText(comment) + "\n";
  consts_ += ConstArrayHead("std::int64_t", id, v.size(), 8) + " = {";
  for (std::size_t i = 0; i < v.size(); ++i) {
    consts_ += i % 4 == 0 ? "\n    " : " ";
    // INT64_MIN has no literal: written as a difference.
    consts_ += v[i] == INT64_MIN ? std::string("(-9223372036854775807 - 1)")
                                 : Fmt("%" PRId64, v[i]);
    consts_ += ',';
  }
  consts_ += "\n};\n";
  const_bytes_ += 8 * v.size();
  return id;
}

std::string Lowerer::Int64Bias(const tflite::Operator& op,
                               std::int32_t channels, std::size_t input,
                               bool int16_ok) {
  if (op.inputs.size() <= input || op.inputs[input] < 0) {
    return "static_cast<const std::int64_t*>(nullptr)";
  }
  const Tensor& b = Input(op, input);
  std::vector<std::int64_t> v;
  if (b.type == TensorType::kInt16 && int16_ok) {
    const auto& data = Data(b, TensorType::kInt16, 2);
    for (std::size_t i = 0; i < data.size(); i += 2) {
      v.push_back(static_cast<std::int16_t>(
          static_cast<std::uint16_t>(data[i] | (data[i + 1] << 8))));
    }
  } else {
    if (b.type != TensorType::kInt64) {
      Fail("bias " + Describe(b) + " is " + tflite::TensorTypeName(b.type) +
           (int16_ok ? "; expected INT64 or INT16" : "; expected INT64"));
    }
    v = Int64Values(b);
  }
  if (static_cast<std::int32_t>(v.size()) != channels) {
    Fail(Describe(b) + ": " + std::to_string(v.size()) + " biases for " +
         std::to_string(channels) + " channels");
  }
  // A widened INT16 bias is a new array, not the tensor's own constant.
  const std::string id =
      (b.type == TensorType::kInt16 ? "kWideBias" : "kConst") +
      std::to_string(Index(b));
  if (b.type == TensorType::kInt16) {
    if (consts_.find(" " + id + "[") != std::string::npos) return id;
  } else if (!emitted_.emplace(Index(b), id).second) {
    return id;
  }
  return EmitInt64Array(
      id,
      CommentOn(
          b, b.type == TensorType::kInt16 ? "int16 widened to int64" : "int64"),
      v);
}

}  // namespace arenaplan::compile
