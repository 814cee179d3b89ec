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
#include "cm_ms_greedy_by_size_model.hpp"
#include "cm_ms_naive_model.hpp"

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

#define COMPILED(ns)                                                        \
  Compiled {                                                                \
    &ns::Invoke, ns::kArenaSize, ns::kAlignment, ns::kPlan, ns::kTensorNames, \
        ns::kTensorCount, ns::kPlan[ns::kInputIndex].offset, ns::kInputBytes, \
        ns::kPlan[ns::kOutputIndex].offset, ns::kOutputBytes                \
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

/// Deterministic pseudo-random values (64-bit LCG, high bits).
class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : s_(seed) {}
  std::int32_t Next(std::int32_t lo, std::int32_t hi) {
    s_ = s_ * 6364136223846793005ull + 1442695040888963407ull;
    return lo + static_cast<std::int32_t>((s_ >> 33) % (hi - lo + 1));
  }

 private:
  std::uint64_t s_;
};

TEST(CompileModels, NaivePlansGiveEveryTensorItsOwnBytes) {
  EXPECT_TRUE(NoSharing(COMPILED(cm_hw_naive)));
  EXPECT_TRUE(NoSharing(COMPILED(cm_ms_naive)));
  // And the planned arenas do share: otherwise the comparison is empty.
  EXPECT_LT(cm_hw_greedy_by_size::kArenaSize, cm_hw_naive::kArenaSize);
  EXPECT_LT(cm_ms_greedy_by_size::kArenaSize, cm_ms_naive::kArenaSize);
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
    return static_cast<std::int8_t>(std::clamp<long>(
        std::lround(x / in_scale) + in_zp, -128, 127));
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
  std::printf("hello_world: %d input codes, max |y - sin x| = %.4f at x = %.3f\n",
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

}  // namespace
