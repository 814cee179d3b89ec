// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The TFLite reader (codegen/tflite/): figures per model checked against a
// hand derivation and against an independent walk over the raw flatbuffer
// bytes; records CSV round trip; bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/emit/csv.hpp"
#include "codegen/input/input.hpp"
#include "codegen/planner/planner.hpp"
#include "codegen/records.hpp"
#include "codegen/tflite/load.hpp"
#include "codegen/tflite/model.hpp"
#include "codegen/tflite/problem.hpp"
#include "tests/host/support/test_util.hpp"
#include "tflite_subset_generated.h"

namespace arenaplan::tflite {
namespace {

using testing_util::kModelNames;
using testing_util::kModels;

InputOptions AssumeOne() {
  InputOptions o;
  o.assume_dim = 1;  // the hello_world models have a -1 batch dimension
  return o;
}

struct Figures {
  std::size_t planned = 0;
  std::uint64_t naive = 0;        // aligned to 16
  std::uint64_t lower_bound = 0;  // max operator breadth, aligned to 16
  bool negative_dim = false;      // a planned tensor's `shape` holds d < 0
};

Figures FiguresOf(const std::string& name) {
  const UsageProblem p =
      LoadTfliteProblem(kModels + name + ".tflite", AssumeOne());
  const ProfileSummary s =
      SummarizeProfiles(AlignProblem(p, kModelAlignment).records);
  return {p.records.size(), s.naive_bytes, s.offsets_lower_bound};
}

// Hand derivations (alignment 16, TFLM lifetimes) from each small model's
// operator list and tensor shapes:
//
// hello_world_int8: FC(t0)->t7, FC(t7)->t8, FC(t8)->t9; t0 [1,1] int8 = 1 B,
//   t7, t8 [1,16] int8 = 16 B, t9 [1,1] = 1 B. Aligned: 16 each.
//   Lifetimes t0 [0,0], t7 [0,1], t8 [1,2], t9 [2,2] (output to last op).
//   Breadths: op0 16+16, op1 16+16, op2 16+16 -> lower bound 32; naive 64.
// hello_world_float: same graph in float32: t0 4 B -> 16, t7 64, t8 64,
//   t9 4 -> 16. Breadths: op0 16+64 = 80, op1 64+64 = 128, op2 64+16 = 80
//   -> 128; naive 16+64+64+16 = 160.
// micro_speech_quantized: RESHAPE(t3)->t4, DEPTHWISE_CONV_2D(t4)->t2,
//   FULLY_CONNECTED(t2)->t6, SOFTMAX(t6)->t9. t3 [1,1960] int8 -> 1968,
//   t4 [1,49,40,1] -> 1968, t2 [1,25,20,8] = 4000, t6, t9 [1,4] -> 16.
//   Breadths: op0 1968+1968 = 3936, op1 1968+4000 = 5968, op2 4000+16,
//   op3 16+16 -> 5968; naive 4000+1968+1968+16+16 = 7968.
TEST(TfliteReader, MatchesHandDerivationForSmallModels) {
  const Figures hw8 = FiguresOf("hello_world_int8");
  EXPECT_EQ(hw8.planned, 4u);
  EXPECT_EQ(hw8.naive, 64u);
  EXPECT_EQ(hw8.lower_bound, 32u);
  const Figures hwf = FiguresOf("hello_world_float");
  EXPECT_EQ(hwf.planned, 4u);
  EXPECT_EQ(hwf.naive, 160u);
  EXPECT_EQ(hwf.lower_bound, 128u);
  const Figures ms = FiguresOf("micro_speech_quantized");
  EXPECT_EQ(ms.planned, 5u);
  EXPECT_EQ(ms.naive, 7968u);
  EXPECT_EQ(ms.lower_bound, 5968u);
}

// person_detect (MobileNet v1 0.25, 96x96x1 int8): the widest point is the
// first pointwise convolution, whose input [1,48,48,8] (18432 B) and output
// [1,48,48,16] (36864 B) are both alive: 55296 B.
TEST(TfliteReader, MatchesHandDerivationForPersonDetectPeak) {
  EXPECT_EQ(FiguresOf("person_detect").lower_bound, 18432u + 36864u);
}

// ---- an independent reading: walks the raw bytes with no generated code,
// no Model struct and no SummarizeProfiles ----
class RawWalker {
 public:
  explicit RawWalker(const std::vector<std::uint8_t>& b) : b_(b) {}
  std::uint32_t U32(std::size_t at) const {
    return b_[at] | b_[at + 1] << 8 | b_[at + 2] << 16 |
           static_cast<std::uint32_t>(b_[at + 3]) << 24;
  }
  std::size_t Deref(std::size_t at) const { return at + U32(at); }
  /// Position of field `id` of the table at `t`, or 0 when absent.
  std::size_t Field(std::size_t t, int id) const {
    const std::size_t vt = t - static_cast<std::int32_t>(U32(t));
    const std::uint16_t vsize = b_[vt] | b_[vt + 1] << 8;
    if (4 + 2 * id >= vsize) return 0;
    const std::uint16_t off = b_[vt + 4 + 2 * id] | b_[vt + 5 + 2 * id] << 8;
    return off == 0 ? 0 : t + off;
  }
  std::vector<std::size_t> Tables(std::size_t t, int id) const {
    std::vector<std::size_t> out;
    const std::size_t f = Field(t, id);
    if (f == 0) return out;
    const std::size_t v = Deref(f);
    for (std::uint32_t i = 0; i < U32(v); ++i)
      out.push_back(Deref(v + 4 + 4 * i));
    return out;
  }
  std::vector<std::int32_t> Ints(std::size_t t, int id) const {
    std::vector<std::int32_t> out;
    const std::size_t f = Field(t, id);
    if (f == 0) return out;
    const std::size_t v = Deref(f);
    for (std::uint32_t i = 0; i < U32(v); ++i) {
      out.push_back(static_cast<std::int32_t>(U32(v + 4 + 4 * i)));
    }
    return out;
  }
  std::uint32_t VectorLength(std::size_t t, int id) const {
    const std::size_t f = Field(t, id);
    return f == 0 ? 0 : U32(Deref(f));
  }

