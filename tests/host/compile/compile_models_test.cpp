// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The other models of ../shared/models, compiled by `arenaplan compile` at
// build time (cmake/parts/compile_models.cmake) with two plans each: the
// greedy-by-size plan, in which tensors share arena bytes, and the naive
// plan, in which every tensor has its own bytes (checked here). Each model
// is run through the generated Invoke() on both plans; the outputs must be
// equal byte for byte, and must be right by a method independent of the
// kernels (the sine function for hello_world, a floating-point softmax for
// micro_speech).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "arenaplan/plan.hpp"
#include "cm_hw_greedy_by_size_model.hpp"
#include "cm_hw_naive_model.hpp"
#include "cm_kw_greedy_by_size_model.hpp"
#include "cm_kw_naive_model.hpp"
#include "cm_ms_greedy_by_size_model.hpp"
#include "cm_ms_naive_model.hpp"
#include "codegen/tflite/model.hpp"
#include "tests/host/support/lcg.hpp"

namespace {

/// What a test needs of one generated model.
struct Compiled {
  void (*invoke)(std::int8_t* arena);
  std::size_t arena_size;  ///< Bytes.
  std::size_t alignment;   ///< Bytes.
  const arenaplan::Placement* plan;
  const char* const* names;  ///< kTensorNames.
  std::size_t tensor_count;
  std::size_t input_offset, input_bytes;
  std::size_t output_offset, output_bytes;
};

#define COMPILED(ns)                                                          \
  Compiled {                                                                  \
    &ns::Invoke, ns::kArenaSize, ns::kAlignment, ns::kPlan, ns::kTensorNames, \
        ns::kTensorCount, ns::kPlan[ns::kInputIndex].offset, ns::kInputBytes, \
        ns::kPlan[ns::kOutputIndex].offset, ns::kOutputBytes                  \
  }

/// True when no two placements share a byte, whatever their lifetimes.
bool NoSharing(const Compiled& m) {
  for (std::size_t i = 0; i < m.tensor_count; ++i) {
    for (std::size_t j = i + 1; j < m.tensor_count; ++j) {
      const auto& a = m.plan[i];
      const auto& b = m.plan[j];
      if (a.size != 0 && b.size != 0 && a.offset < b.offset + b.size &&
          b.offset < a.offset + a.size) {
        return false;
      }
    }
  }
  return true;
}

/// An arena for one model, aligned as its plan requires, every byte set to
/// `fill` first (so a kernel reading bytes nobody wrote shows up as a
/// difference between plans).
class Runner {
 public:
  Runner(const Compiled& m, std::uint8_t fill)
      : m_(m), storage_(m.arena_size + m.alignment) {
    void* p = storage_.data();
    std::size_t space = storage_.size();
    arena_ = static_cast<std::int8_t*>(
        std::align(m.alignment, m.arena_size, p, space));
    std::memset(arena_, fill, m.arena_size);
  }
  /// Copies `input` (input_bytes bytes) in, runs Invoke(), returns the
  /// output bytes.
  std::vector<std::uint8_t> Run(const void* input) {
    std::memcpy(arena_ + m_.input_offset, input, m_.input_bytes);
    m_.invoke(arena_);
    std::vector<std::uint8_t> out(m_.output_bytes);
    std::memcpy(out.data(), arena_ + m_.output_offset, out.size());
    return out;
  }
  /// The bytes of the tensor named `name` (nullptr when there is none).
  [[nodiscard]] const std::int8_t* Tensor(const std::string& name) const {
    for (std::size_t i = 0; i < m_.tensor_count; ++i) {
      if (name == m_.names[i]) return arena_ + m_.plan[i].offset;
    }
    return nullptr;
  }

