// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Folding (codegen/tflite/fold.hpp) changes the plan and the code, not the
// numbers: two corpus models compiled at build time folded and with
// --no-fold (cmake/parts/fold_equivalence.cmake) give the same output bytes
// on the same seeded inputs, each arena pre-filled with its own poison.
// mlperf_v01_vww_96_int8_refsub folds PADs of 0,1,0,1 into convolutions;
// tflm_retinaface_torch writes CONCATENATIONs in place and aliases its
// RESHAPEs. (make test-corpus compares both with TFLM's outputs.)
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <random>
#include <vector>

#ifndef ARENAPLAN_NO_CORPUS
#include "fe_rf_fold_model.hpp"
#include "fe_rf_nofold_model.hpp"
#include "fe_vww_fold_model.hpp"
#include "fe_vww_nofold_model.hpp"
#endif

namespace {

/// What the test needs of one generated model.
struct Compiled {
  void (*invoke)(std::int8_t* arena);
  std::size_t arena_size, alignment, records;
  std::vector<std::size_t> input_offsets, input_sizes;
  std::vector<std::size_t> output_offsets, output_sizes;
  bool float_input;
};

#define COMPILED(ns)                                                       \
  [] {                                                                     \
    Compiled c{&ns::Invoke,                                                \
               ns::kArenaSize,                                             \
               ns::kAlignment,                                             \
               ns::kTensorCount,                                           \
               {},                                                         \
               {},                                                         \
               {},                                                         \
               {},                                                         \
               sizeof(ns::InputElement) == 4 &&                            \
                   static_cast<ns::InputElement>(0.5) != 0};               \
    for (std::size_t i = 0; i < ns::kInputCount; ++i) {                    \
      c.input_offsets.push_back(ns::kPlan[ns::kInputIndices[i]].offset);   \
      c.input_sizes.push_back(ns::kInputSizes[i]);                         \
    }                                                                      \
    for (std::size_t i = 0; i < ns::kOutputCount; ++i) {                   \
      c.output_offsets.push_back(ns::kPlan[ns::kOutputIndices[i]].offset); \
      c.output_sizes.push_back(ns::kOutputSizes[i]);                       \
    }                                                                      \
    return c;                                                              \
  }()

/// The outputs' bytes of one inference on `input` (the inputs' bytes in
/// order), the arena first filled with `poison`.
std::vector<std::uint8_t> Run(const Compiled& c,
                              const std::vector<std::uint8_t>& input,
                              std::uint8_t poison) {
  auto* arena = static_cast<std::int8_t*>(
      ::operator new(c.arena_size, std::align_val_t(c.alignment)));
  std::memset(arena, poison, c.arena_size);
  std::size_t at = 0;
  for (std::size_t i = 0; i < c.input_offsets.size(); ++i) {
    std::memcpy(arena + c.input_offsets[i], input.data() + at,
                c.input_sizes[i]);
    at += c.input_sizes[i];
  }
  c.invoke(arena);
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < c.output_offsets.size(); ++i) {
    const auto* p =
        reinterpret_cast<const std::uint8_t*>(arena + c.output_offsets[i]);
    out.insert(out.end(), p, p + c.output_sizes[i]);
  }
  ::operator delete(arena, std::align_val_t(c.alignment));
  return out;
}

/// Seeded input bytes: floats in [0, 255] for a float32 input (retinaface
/// quantizes with scale 1, zero point -128: pixel values), else bytes.
std::vector<std::uint8_t> Input(const Compiled& c, unsigned seed) {
  std::size_t total = 0;
  for (std::size_t s : c.input_sizes) total += s;
  std::vector<std::uint8_t> in(total);
  std::mt19937 rng(seed);
  if (c.float_input) {
    std::uniform_real_distribution<float> real(0.0f, 255.0f);
    for (std::size_t i = 0; i + 4 <= total; i += 4) {
      const float v = real(rng);
      std::memcpy(in.data() + i, &v, 4);
    }
  } else {
    for (auto& b : in) b = static_cast<std::uint8_t>(rng());
  }
  return in;
}

void ExpectSameOutputs(const Compiled& folded, const Compiled& unfolded) {
  EXPECT_LT(folded.records, unfolded.records);
  ASSERT_EQ(folded.input_sizes, unfolded.input_sizes);
  ASSERT_EQ(folded.output_sizes, unfolded.output_sizes);
  std::vector<std::vector<std::uint8_t>> outputs;
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const std::vector<std::uint8_t> in = Input(folded, seed);
    outputs.push_back(Run(folded, in, 0xA5));
    EXPECT_EQ(outputs.back(), Run(unfolded, in, 0x5A)) << "seed " << seed;
  }
  // The inputs reach the outputs (the comparison is not of constants).
  EXPECT_NE(outputs[0], outputs[1]);
}

#ifndef ARENAPLAN_NO_CORPUS
TEST(FoldEquivalence, FoldedPadsGiveTheUnfoldedBytes) {
  ExpectSameOutputs(COMPILED(fe_vww_fold), COMPILED(fe_vww_nofold));
}

TEST(FoldEquivalence, InPlaceConcatenationsGiveTheUnfoldedBytes) {
  ExpectSameOutputs(COMPILED(fe_rf_fold), COMPILED(fe_rf_nofold));
}
#else
TEST(FoldEquivalence, NeedsTheCorpus) {
  GTEST_SKIP() << "../shared/corpus not found at configure time";
}
#endif

}  // namespace
