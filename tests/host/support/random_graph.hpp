// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Random int8 models for property tests, one per seed (the same seed gives
// the same model on every host: the draws use std::mt19937 and integer
// arithmetic only, scales are formed from the drawn integers). A model is
// built with model_builder.hpp from a few motifs, each reading the newest
// activation or an earlier one:
//   * chains of CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D and MAX_POOL_2D
//     with strides 1-2, SAME and VALID padding (the runs --fuse segments);
//   * residual blocks (a convolution or two keeping the shape, then ADD with
//     the block's input), and ADD of a second graph input;
//   * branches joined by CONCATENATION (along the rows, written in place by
//     folding, or along the channels, copied) or left as graph outputs;
//   * element-wise RELU, RELU6, LEAKY_RELU, LOGISTIC, TANH and QUANTIZE;
//   * PAD before a convolution or pool (folded into it) or before ADD;
//   * RESHAPE, SQUEEZE and EXPAND_DIMS anywhere, among them a RESHAPE of a
//     tensor that later operators still read made a graph output;
//   * a RESHAPE to rank 2 and FULLY_CONNECTED closing a branch.
// Every tensor no operator reads is a graph output; some tensors later
// operators read are outputs too, and so, sometimes, is a graph input.
// Activations stay small (inputs at most 12 x 12 x 4, every tensor at
// most 4,096 bytes) and so do the constants (at most 16 KiB a graph;
// random_graph_test checks both), so that a test compiles thousands of the
// models quickly.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_RANDOM_GRAPH_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_RANDOM_GRAPH_HPP_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "codegen/tflite/model.hpp"
#include "tests/host/support/model_builder.hpp"

namespace arenaplan::testing_util {

namespace random_graph_detail {

using tflite::BuiltinOp;
using tflite::TensorType;

/// An activation of the graph being built: its tensor, shape and affine
/// quantization (real = scale * (q - zero_point)).
struct Act {
  std::int32_t tensor = -1;
  std::vector<std::int32_t> shape;
  float scale = 0.5f;
  std::int64_t zero_point = 0;
};

class Generator {
 public:
  explicit Generator(std::uint32_t seed)
      : rng_(seed), b_("random_graph_" + std::to_string(seed) + ".tflite") {}

  tflite::Model Build() {
    const std::int32_t h = Int(3, 12), w = Int(3, 12), c = Int(1, 4);
    inputs_.push_back(NewAct({1, h, w, c}, Scale(), Int(-20, 20)));
    if (Chance(25)) inputs_.push_back(NewAct({1, h, w, c}, Scale(), 0));
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      graph_inputs_.push_back(acts_[inputs_[i]].tensor);
    }
    const int motifs = Int(2, 6);
    for (int m = 0; m < motifs; ++m) Motif();
    // A second input nothing read yet: added to an activation of its shape
    // or read by a convolution.
    for (std::size_t i = 1; i < inputs_.size(); ++i) {
      if (readers_[inputs_[i]] == 0) {
        const std::size_t other = Pick4d();
        if (acts_[other].shape == acts_[inputs_[i]].shape &&
            other != inputs_[i]) {
          Add(inputs_[i], other);
        } else {
          Window(inputs_[i], 0);
        }
      }
    }
    return Finish();
  }

 private:
  // --- draws ---
  /// An integer in [lo, hi] (both included), by remainder: the standard
  /// distributions are not the same in every standard library.
  std::int32_t Int(std::int32_t lo, std::int32_t hi) {
    const auto span = static_cast<std::uint32_t>(hi - lo) + 1u;
    return lo + static_cast<std::int32_t>(rng_() % span);
  }
  bool Chance(int percent) { return Int(0, 99) < percent; }
  /// A scale in [1/64, 1): a drawn numerator over 64.
  float Scale() { return static_cast<float>(Int(1, 63)) / 64.0f; }
  /// `base` times a drawn factor in [lo_percent, hi_percent] %.
  float Scaled(float base, int lo_percent, int hi_percent) {
    return base * static_cast<float>(Int(lo_percent, hi_percent)) / 100.0f;
  }

