// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Inception v3, 299x299 (Szegedy et al. 2016, "Rethinking the Inception
// Architecture for Computer Vision", Table 1 and Figures 5, 6 and 7), with
// the filter counts of the reference implementation the TFLite model was
// converted from (TF-slim inception_v3: Mixed_5b ... Mixed_7c). Auxiliary
// classifier excluded (inference graph).
//
// Two choices the paper leaves open, documented in docs/paper-tables.md:
// * Branch order. Each Inception module's branches are independent; they run
//   shortest branch first (fewest operators; ties in the published branch
//   order), which keeps the fewest tensors alive.
// * Nested concatenation. Mixed_7b/7c concatenate a 1x3 and a 3x1
//   convolution inside two branches and then the four branches; the
//   inference graph flattens the nested concatenations into the module's one
//   concatenation of six tensors (so the two inner 8x8x768 results are never
//   materialised).
#include <algorithm>
#include <array>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/zoo/graph.hpp"
#include "codegen/zoo/networks.hpp"

namespace arenaplan::zoo {
namespace {

constexpr Padding kSame = Padding::kSame;
constexpr Padding kValid = Padding::kValid;

/// One branch of an Inception module: how many operators it appends and
/// how to build them; returns the tensors it contributes to the module's
/// concatenation.
struct Branch {
  std::size_t operators;
  std::function<std::vector<TensorId>()> build;
};

/// Builds the branches shortest first (stable: ties keep the published
/// order), then concatenates their outputs in the published order.
TensorId Module(GraphBuilder& g, const std::string& name,
                std::vector<Branch> branches) {
  std::vector<std::size_t> order(branches.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) {
                     return branches[a].operators < branches[b].operators;
                   });
  std::vector<std::vector<TensorId>> outputs(branches.size());
  for (std::size_t b : order) {
    const std::size_t before = g.OperatorCount();
    outputs[b] = branches[b].build();
    if (g.OperatorCount() - before != branches[b].operators) {
      throw InternalError("zoo:inception_v3: " + name +
                          ": branch operator count mismatch");
    }
  }
  std::vector<TensorId> concat;
  for (const std::vector<TensorId>& o : outputs) {
    concat.insert(concat.end(), o.begin(), o.end());
  }
  return g.Concat(std::move(concat), name + "/concat");
}

/// Mixed_5b/5c/5d (the paper's Figure 5 module, 5x5 branch kept as in the
/// reference): 1x1 64 | 1x1 48, 5x5 64 | 1x1 64, 3x3 96, 3x3 96 |
/// avg pool 3x3, 1x1 `pool_features`.
TensorId Mixed5(GraphBuilder& g, TensorId x, const std::string& n,
                std::uint64_t pool_features) {
  return Module(
      g, n,
      {{1, [&] { return std::vector{g.Conv(x, n + "/Branch_0/1x1", 64)}; }},
       {2,
        [&] {
          TensorId y = g.Conv(x, n + "/Branch_1/1x1", 48);
          return std::vector{g.Conv(y, n + "/Branch_1/5x5", 64, 5, 5)};
        }},
       {3,
        [&] {
          TensorId y = g.Conv(x, n + "/Branch_2/1x1", 64);
          y = g.Conv(y, n + "/Branch_2/3x3a", 96, 3, 3);
          return std::vector{g.Conv(y, n + "/Branch_2/3x3b", 96, 3, 3)};
        }},
       {2, [&] {
          TensorId y = g.AvgPool(x, n + "/Branch_3/AvgPool", 3, 1, kSame);
          return std::vector{g.Conv(y, n + "/Branch_3/1x1", pool_features)};
        }}});
}

/// Mixed_6b..6e (Figure 6, n = 7): 1x1 192 | 1x1 m, 1x7 m, 7x1 192 |
/// 1x1 m, 7x1 m, 1x7 m, 7x1 m, 1x7 192 | avg pool 3x3, 1x1 192.
TensorId Mixed6(GraphBuilder& g, TensorId x, const std::string& n,
                std::uint64_t m) {
  return Module(
      g, n,
      {{1, [&] { return std::vector{g.Conv(x, n + "/Branch_0/1x1", 192)}; }},
       {3,
        [&] {
          TensorId y = g.Conv(x, n + "/Branch_1/1x1", m);
          y = g.Conv(y, n + "/Branch_1/1x7", m, 1, 7);
          return std::vector{g.Conv(y, n + "/Branch_1/7x1", 192, 7, 1)};
        }},
       {5,
        [&] {
          TensorId y = g.Conv(x, n + "/Branch_2/1x1", m);
          y = g.Conv(y, n + "/Branch_2/7x1a", m, 7, 1);
          y = g.Conv(y, n + "/Branch_2/1x7a", m, 1, 7);
          y = g.Conv(y, n + "/Branch_2/7x1b", m, 7, 1);
          return std::vector{g.Conv(y, n + "/Branch_2/1x7b", 192, 1, 7)};
        }},
       {2, [&] {
          TensorId y = g.AvgPool(x, n + "/Branch_3/AvgPool", 3, 1, kSame);
          return std::vector{g.Conv(y, n + "/Branch_3/1x1", 192)};
        }}});
}

/// Mixed_7b/7c (Figure 7): 1x1 320 | 1x1 384, {1x3 384, 3x1 384} |
/// 1x1 448, 3x3 384, {1x3 384, 3x1 384} | avg pool 3x3, 1x1 192.
TensorId Mixed7(GraphBuilder& g, TensorId x, const std::string& n) {
  return Module(
      g, n,
      {{1, [&] { return std::vector{g.Conv(x, n + "/Branch_0/1x1", 320)}; }},
       {3,
        [&] {
          TensorId y = g.Conv(x, n + "/Branch_1/1x1", 384);
          return std::vector{g.Conv(y, n + "/Branch_1/1x3", 384, 1, 3),
                             g.Conv(y, n + "/Branch_1/3x1", 384, 3, 1)};
        }},
       {4,
        [&] {
          TensorId y = g.Conv(x, n + "/Branch_2/1x1", 448);
          y = g.Conv(y, n + "/Branch_2/3x3", 384, 3, 3);
          return std::vector{g.Conv(y, n + "/Branch_2/1x3", 384, 1, 3),
                             g.Conv(y, n + "/Branch_2/3x1", 384, 3, 1)};
        }},
       {2, [&] {
          TensorId y = g.AvgPool(x, n + "/Branch_3/AvgPool", 3, 1, kSame);
          return std::vector{g.Conv(y, n + "/Branch_3/1x1", 192)};
        }}});
}

}  // namespace

