// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The Lowerer's constants of the float32 lowerings: float arrays written
// exactly (hexadecimal literals, which name one float each, no decimal
// rounding), the float bias, the fused activation's float bounds, and
// float32 state buffers (the float LSTM's).
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "codegen/compile/edge_types.hpp"
#include "codegen/compile/lowering.hpp"
#include "codegen/emit/cpp_text.hpp"

namespace arenaplan::compile {

using tflite::Tensor;
using tflite::TensorType;

std::vector<float> Lowerer::FloatValues(const Tensor& t) const {
  const auto& data = Data(t, TensorType::kFloat32, 4);
  std::vector<float> v(data.size() / 4);
  std::memcpy(v.data(), data.data(), data.size());  // little-endian host
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (std::isnan(v[i])) {
      Fail(Describe(t) + Fmt(": element %zu is NaN; float32 constants must "
                             "be numbers or infinities",
                             i));
    }
  }
  return v;
}

std::string Lowerer::EmitFloatArray(const std::string& id,
                                    const std::string& comment,
                                    const std::vector<float>& v) {
  consts_ += "// " + CommentText(comment) + "\n";
  consts_ += ConstArrayHead("float", id, v.size(), 16) + " = {";
  for (std::size_t i = 0; i < v.size(); ++i) {
    consts_ += i % 4 == 0 ? "\n    " : " ";
    consts_ += ExactFloatLiteral(v[i]) + ",";
  }
  consts_ += "\n};\n";
  const_bytes_ += 4 * v.size();
  return id;
}

std::string Lowerer::ConstFloat(const Tensor& t) {
  const std::string id = "kConst" + std::to_string(Index(t));
  if (!emitted_.emplace(Index(t), id).second) return id;
  return EmitFloatArray(id, CommentOn(t, "float32"), FloatValues(t));
}

std::string Lowerer::FloatBias(const tflite::Operator& op,
                               std::int32_t channels, std::size_t input) {
  if (op.inputs.size() <= input || op.inputs[input] < 0) {
    return "static_cast<const float*>(nullptr)";
  }
  const Tensor& b = Input(op, input);
  if (b.type != TensorType::kFloat32) {
    Fail("bias " + Describe(b) + " is " + tflite::TensorTypeName(b.type) +
         "; expected FLOAT32");
  }
  if (ElementCount(b) != channels) {
    Fail(Describe(b) + ": " + std::to_string(ElementCount(b)) + " biases for " +
         std::to_string(channels) + " channels");
  }
  return ConstFloat(b);
}

std::string FloatActivationCode(const Lowerer& l, tflite::Activation a) {
  // TFLite's CalculateActivationRange<float>: no bound is an infinity.
  constexpr float kMax = std::numeric_limits<float>::max();
  float lo = std::numeric_limits<float>::lowest(), hi = kMax;
  switch (a) {
    case tflite::Activation::kNone:
      break;
    case tflite::Activation::kRelu:
      lo = 0.0f;
      break;
    case tflite::Activation::kReluN1To1:
      lo = -1.0f;
      hi = 1.0f;
      break;
    case tflite::Activation::kRelu6:
      lo = 0.0f;
      hi = 6.0f;
      break;
    default:
      l.Fail("fused activation " + std::to_string(static_cast<int>(a)) +
             " is not supported (NONE, RELU, RELU_N1_TO_1, RELU6 are)");
  }
  return "k::f32::ActivationRange{" + ExactFloatLiteral(lo) + ", " +
         ExactFloatLiteral(hi) + "}";
}

std::string Lowerer::StateFloat(const Tensor& t) {
  const std::string id = "kState" + std::to_string(Index(t));
  if (!emitted_.emplace(Index(t), id).second) return id;
  const std::int64_t n = ElementCount(t);
  states_ += "// " + CommentOn(t, "float32") + ", persistent state\n";
  states_ += Fmt("alignas(16) float %s[%" PRId64 "];\n", id.c_str(), n);
  reset_ += Fmt("  for (float& v : %s) v = 0.0f;\n", id.c_str());
  state_bytes_ += static_cast<std::uint64_t>(n) * 4;
  return id;
}

}  // namespace arenaplan::compile
