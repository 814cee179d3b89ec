// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The acceptance checks of the 2-D window operators
// (codegen/tflite/geometry.hpp): geometry of accepted operators derived by
// hand from TFLite's SAME/VALID rules, and the reason of each refusal.
#include "codegen/tflite/geometry.hpp"

#include <gtest/gtest.h>

#include <string>
#include <variant>

namespace arenaplan::tflite {
namespace {

Tensor Shaped(std::vector<std::int32_t> shape) {
  Tensor t;
  t.type = TensorType::kInt8;
  t.shape = std::move(shape);
  return t;
}

Operator ConvOp(std::int32_t stride, std::int32_t dilation = 1) {
  Operator op;
  op.builtin_code = BuiltinOp::kConv2D;
  Conv2DOptions o;
  o.padding = Padding::kSame;
  o.stride_h = o.stride_w = stride;
  o.dilation_h = o.dilation_w = dilation;
  op.options = o;
  return op;
}

std::string Reason(const std::variant<ConvGeometry, Refusal>& r) {
  const auto* refusal = std::get_if<Refusal>(&r);
  return refusal == nullptr ? "" : refusal->what;
}

// 5x5 input, 3x3 window, stride 2, SAME: out = ceil(5 / 2) = 3; total
// padding (3 - 1) * 2 + 3 - 5 = 2, one row/column before.
TEST(Geometry, AcceptsConvWithSamePadding) {
  const Tensor in = Shaped({1, 5, 5, 3}), w = Shaped({8, 3, 3, 3}),
               out = Shaped({1, 3, 3, 8});
  const auto r = CheckConv(ConvOp(2), in, w, out, /*depthwise=*/false);
  const auto* g = std::get_if<ConvGeometry>(&r);
  ASSERT_NE(g, nullptr) << Reason(r);
  EXPECT_EQ(g->pad_h.out, 3);
  EXPECT_EQ(g->pad_h.pad_before, 1);
  EXPECT_EQ(g->pad_w.pad_before, 1);
  EXPECT_EQ(g->depth_multiplier, 1);
  EXPECT_EQ(g->filter.n, 8);
}

// Dilation: the padding and output shape of the effective window
// (k - 1) * d + 1 (TFLite's ComputePaddingHeightWidth). 9x9 input, 3x3
// taps dilated 2 (span 5): SAME stride 1 gives 9x9 with total padding
// 8 + 5 - 9 = 4, two before; SAME stride 2 gives ceil(9 / 2) = 5 with total
// 4 * 2 + 5 - 9 = 4, two before; VALID stride 1 gives 9 - 5 + 1 = 5, none.
TEST(Geometry, AcceptsDilatedConvWithTheEffectiveWindow) {
  const Tensor in = Shaped({1, 9, 9, 3}), w = Shaped({8, 3, 3, 3});
  const auto same = CheckConv(ConvOp(1, 2), in, w, Shaped({1, 9, 9, 8}), false);
  const auto* g = std::get_if<ConvGeometry>(&same);
  ASSERT_NE(g, nullptr) << Reason(same);
  EXPECT_EQ(g->dilation_h, 2);
  EXPECT_EQ(g->dilation_w, 2);
  EXPECT_EQ(g->pad_h.pad_before, 2);
  EXPECT_EQ(g->pad_w.pad_before, 2);
  const auto strided =
      CheckConv(ConvOp(2, 2), in, w, Shaped({1, 5, 5, 8}), false);
  ASSERT_TRUE(std::holds_alternative<ConvGeometry>(strided)) << Reason(strided);
  EXPECT_EQ(std::get<ConvGeometry>(strided).pad_h.pad_before, 2);
  Operator valid = ConvOp(1, 2);
  std::get<Conv2DOptions>(valid.options).padding = Padding::kValid;
  const auto v = CheckConv(valid, in, w, Shaped({1, 5, 5, 8}), false);
  ASSERT_TRUE(std::holds_alternative<ConvGeometry>(v)) << Reason(v);
  EXPECT_EQ(std::get<ConvGeometry>(v).pad_h.pad_before, 0);
  // The undilated window's 7x7 is refused.
  EXPECT_EQ(Reason(CheckConv(valid, in, w, Shaped({1, 7, 7, 8}), false)),
            "output shape [1,7,7,8] does not match the computed [1,5,5,8]");
}

TEST(Geometry, RefusesConvShapesAndOptions) {
  const Tensor in = Shaped({1, 5, 5, 3}), w = Shaped({8, 3, 3, 3});
  EXPECT_EQ(Reason(CheckConv(ConvOp(1, 0), in, w, Shaped({1, 5, 5, 8}), false)),
            "dilation 0x0 is not positive");
  // 3 taps dilated 40000 apart span 80001 elements.
  EXPECT_EQ(
      Reason(CheckConv(ConvOp(1, 40000), in, w, Shaped({1, 5, 5, 8}), false)),
      "dilation 40000x40000 spans more than 65536 input elements");
  EXPECT_EQ(Reason(CheckConv(ConvOp(0), in, w, Shaped({1, 5, 5, 8}), false)),
            "stride 0x0 is not positive");
  EXPECT_EQ(Reason(CheckConv(ConvOp(1), in, Shaped({8, 3, 3, 1}),
                             Shaped({1, 5, 5, 8}), false)),
            "filter depth 1 differs from input depth 3 (grouped convolution)");
  // VALID would give 3x3; SAME with stride 1 gives 5x5.
  EXPECT_EQ(Reason(CheckConv(ConvOp(1), in, w, Shaped({1, 3, 3, 8}), false)),
            "output shape [1,3,3,8] does not match the computed [1,5,5,8]");
  const Tensor dynamic = Shaped({1, -1, 5, 3});
  const auto r = CheckConv(ConvOp(1), dynamic, w, Shaped({1, 5, 5, 8}), false);
  ASSERT_TRUE(std::holds_alternative<Refusal>(r));
  EXPECT_EQ(std::get<Refusal>(r).tensor, &dynamic);
  Operator no_options = ConvOp(1);
  no_options.options = std::monostate{};
  EXPECT_EQ(Reason(CheckConv(no_options, in, w, Shaped({1, 5, 5, 8}), false)),
            "builtin options are missing");
}

// Depthwise: a [1,3,3,6] filter on 3 channels is depth multiplier 2.
TEST(Geometry, DerivesTheDepthMultiplier) {
  Operator op;
  DepthwiseConv2DOptions o;
  o.padding = Padding::kValid;
  o.stride_h = o.stride_w = 1;
  op.options = o;
  const Tensor in = Shaped({1, 5, 5, 3}), w = Shaped({1, 3, 3, 6});
  const auto r = CheckConv(op, in, w, Shaped({1, 3, 3, 6}), true);
  ASSERT_TRUE(std::holds_alternative<ConvGeometry>(r)) << Reason(r);
  EXPECT_EQ(std::get<ConvGeometry>(r).depth_multiplier, 2);
  o.depth_multiplier = 3;
  op.options = o;
  EXPECT_EQ(Reason(CheckConv(op, in, w, Shaped({1, 3, 3, 6}), true)),
            "depth_multiplier 3 does not match the shapes (2)");
}

// 4x4 input, 2x2 window, stride 2, VALID: out = (4 - 2 + 2) / 2 = 2.
TEST(Geometry, ChecksPooling) {
  Operator op;
  Pool2DOptions o;
  o.padding = Padding::kValid;
  o.stride_h = o.stride_w = 2;
  o.filter_h = o.filter_w = 2;
  op.options = o;
  const Tensor in = Shaped({1, 4, 4, 5});
  const auto r = CheckPool(op, in, Shaped({1, 2, 2, 5}));
  ASSERT_TRUE(std::holds_alternative<PoolGeometry>(r));
  EXPECT_EQ(std::get<PoolGeometry>(r).pad_h.pad_before, 0);
  const auto bad = CheckPool(op, in, Shaped({1, 2, 2, 4}));
  ASSERT_TRUE(std::holds_alternative<Refusal>(bad));
  EXPECT_EQ(std::get<Refusal>(bad).what,
            "output shape [1,2,2,4] does not match the computed [1,2,2,5]");
  o.filter_w = 0;
  op.options = o;
  EXPECT_EQ(std::get<Refusal>(CheckPool(op, in, Shaped({1, 2, 2, 5}))).what,
            "filter size is not positive");
}

}  // namespace
}  // namespace arenaplan::tflite