 private:
  const Compiled m_;
  std::vector<std::int8_t> storage_;
  std::int8_t* arena_ = nullptr;  ///< In storage_, aligned.
};

using ::arenaplan::testing_util::Lcg;

TEST(CompileModels, NaivePlansGiveEveryTensorItsOwnBytes) {
  EXPECT_TRUE(NoSharing(COMPILED(cm_hw_naive)));
  EXPECT_TRUE(NoSharing(COMPILED(cm_ms_naive)));
  EXPECT_TRUE(NoSharing(COMPILED(cm_kw_naive)));
  // And the planned arenas do share: otherwise the comparison is empty.
  EXPECT_LT(cm_hw_greedy_by_size::kArenaSize, cm_hw_naive::kArenaSize);
  EXPECT_LT(cm_ms_greedy_by_size::kArenaSize, cm_ms_naive::kArenaSize);
  EXPECT_LT(cm_kw_greedy_by_size::kArenaSize, cm_kw_naive::kArenaSize);
}

// hello_world_int8 is TFLM's sine regressor: three FULLY_CONNECTED layers
// (1 -> 16 -> 16 -> 1, RELU on the first two) trained on y = sin(x) for x
// in [0, 2pi]. TFLM's own test of this model
// (tensorflow/lite/micro/examples/hello_world/evaluate_test.cc,
// LoadQuantModelAndPerformInference) requires |y - sin(x)| <= 0.05 at
// x = 0, 1, 3 and 5. Over the whole interval the network is a piecewise
// linear fit with 16 + 16 hinges of a curve it saw with training noise, so a
// looser bound of 0.2 (a tenth of the sine's range) is used for every input
// code; the measured worst case is printed.
TEST(CompileModels, HelloWorldApproximatesSine) {
  const double in_scale = cm_hw_naive::kInputScale;
  const std::int32_t in_zp = cm_hw_naive::kInputZeroPoint;
  const double out_scale = cm_hw_naive::kOutputScale;
  const std::int32_t out_zp = cm_hw_naive::kOutputZeroPoint;
  ASSERT_EQ(cm_hw_naive::kInputBytes, 1u);
  ASSERT_EQ(cm_hw_naive::kOutputBytes, 1u);
  Runner planned(COMPILED(cm_hw_greedy_by_size), 0xA5);
  Runner naive(COMPILED(cm_hw_naive), 0x00);
  auto predict = [&](std::int8_t q) {
    const auto a = planned.Run(&q);
    const auto b = naive.Run(&q);
    EXPECT_EQ(a, b) << "input code " << int{q};
    return out_scale * (static_cast<std::int8_t>(a[0]) - out_zp);
  };
  auto quantize = [&](double x) {
    return static_cast<std::int8_t>(
        std::clamp<long>(std::lround(x / in_scale) + in_zp, -128, 127));
  };
  for (double x : {0.0, 1.0, 3.0, 5.0}) {
    EXPECT_NEAR(predict(quantize(x)), std::sin(x), 0.05) << "x = " << x;
  }
  double worst = 0.0, worst_x = 0.0;
  int codes = 0;
  for (int q = -128; q <= 127; ++q) {
    const double x = in_scale * (q - in_zp);  // what the model sees
    if (x < 0.0 || x > 2.0 * std::numbers::pi) continue;
    const double err =
        std::abs(predict(static_cast<std::int8_t>(q)) - std::sin(x));
    if (err > worst) worst = err, worst_x = x;
    ++codes;
  }
  // The input scale maps the 256 codes onto [0, ~6.25]: all of them are in
  // [0, 2pi].
  EXPECT_GE(codes, 250);
  EXPECT_LE(worst, 0.2) << "at x = " << worst_x;
  std::printf(
      "hello_world: %d input codes, max |y - sin x| = %.4f at x = %.3f\n",
      codes, worst, worst_x);
}

// micro_speech: RESHAPE, DEPTHWISE_CONV_2D, FULLY_CONNECTED, SOFTMAX over 4
// labels. For deterministic inputs: planned == naive byte for byte, and the
// output is a softmax: (a) against a float softmax of the dequantized logits
// read from the naive arena (tensor 'add_1' keeps its own bytes there), each
// score within one step of 1/256 of round(256 p) - 128 (the kernel's exp
// table is exact to 2^-17, far below half a step, so only ties can differ);
// (b) the dequantized scores sum to 1 within 3/256: each of the 4 scores is
// rounded to the nearest 1/256 (error <= 0.5/256 each, 2/256 in all) and a
// score of p > 255/256 saturates at 127, i.e. 255/256 (one more 1/256).
TEST(CompileModels, MicroSpeechGivesTheSameSoftmaxOnBothPlans) {
  ASSERT_EQ(cm_ms_naive::kOutputBytes, 4u);
  ASSERT_EQ(cm_ms_naive::kOutputScale, 1.0f / 256.0f);
  ASSERT_EQ(cm_ms_naive::kOutputZeroPoint, -128);
  Runner planned(COMPILED(cm_ms_greedy_by_size), 0xA5);
  Runner naive(COMPILED(cm_ms_naive), 0x00);
  const std::size_t n = cm_ms_naive::kInputBytes;
  ASSERT_EQ(n, 49u * 40u);
  const auto* logits_name = "add_1";
  ASSERT_NE(naive.Tensor(logits_name), nullptr);
  // Logits quantization, from the model (inspect): scale, zero point.
  std::vector<std::vector<std::int8_t>> inputs;
  for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    Lcg lcg(seed);
    std::vector<std::int8_t> v(n);
    for (auto& b : v) b = static_cast<std::int8_t>(lcg.Next(-128, 127));
    inputs.push_back(v);
  }
  inputs.emplace_back(n, std::int8_t{-128});  // silence
  std::vector<std::int8_t> ramp(n);
  for (std::size_t i = 0; i < n; ++i) {
    ramp[i] = static_cast<std::int8_t>(static_cast<int>(i % 256) - 128);
  }
  inputs.push_back(ramp);
  for (std::size_t t = 0; t < inputs.size(); ++t) {
    const auto a = planned.Run(inputs[t].data());
    const auto b = naive.Run(inputs[t].data());
    EXPECT_EQ(a, b) << "input " << t;
    // (b) the scores sum to 1.
    double sum = 0.0;
    for (std::uint8_t byte : b) sum += (static_cast<std::int8_t>(byte) + 128);
    sum /= 256.0;
    EXPECT_NEAR(sum, 1.0, 3.0 / 256.0) << "input " << t;
    // (a) a float softmax of the logits.
    const std::int8_t* logits = naive.Tensor(logits_name);
    double e[4], esum = 0.0;
    const int mx = *std::max_element(logits, logits + 4);
    for (int i = 0; i < 4; ++i) {
      // beta = 1; logits scale 0.0917319208 (the model's tensor 6).
      e[i] = std::exp(0.0917319208 * (logits[i] - mx));
      esum += e[i];
    }
    for (int i = 0; i < 4; ++i) {
      const long expect =
          std::min(127L, std::lround(256.0 * e[i] / esum) - 128);
      EXPECT_LE(std::abs(static_cast<std::int8_t>(b[i]) - expect), 1)
          << "input " << t << " label " << i;
    }
  }
}

