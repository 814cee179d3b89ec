// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The random graph generator (random_graph.hpp): one model per seed, the
// same every time; written as a .tflite file it reads back as built; every
// graph is a DAG in execution order without dead operators; and a batch of
// seeds holds every feature the property tests rely on.
#include "tests/host/support/random_graph.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "codegen/tflite/model.hpp"
#include "tests/host/support/model_builder.hpp"

namespace arenaplan::testing_util {
namespace {

using tflite::BuiltinOp;

constexpr std::uint32_t kBatch = 300;

std::vector<std::uint8_t> Bytes(std::uint32_t seed) {
  return SerializeModel(RandomGraph(seed));
}

bool Contains(const std::vector<std::int32_t>& v, std::int32_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

TEST(RandomGraph, GivesOneModelPerSeed) {
  EXPECT_EQ(Bytes(7), Bytes(7));
  EXPECT_NE(Bytes(7), Bytes(8));
}

TEST(RandomGraph, ReadsBackAsBuilt) {
  for (std::uint32_t seed = 0; seed < kBatch; ++seed) {
    const tflite::Model built = RandomGraph(seed);
    const std::vector<std::uint8_t> bytes = SerializeModel(built);
    const tflite::Model read = tflite::ReadModel(bytes, "graph.tflite");
    const tflite::Subgraph& a = built.subgraphs[0];
    const tflite::Subgraph& b = read.subgraphs[0];
    ASSERT_EQ(read.subgraphs.size(), 1u) << seed;
    EXPECT_EQ(a.inputs, b.inputs) << seed;
    EXPECT_EQ(a.outputs, b.outputs) << seed;
    ASSERT_EQ(a.tensors.size(), b.tensors.size()) << seed;
    for (std::size_t t = 0; t < a.tensors.size(); ++t) {
      EXPECT_EQ(a.tensors[t].shape, b.tensors[t].shape) << seed;
      EXPECT_EQ(a.tensors[t].type, b.tensors[t].type) << seed;
      EXPECT_EQ(a.tensors[t].quantization.scale,
                b.tensors[t].quantization.scale)
          << seed;
      EXPECT_EQ(built.IsConstant(a.tensors[t]), read.IsConstant(b.tensors[t]))
          << seed;
    }
    ASSERT_EQ(a.operators.size(), b.operators.size()) << seed;
    for (std::size_t i = 0; i < a.operators.size(); ++i) {
      EXPECT_EQ(a.operators[i].builtin_code, b.operators[i].builtin_code);
      EXPECT_EQ(a.operators[i].inputs, b.operators[i].inputs) << seed;
      EXPECT_EQ(a.operators[i].outputs, b.operators[i].outputs) << seed;
      EXPECT_EQ(a.operators[i].options.index(), b.operators[i].options.index())
          << seed << " operator " << i;
    }
  }
}

TEST(RandomGraph, IsADagInExecutionOrderWithoutDeadOperators) {
  for (std::uint32_t seed = 0; seed < kBatch; ++seed) {
    const tflite::Model m = RandomGraph(seed);
    const tflite::Subgraph& g = m.subgraphs[0];
    // Tensors defined so far: graph inputs and constants, then each
    // operator's outputs, each written once.
    std::set<std::int32_t> defined(g.inputs.begin(), g.inputs.end());
    std::map<std::int32_t, std::size_t> producer;
    for (std::size_t t = 0; t < g.tensors.size(); ++t) {
      if (m.IsConstant(g.tensors[t])) defined.insert(static_cast<int>(t));
    }
    std::vector<int> readers(g.tensors.size(), 0);
    for (std::size_t i = 0; i < g.operators.size(); ++i) {
      for (std::int32_t t : g.operators[i].inputs) {
        EXPECT_EQ(defined.count(t), 1u)
            << "seed " << seed << " operator " << i << " reads " << t;
        ++readers[static_cast<std::size_t>(t)];
      }
      for (std::int32_t t : g.operators[i].outputs) {
        EXPECT_TRUE(defined.insert(t).second)
            << "seed " << seed << ": tensor " << t << " written twice";
        producer[t] = i;
      }
    }
    for (std::int32_t t : g.outputs) EXPECT_EQ(defined.count(t), 1u) << seed;
    for (const auto& [t, op] : producer) {
      EXPECT_TRUE(readers[static_cast<std::size_t>(t)] > 0 ||
                  Contains(g.outputs, t))
          << "seed " << seed << ": operator " << op << " is dead";
    }
  }
}

/// Counts, over a batch, the graphs that hold each feature.
std::map<std::string, int> Features() {
  std::map<std::string, int> n;
  for (std::uint32_t seed = 0; seed < kBatch; ++seed) {
    const tflite::Model m = RandomGraph(seed);
    const tflite::Subgraph& g = m.subgraphs[0];
    std::set<std::string> f;
    std::vector<int> readers(g.tensors.size(), 0);
    std::map<std::int32_t, std::size_t> producer;
    for (std::size_t i = 0; i < g.operators.size(); ++i) {
      const tflite::Operator& op = g.operators[i];
      f.insert(op.builtin_name);
      for (std::int32_t t : op.inputs) ++readers[static_cast<std::size_t>(t)];
      for (std::int32_t t : op.outputs) producer[t] = i;
      if (const auto* o = std::get_if<tflite::Conv2DOptions>(&op.options)) {
        if (o->stride_h == 2 || o->stride_w == 2) f.insert("stride 2");
      }
      if (const auto* o =
              std::get_if<tflite::ConcatenationOptions>(&op.options)) {
        f.insert("concatenation axis " + std::to_string(o->axis));
      }
    }
    for (const tflite::Operator& op : g.operators) {
      const bool reshape = op.builtin_code == BuiltinOp::kReshape ||
                           op.builtin_code == BuiltinOp::kSqueeze ||
                           op.builtin_code == BuiltinOp::kExpandDims;
      if (reshape && Contains(g.outputs, op.outputs[0]) &&
          readers[static_cast<std::size_t>(op.inputs[0])] > 1) {
        f.insert("reshape output of a tensor read again");
      }
      if (op.builtin_code == BuiltinOp::kAdd && producer.count(op.inputs[0]) &&
          producer.count(op.inputs[1]) &&
          producer[op.inputs[0]] != producer[op.inputs[1]]) {
        f.insert("add of two operators' outputs");
      }
    }
    for (std::size_t t = 0; t < g.tensors.size(); ++t) {
      const auto ti = static_cast<std::int32_t>(t);
      if (readers[t] > 1 && !m.IsConstant(g.tensors[t])) f.insert("branch");
      if (readers[t] > 0 && Contains(g.outputs, ti) && producer.count(ti)) {
        f.insert("output read later");
      }
    }
    if (g.outputs.size() > 1) f.insert("several outputs");
    if (g.inputs.size() > 1) f.insert("two inputs");
    for (std::int32_t t : g.inputs) {
      if (Contains(g.outputs, t)) f.insert("input is an output");
    }
    for (const std::string& s : f) ++n[s];
  }
  return n;
}

TEST(RandomGraph, ABatchHoldsEveryFeature) {
  const std::map<std::string, int> n = Features();
  // At least 3 % of the graphs for each (the rarest by construction, the
  // graph input listed as an output, is about 1 in 6).
  for (const char* f : {"CONV_2D",
                        "DEPTHWISE_CONV_2D",
                        "AVERAGE_POOL_2D",
                        "MAX_POOL_2D",
                        "ADD",
                        "CONCATENATION",
                        "RESHAPE",
                        "SQUEEZE",
                        "EXPAND_DIMS",
                        "PAD",
                        "FULLY_CONNECTED",
                        "RELU",
                        "RELU6",
                        "LEAKY_RELU",
                        "LOGISTIC",
                        "TANH",
                        "QUANTIZE",
                        "stride 2",
                        "concatenation axis 1",
                        "concatenation axis 3",
                        "concatenation axis -1",
                        "reshape output of a tensor read again",
                        "add of two operators' outputs",
                        "branch",
                        "output read later",
                        "several outputs",
                        "two inputs",
                        "input is an output"}) {
    const auto it = n.find(f);
    EXPECT_GE(it == n.end() ? 0 : it->second,
              static_cast<int>(kBatch) * 3 / 100)
        << f;
  }
}

TEST(RandomGraph, KeepsTensorsSmall) {
  for (std::uint32_t seed = 0; seed < kBatch; ++seed) {
    const tflite::Model m = RandomGraph(seed);
    std::size_t constant_bytes = 0;
    for (const tflite::Tensor& t : m.subgraphs[0].tensors) {
      std::int64_t n = 1;
      for (std::int32_t d : t.shape) n *= d;
      if (m.IsConstant(t)) {
        constant_bytes += m.buffers[t.buffer].data.size();
      } else {
        EXPECT_LE(n, 4096) << "seed " << seed << " " << t.name;
      }
    }
    EXPECT_LE(constant_bytes, 16384u) << "seed " << seed;
  }
}

}  // namespace
}  // namespace arenaplan::testing_util
