// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/compile/lowering.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "arenaplan/kernels/overlap.hpp"
#include "codegen/base/errors.hpp"
#include "codegen/emit/cpp_text.hpp"

namespace arenaplan::compile {

using tflite::ShapeText;
using tflite::Tensor;
using tflite::TensorType;

std::string Fmt(const char* format, ...) {
  char buf[512];
  va_list args;
  va_start(args, format);
  const int n = std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  // Truncated text could lose a line's end (and splice the next line into
  // a comment): never emit it.
  if (n < 0 || static_cast<std::size_t>(n) >= sizeof buf) {
    throw InternalError("generated line longer than 511 characters");
  }
  return buf;
}

std::string ConstArrayHead(const char* type, const std::string& id,
                           std::size_t n, int alignment) {
  return std::string("ARENAPLAN_CONST_ATTRIBUTES ") +
         (alignment > 0 ? Fmt("alignas(%d) ", alignment) : "") + "const " +
         type + " " + id + Fmt("[%zu]", n);
}

std::int64_t Product(const std::vector<std::int32_t>& shape, std::size_t from,
                     std::size_t to) {
  std::int64_t p = 1;
  for (std::size_t i = from; i < to; ++i) p *= shape[i];
  return p;
}

std::int64_t ElementCount(const Tensor& t) {
  std::int64_t n = 1;
  for (std::int32_t d : t.shape) {
    if (d < 0 || __builtin_mul_overflow(n, std::int64_t{d}, &n) ||
        n > (std::int64_t{1} << 48)) {
      return -1;
    }
  }
  return n;
}

std::string Dims4::Code() const {
  return Fmt("k::Shape4{%d, %d, %d, %d}", n, h, w, c);
}

Lowerer::Lowerer(const tflite::Model& model, const std::string& path,
                 const tflite::TfliteProblem& problem)
    : model_(model),
      sg_(model.subgraphs.at(0)),
      path_(path),
      record_of_(sg_.tensors.size(), -1) {
  for (std::size_t r = 0; r < problem.record_tensor.size(); ++r) {
    const std::int32_t t = problem.record_tensor[r];
    if (t >= 0)
      record_of_[static_cast<std::size_t>(t)] = static_cast<std::int64_t>(r);
  }
  // An alias (codegen/tflite/fold.hpp) is addressed inside its home's record.
  for (std::size_t t = 0; t < sg_.tensors.size(); ++t) {
    const std::int32_t a = sg_.tensors[t].alias_of;
    if (a >= 0) record_of_[t] = record_of_[static_cast<std::size_t>(a)];
  }
}

void CheckLowerable(const tflite::Model& model, const std::string& path) {
  // Operator kinds without a lowering, in order of first appearance.
  std::vector<std::pair<std::string, std::size_t>> missing;
  std::size_t count = 0;
  for (const tflite::Operator& op : model.subgraphs[0].operators) {
    if (!op.folded.empty() || FindLowering(op.builtin_code) != nullptr) {
      continue;
    }
    const std::string name =
        op.builtin_code == tflite::BuiltinOp::kCustom && !op.custom_code.empty()
            ? op.builtin_name + " " + op.custom_code
            : op.builtin_name;
    auto it = std::find_if(missing.begin(), missing.end(),
                           [&](const auto& m) { return m.first == name; });
    if (it == missing.end()) it = missing.insert(missing.end(), {name, 0});
    ++it->second;
    ++count;
  }
  if (count == 0) return;
  std::string list;
  for (const auto& [name, n] : missing) {
    list += (list.empty() ? "" : ", ") + TerminalText(name) + " x" +
            std::to_string(n);
  }
  // FILL has no kernel: it compiles only as a constant computed at
  // generation time (codegen/tflite/const_fold.hpp), which --no-fold skips.
  const bool fill =
      std::any_of(missing.begin(), missing.end(),
                  [](const auto& m) { return m.first == "FILL"; });
  throw InputError(TerminalText(path) + ": cannot lower " +
                   std::to_string(count) + " operator" +
                   (count == 1 ? "" : "s") + ": " + list +
                   " (supported: " + SupportedOperatorNames() +
                   (fill ? "; FILL only with constant dims and value, "
                           "computed at generation time unless --no-fold"
                         : "") +
                   ")");
}

void Lowerer::Run() {
  CheckLowerable(model_, path_);
  for (std::size_t k = 0; k < sg_.operators.size(); ++k) {
    pos_ = k;
    op_ = k < file_index_.size() ? file_index_[k] : k;
    const tflite::Operator& op = sg_.operators[k];
    constants_before_.push_back(const_bytes_);
    body_ += "  // operator " + std::to_string(op_) + ": " +
             CommentText(op.builtin_name) + "\n";
    if (!op.folded.empty()) {  // codegen/tflite/fold.hpp: no kernel
      body_ += "  // " + CommentText(op.folded) + "\n";
      continue;
    }
    CheckElementCounts(op);
    RecordAccesses(op);
    FindLowering(op.builtin_code)(*this, op);
  }
}

void Lowerer::RecordAccesses(const tflite::Operator& op) {
  LoweredAccesses a;
  a.position = pos_;
  a.file_index = op_;
  a.name = TerminalText(op.builtin_name);
  const auto planned = [&](std::int32_t t) {
    return t >= 0 && static_cast<std::size_t>(t) < sg_.tensors.size() &&
           record_of_[static_cast<std::size_t>(t)] >= 0 &&
           !model_.IsConstant(sg_.tensors[static_cast<std::size_t>(t)]);
  };
  for (std::int32_t t : op.inputs) {
    if (planned(t) &&
        std::find(a.reads.begin(), a.reads.end(), t) == a.reads.end()) {
      a.reads.push_back(t);
    }
  }
  for (std::int32_t t : op.outputs) {
    if (planned(t)) a.writes.push_back(t);
  }
  accesses_.push_back(std::move(a));
}

void Lowerer::CheckElementCounts(const tflite::Operator& op) const {
  constexpr std::int64_t kMax = std::numeric_limits<std::int32_t>::max();
  for (const auto* list : {&op.inputs, &op.outputs}) {
    for (std::int32_t i : *list) {
      if (i < 0 || static_cast<std::size_t>(i) >= sg_.tensors.size()) continue;
      const Tensor& t = sg_.tensors[static_cast<std::size_t>(i)];
      std::int64_t n = 1;
      bool over = false;
      for (std::int32_t d : t.shape) {
        over =
            over || (d > 0 && __builtin_mul_overflow(n, std::int64_t{d}, &n));
      }
      if (over || n > kMax) {
        Fail(Describe(t) + " has " +
             (over ? std::string("more than 2^63") : std::to_string(n)) +
             " elements; the kernels count elements in std::int32_t (at "
             "most " +
             std::to_string(kMax) + ")");
      }
    }
  }
}

std::int64_t Lowerer::RecordOf(std::int32_t t, const char* what) const {
  if (t < 0 || static_cast<std::size_t>(t) >= record_of_.size() ||
      record_of_[static_cast<std::size_t>(t)] < 0) {
    throw InputError(path_ + ": " + what + " tensor " + std::to_string(t) +
                     " is not in the plan");
  }
  if (sg_.tensors[static_cast<std::size_t>(t)].alias_offset != 0) {
    throw InternalError(path_ + ": " + what + " tensor " + std::to_string(t) +
                        " is folded inside another tensor");
  }
  return record_of_[static_cast<std::size_t>(t)];
}

void Lowerer::Fail(const std::string& what) const {
  const auto& op = sg_.operators[pos_];
  throw InputError(TerminalText(path_) + ": operator " + std::to_string(op_) +
                   " (" + TerminalText(op.builtin_name) + "): " + what);
}

const Tensor& Lowerer::Input(const tflite::Operator& op, std::size_t i) const {
  if (i >= op.inputs.size() || op.inputs[i] < 0) {
    Fail("input " + std::to_string(i) + " is missing");
  }
  return sg_.tensors[static_cast<std::size_t>(op.inputs[i])];
}

const Tensor& Lowerer::Output(const tflite::Operator& op) const {
  if (op.outputs.size() != 1 || op.outputs[0] < 0) {
    Fail("expected exactly one output");
  }
  return sg_.tensors[static_cast<std::size_t>(op.outputs[0])];
}

UnaryOperands Lowerer::Unary(const tflite::Operator& op) const {
  const Tensor& in = Input(op, 0);
  return {in, Output(op)};
}

LayerOperands Lowerer::Layer(const tflite::Operator& op) const {
  const Tensor& in = Input(op, 0);
  const Tensor& weights = Input(op, 1);
  const Tensor& out = Output(op);
  return {in, weights, out, Int8Activation(in), Int8Activation(out)};
}

std::int32_t Lowerer::Index(const Tensor& t) const {
  return static_cast<std::int32_t>(&t - sg_.tensors.data());
}

std::string Lowerer::Describe(const Tensor& t) const {
  return "tensor " + std::to_string(Index(t)) + " '" + TerminalText(t.name) +
         "'";
}

std::string Lowerer::CommentOn(const Tensor& t, const char* type) const {
  return "tensor " + std::to_string(Index(t)) + " '" + CommentText(t.name) +
         "' " + type + " " + ShapeText(t.shape);
}

std::string Lowerer::Addr(const Tensor& t) const {
  if (model_.IsConstant(t))
    Fail(Describe(t) + " is constant, expected an activation");
  const std::int64_t r = record_of_[static_cast<std::size_t>(Index(t))];
  if (r < 0) Fail(Describe(t) + " is not in the plan");
  const std::uint64_t off = t.alias_offset;  // fold.hpp; 0 unless an alias
  return RecordAddr(r) + (off == 0 ? "" : Fmt(" + %" PRIu64, off));
}

std::string Lowerer::RecordAddr(std::int64_t r) const {
  if (in_regions_) {
    return Fmt("reinterpret_cast<std::int8_t*>(Arena::Address(%" PRId64 "))",
               r);
  }
  return Fmt("arena + kPlan[%" PRId64 "].offset", r);
}

std::string Lowerer::Scratch(std::uint64_t bytes) {
  const ScratchRecord s =
      pos_ < scratch_.size() ? scratch_[pos_] : ScratchRecord{};
  if (accesses_.empty() || accesses_.back().position != pos_ || s.record < 0 ||
      s.bytes < bytes) {
    throw InternalError(
        path_ + ": operator " + std::to_string(op_) + ": its kernel needs " +
        std::to_string(bytes) + " bytes of scratch, the plan holds " +
        (s.record < 0 ? std::string("none") : std::to_string(s.bytes)));
  }
  accesses_.back().scratch_record = s.record;
  accesses_.back().scratch_bytes = bytes;
  return RecordAddr(s.record);
}

std::string Lowerer::Operand(const tflite::Nhwc& shape, const Tensor& t) const {
  return Dims4{shape}.Code() + ", " + Addr(t);
}

std::string Lowerer::TypedAddr(const Tensor& t, const char* ctype) const {
  if (std::strcmp(ctype, "std::int8_t") == 0) return Addr(t);
  return Fmt("reinterpret_cast<%s*>(%s)", ctype, Addr(t).c_str());
}

Dims4 Lowerer::Shape(const Tensor& t) const {
  if (t.shape.size() > 4) Fail(Describe(t) + " has more than 4 dimensions");
  Dims4 d;
  std::int32_t* dst[4] = {&d.n, &d.h, &d.w, &d.c};
  const std::size_t skip = 4 - t.shape.size();
  for (std::size_t i = 0; i < t.shape.size(); ++i) {
    if (t.shape[i] <= 0)
      Fail(Describe(t) + " has a dynamic or empty dimension");
    *dst[skip + i] = t.shape[i];
  }
  return d;
}

Affine Lowerer::Int8Activation(const Tensor& t) const {
  if (t.type != TensorType::kInt8) {
    Fail(Describe(t) + " is " + tflite::TensorTypeName(t.type) +
         "; the kernels take int8 activations only");
  }
  return Quantization(t, -128, 127);
}

Affine Lowerer::PerTensor(const Tensor& t) const {
  if (t.type == TensorType::kInt8) return Int8Activation(t);
  if (t.type != TensorType::kInt16 && t.type != TensorType::kInt32) {
    Fail(Describe(t) + " is " + tflite::TensorTypeName(t.type) +
         "; expected INT8, INT16 or INT32");
  }
  if (t.type == TensorType::kInt16) {
    return Quantization(t, std::numeric_limits<std::int16_t>::min(),
                        std::numeric_limits<std::int16_t>::max());
  }
  return Quantization(t, std::numeric_limits<std::int32_t>::min(),
                      std::numeric_limits<std::int32_t>::max());
}

Affine Lowerer::Quantization(const Tensor& t, std::int64_t lo,
                             std::int64_t hi) const {
  const auto& q = t.quantization;
  if (q.scale.size() != 1 || q.zero_point.size() != 1) {
    Fail(Describe(t) +
         " needs per-tensor quantization (one scale, one zero point)");
  }
  if (!(q.scale[0] > 0.0f) || !std::isfinite(q.scale[0]) ||
      q.zero_point[0] < lo || q.zero_point[0] > hi) {
    Fail(Describe(t) + " has an invalid scale or zero point");
  }
  return {q.scale[0], static_cast<std::int32_t>(q.zero_point[0])};
}

float Lowerer::SymmetricScale(const Tensor& t) const {
  const auto& q = t.quantization;
  if (q.scale.size() != 1 || q.zero_point.size() > 1 ||
      (q.zero_point.size() == 1 && q.zero_point[0] != 0) ||
      !(q.scale[0] > 0.0f)) {
    Fail(Describe(t) +
         " needs one positive scale and zero point 0 (per-tensor, "
         "symmetric)");
  }
  return q.scale[0];
}

const char* Lowerer::CType(TensorType type) {
  switch (type) {
    case TensorType::kInt8:
      return "std::int8_t";
    case TensorType::kInt16:
      return "std::int16_t";
    case TensorType::kInt32:
      return "std::int32_t";
    case TensorType::kUint8:
      return "std::uint8_t";
    case TensorType::kFloat32:
      return "float";
    default:
      return nullptr;
  }
}

const std::vector<std::uint8_t>& Lowerer::Data(const Tensor& t, TensorType type,
                                               std::size_t elem) const {
  if (!model_.IsConstant(t)) Fail(Describe(t) + " must be constant");
  if (t.type != type) {
    Fail(Describe(t) + " is " + tflite::TensorTypeName(t.type) + ", expected " +
         tflite::TensorTypeName(type));
  }
  const auto& buf = model_.buffers[t.buffer];
  if (buf.data.empty()) Fail(Describe(t) + " keeps its data outside the file");
  if (static_cast<std::int64_t>(buf.data.size()) !=
      ElementCount(t) * static_cast<std::int64_t>(elem)) {
    Fail(Describe(t) + " has " + std::to_string(buf.data.size()) +
         " bytes of data for shape " + ShapeText(t.shape));
  }
  return buf.data;
}

std::string Lowerer::ConstInt8(const Tensor& t) {
  const std::string id = "kConst" + std::to_string(Index(t));
  if (!emitted_.emplace(Index(t), id).second) return id;
  const auto& data = Data(t, TensorType::kInt8, 1);
  consts_ += "// " + CommentOn(t, "int8") + "\n";
  // A narrow string literal initialises a signed char array; the array has
  // one more element for the literal's terminating NUL.
  consts_ += ConstArrayHead("std::int8_t", id, data.size() + 1, 16) + " =\n";
  for (std::size_t i = 0; i < data.size(); i += 32) {
    consts_ += "    \"";
    for (std::size_t j = i; j < data.size() && j < i + 32; ++j) {
      consts_ += Fmt("\\x%02x", data[j]);
    }
    consts_ += "\"\n";
  }
  consts_ += "    ;\n";
  const_bytes_ += data.size() + 1;
  return id;
}

std::vector<std::int32_t> Lowerer::Int32Values(const Tensor& t) const {
  const auto& data = Data(t, TensorType::kInt32, 4);
  std::vector<std::int32_t> v(data.size() / 4);
  std::memcpy(v.data(), data.data(), data.size());  // little-endian host
  return v;
}

std::string Lowerer::ConstInt16(const Tensor& t) {
  const std::string id = "kConst" + std::to_string(Index(t));
  if (!emitted_.emplace(Index(t), id).second) return id;
  const auto& data = Data(t, TensorType::kInt16, 2);
  consts_ += "// " + CommentOn(t, "int16") + "\n";
  consts_ += ConstArrayHead("std::int16_t", id, data.size() / 2, 16) + " = {";
  for (std::size_t i = 0; i < data.size(); i += 2) {
    consts_ += i % 32 == 0 ? "\n    " : " ";
    // Little-endian in the file.
    const auto v = static_cast<std::int16_t>(
        static_cast<std::uint16_t>(data[i] | (data[i + 1] << 8)));
    consts_ += std::to_string(v) + ",";
  }
  consts_ += "\n};\n";
  const_bytes_ += data.size();
  return id;
}

std::string Lowerer::EmitInt32Array(const std::string& id,
                                    const std::string& comment,
                                    const std::vector<std::int32_t>& v) {
  consts_ += "// " + CommentText(comment) + "\n";
  consts_ += ConstArrayHead("std::int32_t", id, v.size(), 0) + " = {";
  for (std::size_t i = 0; i < v.size(); ++i) {
    consts_ += i % 8 == 0 ? "\n    " : " ";
    consts_ += std::to_string(v[i]);
    consts_ += ',';
  }
  consts_ += "\n};\n";
  const_bytes_ += 4 * v.size();
  return id;
}

std::string Lowerer::EmitInt8Array(const std::string& id,
                                   const std::string& comment,
                                   const std::vector<std::int8_t>& v) {
  consts_ += "// " + CommentText(comment) + "\n";
  consts_ += ConstArrayHead("std::int8_t", id, v.size(), 16) + " = {";
  for (std::size_t i = 0; i < v.size(); ++i) {
    consts_ += i % 16 == 0 ? "\n    " : " ";
    consts_ += std::to_string(v[i]);
    consts_ += ',';
  }
  consts_ += "\n};\n";
  const_bytes_ += v.size();
  return id;
}

std::vector<std::int8_t> Lowerer::Int8Values(const Tensor& t) const {
  const auto& data = Data(t, TensorType::kInt8, 1);
  std::vector<std::int8_t> v(data.size());
  std::memcpy(v.data(), data.data(), data.size());
  return v;
}

std::vector<std::int32_t> Lowerer::BiasValues(const tflite::Operator& op,
                                              std::int32_t channels,
                                              std::size_t input) const {
  if (op.inputs.size() <= input || op.inputs[input] < 0) return {};
  const Tensor& b = Input(op, input);
  auto v = Int32Values(b);
  if (static_cast<std::int32_t>(v.size()) != channels) {
    Fail(Describe(b) + ": " + std::to_string(v.size()) + " biases for " +
         std::to_string(channels) + " channels");
  }
  return v;
}

std::string Lowerer::Bias(const tflite::Operator& op, std::int32_t channels,
                          std::size_t input) {
  if (op.inputs.size() <= input || op.inputs[input] < 0) return "nullptr";
  const Tensor& b = Input(op, input);
  const auto v = BiasValues(op, channels, input);
  const std::string id = "kConst" + std::to_string(Index(b));
  if (!emitted_.emplace(Index(b), id).second) return id;
  return EmitInt32Array(id, CommentOn(b, "int32"), v);
}

std::string Lowerer::ChannelQuant(const Tensor& w, std::int32_t channels,
                                  std::int32_t dimension, float in_scale,
                                  float out_scale, ScaleProduct product) {
  return EmitChannelQuant(
      ChannelMultipliers(w, channels, dimension, in_scale, out_scale, product));
}

std::vector<QuantizedMultiplier> Lowerer::ChannelMultipliers(
    const Tensor& w, std::int32_t channels, std::int32_t dimension,
    float in_scale, float out_scale, ScaleProduct product) const {
  const auto& q = w.quantization;
  if (q.scale.empty()) Fail(Describe(w) + " is not quantized");
  if (q.scale.size() != 1 &&
      static_cast<std::int32_t>(q.scale.size()) != channels) {
    Fail(Describe(w) + " has " + std::to_string(q.scale.size()) +
         " scales for " + std::to_string(channels) + " channels");
  }
  if (q.scale.size() > 1 && q.quantized_dimension != dimension) {
    Fail(Describe(w) + " is quantized along dimension " +
         std::to_string(q.quantized_dimension) + ", expected " +
         std::to_string(dimension));
  }
  for (std::int64_t zp : q.zero_point) {
    if (zp != 0)
      Fail(Describe(w) +
           " has a non-zero zero point (weights must be symmetric)");
  }
  std::vector<QuantizedMultiplier> m;
  for (std::int32_t c = 0; c < channels; ++c) {
    const float ws =
        q.scale[q.scale.size() == 1 ? 0 : static_cast<std::size_t>(c)];
    const double in_times_w =
        product == ScaleProduct::kFloat
            ? static_cast<double>(in_scale * ws)
            : static_cast<double>(in_scale) * static_cast<double>(ws);
    const double real = in_times_w / static_cast<double>(out_scale);
    const std::string what = Describe(w) + ": requantization multiplier";
    if (product == ScaleProduct::kFloat && in_times_w < 0.0) {
      Fail(what + Fmt(" %.9g is negative (TFLite refuses a negative "
                      "per-tensor scale here)",
                      real));
    }
    m.push_back(Multiplier(real, what, product == ScaleProduct::kDouble));
  }
  return m;
}

std::string Lowerer::EmitChannelQuant(
    const std::vector<QuantizedMultiplier>& m) {
  std::vector<std::int32_t> mult, shift;
  for (const QuantizedMultiplier& c : m) {
    mult.push_back(c.multiplier);
    shift.push_back(c.shift);
  }
  const std::string mid = Fmt("kMultiplier%zu", op_);
  const std::string sid = Fmt("kShift%zu", op_);
  EmitInt32Array(
      mid, Fmt("operator %zu: Q0.31 requantization multipliers", op_), mult);
  consts_ += Fmt("// operator %zu: requantization shifts\n", op_) +
             ConstArrayHead("std::int8_t", sid, shift.size(), 0) + " = {";
  for (std::size_t i = 0; i < shift.size(); ++i) {
    consts_ += i % 16 == 0 ? "\n    " : " ";
    consts_ += std::to_string(shift[i]);
    consts_ += ',';
  }
  consts_ += "\n};\n";
  const_bytes_ += shift.size();
  return "k::ChannelQuant{" + mid + ", " + sid + "}";
}

QuantizedMultiplier Lowerer::Multiplier(double real, const std::string& what,
                                        bool negative_ok) const {
  if (!std::isfinite(real) || (!negative_ok && !(real >= 0.0))) {
    Fail(what + Fmt(" %.9g is negative or not finite", real));
  }
  const QuantizedMultiplier m = QuantizeMultiplier(real);
  // The kernels shift by at most 31 right and 30 left; a multiplier in
  // [2^30, 2^31), [-2^31, -2^30] (negative_ok) or 0.
  if (m.shift > 30 || m.shift < -31) {
    Fail(what + Fmt(" %.9g is out of range (shift %d)", real, m.shift));
  }
  return m;
}

ActivationRange Lowerer::Activation(tflite::Activation a, const Affine& out,
                                    const Tensor& out_tensor) const {
  if (!IsClampActivation(a)) {
    Fail("fused activation " + std::to_string(static_cast<int>(a)) +
         " is not supported (NONE, RELU, RELU_N1_TO_1, RELU6 are)");
  }
  const bool wide = out_tensor.type == TensorType::kInt16;
  const auto r = QuantizedActivationRange(
      a, out.scale, out.zero_point,
      wide ? std::numeric_limits<std::int16_t>::min() : -128,
      wide ? std::numeric_limits<std::int16_t>::max() : 127);
  if (!r) {
    Fail(Describe(out_tensor) +
         Fmt(": fused activation %d: its bounds at scale %.9g, zero point "
             "%d do not quantize into int32 (TFLite refuses it)",
             static_cast<int>(a), static_cast<double>(out.scale),
             out.zero_point));
  }
  return *r;
}

void Lowerer::CheckStride(std::int32_t sh, std::int32_t sw) const {
  if (auto r = tflite::CheckStride(sh, sw)) Fail(r->what);
}

void Lowerer::CheckOutputShape(const Dims4& got, const Dims4& expect) const {
  if (auto r = tflite::CheckOutputShape(got, expect)) Fail(r->what);
}

std::string Lowerer::State(const Tensor& t, std::int32_t zero_point) {
  const std::string id = "kState" + std::to_string(Index(t));
  if (!emitted_.emplace(Index(t), id).second) return id;
  const std::int64_t n = ElementCount(t);
  states_ += "// " + CommentOn(t, "int16") + ", persistent state\n";
  states_ += Fmt("alignas(16) std::int16_t %s[%" PRId64 "];\n", id.c_str(), n);
  reset_ +=
      Fmt("  for (std::int16_t& v : %s) v = %d;\n", id.c_str(), zero_point);
  state_bytes_ += static_cast<std::uint64_t>(n) * 2;
  return id;
}

std::string Lowerer::StateInt8(const Tensor& t, std::int32_t zero_point) {
  const std::string id = "kState" + std::to_string(Index(t));
  if (!emitted_.emplace(Index(t), id).second) return id;
  const std::int64_t n = ElementCount(t);
  states_ += "// " + CommentOn(t, "int8") + ", persistent state, initially " +
             std::to_string(zero_point) + " (its zero point)\n";
  states_ += Fmt("alignas(16) std::int8_t %s[%" PRId64 "] = {", id.c_str(), n);
  for (std::int64_t i = 0; i < n; ++i) {
    states_ += i % 16 == 0 ? "\n    " : " ";
    states_ += std::to_string(zero_point);
    if (i + 1 < n) states_ += ',';
  }
  states_ += "};\n";
  reset_ +=
      Fmt("  for (std::int8_t& v : %s) v = %d;\n", id.c_str(), zero_point);
  state_bytes_ += static_cast<std::uint64_t>(n);
  return id;
}

}  // namespace arenaplan::compile
