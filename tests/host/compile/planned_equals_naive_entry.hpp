// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// What planned_equals_naive_runner.cpp needs of one compiled model: written
// into the translation units planned_equals_naive_test.cpp generates (one
// PROPERTY_ENTRY(namespace, graph, mode) per model, into a Table per unit)
// and read by the runner. C++17, host only.
#ifndef ARENAPLAN_TESTS_HOST_COMPILE_PLANNED_EQUALS_NAIVE_ENTRY_HPP_
#define ARENAPLAN_TESTS_HOST_COMPILE_PLANNED_EQUALS_NAIVE_ENTRY_HPP_

#include <cstddef>
#include <cstdint>

#include "arenaplan/plan.hpp"

namespace property {

/// One compiled model: graph `graph` (its seed) in `mode` (0 naive, then
/// the modes under test), its Invoke() and its plan tables.
struct Entry {
  std::uint32_t graph;
  int mode;
  void (*invoke)(std::int8_t* arena);
  std::size_t arena_size, alignment, tensor_count;
  const arenaplan::Placement* plan;
  std::size_t input_count;
  const std::size_t* input_indices;  ///< kPlan indices.
  const std::size_t* input_sizes;    ///< Bytes.
  std::size_t output_count;
  const std::size_t* output_indices;
  const std::size_t* output_sizes;
};

/// The entries of one generated translation unit.
struct Table {
  const Entry* entries;
  std::size_t count;
};

}  // namespace property

#define PROPERTY_ENTRY(ns, graph, mode)                                  \
  property::Entry {                                                      \
    graph, mode, &ns::Invoke, ns::kArenaSize, ns::kAlignment,            \
        ns::kTensorCount, ns::kPlan, ns::kInputCount, ns::kInputIndices, \
        ns::kInputSizes, ns::kOutputCount, ns::kOutputIndices,           \
        ns::kOutputSizes                                                 \
  }

#endif  // ARENAPLAN_TESTS_HOST_COMPILE_PLANNED_EQUALS_NAIVE_ENTRY_HPP_
