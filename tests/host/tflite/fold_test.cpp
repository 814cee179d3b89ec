// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The folding rules (codegen/tflite/fold.hpp) on small hand-made graphs:
// which PAD, CONCATENATION and RESHAPE operators are removed and which are
// kept, and the records BuildProblem then gives (sizes and lifetimes
// derived by hand from the graphs).
#include "codegen/tflite/fold.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "codegen/tflite/geometry.hpp"
#include "codegen/tflite/problem.hpp"
#include "tests/host/support/model_builder.hpp"

namespace arenaplan::tflite {
namespace {

/// Subgraph 0 built tensor by tensor on testing_util::ModelBuilder, with
/// the folding rules' own shapes (paddings, filters, windows).
class Graph {
 public:
  Model& model() { return b_.model(); }
  Subgraph& g() { return b_.graph(); }

  /// An int8 activation quantized (scale, zp).
  std::int32_t Act(std::vector<std::int32_t> shape, std::int64_t zp = 0,
                   float scale = 0.5f) {
    return b_.Tensor(std::move(shape), TensorType::kInt8, scale, zp);
  }
  /// A constant of `type` holding `bytes`.
  std::int32_t Const(TensorType type, std::vector<std::int32_t> shape,
                     std::vector<std::uint8_t> bytes) {
    return b_.Constant(std::move(shape), type, std::move(bytes));
  }
  /// Paddings [4, 2] of a PAD: {top, bottom, left, right}, batch/depth 0
  /// unless given.
  std::int32_t Paddings(std::int32_t top, std::int32_t bottom,
                        std::int32_t left, std::int32_t right,
                        std::int32_t depth = 0) {
    const std::int32_t t =
        b_.Int32Constant({0, 0, top, bottom, left, right, 0, depth});
    g().tensors[static_cast<std::size_t>(t)].shape = {4, 2};
    return t;
  }
  /// A [c, kh, kw, c] int8 filter (CONV_2D) of ones.
  std::int32_t Filter(std::int32_t c, std::int32_t kh, std::int32_t kw) {
    return Const(TensorType::kInt8, {c, kh, kw, c},
                 std::vector<std::uint8_t>(
                     static_cast<std::size_t>(c * kh * kw * c), 1));
  }
  /// Appends an operator; returns its index.
  std::size_t Op(BuiltinOp code, std::vector<std::int32_t> in,
                 std::vector<std::int32_t> out, BuiltinOptions options = {}) {
    b_.Op(code, std::move(in), std::move(out), std::move(options));
    return g().operators.size() - 1;
  }
  std::size_t Conv(std::int32_t in, std::int32_t w, std::int32_t out,
                   Padding padding) {
    Conv2DOptions o;
    o.padding = padding;
    o.stride_h = o.stride_w = 1;
    return Op(BuiltinOp::kConv2D, {in, w}, {out}, o);
  }
  std::size_t Pool(BuiltinOp code, std::int32_t in, std::int32_t out,
                   std::int32_t filter, std::int32_t stride, Padding padding,
                   Activation act = Activation::kNone) {
    Pool2DOptions o;
    o.padding = padding;
    o.stride_h = o.stride_w = stride;
    o.filter_h = o.filter_w = filter;
    o.activation = act;
    return Op(code, {in}, {out}, o);
  }
  std::size_t Concat(std::vector<std::int32_t> in, std::int32_t out,
                     std::int32_t axis) {
    ConcatenationOptions o;
    o.axis = axis;
    return Op(BuiltinOp::kConcatenation, std::move(in), {out}, o);
  }
  FoldReport Fold() { return FoldGraph(b_.model(), InputOptions{}); }
  TfliteProblem Problem() { return BuildProblem(b_.model(), InputOptions{}); }