  // --- tensors ---
  std::size_t NewAct(std::vector<std::int32_t> shape, float scale,
                     std::int64_t zero_point) {
    Act a;
    a.tensor = b_.Tensor(shape, TensorType::kInt8, scale, zero_point);
    a.shape = std::move(shape);
    a.scale = scale;
    a.zero_point = zero_point;
    acts_.push_back(a);
    readers_.push_back(0);
    return acts_.size() - 1;
  }
  /// Constant int8 weights of `shape` with `scale` (per tensor), or
  /// per channel along `dimension` scales 1x to 2x `scale`.
  std::int32_t Int8Weights(std::vector<std::int32_t> shape,
                           std::int32_t channels, std::int32_t dimension,
                           float scale) {
    std::int64_t n = 1;
    for (std::int32_t d : shape) n *= d;
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(n));
    for (auto& v : bytes) v = static_cast<std::uint8_t>(Int(-127, 127));
    const std::int32_t t =
        b_.Constant(std::move(shape), TensorType::kInt8, std::move(bytes));
    tflite::Quantization& q =
        b_.graph().tensors[static_cast<std::size_t>(t)].quantization;
    q.scale = {scale};
    q.zero_point = {0};
    if (Chance(50)) {
      q.scale.clear();
      for (std::int32_t i = 0; i < channels; ++i) {
        q.scale.push_back(Scaled(scale, 100, 200));
      }
      q.zero_point.assign(static_cast<std::size_t>(channels), 0);
      q.quantized_dimension = dimension;
    }
    return t;
  }
  std::int32_t Bias(std::int32_t channels) {
    std::vector<std::int32_t> v(static_cast<std::size_t>(channels));
    for (auto& x : v) x = Int(-3000, 3000);
    return b_.Int32Constant(v);
  }
  /// The weight scale for a weighted sum of `taps` int8 products of `in`
  /// into `out_scale`: the sum's spread (about 74 x 73 x sqrt(taps) in
  /// quantized products) is then about 50 output steps, so the values
  /// neither all saturate nor all round to the zero point.
  static float WeightScale(const Act& in, float out_scale, std::int32_t taps) {
    return static_cast<float>(50.0 * static_cast<double>(out_scale) /
                              (static_cast<double>(in.scale) * 5400.0 *
                               std::sqrt(static_cast<double>(taps))));
  }
  void Read(std::size_t a) { ++readers_[a]; }

  /// An activation of rank 4, most often the newest.
  std::size_t Pick4d() {
    std::vector<std::size_t> ranked;
    for (std::size_t i = 0; i < acts_.size(); ++i) {
      if (acts_[i].shape.size() == 4) ranked.push_back(i);
    }
    if (Chance(65)) return ranked.back();
    return ranked[static_cast<std::size_t>(
        Int(0, static_cast<std::int32_t>(ranked.size()) - 1))];
  }

