// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The compiled code computes what TensorFlow Lite Micro computes. The four
// MLPerf Tiny models are compiled by `arenaplan compile --assume-dim 1` at
// build time (cmake/parts/mlperf_reference.cmake) with the default plan,
// every activation in the planned arena. Each input of
// ../shared/reference/<model>/NAME.in.bin is run through the generated
// Invoke() and the output tensor's bytes must equal NAME.out.bin, which
// TFLM's reference kernels produced (see that directory's README for
// provenance): a second, independent implementation of the same arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "mr_ad_model.hpp"
#include "mr_ic_model.hpp"
#include "mr_kws_model.hpp"
#include "mr_vww_model.hpp"

namespace {

namespace fs = std::filesystem;

/// What the test needs of one generated model.
struct Compiled {
  const char* dir;  ///< Directory under ../shared/reference.
  void (*invoke)(std::int8_t* arena);
  std::size_t arena_size, alignment;  ///< Bytes.
  std::size_t input_offset, input_bytes;
  std::size_t output_offset, output_bytes;
};

#define COMPILED(dir, ns)                                    \
  Compiled {                                                 \
    dir, &ns::Invoke, ns::kArenaSize, ns::kAlignment,        \
        ns::kPlan[ns::kInputIndex].offset, ns::kInputBytes,  \
        ns::kPlan[ns::kOutputIndex].offset, ns::kOutputBytes \
  }

std::vector<std::uint8_t> ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string AsInt8List(const std::vector<std::uint8_t>& bytes) {
  std::ostringstream s;
  s << "[";
  for (std::size_t i = 0; i < bytes.size() && i < 40; ++i) {
    s << (i ? ", " : "")
      << static_cast<int>(static_cast<std::int8_t>(bytes[i]));
  }
  s << (bytes.size() > 40 ? ", ...]" : "]");
  return s.str();
}

/// Runs every NAME.in.bin of the model's reference directory and compares
/// with NAME.out.bin; returns the number of inputs run.
int RunReferenceInputs(const Compiled& m) {
  const fs::path dir = fs::path(ARENAPLAN_SHARED_DIR) / "reference" / m.dir;
  std::vector<fs::path> inputs;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.size() > 7 && name.ends_with(".in.bin"))
      inputs.push_back(e.path());
  }
  std::sort(inputs.begin(), inputs.end());
  for (const fs::path& in_path : inputs) {
    const std::string stem = in_path.filename().string().substr(
        0, in_path.filename().string().size() - 7);
    SCOPED_TRACE(std::string(m.dir) + "/" + stem);
    const auto input = ReadBytes(in_path);
    const auto expect = ReadBytes(dir / (stem + ".out.bin"));
    EXPECT_EQ(input.size(), m.input_bytes);
    EXPECT_EQ(expect.size(), m.output_bytes);
    if (input.size() != m.input_bytes || expect.size() != m.output_bytes) {
      continue;
    }
    // Every arena byte starts as 0xA5, so reading bytes nobody wrote would
    // show up; a fresh arena per input, as TFLM's one Invoke() per run.
    std::vector<std::uint8_t> storage(m.arena_size + m.alignment);
    void* p = storage.data();
    std::size_t space = storage.size();
    auto* arena = static_cast<std::int8_t*>(
        std::align(m.alignment, m.arena_size, p, space));
    if (arena == nullptr) {
      ADD_FAILURE() << "no aligned arena";
      continue;
    }
    std::memset(arena, 0xA5, m.arena_size);
    std::memcpy(arena + m.input_offset, input.data(), input.size());
    m.invoke(arena);
    std::vector<std::uint8_t> got(m.output_bytes);
    std::memcpy(got.data(), arena + m.output_offset, got.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < got.size(); ++i) differ += got[i] != expect[i];
    EXPECT_EQ(differ, 0u) << "arenaplan " << AsInt8List(got) << "\nTFLM      "
                          << AsInt8List(expect);
  }
  return static_cast<int>(inputs.size());
}

TEST(MlperfReference, VisualWakeWordsMatchesTflm) {
  EXPECT_EQ(RunReferenceInputs(COMPILED("vww_96_int8", mr_vww)), 2);
}

TEST(MlperfReference, KeywordSpottingMatchesTflm) {
  EXPECT_EQ(RunReferenceInputs(COMPILED("kws_ref_model", mr_kws)), 3);
}

TEST(MlperfReference, ImageClassificationMatchesTflm) {
  EXPECT_EQ(RunReferenceInputs(COMPILED("pretrainedResnet_quant", mr_ic)), 3);
}

TEST(MlperfReference, AnomalyDetectionMatchesTflm) {
  EXPECT_EQ(RunReferenceInputs(COMPILED("ad01_int8", mr_ad)), 3);
}

}  // namespace
