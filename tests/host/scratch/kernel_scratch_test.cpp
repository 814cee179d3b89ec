// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// scratch::KernelScratch plans bytes only for the kernels that take them:
// the int8 convolutions, not the float32 (or int16) ones, whose kernels
// (kernels/float/, kernels/int16/) have no scratch argument.
#include "codegen/scratch/kernel_scratch.hpp"

#include <gtest/gtest.h>

#include <string>

#include "codegen/tflite/model.hpp"

namespace arenaplan {
namespace {

const std::string kModels = std::string(ARENAPLAN_SHARED_DIR) + "/models/";

TEST(KernelScratch, PlansNoneForFloatConvolutions) {
  // face_detection_short_range: float32 activations through its CONV_2D
  // and DEPTHWISE_CONV_2D operators (FLOAT16 weights behind DEQUANTIZE).
  const tflite::Model m =
      tflite::ReadModelFile(kModels + "face_detection_short_range.tflite");
  std::size_t convs = 0;
  for (const tflite::Operator& op : m.subgraphs[0].operators) {
    convs += op.builtin_code == tflite::BuiltinOp::kConv2D ||
             op.builtin_code == tflite::BuiltinOp::kDepthwiseConv2D;
  }
  ASSERT_GT(convs, 0u);
  EXPECT_TRUE(scratch::KernelScratch(m).empty());
}

TEST(KernelScratch, PlansBytesForInt8Convolutions) {
  // person_detect: int8 activations; its first operator is a
  // DEPTHWISE_CONV_2D of one input channel, lowered as a convolution whose
  // fast kernel takes scratch.
  const tflite::Model m =
      tflite::ReadModelFile(kModels + "person_detect.tflite");
  const auto s = scratch::KernelScratch(m);
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s.front().first, 0u);
  EXPECT_GT(s.front().second, 0u);
}

}  // namespace
}  // namespace arenaplan
