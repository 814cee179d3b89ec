// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Constant folding at generation time (codegen/tflite/const_fold.hpp): a
// SHAPE -> STRIDED_SLICE -> PACK -> FILL chain built here folds whole, with
// bytes derived by hand; CONCATENATION and negative-stride STRIDED_SLICE of
// constants; DEQUANTIZE of a FLOAT16 constant (every half against the
// compiler's own _Float16 conversion); what the rule leaves alone; and
// armex_basic_lstm_s (corpus), whose chain of four operators becomes
// constants (four fewer records).
#include "codegen/tflite/const_fold.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#if defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
#include <cpuid.h>
#include <immintrin.h>
#endif

#include "codegen/input/input.hpp"
#include "codegen/tflite/problem.hpp"

namespace {

using arenaplan::tflite::BuiltinOp;
using arenaplan::tflite::FoldConstants;
using arenaplan::tflite::Model;
using arenaplan::tflite::Operator;
using arenaplan::tflite::Tensor;
using arenaplan::tflite::TensorType;

std::vector<std::uint8_t> I32Bytes(const std::vector<std::int32_t>& v) {
  std::vector<std::uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

std::vector<std::int32_t> I32Values(const std::vector<std::uint8_t>& b) {
  std::vector<std::int32_t> v(b.size() / 4);
  std::memcpy(v.data(), b.data(), b.size());
  return v;
}

/// A model builder: tensors, constants, operators of subgraph 0.
struct Builder {
  Model m;
  Builder() {
    m.subgraphs.resize(1);
    m.buffers.resize(1);  // buffer 0: no data
  }
  std::int32_t Add(TensorType type, std::vector<std::int32_t> shape,
                   std::vector<std::uint8_t> data = {}) {
    Tensor t;
    t.name = "t" + std::to_string(m.subgraphs[0].tensors.size());
    t.type = type;
    t.shape = std::move(shape);
    if (!data.empty()) {
      m.buffers.push_back({std::move(data), 0, 0});
      t.buffer = static_cast<std::uint32_t>(m.buffers.size() - 1);
    }
    if (type == TensorType::kInt8) {
      t.quantization.scale = {0.5f};
      t.quantization.zero_point = {-3};
    }
    m.subgraphs[0].tensors.push_back(t);
    return static_cast<std::int32_t>(m.subgraphs[0].tensors.size() - 1);
  }
  void Op(BuiltinOp code, const char* name, std::vector<std::int32_t> in,
          std::int32_t out,
          arenaplan::tflite::BuiltinOptions options = std::monostate{}) {
    Operator op;
    op.builtin_code = code;
    op.builtin_name = name;
    op.inputs = std::move(in);
    op.outputs = {out};
    op.options = std::move(options);
    m.subgraphs[0].operators.push_back(op);
  }
  const std::vector<std::uint8_t>& DataOf(const Model& model,
                                          std::int32_t t) const {
    return model
        .buffers[model.subgraphs[0].tensors[static_cast<std::size_t>(t)].buffer]
        .data;
  }
};

TEST(FoldConstants, FoldsAShapeSliceStackFillChain) {
  Builder b;
  // x int8 [1,3,4] (graph input) -> RESHAPE-like stand-in: a MUL reading
  // x and the FILL output keeps both alive and unfolded.
  const auto x = b.Add(TensorType::kInt8, {1, 3, 4});
  const auto shape = b.Add(TensorType::kInt32, {3});
  const auto begin = b.Add(TensorType::kInt32, {1}, I32Bytes({0}));
  const auto end = b.Add(TensorType::kInt32, {1}, I32Bytes({1}));
  const auto one = b.Add(TensorType::kInt32, {1}, I32Bytes({1}));
  const auto first = b.Add(TensorType::kInt32, {});
  const auto five = b.Add(TensorType::kInt32, {}, I32Bytes({5}));
  const auto dims = b.Add(TensorType::kInt32, {2});
  const auto value = b.Add(TensorType::kInt8, {}, {0xFD});  // -3
  const auto zeros = b.Add(TensorType::kInt8, {1, 5});
  const auto y = b.Add(TensorType::kInt8, {1, 5});
  b.m.subgraphs[0].inputs = {x};
  b.m.subgraphs[0].outputs = {y};
  b.Op(BuiltinOp::kShape, "SHAPE", {x}, shape);
  arenaplan::tflite::StridedSliceOptions ss;
  ss.shrink_axis_mask = 1;
  b.Op(BuiltinOp::kStridedSlice, "STRIDED_SLICE", {shape, begin, end, one},
       first, ss);
  b.Op(BuiltinOp::kPack, "PACK", {first, five}, dims);
  b.Op(BuiltinOp::kFill, "FILL", {dims, value}, zeros);
  b.Op(BuiltinOp::kMul, "MUL", {zeros, zeros}, y);

  const auto r = FoldConstants(b.m);
  ASSERT_EQ(r.folded.size(), 4u);
  EXPECT_EQ(arenaplan::tflite::FoldedText(r.folded),
            "operator 0 SHAPE -> tensor 1, operator 1 STRIDED_SLICE -> "
            "tensor 5, operator 2 PACK -> tensor 7, operator 3 FILL -> "
            "tensor 9");
  ASSERT_EQ(r.model.subgraphs[0].operators.size(), 1u);
  EXPECT_EQ(r.model.subgraphs[0].operators[0].builtin_name, "MUL");
  EXPECT_EQ(r.file_index, (std::vector<std::size_t>{4}));
  // SHAPE of [1,3,4]; element 0 of it, shrunk to a scalar: 1; stacked with
  // 5: [1,5]; FILL: five bytes of -3.
  EXPECT_EQ(I32Values(b.DataOf(r.model, shape)),
            (std::vector<std::int32_t>{1, 3, 4}));
  EXPECT_EQ(I32Values(b.DataOf(r.model, first)),
            (std::vector<std::int32_t>{1}));
  EXPECT_EQ(I32Values(b.DataOf(r.model, dims)),
            (std::vector<std::int32_t>{1, 5}));
  EXPECT_EQ(b.DataOf(r.model, zeros), (std::vector<std::uint8_t>(5, 0xFD)));
  // The file's model is unchanged; its records hold the four outputs, the
  // folded model's do not.
  EXPECT_EQ(b.m.subgraphs[0].operators.size(), 5u);
  arenaplan::InputOptions opt;
  const auto before = arenaplan::tflite::BuildProblem(b.m, opt);
  const auto after = arenaplan::tflite::BuildProblem(r.model, opt);
  EXPECT_EQ(before.problem.records.size(), 6u);  // x, 4 folded, y
  EXPECT_EQ(after.problem.records.size(), 2u);   // x, y
}

TEST(FoldConstants, JoinsAndSlicesConstantsBackwards) {
  Builder b;
  const auto a = b.Add(TensorType::kInt32, {2, 1}, I32Bytes({1, 2}));
  const auto c = b.Add(TensorType::kInt32, {2, 2}, I32Bytes({3, 4, 5, 6}));
  const auto cat = b.Add(TensorType::kInt32, {2, 3});
  const auto begin = b.Add(TensorType::kInt32, {2}, I32Bytes({1, -1}));
  const auto end = b.Add(TensorType::kInt32, {2}, I32Bytes({0, 0}));
  const auto strides = b.Add(TensorType::kInt32, {2}, I32Bytes({1, -2}));
  const auto sliced = b.Add(TensorType::kInt32, {2, 2});
  const auto y = b.Add(TensorType::kInt32, {2, 2});
  b.m.subgraphs[0].outputs = {y};
  b.Op(BuiltinOp::kConcatenation, "CONCATENATION", {a, c}, cat,
       arenaplan::tflite::ConcatenationOptions{1});
  arenaplan::tflite::StridedSliceOptions ss;
  ss.begin_mask = 1;  // axis 0 from its start, whatever begin says
  ss.end_mask = 3;    // both axes to their (stride's) end
  b.Op(BuiltinOp::kStridedSlice, "STRIDED_SLICE", {cat, begin, end, strides},
       sliced, ss);
  b.Op(BuiltinOp::kAdd, "ADD", {sliced, sliced}, y);
  const auto r = FoldConstants(b.m);
  ASSERT_EQ(r.folded.size(), 2u);
  // Rows joined along axis 1: [[1,3,4],[2,5,6]].
  EXPECT_EQ(I32Values(b.DataOf(r.model, cat)),
            (std::vector<std::int32_t>{1, 3, 4, 2, 5, 6}));
  // Rows 0 and 1; columns from -1 (= 2) down to the start by 2: 2, 0.
  EXPECT_EQ(I32Values(b.DataOf(r.model, sliced)),
            (std::vector<std::int32_t>{4, 1, 6, 2}));
}

TEST(FoldConstants, LeavesWhatTheRuleDoesNotCover) {
  Builder b;
  const auto x = b.Add(TensorType::kInt8, {2});
  const auto dims = b.Add(TensorType::kInt32, {1}, I32Bytes({2}));
  const auto filled = b.Add(TensorType::kInt8, {2});  // value not constant
  const auto s0 = b.Add(TensorType::kInt32, {2}, I32Bytes({2, 2}));
  const auto s1 = b.Add(TensorType::kInt32, {2}, I32Bytes({7, 8}));
  const auto stacked = b.Add(TensorType::kInt32, {2, 2});  // axis 0 or 1?
  const auto shape = b.Add(TensorType::kInt32, {1});       // a graph output
  b.m.subgraphs[0].inputs = {x};
  b.m.subgraphs[0].outputs = {filled, stacked, shape};
  b.Op(BuiltinOp::kFill, "FILL", {dims, x}, filled);
  b.Op(BuiltinOp::kPack, "PACK", {s0, s1}, stacked);
  b.Op(BuiltinOp::kShape, "SHAPE", {x}, shape);
  // PACK's output is a graph output too; make it an intermediate to show
  // the ambiguity alone keeps it.
  b.m.subgraphs[0].outputs = {filled, shape};
  const auto r = FoldConstants(b.m);
  EXPECT_TRUE(r.folded.empty()) << arenaplan::tflite::FoldedText(r.folded);
  EXPECT_EQ(r.model.subgraphs[0].operators.size(), 3u);
  EXPECT_EQ(r.file_index, (std::vector<std::size_t>{0, 1, 2}));
}

/// The second method for WidensEveryHalfExactly: GCC's _Float16 -> float
/// conversion, or under clang 14 (no _Float16 on x86) the processor's F16C
/// conversion instruction (VCVTPH2PS).
#if defined(__clang__) && (defined(__x86_64__) || defined(__i386__))
__attribute__((target("f16c"))) float WidenByMachine(std::uint16_t bits) {
  return _cvtsh_ss(bits);
}
/// CPUID leaf 1, ECX bit 29: the processor has F16C.
bool MachineWidensHalves() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(1, &a, &b, &c, &d) != 0 && ((c >> 29) & 1u) != 0;
}
#else
float WidenByMachine(std::uint16_t bits) {
  _Float16 half;
  std::memcpy(&half, &bits, 2);
  return static_cast<float>(half);
}
bool MachineWidensHalves() { return true; }
#endif

TEST(FoldConstants, WidensEveryHalfExactly) {
  // Every half against the machine's half -> float conversion; a NaN only
  // as a NaN of the same sign (the machine quiets a signaling NaN, the
  // fold moves its payload unchanged; compile refuses NaN constants).
  if (!MachineWidensHalves()) GTEST_SKIP() << "no F16C on this processor";
  for (std::uint32_t h = 0; h < 0x10000u; ++h) {
    const float f = WidenByMachine(static_cast<std::uint16_t>(h));
    std::uint32_t expect = 0;
    std::memcpy(&expect, &f, 4);
    const std::uint32_t got = arenaplan::tflite::HalfToFloatBits(h);
    if (f != f) {
      float g = 0;
      std::memcpy(&g, &got, 4);
      ASSERT_TRUE(g != g) << std::hex << h;
      ASSERT_EQ(got >> 31, expect >> 31) << std::hex << h;
      continue;
    }
    ASSERT_EQ(got, expect) << std::hex << h;
  }
  // Hand-derived: 1.0 (0x3C00), -2.0 (0xC000), the smallest subnormal
  // 2^-24 (0x0001), the largest half 65504 (0x7BFF), -infinity (0xFC00).
  EXPECT_EQ(arenaplan::tflite::HalfToFloatBits(0x3C00u), 0x3F800000u);
  EXPECT_EQ(arenaplan::tflite::HalfToFloatBits(0xC000u), 0xC0000000u);
  EXPECT_EQ(arenaplan::tflite::HalfToFloatBits(0x0001u), 0x33800000u);
  EXPECT_EQ(arenaplan::tflite::HalfToFloatBits(0x7BFFu), 0x477FE000u);
  EXPECT_EQ(arenaplan::tflite::HalfToFloatBits(0xFC00u), 0xFF800000u);
}

TEST(FoldConstants, DequantizesAFloat16ConstantToFloat32) {
  // DEQUANTIZE FLOAT16 [3] {1.0, -2.0, 2^-24} -> FLOAT32 [3], then an ADD
  // reading it: the DEQUANTIZE is computed, the ADD stays.
  Builder b;
  const std::int32_t h =
      b.Add(TensorType::kFloat16, {3}, {0x00, 0x3C, 0x00, 0xC0, 0x01, 0x00});
  const std::int32_t f = b.Add(TensorType::kFloat32, {3});
  const std::int32_t x = b.Add(TensorType::kFloat32, {3});
  const std::int32_t y = b.Add(TensorType::kFloat32, {3});
  b.Op(BuiltinOp::kDequantize, "DEQUANTIZE", {h}, f);
  b.Op(BuiltinOp::kAdd, "ADD", {x, f}, y);
  b.m.subgraphs[0].inputs = {x};
  b.m.subgraphs[0].outputs = {y};
  const auto r = FoldConstants(b.m);
  EXPECT_EQ(arenaplan::tflite::FoldedText(r.folded),
            "operator 0 DEQUANTIZE -> tensor 1");
  ASSERT_EQ(r.model.subgraphs[0].operators.size(), 1u);
  EXPECT_EQ(b.DataOf(r.model, f),
            (std::vector<std::uint8_t>{0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00,
                                       0xC0, 0x00, 0x00, 0x80, 0x33}));
  // A DEQUANTIZE of an int8 activation is not a constant: left alone.
  Builder a;
  const std::int32_t q = a.Add(TensorType::kInt8, {3});
  const std::int32_t g = a.Add(TensorType::kFloat32, {3});
  a.Op(BuiltinOp::kDequantize, "DEQUANTIZE", {q}, g);
  a.m.subgraphs[0].inputs = {q};
  a.m.subgraphs[0].outputs = {g};
  EXPECT_TRUE(FoldConstants(a.m).folded.empty());
}

TEST(FoldConstants, FoldsTheZeroStateOfArmsBasicLstm) {
  const std::string path =
      std::string(ARENAPLAN_SHARED_DIR) + "/corpus/armex_basic_lstm_s.tflite";
  const Model m = arenaplan::tflite::ReadModelFile(path);
  const auto r = FoldConstants(m);
  EXPECT_EQ(arenaplan::tflite::FoldedText(r.folded),
            "operator 2 SHAPE -> tensor 15, operator 3 STRIDED_SLICE -> "
            "tensor 16, operator 4 PACK -> tensor 17, operator 5 FILL -> "
            "tensor 18");
  const auto& sg = r.model.subgraphs[0];
  EXPECT_EQ(sg.operators.size(), m.subgraphs[0].operators.size() - 4);
  // FILL's dims [1, 118]: the batch (dimension 0 of RESHAPE's output
  // [1,49,10]) stacked with the constant 118 (tensor 4); every byte the
  // fill value (tensor 7).
  Builder b;
  EXPECT_EQ(I32Values(b.DataOf(r.model, 17)),
            (std::vector<std::int32_t>{1, 118}));
  const auto& value = b.DataOf(r.model, 7);
  ASSERT_EQ(value.size(), 1u);
  EXPECT_EQ(b.DataOf(r.model, 18), std::vector<std::uint8_t>(118, value[0]));
  arenaplan::InputOptions opt;
  opt.assume_dim = 1;
  EXPECT_EQ(
      arenaplan::tflite::BuildProblem(m, opt).problem.records.size() -
          arenaplan::tflite::BuildProblem(r.model, opt).problem.records.size(),
      4u);
}

}  // namespace