  // --- operators; each returns its output activation ---
  /// CONV_2D (kind 0), DEPTHWISE_CONV_2D (1), AVERAGE_POOL_2D (2),
  /// MAX_POOL_2D (3), or a drawn kind when `kind` < 0; `keep_shape`: SAME,
  /// stride 1 and (convolutions) as many output channels as input ones.
  std::size_t Window(std::size_t in, int kind, bool keep_shape = false) {
    const Act x = acts_[in];
    if (kind < 0) kind = Int(0, 3);
    const std::int32_t ih = x.shape[1], iw = x.shape[2];
    const std::int32_t ic = x.shape[3];
    const std::int32_t kh = Int(1, 3), kw = Int(1, 3);
    const std::int32_t sh = keep_shape ? 1 : Int(1, 2);
    const std::int32_t sw = keep_shape ? 1 : Int(1, 2);
    auto padding = keep_shape || Chance(50) ? tflite::Padding::kSame
                                            : tflite::Padding::kValid;
    if (padding == tflite::Padding::kValid && (kh > ih || kw > iw)) {
      padding = tflite::Padding::kSame;
    }
    const auto out_dim = [&](std::int32_t i, std::int32_t k, std::int32_t s) {
      return padding == tflite::Padding::kSame ? (i + s - 1) / s
                                               : (i - k) / s + 1;
    };
    const std::int32_t oh = out_dim(ih, kh, sh), ow = out_dim(iw, kw, sw);
    tflite::Activation act = tflite::Activation::kNone;
    if (Chance(40))
      act = Chance(50) ? tflite::Activation::kRelu : tflite::Activation::kRelu6;
    Read(in);
    if (kind >= 2) {
      tflite::Pool2DOptions o;
      o.padding = padding;
      o.stride_h = sh;
      o.stride_w = sw;
      o.filter_h = kh;
      o.filter_w = kw;
      o.activation = act;
      const std::size_t out = NewAct({1, oh, ow, ic}, x.scale, x.zero_point);
      b_.Op(kind == 2 ? BuiltinOp::kAveragePool2D : BuiltinOp::kMaxPool2D,
            {x.tensor}, {acts_[out].tensor}, o);
      return out;
    }
    const bool dw = kind == 1;
    const std::int32_t dm = dw && !keep_shape && Chance(25) ? 2 : 1;
    const std::int32_t oc = dw ? ic * dm : (keep_shape ? ic : Int(1, 6));
    const float out_scale = Scale();
    const float ws = WeightScale(x, out_scale, kh * kw * (dw ? 1 : ic));
    const std::int32_t weights = dw ? Int8Weights({1, kh, kw, oc}, oc, 3, ws)
                                    : Int8Weights({oc, kh, kw, ic}, oc, 0, ws);
    const std::int32_t bias = Bias(oc);
    const std::size_t out = NewAct({1, oh, ow, oc}, out_scale, Int(-20, 20));
    if (dw) {
      tflite::DepthwiseConv2DOptions o;
      o.padding = padding;
      o.stride_h = sh;
      o.stride_w = sw;
      o.activation = act;
      o.depth_multiplier = dm;
      b_.Op(BuiltinOp::kDepthwiseConv2D, {x.tensor, weights, bias},
            {acts_[out].tensor}, o);
    } else {
      tflite::Conv2DOptions o;
      o.padding = padding;
      o.stride_h = sh;
      o.stride_w = sw;
      o.activation = act;
      b_.Op(BuiltinOp::kConv2D, {x.tensor, weights, bias}, {acts_[out].tensor},
            o);
    }
    return out;
  }

  std::size_t Add(std::size_t a, std::size_t b) {
    const float s = std::max(acts_[a].scale, acts_[b].scale);
    const std::size_t out =
        NewAct(acts_[a].shape, Scaled(s, 100, 200), Int(-20, 20));
    Read(a);
    Read(b);
    tflite::ElementwiseOptions o;
    if (Chance(30)) o.activation = tflite::Activation::kRelu;
    b_.Op(BuiltinOp::kAdd, {acts_[a].tensor, acts_[b].tensor},
          {acts_[out].tensor}, o);
    return out;
  }