/// SVDF of TFLite's definition with the rescaling in double precision,
/// from the model file: the int16 state stores round(real / s_state) of the
/// feature products, the output is round(real / s_out) + zp. A second
/// method for the integer kernel: no Q0.31 multipliers, no fixed-point
/// rounding. One integer step is kept: the time sum is TFLite's int32
/// accumulator bias + sum wt * state, computed exactly and then taken
/// modulo 2^32. keyword_scrambled's biases are random int32 values up to
/// +-2^31 ("scrambled" weights), so that accumulator overflows; TFLite's
/// int32 arithmetic then wraps on every target, and so does the kernel,
/// while real arithmetic would give the opposite saturated output.
class SvdfReference {
 public:
  SvdfReference(const arenaplan::tflite::Model& m, std::size_t op_index)
      : m_(m), sg_(m.subgraphs[0]), op_(sg_.operators[op_index]) {
    rank_ = std::get<arenaplan::tflite::SvdfOptions>(op_.options).rank;
    filters_ = T(1).shape[0];
    input_size_ = T(1).shape[1];
    memory_ = T(2).shape[1];
    state_.assign(static_cast<std::size_t>(filters_ * memory_), 0);
  }
  /// One frame: `input` is the int8 input tensor, returns the int8 output.
  std::vector<int> Step(const std::int8_t* input) {
    const double s_in = Scale(T(0)), s_wf = Scale(T(1));
    const double s_b = Scale(T(3)), s_state = Scale(T(4));
    const auto& out_t = sg_.tensors[static_cast<std::size_t>(op_.outputs[0])];
    const double s_out = Scale(out_t);
    const int z_in = static_cast<int>(T(0).quantization.zero_point[0]);
    const int z_out = static_cast<int>(out_t.quantization.zero_point[0]);
    std::rotate(state_.begin(), state_.begin() + 1, state_.end());
    for (int f = 0; f < filters_; ++f) {
      double real = 0.0;
      for (int i = 0; i < input_size_; ++i) {
        real += s_in * (input[i] - z_in) * s_wf * Int8(1, f * input_size_ + i);
      }
      state_[static_cast<std::size_t>(f * memory_ + memory_ - 1)] =
          std::clamp(std::round(real / s_state), -32768.0, 32767.0);
    }
    std::vector<int> out;
    for (int u = 0; u < filters_ / rank_; ++u) {
      std::int64_t acc = Int32(3, u);  // at scale s_b = s_wt * s_state
      for (int f = u * rank_; f < (u + 1) * rank_; ++f) {
        for (int k = 0; k < memory_; ++k) {
          acc += std::int64_t{Int16(2, f * memory_ + k)} *
                 static_cast<std::int64_t>(
                     state_[static_cast<std::size_t>(f * memory_ + k)]);
        }
      }
      const double real = s_b * static_cast<std::int32_t>(acc);  // mod 2^32
      out.push_back(static_cast<int>(
          std::clamp(std::round(real / s_out) + z_out, -128.0, 127.0)));
    }
    return out;
  }

