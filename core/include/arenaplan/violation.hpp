// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Where a plan breaks an invariant, for compile-time diagnostics: the same
// checks as arenaplan::validate(), in the same order, also returning the
// tensor(s) at fault. Freestanding: no heap, no exceptions, no RTTI, no libc.
#ifndef ARENAPLAN_VIOLATION_HPP_
#define ARENAPLAN_VIOLATION_HPP_

#include <cstddef>

#include "arenaplan/plan.hpp"

namespace arenaplan {

/// A validation verdict and the tensor indices it concerns (kPlan indices;
/// `count` when not applicable).
struct Violation {
  ValidationResult result;
  std::size_t first;
  std::size_t second;
};

/// validate(plan, count, arena_size, alignment) with the offending tensors:
/// `result` always equals validate()'s result; `first` is the first tensor
/// (in table order) breaking a per-tensor rule, or for kOverlap the pair
/// (first < second) found first in row-major pair order.
[[nodiscard]] constexpr Violation FindViolation(const Placement* plan,
                                                std::size_t count,
                                                std::size_t arena_size,
                                                std::size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    return {ValidationResult::kBadAlignment, count, count};
  }
  for (std::size_t i = 0; i < count; ++i) {
    const Placement& p = plan[i];
    if (p.first_op > p.last_op)
      return {ValidationResult::kBadInterval, i, count};
    if (p.offset % alignment != 0)
      return {ValidationResult::kMisaligned, i, count};
    if (p.offset > arena_size || p.size > arena_size - p.offset) {
      return {ValidationResult::kOutOfBounds, i, count};
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t j = i + 1; j < count; ++j) {
      if (LifetimesIntersect(plan[i], plan[j]) &&
          BytesIntersect(plan[i], plan[j])) {
        return {ValidationResult::kOverlap, i, j};
      }
    }
  }
  return {ValidationResult::kOk, count, count};
}

/// FindViolation() with the checks of the five-argument validate():
/// kOperatorOutOfRange names the first tensor whose last_op is not below
/// `operator_count`. `result` always equals that validate()'s result.
[[nodiscard]] constexpr Violation FindViolation(const Placement* plan,
                                                std::size_t count,
                                                std::size_t arena_size,
                                                std::size_t alignment,
                                                std::size_t operator_count) {
  const Violation v = FindViolation(plan, count, arena_size, alignment);
  if (v.result == ValidationResult::kBadAlignment ||
      v.result == ValidationResult::kBadInterval ||
      v.result == ValidationResult::kMisaligned ||
      v.result == ValidationResult::kOutOfBounds) {
    return v;
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (plan[i].last_op >= operator_count) {
      return {ValidationResult::kOperatorOutOfRange, i, count};
    }
  }
  return v;
}

/// The generated header's diagnosis: kCountMismatch (first = N, second =
/// `count`) when the table `plan` does not hold exactly `count` entries
/// (an empty plan's all-zero filler aside), else the five-argument
/// FindViolation. `result` always equals ValidateTable()'s result.
template <std::size_t N>
[[nodiscard]] constexpr Violation FindTableViolation(
    const Placement (&plan)[N], std::size_t count, std::size_t arena_size,
    std::size_t alignment, std::size_t operator_count) {
  const ValidationResult r =
      ValidateTable(plan, count, arena_size, alignment, operator_count);
  if (r == ValidationResult::kCountMismatch) {
    return {ValidationResult::kCountMismatch, N, count};
  }
  return FindViolation(&plan[0], count, arena_size, alignment, operator_count);
}

/// True when the table `values` holds exactly `count` entries (the
/// generated header's kTensorBytes and kTensorNames against kTensorCount),
/// or is the one-entry filler of an empty plan.
template <class T, std::size_t N>
[[nodiscard]] constexpr bool TableHasCount(const T (&)[N], std::size_t count) {
  return N == count || (count == 0 && N == 1);
}

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
