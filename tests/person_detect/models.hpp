// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The table of generated person_detect models (one per planning strategy)
// that gen_models.sh writes: each entry runs the same operators and
// constants on a different arena plan.
#ifndef ARENAPLAN_TESTS_PERSON_DETECT_MODELS_HPP_
#define ARENAPLAN_TESTS_PERSON_DETECT_MODELS_HPP_

#include <cstddef>
#include <cstdint>

#include "arenaplan/plan.hpp"

namespace person_detect {

struct ModelEntry {
  const char* strategy;  ///< "offsets/greedy-by-size", ...
  void (*invoke)(std::int8_t* arena);
  std::size_t arena_size;  ///< Bytes.
  std::size_t alignment;   ///< Bytes.
  const arenaplan::Placement* plan;
  std::size_t tensor_count;
  std::size_t input_offset, input_bytes;
  std::size_t output_offset, output_bytes;
};

#define PERSON_DETECT_MODEL_ENTRY(ns, name)                                   \
  ::person_detect::ModelEntry {                                               \
    name, &ns::Invoke, ns::kArenaSize, ns::kAlignment, ns::kPlan,             \
        ns::kTensorCount, ns::kPlan[ns::kInputIndex].offset, ns::kInputBytes, \
        ns::kPlan[ns::kOutputIndex].offset, ns::kOutputBytes                  \
  }

extern const ModelEntry kModels[];
extern const std::size_t kModelCount;

}  // namespace person_detect

#endif  // ARENAPLAN_TESTS_PERSON_DETECT_MODELS_HPP_
