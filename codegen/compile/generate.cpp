// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/compile/generate.hpp"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "codegen/compile/quantize.hpp"
#include "codegen/emit/header.hpp"
#include "codegen/emit/sha256.hpp"
#include "codegen/errors.hpp"
#include "codegen/tflite/problem.hpp"

namespace arenaplan::compile {
namespace {

using tflite::Tensor;
using tflite::TensorType;
using tflite::ShapeText;

std::string Fmt(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string Fmt(const char* format, ...) {
  char buf[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return buf;
}

std::string FloatLiteral(float v) {
  return Fmt("%.9gf", static_cast<double>(v));
}

std::string BaseName(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// A shape of at most 4 dimensions as NHWC, padded with leading 1s.
struct Dims4 {
  std::int32_t n = 1, h = 1, w = 1, c = 1;
  [[nodiscard]] std::int64_t Count() const {
    return std::int64_t{n} * h * w * c;
  }
  [[nodiscard]] std::string Code() const {
    return Fmt("k::Shape4{%d, %d, %d, %d}", n, h, w, c);
  }
};

std::int64_t ElementCount(const Tensor& t) {
  std::int64_t n = 1;
  for (std::int32_t d : t.shape) n *= d;
  return n;
}

/// Generates one model. Every failure names the operator.
class Generator {
 public:
  Generator(const tflite::Model& model, const std::string& path,
            const tflite::TfliteProblem& problem, const PlanResult& plan)
      : model_(model),
        sg_(model.subgraphs.at(0)),
        path_(path),
        problem_(problem),
        plan_(plan),
        record_of_(sg_.tensors.size(), -1) {
    for (std::size_t r = 0; r < problem.record_tensor.size(); ++r) {
      const std::int32_t t = problem.record_tensor[r];
      if (t >= 0)
        record_of_[static_cast<std::size_t>(t)] = static_cast<std::int64_t>(r);
    }
  }

  void Run() {
    for (std::size_t k = 0; k < sg_.operators.size(); ++k) {
      op_ = k;
      Lower(sg_.operators[k]);
    }
  }

  [[nodiscard]] const std::string& Constants() const { return consts_; }
  [[nodiscard]] const std::string& Body() const { return body_; }
  [[nodiscard]] std::uint64_t ConstantBytes() const { return const_bytes_; }
  [[nodiscard]] const std::string& States() const { return states_; }
  [[nodiscard]] const std::string& Reset() const { return reset_; }
  [[nodiscard]] std::uint64_t StateBytes() const { return state_bytes_; }

  /// The plan index of a graph input/output tensor (InputError if none).
  std::int64_t RecordOf(std::int32_t t, const char* what) const {
    if (t < 0 || static_cast<std::size_t>(t) >= record_of_.size() ||
        record_of_[static_cast<std::size_t>(t)] < 0) {
      throw InputError(path_ + ": " + what + " tensor " + std::to_string(t) +
                       " is not in the plan");
    }
    return record_of_[static_cast<std::size_t>(t)];
  }

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    const auto& op = sg_.operators[op_];
    throw InputError(path_ + ": operator " + std::to_string(op_) + " (" +
                     op.builtin_name + "): " + what);
  }

  const Tensor& Input(const tflite::Operator& op, std::size_t i) const {
    if (i >= op.inputs.size() || op.inputs[i] < 0) {
      Fail("input " + std::to_string(i) + " is missing");
    }
    return sg_.tensors[static_cast<std::size_t>(op.inputs[i])];
  }
  const Tensor& Output(const tflite::Operator& op) const {
    if (op.outputs.size() != 1 || op.outputs[0] < 0) {
      Fail("expected exactly one output");
    }
    return sg_.tensors[static_cast<std::size_t>(op.outputs[0])];
  }
  std::int32_t Index(const Tensor& t) const {
    return static_cast<std::int32_t>(&t - sg_.tensors.data());
  }
  std::string Describe(const Tensor& t) const {
    return "tensor " + std::to_string(Index(t)) + " '" + t.name + "'";
  }

  /// Address expression of a planned (activation) tensor.
  std::string Addr(const Tensor& t) const {
    if (model_.IsConstant(t))
      Fail(Describe(t) + " is constant, expected an activation");
    const std::int64_t r = record_of_[static_cast<std::size_t>(Index(t))];
    if (r < 0) Fail(Describe(t) + " is not in the plan");
    return Fmt("arena + kPlan[%" PRId64 "].offset", r);
  }

  /// Address expression of a planned tensor as a pointer to `ctype`
  /// (offsets are multiples of the plan's alignment, >= 16 bytes, so any
  /// integer element type is aligned).
  std::string TypedAddr(const Tensor& t, const char* ctype) const {
    if (std::strcmp(ctype, "std::int8_t") == 0) return Addr(t);
    return Fmt("reinterpret_cast<%s*>(%s)", ctype, Addr(t).c_str());
  }

  Dims4 Shape(const Tensor& t) const {
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

  /// Per-tensor int8 quantization of an activation: scale and zero point.
  struct Affine {
    float scale;
    std::int32_t zero_point;
  };
  Affine Int8Activation(const Tensor& t) const {
    if (t.type != TensorType::kInt8) {
      Fail(Describe(t) + " is " + tflite::TensorTypeName(t.type) +
           "; the kernels take int8 activations only");
    }
    const auto& q = t.quantization;
    if (q.scale.size() != 1 || q.zero_point.size() != 1) {
      Fail(Describe(t) +
           " needs per-tensor quantization (one scale, one zero point)");
    }
    if (!(q.scale[0] > 0.0f) || q.zero_point[0] < -128 ||
        q.zero_point[0] > 127) {
      Fail(Describe(t) + " has an invalid scale or zero point");
    }
    return {q.scale[0], static_cast<std::int32_t>(q.zero_point[0])};
  }

  /// Per-tensor quantization of an int8, int16 or int32 tensor (zero point
  /// within the type's range).
  Affine PerTensor(const Tensor& t) const {
    if (t.type == TensorType::kInt8) return Int8Activation(t);
    if (t.type != TensorType::kInt16 && t.type != TensorType::kInt32) {
      Fail(Describe(t) + " is " + tflite::TensorTypeName(t.type) +
           "; expected INT8, INT16 or INT32");
    }
    const auto& q = t.quantization;
    if (q.scale.size() != 1 || q.zero_point.size() != 1) {
      Fail(Describe(t) +
           " needs per-tensor quantization (one scale, one zero point)");
    }
    const std::int64_t lo = t.type == TensorType::kInt16
                                ? std::numeric_limits<std::int16_t>::min()
                                : std::numeric_limits<std::int32_t>::min();
    const std::int64_t hi = t.type == TensorType::kInt16
                                ? std::numeric_limits<std::int16_t>::max()
                                : std::numeric_limits<std::int32_t>::max();
    if (!(q.scale[0] > 0.0f) || !std::isfinite(q.scale[0]) ||
        q.zero_point[0] < lo || q.zero_point[0] > hi) {
      Fail(Describe(t) + " has an invalid scale or zero point");
    }
    return {q.scale[0], static_cast<std::int32_t>(q.zero_point[0])};
  }

  static const char* CType(TensorType type) {
    switch (type) {
      case TensorType::kInt8:
        return "std::int8_t";
      case TensorType::kInt16:
        return "std::int16_t";
      case TensorType::kInt32:
        return "std::int32_t";
      default:
        return nullptr;
    }
  }

  const std::vector<std::uint8_t>& Data(const Tensor& t, TensorType type,
                                        std::size_t elem) const {
    if (!model_.IsConstant(t)) Fail(Describe(t) + " must be constant");
    if (t.type != type) {
      Fail(Describe(t) + " is " + tflite::TensorTypeName(t.type) +
           ", expected " + tflite::TensorTypeName(type));
    }
    const auto& buf = model_.buffers[t.buffer];
    if (buf.data.empty())
      Fail(Describe(t) + " keeps its data outside the file");
    if (static_cast<std::int64_t>(buf.data.size()) !=
        ElementCount(t) * static_cast<std::int64_t>(elem)) {
      Fail(Describe(t) + " has " + std::to_string(buf.data.size()) +
           " bytes of data for shape " + ShapeText(t.shape));
    }
    return buf.data;
  }

  /// Emits an int8 constant once; returns its identifier.
  std::string ConstInt8(const Tensor& t) {
    const std::string id = "kConst" + std::to_string(Index(t));
    if (!emitted_.emplace(Index(t), id).second) return id;
    const auto& data = Data(t, TensorType::kInt8, 1);
    consts_ += Fmt("// tensor %d '%s' int8 %s\n", Index(t), t.name.c_str(),
                   ShapeText(t.shape).c_str());
    // A narrow string literal initialises a signed char array; the array has
    // one more element for the literal's terminating NUL.
    consts_ += Fmt("alignas(16) const std::int8_t %s[%zu] =\n", id.c_str(),
                   data.size() + 1);
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

  std::vector<std::int32_t> Int32Values(const Tensor& t) const {
    const auto& data = Data(t, TensorType::kInt32, 4);
    std::vector<std::int32_t> v(data.size() / 4);
    std::memcpy(v.data(), data.data(), data.size());  // little-endian host
    return v;
  }

  /// Emits an int16 constant once; returns its identifier.
  std::string ConstInt16(const Tensor& t) {
    const std::string id = "kConst" + std::to_string(Index(t));
    if (!emitted_.emplace(Index(t), id).second) return id;
    const auto& data = Data(t, TensorType::kInt16, 2);
    consts_ += Fmt("// tensor %d '%s' int16 %s\n", Index(t), t.name.c_str(),
                   ShapeText(t.shape).c_str());
    consts_ += Fmt("alignas(16) const std::int16_t %s[%zu] = {", id.c_str(),
                   data.size() / 2);
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

  std::string EmitInt32Array(const std::string& id, const std::string& comment,
                             const std::vector<std::int32_t>& v) {
    consts_ += "// " + comment + "\n";
    consts_ += Fmt("const std::int32_t %s[%zu] = {", id.c_str(), v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      consts_ += i % 8 == 0 ? "\n    " : " ";
      consts_ += std::to_string(v[i]);
      consts_ += ',';
    }
    consts_ += "\n};\n";
    const_bytes_ += 4 * v.size();
    return id;
  }

  /// The bias (optional input 2) as an identifier or "nullptr".
  std::string Bias(const tflite::Operator& op, std::int32_t channels,
                   std::size_t input = 2) {
    if (op.inputs.size() <= input || op.inputs[input] < 0) return "nullptr";
    const Tensor& b = Input(op, input);
    const auto v = Int32Values(b);
    if (static_cast<std::int32_t>(v.size()) != channels) {
      Fail(Describe(b) + ": " + std::to_string(v.size()) + " biases for " +
           std::to_string(channels) + " channels");
    }
    const std::string id = "kConst" + std::to_string(Index(b));
    if (!emitted_.emplace(Index(b), id).second) return id;
    return EmitInt32Array(id,
                          Fmt("tensor %d '%s' int32 %s", Index(b),
                              b.name.c_str(), ShapeText(b.shape).c_str()),
                          v);
  }

  /// Per-channel multipliers input_scale * w_scale[c] / output_scale.
  std::string ChannelQuant(const Tensor& w, std::int32_t channels,
                           std::int32_t dimension, float in_scale,
                           float out_scale) {
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
    std::vector<std::int32_t> mult, shift;
    for (std::int32_t c = 0; c < channels; ++c) {
      const float ws =
          q.scale[q.scale.size() == 1 ? 0 : static_cast<std::size_t>(c)];
      const double real = static_cast<double>(in_scale) *
                          static_cast<double>(ws) /
                          static_cast<double>(out_scale);
      if (!(real >= 0.0) || !std::isfinite(real))
        Fail(Describe(w) + " has an invalid scale");
      const QuantizedMultiplier m = QuantizeMultiplier(real);
      if (m.shift > 30 || m.shift < -31) {
        Fail(Describe(w) + ": requantization multiplier out of range");
      }
      mult.push_back(m.multiplier);
      shift.push_back(m.shift);
    }
    const std::string mid = Fmt("kMultiplier%zu", op_);
    const std::string sid = Fmt("kShift%zu", op_);
    EmitInt32Array(
        mid, Fmt("operator %zu: Q0.31 requantization multipliers", op_), mult);
    consts_ += Fmt(
        "// operator %zu: requantization shifts\nconst std::int8_t %s[%zu] = {",
        op_, sid.c_str(), shift.size());
    for (std::size_t i = 0; i < shift.size(); ++i) {
      consts_ += i % 16 == 0 ? "\n    " : " ";
      consts_ += std::to_string(shift[i]);
      consts_ += ',';
    }
    consts_ += "\n};\n";
    const_bytes_ += shift.size();
    return "k::ChannelQuant{" + mid + ", " + sid + "}";
  }

  ActivationRange Activation(tflite::Activation a, const Affine& out) const {
    const auto r =
        Int8ActivationRange(static_cast<int>(a), out.scale, out.zero_point);
    if (!r) {
      Fail("fused activation " + std::to_string(static_cast<int>(a)) +
           " is not supported (NONE, RELU, RELU_N1_TO_1, RELU6 are)");
    }
    return *r;
  }

  template <class Options>
  const Options& OptionsOf(const tflite::Operator& op) const {
    const Options* o = std::get_if<Options>(&op.options);
    if (o == nullptr) Fail("builtin options are missing");
    return *o;
  }

  void CheckStride(std::int32_t sh, std::int32_t sw) const {
    if (sh <= 0 || sw <= 0) Fail(Fmt("stride %dx%d is not positive", sh, sw));
  }

  void CheckOutputShape(const Dims4& got, const Dims4& expect) const {
    if (got.n != expect.n || got.h != expect.h || got.w != expect.w ||
        got.c != expect.c) {
      Fail(Fmt(
          "output shape [%d,%d,%d,%d] does not match the computed "
          "[%d,%d,%d,%d]",
          got.n, got.h, got.w, got.c, expect.n, expect.h, expect.w, expect.c));
    }
  }

  void Lower(const tflite::Operator& op) {
    body_ += Fmt("  // operator %zu: %s\n", op_, op.builtin_name.c_str());
    if (op.builtin_name == "CONV_2D" ||
        op.builtin_name == "DEPTHWISE_CONV_2D") {
      LowerConv(op, op.builtin_name == "DEPTHWISE_CONV_2D");
    } else if (op.builtin_name == "AVERAGE_POOL_2D" ||
               op.builtin_name == "MAX_POOL_2D") {
      LowerPool(op, op.builtin_name == "MAX_POOL_2D");
    } else if (op.builtin_name == "FULLY_CONNECTED") {
      LowerFullyConnected(op);
    } else if (op.builtin_name == "SOFTMAX") {
      LowerSoftmax(op);
    } else if (op.builtin_name == "RESHAPE") {
      LowerReshape(op);
    } else if (op.builtin_name == "ADD") {
      LowerAdd(op);
    } else if (op.builtin_name == "QUANTIZE") {
      LowerQuantize(op);
    } else if (op.builtin_name == "SVDF") {
      LowerSvdf(op);
    } else {
      Fail(
          "not supported by arenaplan's kernels (supported: CONV_2D, "
          "DEPTHWISE_CONV_2D, AVERAGE_POOL_2D, MAX_POOL_2D, FULLY_CONNECTED, "
          "SOFTMAX, RESHAPE, ADD, QUANTIZE, SVDF)");
    }
  }

  void LowerConv(const tflite::Operator& op, bool depthwise) {
    const Tensor& in = Input(op, 0);
    const Tensor& w = Input(op, 1);
    const Tensor& out = Output(op);
    const Affine qi = Int8Activation(in), qo = Int8Activation(out);
    std::int32_t sh = 0, sw = 0, dh = 1, dw = 1, dm = 1;
    tflite::Padding pad = tflite::Padding::kSame;
    tflite::Activation act = tflite::Activation::kNone;
    std::int32_t options_dm = 0;
    if (depthwise) {
      const auto& o = OptionsOf<tflite::DepthwiseConv2DOptions>(op);
      sh = o.stride_h, sw = o.stride_w, dh = o.dilation_h, dw = o.dilation_w;
      pad = o.padding, act = o.activation, options_dm = o.depth_multiplier;
    } else {
      const auto& o = OptionsOf<tflite::Conv2DOptions>(op);
      sh = o.stride_h, sw = o.stride_w, dh = o.dilation_h, dw = o.dilation_w;
      pad = o.padding, act = o.activation;
    }
    if (dh != 1 || dw != 1) {
      Fail(Fmt("dilation %dx%d is not supported (the kernels support 1x1)", dh,
               dw));
    }
    CheckStride(sh, sw);
    if (in.shape.size() != 4 || w.shape.size() != 4 || out.shape.size() != 4) {
      Fail("input, filter and output must be 4-D (NHWC)");
    }
    const Dims4 is = Shape(in), fs = Shape(w), os = Shape(out);
    const std::int32_t out_c = depthwise ? fs.c : fs.n;
    if (depthwise) {
      if (fs.n != 1)
        Fail(Describe(w) + ": a depthwise filter must be [1,H,W,C]");
      if (out_c % is.c != 0)
        Fail("output channels are not a multiple of input channels");
      dm = out_c / is.c;
      if (options_dm != 0 && options_dm != dm) {
        Fail(Fmt("depth_multiplier %d does not match the shapes (%d)",
                 options_dm, dm));
      }
    } else if (fs.c != is.c) {
      Fail(Fmt(
          "filter depth %d differs from input depth %d (grouped convolution)",
          fs.c, is.c));
    }
    const auto ph = ComputePadding(static_cast<Padding>(pad), is.h, fs.h, sh);
    const auto pw = ComputePadding(static_cast<Padding>(pad), is.w, fs.w, sw);
    CheckOutputShape(os, Dims4{is.n, ph.out, pw.out, out_c});
    const ActivationRange ar = Activation(act, qo);
    const std::string filter = ConstInt8(w);
    const std::string bias = Bias(op, out_c);
    const std::string quant =
        ChannelQuant(w, out_c, depthwise ? 3 : 0, qi.scale, qo.scale);
    body_ += Fmt("  k::%s(k::ConvParams{%d, %d, %d, %d, %d, %d, %d, %d, %d},\n",
                 depthwise ? "DepthwiseConv2D" : "Conv2D", -qi.zero_point,
                 qo.zero_point, ar.min, ar.max, sh, sw, ph.pad_before,
                 pw.pad_before, dm);
    body_ += "      " + is.Code() + ", " + Addr(in) + ",\n";
    body_ += "      " + fs.Code() + ", " + filter + ", " + bias + ",\n";
    body_ += "      " + quant + ",\n";
    body_ += "      " + os.Code() + ", " + Addr(out) + ");\n";
  }

  void LowerPool(const tflite::Operator& op, bool max) {
    const Tensor& in = Input(op, 0);
    const Tensor& out = Output(op);
    const Affine qi = Int8Activation(in), qo = Int8Activation(out);
    if (qi.scale != qo.scale || qi.zero_point != qo.zero_point) {
      Fail("input and output quantization differ (int8 pooling keeps it)");
    }
    const auto& o = OptionsOf<tflite::Pool2DOptions>(op);
    CheckStride(o.stride_h, o.stride_w);
    if (o.filter_h <= 0 || o.filter_w <= 0) Fail("filter size is not positive");
    if (in.shape.size() != 4 || out.shape.size() != 4)
      Fail("input and output must be 4-D");
    const Dims4 is = Shape(in), os = Shape(out);
    const auto ph = ComputePadding(static_cast<Padding>(o.padding), is.h,
                                   o.filter_h, o.stride_h);
    const auto pw = ComputePadding(static_cast<Padding>(o.padding), is.w,
                                   o.filter_w, o.stride_w);
    CheckOutputShape(os, Dims4{is.n, ph.out, pw.out, is.c});
    const ActivationRange ar = Activation(o.activation, qo);
    body_ +=
        Fmt("  k::%s(k::PoolParams{%d, %d, %d, %d, %d, %d, %d, %d},\n",
            max ? "MaxPool" : "AveragePool", o.filter_h, o.filter_w, o.stride_h,
            o.stride_w, ph.pad_before, pw.pad_before, ar.min, ar.max);
    body_ += "      " + is.Code() + ", " + Addr(in) + ",\n";
    body_ += "      " + os.Code() + ", " + Addr(out) + ");\n";
  }

  void LowerFullyConnected(const tflite::Operator& op) {
    const Tensor& in = Input(op, 0);
    const Tensor& w = Input(op, 1);
    const Tensor& out = Output(op);
    const Affine qi = Int8Activation(in), qo = Int8Activation(out);
    const auto& o = OptionsOf<tflite::FullyConnectedOptions>(op);
    if (o.weights_format != 0) Fail("shuffled weights are not supported");
    if (w.shape.size() != 2) Fail(Describe(w) + " must be 2-D [units, depth]");
    const std::int32_t units = w.shape[0], depth = w.shape[1];
    if (units <= 0 || depth <= 0) Fail(Describe(w) + " has an empty dimension");
    const std::int64_t in_count = ElementCount(in);
    if (in_count <= 0 || in_count % depth != 0) {
      Fail(Fmt("input elements (%" PRId64
               ") are not a multiple of the depth %d",
               in_count, depth));
    }
    const std::int64_t batches = in_count / depth;
    if (ElementCount(out) != batches * units)
      Fail("output size does not match batches x units");
    const ActivationRange ar = Activation(o.activation, qo);
    const std::string weights = ConstInt8(w);
    const std::string bias = Bias(op, units);
    const std::string quant = ChannelQuant(w, units, 0, qi.scale, qo.scale);
    body_ += Fmt(
        "  k::FullyConnected(k::FullyConnectedParams{%d, %d, %d, %d, %" PRId64
        ", %d, %d},\n",
        -qi.zero_point, qo.zero_point, ar.min, ar.max, batches, depth, units);
    body_ += "      " + Addr(in) + ", " + weights + ", " + bias + ", " + quant +
             ",\n      " + Addr(out) + ");\n";
  }

  void LowerSoftmax(const tflite::Operator& op) {
    const Tensor& in = Input(op, 0);
    const Tensor& out = Output(op);
    const Affine qi = Int8Activation(in);
    const bool int16_out = out.type == TensorType::kInt16;
    if (int16_out) {
      // TFLite accepts an int16 output scale within 0.1% of 1/65536 (the
      // converter writes 1/65535) and computes as if it were 1/65536.
      const Affine qo = PerTensor(out);
      if (std::abs(static_cast<double>(qo.scale) * 65536.0 - 1.0) > 1e-3 ||
          qo.zero_point != -32768) {
        Fail("int16 output must have scale 1/65536 and zero point -32768");
      }
    } else {
      const Affine qo = Int8Activation(out);
      if (qo.scale != 1.0f / 256.0f || qo.zero_point != -128) {
        Fail("int8 output must have scale 1/256 and zero point -128");
      }
    }
    const auto& o = OptionsOf<tflite::SoftmaxOptions>(op);
    if (in.shape.empty()) Fail("input has no dimensions");
    const std::int32_t depth = in.shape.back();
    if (depth <= 0 || depth > 65535)
      Fail("the last dimension must be in [1, 65535]");
    const std::int64_t rows = ElementCount(in) / depth;
    if (ElementCount(out) != ElementCount(in))
      Fail("output size differs from input");
    // int8 output: Q16 entries. int16 output: as many bits as a row's sum
    // allows in 32 bits, so the table's rounding stays far below one output
    // step of 1/65536.
    const int bits = int16_out ? SoftmaxInt16TableBits(depth) : 16;
    const auto table = SoftmaxExpTable(o.beta, qi.scale, bits);
    const std::string id = Fmt("kExpTable%zu", op_);
    consts_ += Fmt(
        "// operator %zu: round(2^%d * exp(-%.9g * %.9g * d)), d = 0..255\n",
        op_, bits, static_cast<double>(o.beta), static_cast<double>(qi.scale));
    consts_ += Fmt("const std::uint32_t %s[256] = {", id.c_str());
    for (std::size_t i = 0; i < table.size(); ++i) {
      consts_ += i % 8 == 0 ? "\n    " : " ";
      consts_ += std::to_string(table[i]);
      consts_ += "u,";
    }
    consts_ += "\n};\n";
    const_bytes_ += 4 * table.size();
    body_ +=
        Fmt("  k::%s(k::SoftmaxParams{%s, %" PRId64 ", %d},\n",
            int16_out ? "SoftmaxInt16" : "Softmax", id.c_str(), rows, depth);
    body_ += "      " + Addr(in) + ", " +
             TypedAddr(out, int16_out ? "std::int16_t" : "std::int8_t") +
             ");\n";
  }

  void LowerReshape(const tflite::Operator& op) {
    const Tensor& in = Input(op, 0);
    const Tensor& out = Output(op);
    Int8Activation(in);
    Int8Activation(out);
    if (ElementCount(in) != ElementCount(out))
      Fail("input and output sizes differ");
    body_ += Fmt("  k::Reshape(%s, %s, %" PRId64 ");\n", Addr(in).c_str(),
                 Addr(out).c_str(), ElementCount(in));
  }

  void LowerAdd(const tflite::Operator& op) {
    const Tensor& a = Input(op, 0);
    const Tensor& b = Input(op, 1);
    const Tensor& out = Output(op);
    const Affine qa = Int8Activation(a), qb = Int8Activation(b),
                 qo = Int8Activation(out);
    if (a.shape != b.shape || a.shape != out.shape) {
      Fail("inputs of different shapes (broadcasting) are not supported");
    }
    const auto& o = OptionsOf<tflite::ElementwiseOptions>(op);
    const ActivationRange ar = Activation(o.activation, qo);
    // TFLite's int8 ADD preparation: 20 bits of headroom, both inputs
    // rescaled to twice the larger input scale.
    constexpr int kLeftShift = 20;
    const double twice_max = 2.0 * std::max(static_cast<double>(qa.scale),
                                            static_cast<double>(qb.scale));
    const auto m1 =
        QuantizeMultiplier(static_cast<double>(qa.scale) / twice_max);
    const auto m2 =
        QuantizeMultiplier(static_cast<double>(qb.scale) / twice_max);
    const auto mo = QuantizeMultiplier(
        twice_max / ((1 << kLeftShift) * static_cast<double>(qo.scale)));
    if (mo.shift > 30) Fail("output multiplier too large");
    body_ +=
        Fmt("  k::Add(k::AddParams{%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, "
            "%d, %" PRId64 "},\n",
            -qa.zero_point, -qb.zero_point, qo.zero_point, kLeftShift,
            m1.multiplier, m1.shift, m2.multiplier, m2.shift, mo.multiplier,
            mo.shift, ar.min, ar.max, ElementCount(a));
    body_ += "      " + Addr(a) + ", " + Addr(b) + ", " + Addr(out) + ");\n";
  }

  void LowerQuantize(const tflite::Operator& op) {
    const Tensor& in = Input(op, 0);
    const Tensor& out = Output(op);
    if (in.type != TensorType::kInt8 && in.type != TensorType::kInt16) {
      Fail(Describe(in) + " is " + tflite::TensorTypeName(in.type) +
           "; QUANTIZE takes INT8 or INT16 input (requantization)");
    }
    const Affine qi = PerTensor(in), qo = PerTensor(out);
    if (ElementCount(in) != ElementCount(out))
      Fail("input and output sizes differ");
    const QuantizedMultiplier m = QuantizeMultiplier(
        static_cast<double>(qi.scale) / static_cast<double>(qo.scale));
    if (m.shift > 30 || m.shift < -31) Fail("scale ratio out of range");
    body_ += Fmt(
        "  k::Requantize(k::RequantizeParams{%d, %d, %d, %d, %" PRId64 "},\n",
        -qi.zero_point, qo.zero_point, m.multiplier, m.shift, ElementCount(in));
    body_ += "      " + TypedAddr(in, CType(in.type)) + ", " +
             TypedAddr(out, CType(out.type)) + ");\n";
  }

  /// A constant's single scale, with zero point 0 (symmetric).
  float SymmetricScale(const Tensor& t) const {
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

  void LowerSvdf(const tflite::Operator& op) {
    if (op.inputs.size() != 5) Fail("expected 5 inputs");
    const Tensor& in = Input(op, 0);
    const Tensor& wf = Input(op, 1);
    const Tensor& wt = Input(op, 2);
    const Tensor& state = Input(op, 4);
    const Tensor& out = Output(op);
    const auto& o = OptionsOf<tflite::SvdfOptions>(op);
    const Affine qi = Int8Activation(in), qo = Int8Activation(out);
    if (wf.type != TensorType::kInt8 || wt.type != TensorType::kInt16 ||
        state.type != TensorType::kInt16) {
      Fail(
          "only int8 feature weights with int16 time weights and state are "
          "supported (" +
          Describe(wf) + " is " + tflite::TensorTypeName(wf.type) + ", " +
          Describe(wt) + " " + tflite::TensorTypeName(wt.type) + ", " +
          Describe(state) + " " + tflite::TensorTypeName(state.type) + ")");
    }
    if (!state.is_variable || model_.IsConstant(state))
      Fail(Describe(state) + " must be a variable (state) tensor");
    if (in.shape.size() != 2 || wf.shape.size() != 2 || wt.shape.size() != 2 ||
        state.shape.size() != 2 || out.shape.size() != 2) {
      Fail("input, weights, state and output must be 2-D");
    }
    const std::int32_t batches = in.shape[0], input_size = in.shape[1];
    const std::int32_t filters = wf.shape[0], memory = wt.shape[1];
    const std::int32_t rank = o.rank;
    if (batches <= 0 || input_size <= 0 || filters <= 0 || memory <= 0)
      Fail("empty or dynamic dimension");
    if (rank <= 0 || filters % rank != 0)
      Fail(Fmt("rank %d does not divide the %d filters", rank, filters));
    const std::int32_t units = filters / rank;
    if (wf.shape[1] != input_size || wt.shape[0] != filters ||
        state.shape[0] != batches || state.shape[1] != filters * memory ||
        out.shape[0] != batches || out.shape[1] != units) {
      Fail("shapes of input " + ShapeText(in.shape) + ", feature weights " +
           ShapeText(wf.shape) + ", time weights " + ShapeText(wt.shape) +
           ", state " + ShapeText(state.shape) + " and output " +
           ShapeText(out.shape) + " do not agree");
    }
    const Affine qs = PerTensor(state);
    if (qs.zero_point != 0) {
      // The static buffer starts at 0 (.bss) and must mean real 0.
      Fail(Describe(state) + " has a non-zero zero point");
    }
    const double s_wf = SymmetricScale(wf), s_wt = SymmetricScale(wt);
    const double s_state = qs.scale;
    std::string bias = "nullptr";
    if (op.inputs[3] >= 0) {
      const Tensor& b = Input(op, 3);
      // The kernel adds the bias at scale s_state * s_time.
      const double bs = SymmetricScale(b);
      if (std::abs(bs - s_state * s_wt) > 1e-3 * s_state * s_wt) {
        Fail(Describe(b) + Fmt(": bias scale %.9g differs from state scale x "
                               "time-weight scale %.9g",
                               bs, s_state * s_wt));
      }
      bias = Bias(op, units, 3);
    }
    const QuantizedMultiplier m1 =
        QuantizeMultiplier(static_cast<double>(qi.scale) * s_wf / s_state);
    const QuantizedMultiplier m2 =
        QuantizeMultiplier(s_state * s_wt / static_cast<double>(qo.scale));
    for (const auto& m : {m1, m2}) {
      if (m.shift > 30 || m.shift < -31) Fail("multiplier out of range");
    }
    // TFLite's integer SVDF clamps only to int8 and ignores the fused
    // activation (the converter picks an output range that already
    // expresses it); clamping to the activation's range as well gives the
    // same bytes whenever that range is all of int8 (RELU with zero point
    // -128, as in keyword_scrambled) and follows the model otherwise.
    const ActivationRange ar = Activation(o.activation, qo);
    const std::string wf_id = ConstInt8(wf);
    const std::string wt_id = ConstInt16(wt);
    const std::string state_id = State(state, qs.zero_point);
    body_ += Fmt(
        "  k::Svdf(k::SvdfParams{%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, "
        "%d, %d, %d},\n",
        -qi.zero_point, qs.zero_point, qo.zero_point, ar.min, ar.max, batches,
        input_size, filters, memory, rank, m1.multiplier, m1.shift,
        m2.multiplier, m2.shift);
    body_ += "      " + Addr(in) + ", " + wf_id + ", " + wt_id + ", " + bias +
             ", " + state_id + ",\n      " + Addr(out) + ");\n";
  }

  /// A variable (persistent) int16 tensor with zero point 0: the planner
  /// leaves variable tensors out of the arena, so it gets its own static
  /// buffer (RAM, .bss, zero at start-up), zeroed again by ResetState().
  /// Returns its identifier.
  std::string State(const Tensor& t, std::int32_t zero_point) {
    const std::string id = "kState" + std::to_string(Index(t));
    if (!emitted_.emplace(Index(t), id).second) return id;
    const std::int64_t n = ElementCount(t);
    states_ += Fmt("// tensor %d '%s' int16 %s, persistent state\n", Index(t),
                   t.name.c_str(), ShapeText(t.shape).c_str());
    states_ +=
        Fmt("alignas(16) std::int16_t %s[%" PRId64 "];\n", id.c_str(), n);
    reset_ +=
        Fmt("  for (std::int16_t& v : %s) v = %d;\n", id.c_str(), zero_point);
    state_bytes_ += static_cast<std::uint64_t>(n) * 2;
    return id;
  }

  const tflite::Model& model_;
  const tflite::Subgraph& sg_;
  std::string path_;
  const tflite::TfliteProblem& problem_;
  const PlanResult& plan_;
  std::vector<std::int64_t> record_of_;
  std::size_t op_ = 0;
  std::map<std::int32_t, std::string> emitted_;
  std::string consts_;
  std::string body_;
  std::string states_;  ///< Declarations of the state buffers.
  std::string reset_;   ///< Body of ResetState().
  std::uint64_t const_bytes_ = 0;
  std::uint64_t state_bytes_ = 0;
};

std::string GuardOf(const std::string& name) {
  std::string g = "ARENAPLAN_GENERATED_";
  for (char c : name) {
    g += std::isalnum(static_cast<unsigned char>(c))
             ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
             : '_';
  }
  return g + "_";
}

}  // namespace

CompiledModel CompileModel(const tflite::Model& model, const std::string& path,
                           const CompileOptions& options) {
  if (!IsValidNamespace(options.namespace_name)) {
    throw InputError("--namespace: '" + options.namespace_name +
                     "' is not a C++ namespace name");
  }
  if (model.subgraphs.size() != 1) {
    throw InputError(path + ": " + std::to_string(model.subgraphs.size()) +
                     " subgraphs; compile supports single-subgraph models");
  }
  const tflite::Subgraph& sg = model.subgraphs[0];
  std::string stem = options.file_stem;
  if (stem.empty()) {
    for (char c : options.namespace_name) stem += c == ':' ? '_' : c;
    while (stem.find("__") != std::string::npos) stem.erase(stem.find("__"), 1);
  }

  const tflite::TfliteProblem problem =
      tflite::BuildProblem(model, options.input);
  CompiledModel out;
  out.plan = Plan(problem.problem, options.plan);

  Generator gen(model, path, problem, out.plan);
  gen.Run();
  if (sg.inputs.size() != 1 || sg.outputs.size() != 1) {
    throw InputError(path +
                     ": compile supports one graph input and one output");
  }
  const std::int64_t in_record = gen.RecordOf(sg.inputs[0], "graph input");
  const std::int64_t out_record = gen.RecordOf(sg.outputs[0], "graph output");
  const Tensor& in_t = sg.tensors[static_cast<std::size_t>(sg.inputs[0])];
  const Tensor& out_t = sg.tensors[static_cast<std::size_t>(sg.outputs[0])];
  for (const Tensor* t : {&in_t, &out_t}) {
    if ((t->type != TensorType::kInt8 && t->type != TensorType::kInt16 &&
         t->type != TensorType::kInt32) ||
        t->quantization.scale.size() != 1 ||
        t->quantization.zero_point.size() != 1) {
      throw InputError(path + ": graph input/output '" + t->name +
                       "' must be int8, int16 or int32 with per-tensor "
                       "quantization");
    }
  }
  out.constant_bytes = gen.ConstantBytes();

  HeaderOptions hopt;
  hopt.namespace_name = options.namespace_name;
  hopt.input_name = BaseName(path);
  hopt.input_sha256 = Sha256FileHex(path);
  for (std::int32_t t : problem.record_tensor) {
    hopt.tensor_bytes.push_back(
        t >= 0 ? problem.tensors[static_cast<std::size_t>(t)].bytes : 0);
  }
  out.arena_header_name = stem + "_arena.hpp";
  out.model_header_name = stem + "_model.hpp";
  out.model_source_name = stem + "_model.cpp";
  out.arena_header = EmitHeader(out.plan, hopt);

  const std::string banner =
      "// Generated by `arenaplan compile` from " + hopt.input_name +
      "\n// (sha256 " + hopt.input_sha256 + "), strategy " + out.plan.strategy +
      ", arena " + std::to_string(out.plan.arena_bytes) +
      " bytes. Do not edit.\n";
  const std::string& ns = options.namespace_name;
  std::string& h = out.model_header;
  h = banner;
  h +=
      "//\n// Ahead-of-time integer inference: Invoke() runs every operator of "
      "the model\n"
      "// with arenaplan's kernels, each activation at its planned offset in "
      "the\n"
      "// arena (" +
      out.arena_header_name + "), the constants in flash.\n";
  const std::string guard = GuardOf(out.model_header_name);
  h += "#ifndef " + guard + "\n#define " + guard + "\n\n";
  h += "#include <cstddef>\n#include <cstdint>\n\n#include \"" +
       out.arena_header_name + "\"\n\nnamespace " + ns + " {\n\n";
  auto io = [&](const char* which, std::int64_t record, const Tensor& t) {
    const char* ctype = t.type == TensorType::kInt8    ? "std::int8_t"
                        : t.type == TensorType::kInt16 ? "std::int16_t"
                                                       : "std::int32_t";
    const std::int64_t elem = t.type == TensorType::kInt8    ? 1
                              : t.type == TensorType::kInt16 ? 2
                                                             : 4;
    h +=
        Fmt("/// Graph %s: tensor %d '%s', %s %s, real = scale * (q - "
            "zero_point).\n",
            which, static_cast<int>(&t - sg.tensors.data()), t.name.c_str(),
            tflite::TensorTypeName(t.type).c_str(), ShapeText(t.shape).c_str());
    const char* cap = std::strcmp(which, "input") == 0 ? "Input" : "Output";
    h += Fmt("inline constexpr std::size_t k%sIndex = %" PRId64
             ";  ///< In kPlan.\n",
             cap, record);
    h += Fmt("using %sElement = %s;\n", cap, ctype);
    h += Fmt("inline constexpr std::size_t k%sElements = %" PRId64 ";\n", cap,
             ElementCount(t));
    h += Fmt("inline constexpr std::size_t k%sBytes = %" PRId64 ";\n", cap,
             ElementCount(t) * elem);
    h += Fmt("inline constexpr float k%sScale = %s;\n", cap,
             FloatLiteral(t.quantization.scale[0]).c_str());
    h += Fmt("inline constexpr std::int32_t k%sZeroPoint = %d;\n\n", cap,
             static_cast<int>(t.quantization.zero_point[0]));
  };
  io("input", in_record, in_t);
  io("output", out_record, out_t);
  h +=
      Fmt("/// Bytes of the constant arrays (weights, biases, requantization\n"
          "/// parameters, tables) Invoke() reads from flash.\n"
          "inline constexpr std::size_t kConstantBytes = %" PRIu64 ";\n\n",
          out.constant_bytes);
  h += Fmt(
      "/// Bytes of persistent state (variable tensors, e.g. SVDF memory)\n"
      "/// kept outside the arena in static buffers (RAM, zero at start-up).\n"
      "inline constexpr std::size_t kStateBytes = %" PRIu64 ";\n\n",
      gen.StateBytes());
  h += "/// Runs operators 0 .. kOperatorCount - 1 in order. `arena` "
       "(borrowed)\n"
       "/// points to kArenaSize bytes aligned to kAlignment; the input is "
       "read\n"
       "/// at arena + kPlan[kInputIndex].offset, the output written at\n"
       "/// arena + kPlan[kOutputIndex].offset. No heap; the only other "
       "memory\n"
       "/// written is the kStateBytes of persistent state.\n"
       "void Invoke(std::int8_t* arena);\n\n"
       "/// Sets the persistent state back to its initial value (zero), as "
       "at\n"
       "/// start-up; does nothing when kStateBytes is 0.\n"
       "void ResetState();\n\n}  // namespace " +
       ns + "\n\n#endif  // " + guard + "\n";

  std::string& s = out.model_source;
  s = banner;
  s += "#include \"" + out.model_header_name +
       "\"\n\n#include \"arenaplan/kernels/kernels.hpp\"\n\n";
  s += "namespace " + ns +
       " {\nnamespace {\n\nnamespace k = ::arenaplan::kernels;\n\n";
  s += gen.Constants();
  if (!gen.States().empty()) s += "\n" + gen.States();
  s += "\n}  // namespace\n\nvoid Invoke(std::int8_t* arena) {\n";
  s += gen.Body();
  s += "}\n\nvoid ResetState() {\n" + gen.Reset() + "}\n\n}  // namespace " +
       ns + "\n";
  return out;
}

}  // namespace arenaplan::compile