 private:
  const arenaplan::tflite::Tensor& T(std::size_t i) const {
    return sg_.tensors[static_cast<std::size_t>(op_.inputs[i])];
  }
  static double Scale(const arenaplan::tflite::Tensor& t) {
    return t.quantization.scale.at(0);
  }
  const std::vector<std::uint8_t>& Data(std::size_t i) const {
    return m_.buffers[T(i).buffer].data;
  }
  int Int8(std::size_t i, int k) const {
    return static_cast<std::int8_t>(Data(i)[static_cast<std::size_t>(k)]);
  }
  int Int16(std::size_t i, int k) const {
    std::int16_t v;
    std::memcpy(&v, Data(i).data() + 2 * k, 2);
    return v;
  }
  int Int32(std::size_t i, int k) const {
    std::int32_t v;
    std::memcpy(&v, Data(i).data() + 4 * k, 4);
    return v;
  }
  const arenaplan::tflite::Model& m_;
  const arenaplan::tflite::Subgraph& sg_;
  const arenaplan::tflite::Operator& op_;
  int rank_ = 1, filters_ = 0, input_size_ = 0, memory_ = 0;
  std::vector<double> state_;  ///< Quantized (int16) values, as doubles.
};

// keyword_scrambled: QUANTIZE (int16 -> int8), 7 SVDF with int16 state,
// 4 FULLY_CONNECTED, SOFTMAX (int8 -> int16), QUANTIZE (int16 -> int32).
// The SVDF state persists between invocations in static buffers outside
// the arena (one set per generated model), so a sequence of frames is run
// on both plans, and after every frame the outputs must be equal byte for
// byte. Checked independently of the kernels: (a) the SOFTMAX against a
// float softmax of the int8 logits read from the naive arena (tensor 50,
// scale 0.0699627325 from the model): the int16 score within one step of
// round(65536 p) - 32768 (the exp table's entries are rounded to 2^-31,
// which moves 65536 p by < 2^-14: only near-ties may round the other way); (b)
// the final int32 scores (scale 1/32767) sum to 1 within 4/32767: each int16
// score is rounded to 1/65536 and each int32 score again to 1/32767 (<=
// 0.5/65536 + 0.5/32767 each, < 1.5/32767 for both), and the int16 output scale
// in the file is 1/65535, not the 1/65536 the kernel (like TFLite) assumes,
// which adds p * 2^-16 < 1/32767 at most. (The model's weights are scrambled:
// its logits saturate and every frame scores 0.5 / 0.5, see SvdfReference; the
// SVDF comparison is the informative part.)
TEST(CompileModels, KeywordScrambledRunsTheSameFramesOnBothPlans) {
  using In = cm_kw_naive::InputElement;
  using Out = cm_kw_naive::OutputElement;
  static_assert(sizeof(In) == 2 && sizeof(Out) == 4);
  ASSERT_EQ(cm_kw_naive::kInputElements, 96u);
  ASSERT_EQ(cm_kw_naive::kOutputElements, 2u);
  ASSERT_EQ(cm_kw_naive::kStateBytes, 2u * (4 * 512 + 3 * 1024));
  Runner planned(COMPILED(cm_kw_greedy_by_size), 0xA5);
  Runner naive(COMPILED(cm_kw_naive), 0x00);
  cm_kw_greedy_by_size::ResetState();
  cm_kw_naive::ResetState();
  const std::int8_t* logits = naive.Tensor("50");
  ASSERT_NE(logits, nullptr);
  const std::int16_t* scores16 =
      reinterpret_cast<const std::int16_t*>(naive.Tensor("51"));
  ASSERT_NE(scores16, nullptr);
  Lcg lcg(7);
  // Non-negative features, as an audio front end gives them (real values
  // 0 .. 20.5 at the input scale 0.000625).
  std::vector<std::vector<In>> frames(12, std::vector<In>(96));
  for (auto& f : frames) {
    for (auto& v : f) v = static_cast<In>(lcg.Next(0, 32767));
  }
  // Every SVDF against its double-precision reference, on its own input
  // and output in the naive arena (tensor name = index: the model's
  // tensors are unnamed). The reference keeps its own state, which may
  // drift from the kernel's by an LSB where a rounding falls differently,
  // so: every output within 2 LSB, and at least 95% exactly equal.
  const std::string path =
      std::string(ARENAPLAN_SHARED_DIR) + "/models/keyword_scrambled.tflite";
  const auto model = arenaplan::tflite::ReadModelFile(path);
  std::vector<std::pair<SvdfReference, std::pair<std::string, std::string>>>
      svdfs;
  for (std::size_t k = 0; k < model.subgraphs[0].operators.size(); ++k) {
    const auto& op = model.subgraphs[0].operators[k];
    if (op.builtin_name != "SVDF") continue;
    svdfs.push_back(
        {SvdfReference(model, k),
         {std::to_string(op.inputs[0]), std::to_string(op.outputs[0])}});
  }
  ASSERT_EQ(svdfs.size(), 7u);
  int svdf_outputs = 0, svdf_exact = 0, svdf_unsaturated = 0;
  std::vector<std::vector<std::uint8_t>> first_outputs;
  int differs_from_history = 0;
  for (std::size_t t = 0; t < frames.size(); ++t) {
    const auto a = planned.Run(frames[t].data());
    const auto b = naive.Run(frames[t].data());
    EXPECT_EQ(a, b) << "frame " << t;
    first_outputs.push_back(b);
    for (auto& [ref, io] : svdfs) {
      const std::int8_t* in = naive.Tensor(io.first);
      const std::int8_t* out = naive.Tensor(io.second);
      ASSERT_NE(in, nullptr);
      ASSERT_NE(out, nullptr);
      const std::vector<int> expect = ref.Step(in);
      for (std::size_t i = 0; i < expect.size(); ++i) {
        EXPECT_LE(std::abs(out[i] - expect[i]), 2)
            << "SVDF output " << io.second << "[" << i << "] frame " << t;
        ++svdf_outputs;
        svdf_exact += out[i] == expect[i];
        svdf_unsaturated += out[i] != -128 && out[i] != 127;
      }
    }
    Out out[2];
    std::memcpy(out, b.data(), sizeof out);
    const double sum = (static_cast<double>(out[0]) + out[1]) / 32767.0;
    EXPECT_NEAR(sum, 1.0, 4.0 / 32767.0) << "frame " << t;
    const int mx = std::max(logits[0], logits[1]);
    const double e0 = std::exp(0.0699627325 * (logits[0] - mx));
    const double e1 = std::exp(0.0699627325 * (logits[1] - mx));
    const double p[2] = {e0 / (e0 + e1), e1 / (e0 + e1)};
    for (int i = 0; i < 2; ++i) {
      const long expect = std::min(32767L, std::lround(65536.0 * p[i]) - 32768);
      EXPECT_LE(std::abs(scores16[i] - expect), 1)
          << "frame " << t << " label " << i;
    }
  }
  EXPECT_GE(svdf_exact, svdf_outputs * 95 / 100);
  std::printf(
      "keyword_scrambled: %d SVDF outputs over %zu frames, %d equal to the "
      "double reference, %d not saturated\n",
      svdf_outputs, frames.size(), svdf_exact, svdf_unsaturated);
  // Reset: the same frames give the same outputs again, on both plans.
  cm_kw_greedy_by_size::ResetState();
  cm_kw_naive::ResetState();
  for (std::size_t t = 0; t < frames.size(); ++t) {
    EXPECT_EQ(planned.Run(frames[t].data()), first_outputs[t]) << t;
    EXPECT_EQ(naive.Run(frames[t].data()), first_outputs[t]) << t;
  }
  // Without a reset the state carries the history: frame 0 again, now
  // after 12 frames.
  const auto again = naive.Run(frames[0].data());
  differs_from_history = again != first_outputs[0];
  std::printf(
      "keyword_scrambled: frame 0 output %s after 12 frames of history\n",
      differs_from_history ? "changes" : "does not change");
  planned.Run(frames[0].data());
}

}  // namespace