  /// RELU, RELU6, LEAKY_RELU, LOGISTIC, TANH or QUANTIZE of any rank.
  std::size_t Unary(std::size_t in) {
    const Act x = acts_[in];
    Read(in);
    std::size_t out = 0;
    int kind = Int(0, 5);
    // RELU6 keeps the quantization: 6.0 must quantize into int8.
    if (kind == 1 && std::lround(6.0f / x.scale) + x.zero_point > 127) kind = 0;
    switch (kind) {
      case 0:
        out = NewAct(x.shape, Scaled(x.scale, 50, 150), Int(-128, -100));
        b_.Op(BuiltinOp::kRelu, {x.tensor}, {acts_[out].tensor});
        break;
      case 1:
        out = NewAct(x.shape, x.scale, x.zero_point);
        b_.Op(BuiltinOp::kRelu6, {x.tensor}, {acts_[out].tensor});
        break;
      case 2: {
        out = NewAct(x.shape, Scaled(x.scale, 80, 150), Int(-20, 20));
        tflite::LeakyReluOptions o;
        o.alpha = static_cast<float>(Int(1, 9)) / 16.0f;
        b_.Op(BuiltinOp::kLeakyRelu, {x.tensor}, {acts_[out].tensor}, o);
        break;
      }
      case 3:
        out = NewAct(x.shape, 1.0f / 256.0f, -128);
        b_.Op(BuiltinOp::kLogistic, {x.tensor}, {acts_[out].tensor});
        break;
      case 4:
        out = NewAct(x.shape, 1.0f / 128.0f, 0);
        b_.Op(BuiltinOp::kTanh, {x.tensor}, {acts_[out].tensor});
        break;
      default:
        out = NewAct(x.shape, Scale(), Int(-30, 30));
        b_.Op(BuiltinOp::kQuantize, {x.tensor}, {acts_[out].tensor});
        break;
    }
    return out;
  }

  /// `in` quantized alike under `shape` (same element count) by RESHAPE
  /// (the shape as an option, an input, or both), SQUEEZE or EXPAND_DIMS
  /// (when `shape` drops or adds one unit dimension as `how` says).
  std::size_t Reshape(std::size_t in, std::vector<std::int32_t> shape,
                      int how = 0) {
    const Act x = acts_[in];
    Read(in);
    const std::size_t out = NewAct(shape, x.scale, x.zero_point);
    const std::int32_t t = acts_[out].tensor;
    if (how == 1) {  // SQUEEZE of dimension 0.
      tflite::SqueezeOptions o;
      // Without dimensions SQUEEZE drops every unit dimension.
      if (std::count(shape.begin(), shape.end(), 1) > 0 || Chance(70)) {
        o.squeeze_dims = {0};
      }
      b_.Op(BuiltinOp::kSqueeze, {x.tensor}, {t}, o);
    } else if (how == 2) {  // EXPAND_DIMS at axis 0.
      b_.Op(BuiltinOp::kExpandDims, {x.tensor, b_.Int32Constant({0})}, {t});
    } else {
      tflite::ReshapeOptions o;
      const int form = Int(0, 2);
      if (form != 1) o.new_shape = shape;
      std::vector<std::int32_t> inputs = {x.tensor};
      if (form != 0) inputs.push_back(b_.Int32Constant(shape));
      b_.Op(BuiltinOp::kReshape, inputs, {t}, o);
    }
    return out;
  }

  /// A rank-4 reshape of a rank-4 activation: rows and columns swapped,
  /// flattened into rows or columns, or (when in rank 3 and back) the same.
  std::size_t Reshape4d(std::size_t in) {
    const std::vector<std::int32_t> s = acts_[in].shape;
    const int k = Int(0, 3);
    if (k == 3) {  // SQUEEZE to rank 3, sometimes EXPAND_DIMS back.
      const std::size_t r3 = Reshape(in, {s[1], s[2], s[3]}, 1);
      if (Chance(30)) return Unary(r3);  // A rank-3 leaf.
      return Reshape(r3, s, 2);
    }
    std::vector<std::int32_t> to = {1, s[2], s[1], s[3]};
    if (k == 1) to = {1, s[1] * s[2], 1, s[3]};
    if (k == 2) to = {1, 1, s[1] * s[2], s[3]};
    return Reshape(in, to);
  }

