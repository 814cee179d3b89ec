// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The plan vocabulary shared by the host generator and the firmware runtime:
// one placement per tensor and the constexpr validator that proves a plan
// sound. Freestanding: no heap, no exceptions, no RTTI, no libc.
#ifndef ARENAPLAN_PLAN_HPP_
#define ARENAPLAN_PLAN_HPP_

#include <cstddef>
#include <cstdint>

namespace arenaplan {

/// Where one planned tensor lives and when it is alive.
/// `offset` and `size` are in bytes from the start of the arena; the tensor
/// occupies the half-open byte range [offset, offset + size).
/// `first_op` and `last_op` are operator indices in execution order and BOTH
/// ENDS ARE INCLUDED: the tensor is alive during operators
/// first_op, first_op + 1, ..., last_op (the paper's tensor usage interval).
struct Placement {
  std::size_t offset;
  std::size_t size;
  std::size_t first_op;
  std::size_t last_op;
};

/// The verdict of a validator. The host validator (codegen/validator/validator.hpp)
/// and the constexpr one below return exactly these values.
enum class ValidationResult : std::uint8_t {
  kOk = 0,          ///< Every invariant holds.
  kBadAlignment,    ///< The alignment is zero or not a power of two.
  kBadInterval,     ///< A tensor has first_op > last_op.
  kMisaligned,      ///< An offset is not a multiple of the alignment.
  kOutOfBounds,     ///< offset + size exceeds the arena (or overflows).
  kOverlap,         ///< Two tensors alive at a common operator share a byte.
  kMissingTensor,   ///< A tensor has no placement (host only: counts differ).
  kObjectConflict,  ///< Shared Objects: two tensors alive at a common
                    ///< operator are assigned the same object.
  kObjectTooSmall,  ///< Shared Objects: an object is smaller than a tensor
                    ///< assigned to it, or the index is out of range.
  kOperatorOutOfRange,  ///< A tensor's last_op is not below the operator
                        ///< count (the count was lowered, or an interval
                        ///< raised past the last operator).
  kCountMismatch,       ///< A table's length differs from the tensor count
                        ///< (the count was edited: an entry would be missing
                        ///< or zero-filled).
  kBadOverlapPermit,    ///< An allowed-overlap entry names a tensor outside
                        ///< the plan or the same tensor twice, or an
                        ///< operator where its input does not die or its
                        ///< output is not born.
};

/// A short, stable name for a result, for messages and static_asserts.
[[nodiscard]] constexpr const char* ToString(ValidationResult r) {
  switch (r) {
    case ValidationResult::kOk:
      return "ok";
    case ValidationResult::kBadAlignment:
      return "bad alignment";
    case ValidationResult::kBadInterval:
      return "first_op after last_op";
    case ValidationResult::kMisaligned:
      return "misaligned offset";
    case ValidationResult::kOutOfBounds:
      return "tensor outside the arena";
    case ValidationResult::kOverlap:
      return "live tensors overlap";
    case ValidationResult::kMissingTensor:
      return "tensor not placed";
    case ValidationResult::kObjectConflict:
      return "live tensors share an object";
    case ValidationResult::kObjectTooSmall:
      return "object smaller than tensor";
    case ValidationResult::kOperatorOutOfRange:
      return "last_op not below the operator count";
    case ValidationResult::kCountMismatch:
      return "table length differs from the tensor count";
    case ValidationResult::kBadOverlapPermit:
      return "malformed allowed-overlap entry";
  }
  return "unknown";
}

/// True when the inclusive operator intervals of `a` and `b` intersect.
[[nodiscard]] constexpr bool LifetimesIntersect(const Placement& a,
                                                const Placement& b) {
  return a.first_op <= b.last_op && b.first_op <= a.last_op;
}

/// True when the half-open byte ranges of `a` and `b` share a byte.
/// Zero-size tensors share no byte with anything.
[[nodiscard]] constexpr bool BytesIntersect(const Placement& a,
                                            const Placement& b) {
  return a.size != 0 && b.size != 0 && a.offset < b.offset + b.size &&
         b.offset < a.offset + a.size;
}

/// How an allowed overlap lets an operator's output share bytes with the
/// input it reads for the last time (docs/overlap.md). The kernel's header
/// comment in kernels/ proves the relation safe for its loop order.
enum class OverlapRelation : std::uint8_t {
  /// offset(output) + distance <= offset(input): the output starts at least
  /// `distance` bytes below the input (further below is safe too; far
  /// enough below, the two are simply disjoint).
  kOutputBelowBy = 0,
  /// offset(output) == offset(input) and the sizes are equal: the output is
  /// the input (RESHAPE, SQUEEZE, EXPAND_DIMS).
  kAlias = 1,
};

/// One allowed overlap (the generated header's kOverlaps): operator `op`
/// reads tensor `input` for the last time (plan[input].last_op == op) and
/// creates tensor `output` (plan[output].first_op == op); the two may share
/// bytes when placed in `relation`. Indices are plan-table indices.
struct OverlapPermit {
  std::size_t input;
  std::size_t output;
  std::size_t op;
  OverlapRelation relation;
  std::size_t distance;  ///< Bytes (kOutputBelowBy; 0 for kAlias).
};

/// True when `permit` names two distinct tensors of a plan of `count`
/// entries, its input's last operator and its output's first operator are
/// both `op`.
[[nodiscard]] constexpr bool PermitWellFormed(const Placement* plan,
                                              std::size_t count,
                                              const OverlapPermit& permit) {
  return permit.input < count && permit.output < count &&
         permit.input != permit.output &&
         plan[permit.input].last_op == permit.op &&
         plan[permit.output].first_op == permit.op &&
         (permit.relation == OverlapRelation::kOutputBelowBy ||
          permit.relation == OverlapRelation::kAlias);
}

/// True when `input` and `output` stand in `relation` (see OverlapRelation);
/// no overflow for any offsets.
[[nodiscard]] constexpr bool RelationHolds(const Placement& input,
                                           const Placement& output,
                                           OverlapRelation relation,
                                           std::size_t distance) {
  if (relation == OverlapRelation::kAlias) {
    return input.offset == output.offset && input.size == output.size;
  }
  return output.offset <= input.offset &&
         input.offset - output.offset >= distance;
}

/// True when some permit of `permits` (of `permit_count`) lets tensors `a`
/// and `b` (either may be the input) share bytes where they are placed.
[[nodiscard]] constexpr bool OverlapPermitted(const Placement* plan,
                                              std::size_t a, std::size_t b,
                                              const OverlapPermit* permits,
                                              std::size_t permit_count) {
  for (std::size_t k = 0; k < permit_count; ++k) {
    const OverlapPermit& p = permits[k];
    if (!((p.input == a && p.output == b) || (p.input == b && p.output == a))) {
      continue;
    }
    if (RelationHolds(plan[p.input], plan[p.output], p.relation, p.distance)) {
      return true;
    }
  }
  return false;
}

/// A validation verdict and the tensor indices it concerns (kPlan indices;
/// `count` when not applicable).
struct Violation {
  ValidationResult result;
  std::size_t first;
  std::size_t second;
};

/// Checks a plan at compile time (or at run time) and says where it breaks:
/// the alignment is a power of two, every interval is well formed, every
/// offset is aligned, every tensor lies inside [0, arena_size), and no two
/// tensors whose lifetimes intersect share a byte, checked in that order.
/// `first` is the first tensor (in table order) breaking a per-tensor rule,
/// or for kOverlap the pair (first < second) found first in row-major pair
/// order. Pairwise, O(count^2): a second method beside the host's
/// sweep-line validator, and small enough to read at a glance. `plan`
/// points to `count` placements owned by the caller.
[[nodiscard]] constexpr Violation FindViolation(const Placement* plan,
                                                std::size_t count,
                                                std::size_t arena_size,
                                                std::size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    return {ValidationResult::kBadAlignment, count, count};
  }
  for (std::size_t i = 0; i < count; ++i) {
    const Placement& p = plan[i];
    if (p.first_op > p.last_op) {
      return {ValidationResult::kBadInterval, i, count};
    }
    if (p.offset % alignment != 0) {
      return {ValidationResult::kMisaligned, i, count};
    }
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

/// The verdict of FindViolation alone: kOk when the plan is sound.
[[nodiscard]] constexpr ValidationResult validate(const Placement* plan,
                                                  std::size_t count,
                                                  std::size_t arena_size,
                                                  std::size_t alignment) {
  return FindViolation(plan, count, arena_size, alignment).result;
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

/// validate() and, for every tensor, last_op < operator_count
/// (kOperatorOutOfRange otherwise, checked after the per-tensor rules of
/// validate() and before overlaps): every interval lies among the
/// operators 0 .. operator_count - 1 that actually run.
[[nodiscard]] constexpr ValidationResult validate(const Placement* plan,
                                                  std::size_t count,
                                                  std::size_t arena_size,
                                                  std::size_t alignment,
                                                  std::size_t operator_count) {
  return FindViolation(plan, count, arena_size, alignment, operator_count)
      .result;
}

/// The five-argument FindViolation() with allowed overlaps: after its
/// per-tensor and operator-range checks, every permit must be well formed
/// (kBadOverlapPermit, first = the permit's index), and two tensors alive
/// at a common operator may share a byte only when a permit for the pair
/// holds at their offsets (kOverlap otherwise). `permits` points to
/// `permit_count` entries owned by the caller (nullptr when 0). Pairwise,
/// O(count^2 * permit_count) at worst; a second method beside the host's
/// sweep-line validator.
[[nodiscard]] constexpr Violation FindViolation(
    const Placement* plan, std::size_t count, std::size_t arena_size,
    std::size_t alignment, std::size_t operator_count,
    const OverlapPermit* permits, std::size_t permit_count) {
  const Violation v =
      FindViolation(plan, count, arena_size, alignment, operator_count);
  if (v.result != ValidationResult::kOk &&
      v.result != ValidationResult::kOverlap) {
    return v;
  }
  for (std::size_t k = 0; k < permit_count; ++k) {
    if (!PermitWellFormed(plan, count, permits[k])) {
      return {ValidationResult::kBadOverlapPermit, k, count};
    }
  }
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t j = i + 1; j < count; ++j) {
      if (LifetimesIntersect(plan[i], plan[j]) &&
          BytesIntersect(plan[i], plan[j]) &&
          !OverlapPermitted(plan, i, j, permits, permit_count)) {
        return {ValidationResult::kOverlap, i, j};
      }
    }
  }
  return {ValidationResult::kOk, count, count};
}

/// The verdict of the seven-argument FindViolation() alone.
[[nodiscard]] constexpr ValidationResult validate(
    const Placement* plan, std::size_t count, std::size_t arena_size,
    std::size_t alignment, std::size_t operator_count,
    const OverlapPermit* permits, std::size_t permit_count) {
  return FindViolation(plan, count, arena_size, alignment, operator_count,
                       permits, permit_count)
      .result;
}

/// The generated header's check: the table `plan` holds exactly `count`
/// entries (kCountMismatch otherwise: raising kTensorCount would add a
/// zero-filled entry), and validate(plan, count, arena_size, alignment,
/// operator_count) holds. An empty plan keeps one filler entry (C++ has no
/// zero-length array): N == 1 with count == 0 is accepted when the filler
/// is all zero.
/// (A distinct name: an overload of validate() would lose to the pointer
/// one, which a plain array argument matches just as well.)
template <std::size_t N>
[[nodiscard]] constexpr ValidationResult ValidateTable(
    const Placement (&plan)[N], std::size_t count, std::size_t arena_size,
    std::size_t alignment, std::size_t operator_count) {
  const bool empty_filler = count == 0 && N == 1 && plan[0].offset == 0 &&
                            plan[0].size == 0 && plan[0].first_op == 0 &&
                            plan[0].last_op == 0;
  if (N != count && !empty_filler) return ValidationResult::kCountMismatch;
  return validate(&plan[0], count, arena_size, alignment, operator_count);
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

/// ValidateTable() for a header with allowed overlaps: the table `permits`
/// holds exactly `permit_count` entries (kCountMismatch otherwise), and the
/// seven-argument validate() holds.
template <std::size_t N, std::size_t M>
[[nodiscard]] constexpr ValidationResult ValidateTable(
    const Placement (&plan)[N], std::size_t count, std::size_t arena_size,
    std::size_t alignment, std::size_t operator_count,
    const OverlapPermit (&permits)[M], std::size_t permit_count) {
  const ValidationResult r =
      ValidateTable(plan, count, arena_size, alignment, operator_count);
  if (r == ValidationResult::kCountMismatch) return r;
  if (M != permit_count) return ValidationResult::kCountMismatch;
  if (r != ValidationResult::kOk && r != ValidationResult::kOverlap) return r;
  return validate(&plan[0], count, arena_size, alignment, operator_count,
                  &permits[0], permit_count);
}

/// FindTableViolation() with allowed overlaps; `result` always equals the
/// seven-argument ValidateTable()'s (kCountMismatch for the permits table:
/// first = M, second = `permit_count`).
template <std::size_t N, std::size_t M>
[[nodiscard]] constexpr Violation FindTableViolation(
    const Placement (&plan)[N], std::size_t count, std::size_t arena_size,
    std::size_t alignment, std::size_t operator_count,
    const OverlapPermit (&permits)[M], std::size_t permit_count) {
  const Violation v =
      FindTableViolation(plan, count, arena_size, alignment, operator_count);
  if (v.result == ValidationResult::kCountMismatch) return v;
  if (M != permit_count) {
    return {ValidationResult::kCountMismatch, M, permit_count};
  }
  if (v.result != ValidationResult::kOk &&
      v.result != ValidationResult::kOverlap) {
    return v;
  }
  return FindViolation(&plan[0], count, arena_size, alignment, operator_count,
                       &permits[0], permit_count);
}

/// True when the table `values` holds exactly `count` entries (the
/// generated header's kTensorBytes and kTensorNames against kTensorCount),
/// or is the one-entry filler of an empty plan.
template <class T, std::size_t N>
[[nodiscard]] constexpr bool TableHasCount(const T (&)[N], std::size_t count) {
  return N == count || (count == 0 && N == 1);
}

/// Array overload: `validate(kPlan, kArenaSize, kAlignment)`.
template <std::size_t N>
[[nodiscard]] constexpr ValidationResult validate(const Placement (&plan)[N],
                                                  std::size_t arena_size,
                                                  std::size_t alignment) {
  return validate(plan, N, arena_size, alignment);
}

}  // namespace arenaplan

#endif  // ARENAPLAN_PLAN_HPP_