UsageProblem BuildInceptionV3() {
  GraphBuilder g;
  TensorId x = g.AddInput("input", {1, 299, 299, 3});
  // Table 1 stem: conv 3x3/2, conv 3x3, conv padded 3x3, pool 3x3/2,
  // conv 1x1 80, conv 3x3 192, pool 3x3/2 (35x35x192).
  x = g.Conv(x, "Conv2d_1a_3x3", 32, 3, 3, 2, kValid);
  x = g.Conv(x, "Conv2d_2a_3x3", 32, 3, 3, 1, kValid);
  x = g.Conv(x, "Conv2d_2b_3x3", 64, 3, 3, 1, kSame);
  x = g.MaxPool(x, "MaxPool_3a_3x3", 3, 2, kValid);
  x = g.Conv(x, "Conv2d_3b_1x1", 80);
  x = g.Conv(x, "Conv2d_4a_3x3", 192, 3, 3, 1, kValid);
  x = g.MaxPool(x, "MaxPool_5a_3x3", 3, 2, kValid);
  x = Mixed5(g, x, "Mixed_5b", 32);
  x = Mixed5(g, x, "Mixed_5c", 64);
  x = Mixed5(g, x, "Mixed_5d", 64);
  {  // Mixed_6a: grid reduction 35 -> 17 (the paper's Figure 10).
    const std::string n = "Mixed_6a";
    x = Module(g, n,
               {{1,
                 [&] {
                   return std::vector{
                       g.Conv(x, n + "/Branch_0/3x3", 384, 3, 3, 2, kValid)};
                 }},
                {3,
                 [&] {
                   TensorId y = g.Conv(x, n + "/Branch_1/1x1", 64);
                   y = g.Conv(y, n + "/Branch_1/3x3a", 96, 3, 3);
                   return std::vector{
                       g.Conv(y, n + "/Branch_1/3x3b", 96, 3, 3, 2, kValid)};
                 }},
                {1, [&] {
                   return std::vector{
                       g.MaxPool(x, n + "/Branch_2/MaxPool", 3, 2, kValid)};
                 }}});
  }
  x = Mixed6(g, x, "Mixed_6b", 128);
  x = Mixed6(g, x, "Mixed_6c", 160);
  x = Mixed6(g, x, "Mixed_6d", 160);
  x = Mixed6(g, x, "Mixed_6e", 192);
  {  // Mixed_7a: grid reduction 17 -> 8.
    const std::string n = "Mixed_7a";
    x = Module(g, n,
               {{2,
                 [&] {
                   TensorId y = g.Conv(x, n + "/Branch_0/1x1", 192);
                   return std::vector{
                       g.Conv(y, n + "/Branch_0/3x3", 320, 3, 3, 2, kValid)};
                 }},
                {4,
                 [&] {
                   TensorId y = g.Conv(x, n + "/Branch_1/1x1", 192);
                   y = g.Conv(y, n + "/Branch_1/1x7", 192, 1, 7);
                   y = g.Conv(y, n + "/Branch_1/7x1", 192, 7, 1);
                   return std::vector{
                       g.Conv(y, n + "/Branch_1/3x3", 192, 3, 3, 2, kValid)};
                 }},
                {1, [&] {
                   return std::vector{
                       g.MaxPool(x, n + "/Branch_2/MaxPool", 3, 2, kValid)};
                 }}});
  }
  x = Mixed7(g, x, "Mixed_7b");
  x = Mixed7(g, x, "Mixed_7c");
  // Head: 8x8 average pool, 1x1 logits, squeeze, softmax (1001 classes).
  x = g.AvgPool(x, "Logits/AvgPool_1a_8x8", 8, 8, kValid);
  x = g.Conv(x, "Logits/Conv2d_1c_1x1", 1001);
  x = g.Reshape(x, "Logits/SpatialSqueeze", {1, 1001});
  const std::array<TensorId, 1> out = {g.Softmax(x, "Predictions/Softmax")};
  return g.Build(out, "zoo:inception_v3");
}

}  // namespace arenaplan::zoo