  /// FULLY_CONNECTED on `in` flattened to [1, n] by RESHAPE.
  std::size_t Dense(std::size_t in) {
    std::int32_t n = 1;
    for (std::int32_t d : acts_[in].shape) n *= d;
    const std::size_t flat = Reshape(in, {1, n});
    const Act x = acts_[flat];
    const std::int32_t units = Int(1, n > 200 ? 2 : 8);
    const float out_scale = Scale();
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(units * n));
    for (auto& v : bytes) v = static_cast<std::uint8_t>(Int(-127, 127));
    const std::int32_t weights =
        b_.Constant({units, n}, TensorType::kInt8, std::move(bytes),
                    WeightScale(x, out_scale, n), 0);
    const std::size_t out = NewAct({1, units}, out_scale, Int(-20, 20));
    Read(flat);
    b_.Op(BuiltinOp::kFullyConnected, {x.tensor, weights, Bias(units)},
          {acts_[out].tensor}, tflite::FullyConnectedOptions{});
    return out;
  }

  /// PAD of rows and columns by the zero point (folded into the window
  /// operator that follows), or of any dimension, read by something else.
  std::size_t Pad(std::size_t in) {
    const Act x = acts_[in];
    const std::int32_t t = Int(0, 2), bo = Int(0, 2), l = Int(0, 2),
                       r = Int(0, 1);
    const bool fold = Chance(70);
    const std::int32_t cb = fold ? 0 : Int(0, 1), ca = fold ? 0 : Int(0, 1);
    const std::size_t out = NewAct(
        {1, x.shape[1] + t + bo, x.shape[2] + l + r, x.shape[3] + cb + ca},
        x.scale, x.zero_point);
    Read(in);
    b_.Op(BuiltinOp::kPad,
          {x.tensor, b_.Int32Constant({0, 0, t, bo, l, r, cb, ca})},
          {acts_[out].tensor});
    if (!fold) return Chance(50) ? Unary(out) : out;
    return Window(out, Chance(70) ? Int(0, 1) : 3);
  }

  /// 2-3 branches from `in` keeping rows and columns, joined by
  /// CONCATENATION along the rows (axis 1) or channels (axis 3, or -1).
  std::size_t Branches(std::size_t in) {
    const int n = Int(2, 3);
    const bool rows = Chance(50);
    const float scale = Scale();
    const std::int64_t zp = Int(-20, 20);
    const std::int32_t c = Int(1, 4);
    std::vector<std::int32_t> parts;
    std::int32_t total = 0;
    for (int i = 0; i < n; ++i) {
      std::size_t x = in;
      if (Chance(40)) x = Window(x, Int(1, 3), true);
      if (Chance(30)) x = Unary(x);
      // The branch's end: a 1x1 CONV_2D or QUANTIZE to the join's
      // quantization (CONCATENATION requires it of every input).
      if (!rows || Chance(60)) {
        x = Conv1x1(x, rows ? c : Int(1, 3), scale, zp);
      } else {
        const Act a = acts_[x];
        Read(x);
        x = NewAct(a.shape, scale, zp);
        b_.Op(BuiltinOp::kQuantize, {a.tensor}, {acts_[x].tensor});
        if (acts_[x].shape[3] != c) x = Conv1x1(x, c, scale, zp);
      }
      parts.push_back(acts_[x].tensor);
      total += acts_[x].shape[rows ? 1 : 3];
      Read(x);
      if (Chance(15)) outputs_.push_back(acts_[x].tensor);
    }
    std::vector<std::int32_t> shape = acts_[in].shape;
    shape[rows ? 1 : 3] = total;
    if (rows) shape[3] = c;
    const std::size_t out = NewAct(shape, scale, zp);
    tflite::ConcatenationOptions o;
    o.axis = rows ? 1 : (Chance(50) ? 3 : -1);
    b_.Op(BuiltinOp::kConcatenation, parts, {acts_[out].tensor}, o);
    return out;
  }

  std::size_t Conv1x1(std::size_t in, std::int32_t oc, float scale,
                      std::int64_t zp) {
    const Act x = acts_[in];
    const std::int32_t weights = Int8Weights({oc, 1, 1, x.shape[3]}, oc, 0,
                                             WeightScale(x, scale, x.shape[3]));
    const std::size_t out = NewAct({1, x.shape[1], x.shape[2], oc}, scale, zp);
    Read(in);
    tflite::Conv2DOptions o;
    o.stride_h = o.stride_w = 1;
    b_.Op(BuiltinOp::kConv2D, {x.tensor, weights, Bias(oc)},
          {acts_[out].tensor}, o);
    return out;
  }

  /// One motif on an activation of rank 4.
  void Motif() {
    const std::size_t in = Pick4d();
    switch (Int(0, 9)) {
      case 0:
      case 1: {  // A chain of window operators (a --fuse segment).
        std::size_t x = in;
        const int n = Int(2, 4);
        for (int i = 0; i < n; ++i) x = Window(x, Chance(60) ? Int(0, 1) : -1);
        break;
      }
      case 2: {  // A residual block.
        std::size_t y = Window(in, Int(0, 1), true);
        if (Chance(50)) y = Window(y, Int(0, 2), true);
        Add(in, y);
        break;
      }
      case 3:
        Branches(in);
        break;
      case 4:
        Unary(in);
        break;
      case 5:
        Pad(in);
        break;
      case 6:  // A reshape, then operators on it.
        if (const std::size_t r = Reshape4d(in);
            acts_[r].shape.size() == 4 && Chance(50)) {
          Window(r, -1);
        }
        break;
      case 7: {  // A convolution whose output is also reshaped to an output.
        const std::size_t a = Window(in, 0);
        const std::size_t r = Reshape4d(a);
        outputs_.push_back(acts_[r].tensor);
        if (Chance(25)) {
          Unary(a);
        } else if (Chance(33)) {
          Window(a, 3);
        } else {
          Window(Window(a, 0), 0);
        }
        break;
      }
      case 8:
        if (Chance(40)) {
          Dense(in);
        } else {
          Window(in, -1);
        }
        break;
      default:  // Two branches left open.
        Window(in, -1);
        Window(in, Chance(50) ? -1 : 0);
        break;
    }
  }

  tflite::Model Finish() {
    // Leaves are outputs; so are some activations later operators read,
    // and sometimes a graph input.
    for (std::size_t i = 0; i < acts_.size(); ++i) {
      const std::int32_t t = acts_[i].tensor;
      const bool is_input =
          std::find(graph_inputs_.begin(), graph_inputs_.end(), t) !=
          graph_inputs_.end();
      const bool leaf = readers_[i] == 0 && !is_input;
      if (leaf || (readers_[i] > 0 && Chance(is_input ? 20 : 8))) {
        if (std::find(outputs_.begin(), outputs_.end(), t) == outputs_.end()) {
          outputs_.push_back(t);
        }
      }
    }
    if (Chance(50)) {  // Fisher-Yates, with Int's draws.
      for (std::size_t i = outputs_.size(); i > 1; --i) {
        std::swap(outputs_[i - 1], outputs_[static_cast<std::size_t>(Int(
                                       0, static_cast<std::int32_t>(i) - 1))]);
      }
    }
    return b_.Finish(graph_inputs_, outputs_);
  }

  std::mt19937 rng_;
  ModelBuilder b_;
  std::vector<Act> acts_;
  std::vector<int> readers_;  ///< Per activation: operators reading it.
  std::vector<std::size_t> inputs_;
  std::vector<std::int32_t> graph_inputs_, outputs_;
};

}  // namespace random_graph_detail

/// The random model of `seed` (see the file comment).
[[nodiscard]] inline tflite::Model RandomGraph(std::uint32_t seed) {
  return random_graph_detail::Generator(seed).Build();
}

}  // namespace arenaplan::testing_util

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_RANDOM_GRAPH_HPP_