 private:
  const std::vector<std::uint8_t>& b_;
};

Figures IndependentFigures(const std::string& name) {
  const std::vector<std::uint8_t> bytes =
      ReadFileBytes(kModels + name + ".tflite");
  const RawWalker w(bytes);
  const std::size_t model = w.Deref(0);
  const std::vector<std::size_t> buffers = w.Tables(model, 4);
  const std::size_t graph = w.Tables(model, 2).at(0);
  const std::vector<std::size_t> tensors = w.Tables(graph, 0);
  const std::vector<std::size_t> ops = w.Tables(graph, 3);
  const int n_ops = static_cast<int>(ops.size());
  // Element sizes by TensorType value (float32, float16, int32, uint8,
  // int64, -, bool, int16, -, int8).
  const int elem[] = {4, 2, 4, 1, 8, 0, 1, 2, 8, 1};
  std::vector<int> first(tensors.size(), 1 << 30), last(tensors.size(), -1);
  for (std::int32_t t : w.Ints(graph, 1))
    first[t] = 0, last[t] = std::max(last[t], 0);
  for (int k = 0; k < n_ops; ++k) {
    for (int id : {1, 2}) {  // inputs, outputs
      for (std::int32_t t : w.Ints(ops[k], id)) {
        if (t < 0) continue;
        first[t] = std::min(first[t], k);
        last[t] = std::max(last[t], k);
      }
    }
  }
  for (std::int32_t t : w.Ints(graph, 2)) {
    if (last[t] < 0) first[t] = 0;
    last[t] = n_ops - 1;
  }
  Figures f;
  std::vector<std::uint64_t> breadth(ops.size(), 0);
  for (std::size_t t = 0; t < tensors.size(); ++t) {
    const std::size_t type_at = w.Field(tensors[t], 1);
    const int type = type_at == 0 ? 0 : bytes[type_at];
    const std::size_t buf_at = w.Field(tensors[t], 2);
    const std::uint32_t buffer = buf_at == 0 ? 0 : w.U32(buf_at);
    const std::size_t var_at = w.Field(tensors[t], 5);
    const bool variable = var_at != 0 && bytes[var_at] != 0;
    const bool constant = w.VectorLength(buffers.at(buffer), 0) > 0;
    if (variable || constant || last[t] < 0) continue;
    std::uint64_t size = elem[type];
    for (std::int32_t d : w.Ints(tensors[t], 0)) {
      f.negative_dim = f.negative_dim || d < 0;
      size *= (d < 0 ? 1 : d);
    }
    if (size == 0) continue;
    size = (size + 15) / 16 * 16;
    ++f.planned;
    f.naive += size;
    for (int k = first[t]; k <= last[t]; ++k) breadth[k] += size;
  }
  f.lower_bound = *std::max_element(breadth.begin(), breadth.end());
  return f;
}

TEST(TfliteReader, AgreesWithIndependentByteWalkOnEveryModel) {
  for (const char* name : kModelNames) {
    SCOPED_TRACE(name);
    const Figures mine = FiguresOf(name);
    const Figures other = IndependentFigures(name);
    EXPECT_EQ(mine.planned, other.planned);
    EXPECT_EQ(mine.naive, other.naive);
    EXPECT_EQ(mine.lower_bound, other.lower_bound);
  }
}

TEST(TfliteReader, DecodesOperatorsAndOptions) {
  const Model m = ReadModelFile(kModels + "person_detect.tflite");
  ASSERT_EQ(m.subgraphs.size(), 1u);
  const Subgraph& g = m.subgraphs[0];
  ASSERT_FALSE(g.operators.empty());
  // MobileNet's first layer on a 1-channel image is stored as a depthwise
  // convolution with depth multiplier 8: 3x3, stride 2, SAME, ReLU6.
  EXPECT_EQ(g.operators[0].builtin_name, "DEPTHWISE_CONV_2D");
  const auto* dw = std::get_if<DepthwiseConv2DOptions>(&g.operators[0].options);
  ASSERT_NE(dw, nullptr);
  EXPECT_EQ(dw->stride_w, 2);
  EXPECT_EQ(dw->stride_h, 2);
  EXPECT_EQ(dw->depth_multiplier, 8);
  EXPECT_EQ(dw->padding, Padding::kSame);
  EXPECT_EQ(dw->activation, Activation::kRelu6);
  // The first pointwise convolution: 1x1, stride 1.
  EXPECT_EQ(g.operators[2].builtin_name, "CONV_2D");
  const auto* conv = std::get_if<Conv2DOptions>(&g.operators[2].options);
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(conv->stride_w, 1);
  EXPECT_EQ(conv->activation, Activation::kRelu6);
  EXPECT_EQ(g.operators.back().builtin_name, "SOFTMAX");
  const Tensor& in = g.tensors[static_cast<std::size_t>(g.inputs.at(0))];
  EXPECT_EQ(in.type, TensorType::kInt8);
  EXPECT_EQ(in.shape, (std::vector<std::int32_t>{1, 96, 96, 1}));
  ASSERT_EQ(in.quantization.scale.size(), 1u);
  EXPECT_GT(in.quantization.scale[0], 0.0f);
}

TEST(TfliteReader, RecordsCsvPlansToTheSameArenaForEveryStrategy) {
  const testing_util::ScopedTempDir tmp("arenaplan_tflite_reader_test_");
  ASSERT_FALSE(tmp.path().empty());
  const std::filesystem::path dir = tmp.path();
  for (const char* name : {"person_detect", "micro_speech_quantized",
                           "keyword_scrambled", "hello_world_float"}) {
    SCOPED_TRACE(name);
    const UsageProblem model =
        LoadTfliteProblem(kModels + name + ".tflite", AssumeOne());
    const std::string csv_path = (dir / (std::string(name) + ".csv")).string();
    testing_util::WriteFile(csv_path,
                            RecordsCsv(AlignProblem(model, kModelAlignment)));
    const UsageProblem csv = LoadCsvProblem(csv_path);
    ASSERT_EQ(csv.records.size(), model.records.size());
    EXPECT_EQ(csv.ids, model.ids);
    for (Approach a : {Approach::kOffsets, Approach::kSharedObjects}) {
      PlanOptions o;
      o.approach = a;
      const std::vector<PlanResult> from_model = PlanAll(model, o);
      const std::vector<PlanResult> from_csv = PlanAll(csv, o);
      ASSERT_EQ(from_model.size(), from_csv.size());
      for (std::size_t i = 0; i < from_model.size(); ++i) {
        EXPECT_EQ(from_model[i].strategy, from_csv[i].strategy);
        EXPECT_EQ(from_model[i].arena_bytes, from_csv[i].arena_bytes)
            << from_model[i].strategy;
      }
    }
  }
}

TEST(TfliteReader, ScratchBufferLivesForItsOperator) {
  InputOptions o = AssumeOne();
  o.scratch.push_back({1, 100});
  const UsageProblem p =
      LoadTfliteProblem(kModels + "hello_world_int8.tflite", o);
  ASSERT_EQ(p.records.size(), 5u);
  EXPECT_EQ(p.records.back().first_op, 1u);
  EXPECT_EQ(p.records.back().last_op, 1u);
  EXPECT_EQ(p.records.back().size, 100u);
  o.scratch = {{3, 8}};  // hello_world has operators 0..2
  EXPECT_THROW((void)LoadTfliteProblem(kModels + "hello_world_int8.tflite", o),
               InputError);
}

TEST(TfliteReader, Fp32CountsFourBytesPerElement) {
  InputOptions o = AssumeOne();
  o.fp32 = true;
  const UsageProblem p =
      LoadTfliteProblem(kModels + "hello_world_int8.tflite", o);
  // t0 [1,1], t7 [1,16], t8 [1,16], t9 [1,1] at 4 bytes each.
  std::uint64_t total = 0;
  for (const auto& r : p.records) total += r.size;
  EXPECT_EQ(total, 4u + 64u + 64u + 4u);
}

// ---- bad input ----

std::string ErrorOf(std::span<const std::uint8_t> bytes,
                    const InputOptions& o = InputOptions()) {
  try {
    const Model m = ReadModel(bytes, "bad.tflite");
    (void)BuildProblem(m, o);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(TfliteReader, SizesFromShapeAndWarnsWhenOnlyTheSignatureIsDynamic) {
  // hello_world_int8: every activation has shape_signature [-1,...] and
  // shape [1,...]; TFLM allocates `shape`. Tensors 0, 7, 8, 9 are planned
  // (hand derivation above): four with a dynamic signature.
  const std::vector<std::uint8_t> b =
      ReadFileBytes(kModels + "hello_world_int8.tflite");
  const TfliteProblem p =
      BuildProblem(ReadModel(b, "hw.tflite"), InputOptions());
  ASSERT_EQ(p.problem.warnings.size(), 1u);
  const std::string& w = p.problem.warnings[0];
  EXPECT_EQ(
      w.rfind("hw.tflite: subgraph 0: tensor 0: shape_signature [-1,1] ", 0),
      0u)
      << w;
  EXPECT_NE(w.find("shape_signature [-1,1] has a dynamic dimension (and 3 "
                   "more tensors); planned with shape [1,1]"),
            std::string::npos)
      << w;
  EXPECT_EQ(w.find('\n'), std::string::npos);
  // --assume-dim takes over, silently.
  EXPECT_TRUE(BuildProblem(ReadModel(b, "hw.tflite"), AssumeOne())
                  .problem.warnings.empty());
}

TEST(TfliteReader, RejectsWrongIdentifierAndTruncation) {
  std::vector<std::uint8_t> b =
      ReadFileBytes(kModels + "micro_speech_quantized.tflite");
  std::vector<std::uint8_t> wrong = b;
  wrong[4] = 'X';
  EXPECT_NE(ErrorOf(wrong).find("identifier"), std::string::npos);
  for (std::size_t len :
       {std::size_t{0}, std::size_t{7}, b.size() / 2, b.size() - 1}) {
    const std::span<const std::uint8_t> part(b.data(), len);
    EXPECT_NE(ErrorOf(part).rfind("bad.tflite: ", 0), std::string::npos) << len;
  }
}

TEST(TfliteReader, SurvivesRandomCorruptionWithOneLineErrors) {
  const std::vector<std::uint8_t> b =
      ReadFileBytes(kModels + "micro_speech_quantized.tflite");
  std::mt19937 rng(12345);
  int rejected = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::uint8_t> c = b;
    for (int k = 0; k < 4; ++k) {
      c[rng() % c.size()] = static_cast<std::uint8_t>(rng());
    }
    const std::string e = ErrorOf(c, AssumeOne());
    if (!e.empty()) {
      ++rejected;
      EXPECT_EQ(e.rfind("bad.tflite: ", 0), 0u) << e;
      EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    }
  }
  EXPECT_GT(rejected, 0);
}

/// Finishes a one-operator RELU model in `fbb`: tensor 0 -> operator ->
/// tensor `output`, graph output tensor 1, one empty buffer. `options_type`
/// is stored as the operator's builtin-options union type, with no table.
std::vector<std::uint8_t> FinishReluModel(
    flatbuffers::FlatBufferBuilder& fbb, flatbuffers::Offset<fb::Tensor> t0,
    flatbuffers::Offset<fb::Tensor> t1, std::int32_t output,
    fb::BuiltinOptions options_type = fb::BuiltinOptions::NONE) {
  const auto buffer0 = fb::CreateBuffer(fbb);
  std::vector<flatbuffers::Offset<fb::Tensor>> tensors = {t0, t1};
  const std::vector<std::int32_t> ins = {0}, outs = {output};
  const auto op = fb::CreateOperatorDirect(fbb, 0, &ins, &outs, options_type);
  std::vector<flatbuffers::Offset<fb::Operator>> ops = {op};
  const std::vector<std::int32_t> g_in = {0}, g_out = {1};
  const auto graph =
      fb::CreateSubGraphDirect(fbb, &tensors, &g_in, &g_out, &ops, "main");
  std::vector<flatbuffers::Offset<fb::SubGraph>> graphs = {graph};
  std::vector<flatbuffers::Offset<fb::OperatorCode>> codes = {
      fb::CreateOperatorCode(
          fbb, static_cast<std::int8_t>(tflite::BuiltinOp::kRelu), 0, 1,
          static_cast<std::int32_t>(tflite::BuiltinOp::kRelu))};
  std::vector<flatbuffers::Offset<fb::Buffer>> buffers = {buffer0};
  const auto model =
      fb::CreateModelDirect(fbb, 3, &codes, &graphs, nullptr, &buffers);
  fb::FinishModelBuffer(fbb, model);
  return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

/// A one-operator model built with the generated builder: tensor 0 -> op
/// -> tensor 1, with the given shape and type for tensor 1 and the given
/// output index for the operator (see FinishReluModel for `options_type`).
std::vector<std::uint8_t> TinyModel(
    std::vector<std::int32_t> shape, std::int8_t type, std::int32_t output,
    fb::BuiltinOptions options_type = fb::BuiltinOptions::NONE) {
  flatbuffers::FlatBufferBuilder fbb;
  const std::vector<std::int32_t> in_shape = {1, 4};
  const auto t0 = fb::CreateTensorDirect(fbb, &in_shape, 9, 0, "in");
  const auto t1 = fb::CreateTensorDirect(fbb, &shape, type, 0, "out");
  return FinishReluModel(fbb, t0, t1, output, options_type);
}

TEST(TfliteReader, BuilderModelIsReadWithTflmLifetimes) {
  const std::vector<std::uint8_t> b = TinyModel({1, 4}, 9, 1);
  const Model m = ReadModel(b, "tiny.tflite");
  const TfliteProblem p = BuildProblem(m, InputOptions());
  ASSERT_EQ(p.problem.records.size(), 2u);
  EXPECT_EQ(p.problem.operator_names, std::vector<std::string>{"RELU"});
  EXPECT_EQ(p.problem.records[1].size, 4u);
}

/// The one-operator model with tensor 1 quantized, its zero points {1, -2}
/// stored as a 64-bit vector whose elements sit `misalign` bytes (0 or 4)
/// off 8-byte alignment, counted from the start of the file. The
/// flatbuffers verifier checks only the 4-byte length prefix of a vector,
/// so both pass it; a reader that loads the elements as int64 values is
/// then undefined behaviour (found by fuzzing).
std::vector<std::uint8_t> ZeroPointModel(std::size_t misalign) {
  for (int pad = 0; pad < 2; ++pad) {
    flatbuffers::FlatBufferBuilder fbb;
    // Two int64 little-endian values written as four int32 words; the
    // length prefix (4) is patched to 2 below.
    const std::vector<std::int32_t> words = {1, 0, -2, -1};
    const auto zp32 = fbb.CreateVector(words);
    if (pad == 1) fbb.PushElement<std::int32_t>(0);  // shifts it 4 bytes
    const flatbuffers::Offset<flatbuffers::Vector<std::int64_t>> zp(zp32.o);
    const std::vector<float> scale = {0.5F};
    const auto quant = fb::CreateQuantizationParameters(
        fbb, 0, 0, fbb.CreateVector(scale), zp);
    const std::vector<std::int32_t> shape = {1, 4};
    const auto t0 = fb::CreateTensorDirect(fbb, &shape, 9, 0, "in");
    const auto t1 = fb::CreateTensor(fbb, fbb.CreateVector(shape), 9, 0,
                                     fbb.CreateString("out"), quant);
    std::vector<std::uint8_t> b = FinishReluModel(fbb, t0, t1, 1);
    // Builder offsets count back from the end of the buffer.
    const std::size_t length_at = b.size() - zp32.o;
    if ((length_at + 4) % 8 != misalign) continue;
    b[length_at] = 2;  // little-endian uoffset_t length 4 -> 2
    return b;
  }
  ADD_FAILURE() << "could not place the zero-point vector";
  return {};
}

TEST(TfliteReader, ReadsMisalignedSixtyFourBitVector) {
  const std::vector<std::uint8_t> b = ZeroPointModel(4);
  ASSERT_FALSE(b.empty());
  const Model m = ReadModel(b, "misaligned.tflite");
  ASSERT_EQ(m.subgraphs.size(), 1u);
  ASSERT_EQ(m.subgraphs[0].tensors.size(), 2u);
  EXPECT_EQ(m.subgraphs[0].tensors[1].quantization.zero_point,
            (std::vector<std::int64_t>{1, -2}));
}

TEST(TfliteReader, ReadsModelAtUnalignedAddress) {
  // A well-formed file whose span starts 4 bytes off 8-byte alignment (a
  // model embedded in a larger buffer): its aligned 64-bit vector is then
  // misaligned in memory.
  const std::vector<std::uint8_t> b = ZeroPointModel(0);
  ASSERT_FALSE(b.empty());
  std::vector<std::uint8_t> shifted(b.size() + 4);
  std::copy(b.begin(), b.end(), shifted.begin() + 4);
  const Model m = ReadModel(std::span<const std::uint8_t>(shifted).subspan(4),
                            "unaligned.tflite");
  ASSERT_EQ(m.subgraphs.at(0).tensors.size(), 2u);
  EXPECT_EQ(m.subgraphs[0].tensors[1].quantization.zero_point,
            (std::vector<std::int64_t>{1, -2}));
}

TEST(TfliteReader, ReadsOptionsTypeWithoutTableAsNoOptions) {
  // Found by fuzzing: the verifier passes a union type with no table.
  for (const auto kind :
       {fb::BuiltinOptions::FullyConnectedOptions,
        fb::BuiltinOptions::Conv2DOptions, fb::BuiltinOptions::ReshapeOptions,
        fb::BuiltinOptions::CallOptions}) {
    const Model m =
        ReadModel(TinyModel({1, 4}, 9, 1, kind), "no-options.tflite");
    ASSERT_EQ(m.subgraphs.at(0).operators.size(), 1u);
    EXPECT_TRUE(std::holds_alternative<std::monostate>(
        m.subgraphs[0].operators[0].options));
  }
}

TEST(TfliteReader, RejectsUnknownTypeOverflowAndBadIndex) {
  EXPECT_NE(ErrorOf(TinyModel({1, 4}, 99, 1))
                .find("tensor 1: unknown tensor type 99"),
            std::string::npos);
  EXPECT_NE(ErrorOf(TinyModel({1, 4}, 5, 1)).find("no static element size"),
            std::string::npos);  // STRING
  const std::int32_t big = 0x7fffffff;
  EXPECT_NE(ErrorOf(TinyModel({big, big, big}, 9, 1)).find("overflows 64"),
            std::string::npos);
  EXPECT_NE(ErrorOf(TinyModel({1, 4}, 9, 7))
                .find("operator 0: output 0: tensor index 7 out of range"),
            std::string::npos);
  EXPECT_NE(ErrorOf(TinyModel({1, -1}, 9, 1))
                .find("tensor 1: dynamic dimension in shape [1,-1]"),
            std::string::npos);
  EXPECT_NE(ErrorOf(TinyModel({1, -3}, 9, 1)).find("negative dimension"),
            std::string::npos);
}

/// The one-operator model with tensor 1 of shape `shape` and shape
/// signature `signature` (int8), named with a line break.
std::vector<std::uint8_t> SignatureModel(std::vector<std::int32_t> shape,
                                         std::vector<std::int32_t> signature) {
  flatbuffers::FlatBufferBuilder fbb;
  const std::vector<std::int32_t> in_shape = {1, 4};
  const auto t0 = fb::CreateTensorDirect(fbb, &in_shape, 9, 0, "in");
  const auto t1 = fb::CreateTensorDirect(fbb, &shape, 9, 0, "out\nname", 0,
                                         false, 0, &signature);
  return FinishReluModel(fbb, t0, t1, 1);
}

TEST(TfliteReader, TakesShapeWhenSignatureIsDynamicAndAssumeDimOverrides) {
  const Model m = ReadModel(SignatureModel({2, 4}, {-1, 4}), "sig.tflite");
  const TfliteProblem p = BuildProblem(m, InputOptions());
  ASSERT_EQ(p.problem.records.size(), 2u);
  EXPECT_EQ(p.problem.records[1].size, 8u);  // [2,4] int8
  ASSERT_EQ(p.problem.warnings.size(), 1u);
  EXPECT_EQ(p.problem.warnings[0].rfind("sig.tflite: subgraph 0: tensor 1: "
                                        "shape_signature [-1,4]",
                                        0),
            0u)
      << p.problem.warnings[0];
  EXPECT_EQ(p.problem.warnings[0].find('\n'), std::string::npos);
  InputOptions three;
  three.assume_dim = 3;
  const TfliteProblem q = BuildProblem(m, three);
  EXPECT_EQ(q.problem.records[1].size, 12u);  // [3,4]
  EXPECT_TRUE(q.problem.warnings.empty());
  // A -1 in `shape` itself: --assume-dim gives it a size.
  const Model d = ReadModel(TinyModel({1, -1}, 9, 1), "dyn.tflite");
  EXPECT_EQ(BuildProblem(d, three).problem.records[1].size, 3u);
}

// hello_world_int8 and the four MLPerf Tiny models declare a dynamic batch
// in shape_signature only. With no flag they plan, with one warning line
// on stderr, and `best` reaches the lower bound that the raw byte walk
// above computes from `shape` (which it checks holds no -1).
TEST(TfliteReader, PlansBatchDynamicModelsWithoutFlagAtTheirLowerBound) {
  const testing_util::ScopedTempDir dir("arenaplan_signature_cli");
  for (const char* name : {"hello_world_int8", "vww_96_int8", "kws_ref_model",
                           "pretrainedResnet_quant", "ad01_int8"}) {
    SCOPED_TRACE(name);
    const Figures other = IndependentFigures(name);
    EXPECT_FALSE(other.negative_dim);
    const std::string model = kModels + name + ".tflite";
    const UsageProblem p = LoadTfliteProblem(model, InputOptions());
    EXPECT_EQ(p.warnings.size(), 1u);
    const PlanResult plan = Plan(p, PlanOptions());
    EXPECT_EQ(plan.arena_bytes, other.lower_bound);
    // The CLI: exit 0, the arena on stdout, exactly the one warning line
    // on stderr.
    const std::string err = dir.path() + "/err.txt";
    const testing_util::CommandResult r =
        testing_util::RunCommand("(" + std::string(ARENAPLAN_BINARY) +
                                 " plan " + model + " 2>" + err + ")");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("arena:       " +
                            std::to_string(other.lower_bound) + " bytes"),
              std::string::npos)
        << r.output;
    const std::string e = testing_util::ReadFile(err);
    EXPECT_EQ(e.rfind("arenaplan: " + model + ": subgraph 0: tensor ", 0), 0u)
        << e;
    EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 1) << e;
  }
}

TEST(TfliteReader, CliRefusesMinusOneInShapeWithExitTwo) {
  const testing_util::ScopedTempDir dir("arenaplan_dynamic_shape_cli");
  const std::string path = dir.path() + "/dyn.tflite";
  const std::vector<std::uint8_t> b = TinyModel({1, -1}, 9, 1);
  testing_util::WriteFile(path, std::string(b.begin(), b.end()));
  for (const char* command : {"plan", "records", "inspect", "compile"}) {
    SCOPED_TRACE(command);
    std::string args =
        std::string(ARENAPLAN_BINARY) + " " + command + " " + path;
    if (std::string(command) == "compile") {
      args += " --out-dir " + dir.path() + " --namespace m";
    }
    const testing_util::CommandResult r = testing_util::RunCommand(args);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_EQ(r.output, "arenaplan: " + path +
                            ": subgraph 0: tensor 1: dynamic dimension in "
                            "shape [1,-1] (shape_signature []); give "
                            "--assume-dim N\n");
  }
}

}  // namespace
}  // namespace arenaplan::tflite
