// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Compile-time diagnostics of a plan beyond validate(): typed sizes that fit
// their placements, and PlanCheck, which names the tensors FindViolation()
// (plan.hpp) finds at fault. Freestanding: no heap, no exceptions, no RTTI,
// no libc.
#ifndef ARENAPLAN_VIOLATION_HPP_
#define ARENAPLAN_VIOLATION_HPP_

#include <cstddef>

#include "arenaplan/plan.hpp"

namespace arenaplan {

/// True when every exact tensor size fits its placement
/// (bytes[i] <= plan[i].size): typed access never reaches past a placement.
[[nodiscard]] constexpr bool TensorBytesFit(const Placement* plan,
                                            const std::size_t* bytes,
                                            std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (bytes[i] > plan[i].size) return false;
  }
  return true;
}

/// `value` is true unless R is `Bad`. Used as
/// static_assert(PlanCheck<kBad, r, first, second>::value, "what") so that a
/// failure also reports "in instantiation of PlanCheck<kBad, kBad, first,
/// second>": the kPlan indices of the tensors at fault.
template <ValidationResult Bad, ValidationResult R, std::size_t FirstTensor,
          std::size_t SecondTensor>
struct PlanCheck {
  static_assert(R != Bad,
                "arenaplan: unsound plan: the kPlan indices of the tensors at "
                "fault are the last two arguments of this PlanCheck");
  static constexpr bool value = R != Bad;
};

}  // namespace arenaplan

#endif  // ARENAPLAN_VIOLATION_HPP_