 private:
  testing_util::ModelBuilder b_;
};

// in [1,4,4,2] -PAD 1,1,1,1-> p [1,6,6,2] -CONV 3x3 VALID-> out [1,4,4,2].
struct PadConv {
  Graph G;
  std::int32_t in, pads, p, w, out;
  std::size_t pad_op, conv_op;
  explicit PadConv(std::int64_t zp = 3) {
    in = G.Act({1, 4, 4, 2}, zp);
    pads = G.Paddings(1, 1, 1, 1);
    p = G.Act({1, 6, 6, 2}, zp);
    w = G.Filter(2, 3, 3);
    out = G.Act({1, 4, 4, 2}, 0);
    pad_op = G.Op(BuiltinOp::kPad, {in, pads}, {p});
    conv_op = G.Conv(p, w, out, Padding::kValid);
    G.g().inputs = {in};
    G.g().outputs = {out};
  }
};

TEST(FoldGraph, FoldsPadIntoTheConvolutionThatReadsIt) {
  PadConv c;
  EXPECT_EQ(c.G.Problem().problem.records.size(), 3u);
  const FoldReport r = c.G.Fold();
  EXPECT_EQ(r.pads, 1u);
  const Operator& pad = c.G.g().operators[c.pad_op];
  const Operator& conv = c.G.g().operators[c.conv_op];
  EXPECT_FALSE(pad.folded.empty());
  EXPECT_EQ(conv.inputs[0], c.in);
  EXPECT_EQ(conv.extra_padding.top, 1);
  EXPECT_EQ(conv.extra_padding.right, 1);
  // The convolution now reads the 4x4 input with one row/column of
  // padding before: VALID over 6x6 gives 4x4.
  const auto geometry =
      CheckConv(conv, c.G.g().tensors[c.in], c.G.g().tensors[c.w],
                c.G.g().tensors[c.out], false);
  const auto* g = std::get_if<ConvGeometry>(&geometry);
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->pad_h.pad_before, 1);
  EXPECT_EQ(g->pad_h.out, 4);
  // Records: input [0, 1] (32 bytes) and output [1, 1]; the PAD's output is
  // gone.
  const TfliteProblem p = c.G.Problem();
  ASSERT_EQ(p.problem.records.size(), 2u);
  EXPECT_EQ(p.record_tensor[0], c.in);
  EXPECT_EQ(p.problem.records[0].first_op, 0u);
  EXPECT_EQ(p.problem.records[0].last_op, 1u);
  EXPECT_EQ(p.problem.records[0].size, 32u);
  EXPECT_EQ(p.tensors[static_cast<std::size_t>(c.p)].role, TensorRole::kUnused);
}

TEST(FoldGraph, KeepsPadWhenItsOutputHasAnotherUse) {
  PadConv c;
  const std::int32_t out2 = c.G.Act({1, 4, 4, 2});
  c.G.Conv(c.p, c.w, out2, Padding::kValid);  // a second reader
  EXPECT_EQ(c.G.Fold().pads, 0u);
  PadConv d;
  d.G.g().outputs.push_back(d.p);  // a graph output
  EXPECT_EQ(d.G.Fold().pads, 0u);
}

TEST(FoldGraph, KeepsPadOfAnotherValueQuantizationOrAxis) {
  {  // PADV2 with 7, zero point 3
    PadConv c;
    const std::int32_t v =
        c.G.Const(TensorType::kInt8, {1}, std::vector<std::uint8_t>{7});
    c.G.g().tensors[static_cast<std::size_t>(v)].quantization =
        c.G.g().tensors[static_cast<std::size_t>(c.p)].quantization;
    c.G.g().operators[c.pad_op].builtin_code = BuiltinOp::kPadv2;
    c.G.g().operators[c.pad_op].inputs.push_back(v);
    EXPECT_EQ(c.G.Fold().pads, 0u);
  }
  {  // PADV2 with the zero point: folds
    PadConv c;
    const std::int32_t v =
        c.G.Const(TensorType::kInt8, {1}, std::vector<std::uint8_t>{3});
    c.G.g().tensors[static_cast<std::size_t>(v)].quantization =
        c.G.g().tensors[static_cast<std::size_t>(c.p)].quantization;
    c.G.g().operators[c.pad_op].builtin_code = BuiltinOp::kPadv2;
    c.G.g().operators[c.pad_op].inputs.push_back(v);
    EXPECT_EQ(c.G.Fold().pads, 1u);
  }
  {  // input and output zero points differ
    PadConv c;
    c.G.g().tensors[static_cast<std::size_t>(c.p)].quantization.zero_point = {
        4};
    EXPECT_EQ(c.G.Fold().pads, 0u);
  }
  {  // depth padded: not a spatial padding
    Graph G;
    const std::int32_t in = G.Act({1, 4, 4, 2});
    const std::int32_t pads = G.Paddings(0, 0, 0, 0, /*depth=*/2);
    const std::int32_t p = G.Act({1, 4, 4, 4});
    const std::int32_t w = G.Const(TensorType::kInt8, {4, 1, 1, 4},
                                   std::vector<std::uint8_t>(16, 1));
    const std::int32_t out = G.Act({1, 4, 4, 4});
    G.Op(BuiltinOp::kPad, {in, pads}, {p});
    G.Conv(p, w, out, Padding::kValid);
    G.g().inputs = {in};
    G.g().outputs = {out};
    EXPECT_EQ(G.Fold().pads, 0u);
  }
}

/// in [1,4,4,1] zero point `zp` -PAD(value)-> p -POOL-> out.
FoldReport FoldPadPool(BuiltinOp code, std::int64_t zp, std::int64_t value,
                       Activation act, std::int32_t top, std::int32_t bottom,
                       std::int32_t filter, std::int32_t stride,
                       Padding padding, std::vector<std::int32_t> out_shape) {
  Graph G;
  const std::int32_t in = G.Act({1, 4, 4, 1}, zp);
  const std::int32_t pads = G.Paddings(top, bottom, top, bottom);
  const std::int32_t p = G.Act({1, 4 + top + bottom, 4 + top + bottom, 1}, zp);
  const std::int32_t v =
      G.Const(TensorType::kInt8, {1},
              std::vector<std::uint8_t>{static_cast<std::uint8_t>(value)});
  G.g().tensors[static_cast<std::size_t>(v)].quantization =
      G.g().tensors[static_cast<std::size_t>(p)].quantization;
  const std::int32_t out = G.Act(std::move(out_shape), zp);
  G.Op(BuiltinOp::kPadv2, {in, pads, v}, {p});
  G.Pool(code, p, out, filter, stride, padding, act);
  G.g().inputs = {in};
  G.g().outputs = {out};
  return G.Fold();
}

TEST(FoldGraph, FoldsPadIntoMaxPoolOnlyBelowTheLowerClamp) {
  using enum BuiltinOp;
  // 1,1 around 4x4 -> 6x6; 3x3 VALID stride 1 -> 4x4.
  EXPECT_EQ(FoldPadPool(kMaxPool2D, 5, -128, Activation::kNone, 1, 1, 3, 1,
                        Padding::kValid, {1, 4, 4, 1})
                .pads,
            1u);
  EXPECT_EQ(FoldPadPool(kMaxPool2D, 5, 5, Activation::kNone, 1, 1, 3, 1,
                        Padding::kValid, {1, 4, 4, 1})
                .pads,
            0u);
  EXPECT_EQ(FoldPadPool(kMaxPool2D, 5, 5, Activation::kRelu, 1, 1, 3, 1,
                        Padding::kValid, {1, 4, 4, 1})
                .pads,
            1u);
  EXPECT_EQ(FoldPadPool(kMaxPool2D, 5, 6, Activation::kRelu6, 1, 1, 3, 1,
                        Padding::kValid, {1, 4, 4, 1})
                .pads,
            0u);
  EXPECT_EQ(FoldPadPool(kMaxPool2D, 5, 5, Activation::kReluN1To1, 1, 1, 3, 1,
                        Padding::kValid, {1, 4, 4, 1})
                .pads,
            0u);
}

TEST(FoldGraph, FoldsPadIntoAveragePoolOnlyWhenNoWindowReadsIt) {
  using enum BuiltinOp;
  // 1,1 around: the 3x3 windows read the padding.
  EXPECT_EQ(FoldPadPool(kAveragePool2D, 0, 0, Activation::kNone, 1, 1, 3, 1,
                        Padding::kValid, {1, 4, 4, 1})
                .pads,
            0u);
  // 0 before, 1 after: 4x4 -> 5x5; 2x2 VALID stride 2 -> 2x2 windows over
  // rows/columns [0, 2) and [2, 4): the padded row 4 is never read.
  EXPECT_EQ(FoldPadPool(kAveragePool2D, 0, 0, Activation::kNone, 0, 1, 2, 2,
                        Padding::kValid, {1, 2, 2, 1})
                .pads,
            1u);
  // The same with a 3x3 window, stride 2: windows [0, 3) and [2, 5) read
  // row 4.
  EXPECT_EQ(FoldPadPool(kAveragePool2D, 0, 0, Activation::kNone, 0, 1, 3, 2,
                        Padding::kValid, {1, 2, 2, 1})
                .pads,
            0u);
}

// a [1,2,4] and b [1,3,4] (made by two operators from the graph input)
// concatenated along axis 1 into c [1,5,4], read by one last operator.
struct ConcatGraph {
  Graph G;
  std::int32_t x, a, b, c, y;
  std::size_t concat_op;
  explicit ConcatGraph(std::int32_t axis = 1) {
    x = G.Act({1, 1, 4});
    a = G.Act({1, 2, 4});
    b = G.Act({1, 3, 4});
    c = G.Act({1, 5, 4});
    y = G.Act({1, 5, 4});
    G.Op(BuiltinOp::kRelu, {x}, {a});
    G.Op(BuiltinOp::kRelu, {x}, {b});
    concat_op = G.Concat({a, b}, c, axis);
    G.Op(BuiltinOp::kRelu, {c}, {y});
    G.g().inputs = {x};
    G.g().outputs = {y};
  }
};

TEST(FoldGraph, WritesConcatenationInPlace) {
  ConcatGraph g;
  EXPECT_EQ(g.G.Problem().problem.records.size(), 5u);
  EXPECT_EQ(g.G.Fold().concatenations, 1u);
  const auto& t = g.G.g().tensors;
  EXPECT_EQ(t[static_cast<std::size_t>(g.a)].alias_of, g.c);
  EXPECT_EQ(t[static_cast<std::size_t>(g.a)].alias_offset, 0u);
  EXPECT_EQ(t[static_cast<std::size_t>(g.b)].alias_of, g.c);
  EXPECT_EQ(t[static_cast<std::size_t>(g.b)].alias_offset, 8u);  // 2 x 4
  // Records x, c, y: c (20 bytes) lives from a's producer (0) to y's (3).
  const TfliteProblem p = g.G.Problem();
  ASSERT_EQ(p.problem.records.size(), 3u);
  EXPECT_EQ(p.record_tensor[1], g.c);
  EXPECT_EQ(p.problem.records[1].first_op, 0u);
  EXPECT_EQ(p.problem.records[1].last_op, 3u);
  EXPECT_EQ(p.problem.records[1].size, 20u);
  EXPECT_EQ(p.tensors[static_cast<std::size_t>(g.b)].role, TensorRole::kAlias);
  // Negative axis -2 is axis 1.
  ConcatGraph h(-2);
  EXPECT_EQ(h.G.Fold().concatenations, 1u);
}

TEST(FoldGraph, KeepsConcatenationTheLayoutOrQuantizationForbids) {
  {  // axis 2 of [1,2,4] / [1,3,4]... made [1,4,2] + [1,4,3]: rows interleave
    Graph G;
    const std::int32_t x = G.Act({1, 4, 1});
    const std::int32_t a = G.Act({1, 4, 2}), b = G.Act({1, 4, 3});
    const std::int32_t c = G.Act({1, 4, 5});
    G.Op(BuiltinOp::kRelu, {x}, {a});
    G.Op(BuiltinOp::kRelu, {x}, {b});
    G.Concat({a, b}, c, 2);
    G.g().inputs = {x};
    G.g().outputs = {c};
    EXPECT_EQ(G.Fold().concatenations, 0u);
  }
  {  // an input quantized otherwise: TFLM requantizes
    ConcatGraph g;
    g.G.g().tensors[static_cast<std::size_t>(g.b)].quantization.scale = {0.25f};
    EXPECT_EQ(g.G.Fold().concatenations, 0u);
  }
  {  // an input read by another operator too
    ConcatGraph g;
    const std::int32_t z = g.G.Act({1, 2, 4});
    g.G.Op(BuiltinOp::kRelu, {g.a}, {z});
    g.G.g().outputs.push_back(z);
    EXPECT_EQ(g.G.Fold().concatenations, 0u);
  }
  {  // an input that is the graph input
    ConcatGraph g;
    g.G.g().operators[g.concat_op].inputs = {g.a, g.x};
    g.G.g().tensors[static_cast<std::size_t>(g.c)].shape = {1, 3, 4};
    g.G.g().tensors[static_cast<std::size_t>(g.y)].shape = {1, 3, 4};
    EXPECT_EQ(g.G.Fold().concatenations, 0u);
  }
  {  // the same input twice
    ConcatGraph g;
    g.G.g().operators[g.concat_op].inputs = {g.a, g.a};
    g.G.g().tensors[static_cast<std::size_t>(g.c)].shape = {1, 4, 4};
    g.G.g().tensors[static_cast<std::size_t>(g.y)].shape = {1, 4, 4};
    EXPECT_EQ(g.G.Fold().concatenations, 0u);
  }
}

// Folding would make c live from step 0 while a large t is alive: x (16)
// -> a (16) at 0; x -> t (1024) at 1; t -> b (16) at 2; concat at 3.
// Unfolded the largest breadth is at 1 or 2: 16 + 16 + 1024 = 1056 bytes
// (x, a, t) and 16 + 1024 + 16 (a, t, b); folded c (32 bytes) would be
// alive at 1 with x and t: 1072. So it stays a copy.
TEST(FoldGraph, KeepsConcatenationThatWouldRaiseTheLowerBound) {
  Graph G;
  const std::int32_t x = G.Act({1, 1, 16}), a = G.Act({1, 1, 16});
  const std::int32_t t = G.Act({1, 64, 16}), b = G.Act({1, 1, 16});
  const std::int32_t c = G.Act({1, 2, 16});
  G.Op(BuiltinOp::kRelu, {x}, {a});
  G.Op(BuiltinOp::kRelu, {x}, {t});
  G.Op(BuiltinOp::kRelu, {t}, {b});
  G.Concat({a, b}, c, 1);
  G.g().inputs = {x};
  G.g().outputs = {c};
  EXPECT_EQ(G.Fold().concatenations, 0u);
  EXPECT_EQ(G.Problem().problem.records.size(), 5u);
}

TEST(FoldGraph, MakesReshapeAnAliasAndChainsItIntoConcatenation) {
  // a [1,8] -RESHAPE-> ra [1,2,4]; b [1,12] -RESHAPE-> rb [1,3,4];
  // concat -> c [1,5,4] (graph output).
  Graph G;
  const std::int32_t x = G.Act({1, 4});
  const std::int32_t a = G.Act({1, 8}), b = G.Act({1, 12});
  const std::int32_t ra = G.Act({1, 2, 4}), rb = G.Act({1, 3, 4});
  const std::int32_t c = G.Act({1, 5, 4});
  G.Op(BuiltinOp::kRelu, {x}, {a});
  G.Op(BuiltinOp::kRelu, {x}, {b});
  G.Op(BuiltinOp::kReshape, {a}, {ra});
  G.Op(BuiltinOp::kReshape, {b}, {rb});
  G.Concat({ra, rb}, c, 1);
  G.g().inputs = {x};
  G.g().outputs = {c};
  const FoldReport r = G.Fold();
  EXPECT_EQ(r.reshapes, 2u);
  EXPECT_EQ(r.concatenations, 1u);
  const auto& t = G.g().tensors;
  for (std::int32_t i : {a, ra}) {
    EXPECT_EQ(t[static_cast<std::size_t>(i)].alias_of, c);
    EXPECT_EQ(t[static_cast<std::size_t>(i)].alias_offset, 0u);
  }
  for (std::int32_t i : {b, rb}) {
    EXPECT_EQ(t[static_cast<std::size_t>(i)].alias_of, c);
    EXPECT_EQ(t[static_cast<std::size_t>(i)].alias_offset, 8u);
  }
  const TfliteProblem p = G.Problem();
  ASSERT_EQ(p.problem.records.size(), 2u);  // x and c
  EXPECT_EQ(p.problem.records[1].first_op, 0u);
  EXPECT_EQ(p.problem.records[1].last_op, 4u);
}

TEST(FoldGraph, KeepsReshapeFromGraphInputToGraphOutput) {
  Graph G;
  const std::int32_t x = G.Act({1, 8}), y = G.Act({2, 4});
  G.Op(BuiltinOp::kReshape, {x}, {y});
  G.g().inputs = {x};
  G.g().outputs = {y};
  EXPECT_EQ(G.Fold().reshapes, 0u);
  // Into an intermediate tensor it folds.
  Graph H;
  const std::int32_t hx = H.Act({1, 8}), hy = H.Act({2, 4}), hz = H.Act({2, 4});
  H.Op(BuiltinOp::kReshape, {hx}, {hy});
  H.Op(BuiltinOp::kRelu, {hy}, {hz});
  H.g().inputs = {hx};
  H.g().outputs = {hz};
  EXPECT_EQ(H.Fold().reshapes, 1u);
  EXPECT_EQ(H.Problem().problem.records.size(), 2u);
}

TEST(FoldGraph, FoldsNothingUnderFp32) {
  PadConv c;
  InputOptions o;
  o.fp32 = true;
  EXPECT_EQ(FoldGraph(c.G.model(), o).Total(), 0u);
}

}  // namespace
}  // namespace arenaplan::tflite
