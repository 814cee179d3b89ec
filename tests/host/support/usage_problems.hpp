// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Planning problems for the planner, overlap and region tests: a problem
// from hand-written records and pairs, region specs from capacities, the
// two kinds of allowed pair, and random records with random well-formed
// pairs (each test draws its own probabilities through the callbacks, so
// its instances stay those of its seed).
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_USAGE_PROBLEMS_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_USAGE_PROBLEMS_HPP_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "codegen/records.hpp"
#include "codegen/regions/regions.hpp"

namespace arenaplan::testing_util {

/// A problem from {first_op, last_op, size} records (operators, both ends
/// included; bytes) and allowed pairs: ids "0", "1", ..., empty names,
/// source "test", operator_count one past the last operator used.
inline UsageProblem Problem(const std::vector<TensorUsageRecord>& records,
                            const std::vector<OverlapPair>& pairs = {}) {
  UsageProblem p;
  p.records = records;
  p.overlaps = pairs;
  p.source = "test";
  for (std::size_t i = 0; i < records.size(); ++i) {
    p.ids.push_back(std::to_string(i));
    p.names.emplace_back();
    p.operator_count =
        std::max<std::uint32_t>(p.operator_count, records[i].last_op + 1);
  }
  return p;
}

/// Regions "r0", "r1", ... (fastest first) of the given capacities in
/// bytes, each in section ".arena_<name>".
inline std::vector<RegionSpec> Regions(
    const std::vector<std::uint64_t>& capacities) {
  std::vector<RegionSpec> out;
  for (std::size_t r = 0; r < capacities.size(); ++r) {
    RegionSpec spec;
    // append, not "r" + ...: GCC 12's -Wrestrict misreads the inlined
    // operator+ of a literal and a string.
    spec.name = std::string("r").append(std::to_string(r));
    spec.capacity = capacities[r];
    spec.section = std::string(".arena_").append(spec.name);
    out.push_back(spec);
  }
  return out;
}

/// Output `out` may start `d` bytes or more below input `in` at `op`.
inline OverlapPair Below(std::uint32_t in, std::uint32_t out, std::uint32_t op,
                         std::uint64_t d) {
  return {in, out, op, OverlapRelation::kOutputBelowBy, d};
}

/// Output `out` may take input `in`'s bytes at `op`.
inline OverlapPair Alias(std::uint32_t in, std::uint32_t out,
                         std::uint32_t op) {
  return {in, out, op, OverlapRelation::kAlias, 0};
}

/// `n` random records over operators 0..ops-1: for each, a = rng() % ops,
/// b = rng() % ops, then size(rng) bytes (drawn in that order); the record
/// is [min(a, b), max(a, b)].
template <class Size>
std::vector<TensorUsageRecord> RandomRecords(std::mt19937_64& rng,
                                             std::uint32_t ops, std::size_t n,
                                             Size size) {
  std::vector<TensorUsageRecord> records(n);
  for (TensorUsageRecord& r : records) {
    const auto a = static_cast<std::uint32_t>(rng() % ops);
    const auto b = static_cast<std::uint32_t>(rng() % ops);
    r = {std::min(a, b), std::max(a, b), size(rng)};
  }
  return records;
}

/// Well-formed random pairs: for every input `in` and output `out != in`
/// (in that order) where `in` dies at the operator that creates `out`,
/// make(rng, in, out) gives the pair to add, if any (it draws only on such
/// candidates).
template <class MakePair>
std::vector<OverlapPair> RandomPairs(
    std::mt19937_64& rng, const std::vector<TensorUsageRecord>& records,
    MakePair make) {
  std::vector<OverlapPair> pairs;
  const auto n = static_cast<std::uint32_t>(records.size());
  for (std::uint32_t in = 0; in < n; ++in) {
    for (std::uint32_t out = 0; out < n; ++out) {
      if (in == out || records[in].last_op != records[out].first_op) continue;
      const std::optional<OverlapPair> pair = make(rng, in, out);
      if (pair) pairs.push_back(*pair);
    }
  }
  return pairs;
}

}  // namespace arenaplan::testing_util

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_USAGE_PROBLEMS_HPP_
