// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// ADD's lowering (lower_add.cpp) refuses an output multiplier of 1 or more,
// as TFLite's ADD preparation does: with inputs of scale 0.5 the multiplier
// is 2 * 0.5 / (2^20 * s_out), 1 at s_out = 2^-20.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "tests/host/support/model_builder.hpp"

namespace arenaplan::compile {
namespace {

std::string AddError(float out_scale) {
  testing_util::ModelBuilder b("add.tflite");
  const std::int32_t x = b.Tensor({1, 8});
  const std::int32_t y = b.Tensor({1, 8});
  const std::int32_t z = b.Tensor({1, 8}, tflite::TensorType::kInt8, out_scale);
  b.Op(tflite::BuiltinOp::kAdd, {x, y}, {z}, tflite::ElementwiseOptions{});
  CompileOptions options;
  options.namespace_name = "m";
  options.input_sha256 = std::string(64, '0');  // No file to hash.
  try {
    (void)CompileModel(b.Finish({x, y}, {z}), "add.tflite", options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(LowerAdd, RefusesAnOutputMultiplierOfOneOrMore) {
  EXPECT_EQ(AddError(std::ldexp(1.0f, -19)), "");  // Multiplier 1/2.
  EXPECT_NE(AddError(std::ldexp(1.0f, -20))
                .find("makes the output multiplier 1 or more"),
            std::string::npos)
      << AddError(std::ldexp(1.0f, -20));
}

}  // namespace
}  // namespace arenaplan::compile
