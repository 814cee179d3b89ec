// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Plans across several memory regions (docs/regions.md): every tensor has a
// region and an offset inside it; each region is one static array in its
// own linker section, and the constexpr validator checks each region on its
// own. A plan with one region keeps using plan.hpp / arena.hpp unchanged.
// Freestanding: no heap, no exceptions, no RTTI, no libc.
//
// Configuration macros: ARENAPLAN_NO_ARENA_SECTION (arena.hpp) also leaves
// every region's array in the default zero-initialised section (.bss).
#ifndef ARENAPLAN_REGIONS_HPP_
#define ARENAPLAN_REGIONS_HPP_

#include <cstddef>
#include <type_traits>

#include "arenaplan/plan.hpp"
#include "arenaplan/tensor.hpp"

/// Attributes of one region's array: its linker section (a string literal).
#ifdef ARENAPLAN_NO_ARENA_SECTION
#define ARENAPLAN_REGION_ATTRIBUTES(literal)
#else
#define ARENAPLAN_REGION_ATTRIBUTES(literal) [[gnu::section(literal)]]
#endif

namespace arenaplan {

/// Where one planned tensor lives and when it is alive, in a plan across
/// regions: `region` indexes the plan's regions (0 = the first, fastest
/// one); `offset` and `size` are bytes from that region's start, the tensor
/// occupying [offset, offset + size); `first_op` and `last_op` are
/// operator indices, BOTH ENDS INCLUDED (as in Placement).
struct RegionPlacement {
  std::size_t region;
  std::size_t offset;
  std::size_t size;
  std::size_t first_op;
  std::size_t last_op;
};

/// The verdict on region `region` of `plan` (count entries): the entries
/// of that region, as Placements in table order, checked by the
/// five-argument FindViolation() against `region_size` bytes; first and
/// second are indices into `plan`. An entry whose region is not below
/// `region_count` is kOutOfBounds (checked with region 0). A table whose
/// length N differs from `count` is kCountMismatch (first = N, second =
/// count), as for ValidateTable().
template <std::size_t N>
[[nodiscard]] constexpr Violation FindRegionViolation(
    const RegionPlacement (&plan)[N], std::size_t count, std::size_t region,
    std::size_t region_count, std::size_t region_size, std::size_t alignment,
    std::size_t operator_count) {
  const bool empty_filler = count == 0 && N == 1 && plan[0].region == 0 &&
                            plan[0].offset == 0 && plan[0].size == 0 &&
                            plan[0].first_op == 0 && plan[0].last_op == 0;
  if (N != count && !empty_filler) {
    return {ValidationResult::kCountMismatch, N, count};
  }
  if (region == 0) {
    for (std::size_t i = 0; i < count; ++i) {
      if (plan[i].region >= region_count) {
        return {ValidationResult::kOutOfBounds, i, count};
      }
    }
  }
  Placement sub[N] = {};
  std::size_t origin[N] = {};
  std::size_t k = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (plan[i].region != region) continue;
    sub[k] = {plan[i].offset, plan[i].size, plan[i].first_op, plan[i].last_op};
    origin[k] = i;
    ++k;
  }
  Violation v =
      FindViolation(&sub[0], k, region_size, alignment, operator_count);
  v.first = v.first < k ? origin[v.first] : count;
  v.second = v.second < k ? origin[v.second] : count;
  return v;
}

/// FindRegionViolation() with allowed overlaps (the generated header's
/// kOverlaps, kPlan indices): a permits table whose length M differs from
/// `permit_count` is kCountMismatch (first = M, second = permit_count);
/// after the per-tensor checks, region 0's call checks every permit
/// (kBadOverlapPermit, first = the permit's index): it names two distinct
/// tensors of the plan IN ONE REGION (a pair split across regions shares no
/// byte and is no permit), its input's last operator and its output's first
/// operator are `op`, its relation is known. Then the region's entries are
/// checked by the seven-argument FindViolation() with the permits whose two
/// tensors are in `region`, so that two tensors of the region alive at a
/// common operator may share bytes only as such a permit allows (kOverlap
/// otherwise); first and second are indices into `plan` (into `permits`
/// for kBadOverlapPermit).
template <std::size_t N, std::size_t M>
[[nodiscard]] constexpr Violation FindRegionViolation(
    const RegionPlacement (&plan)[N], std::size_t count, std::size_t region,
    std::size_t region_count, std::size_t region_size, std::size_t alignment,
    std::size_t operator_count, const OverlapPermit (&permits)[M],
    std::size_t permit_count) {
  const Violation v =
      FindRegionViolation(plan, count, region, region_count, region_size,
                          alignment, operator_count);
  if (v.result == ValidationResult::kCountMismatch) return v;
  if (M != permit_count) {
    return {ValidationResult::kCountMismatch, M, permit_count};
  }
  if (v.result != ValidationResult::kOk &&
      v.result != ValidationResult::kOverlap) {
    return v;
  }
  if (region == 0) {
    for (std::size_t k = 0; k < permit_count; ++k) {
      const OverlapPermit& p = permits[k];
      if (p.input >= count || p.output >= count || p.input == p.output ||
          plan[p.input].region != plan[p.output].region ||
          plan[p.input].last_op != p.op || plan[p.output].first_op != p.op ||
          (p.relation != OverlapRelation::kOutputBelowBy &&
           p.relation != OverlapRelation::kAlias)) {
        return {ValidationResult::kBadOverlapPermit, k, count};
      }
    }
  }
  Placement sub[N] = {};
  std::size_t origin[N] = {};
  std::size_t position[N] = {};
  std::size_t k = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (plan[i].region != region) continue;
    sub[k] = {plan[i].offset, plan[i].size, plan[i].first_op, plan[i].last_op};
    origin[k] = i;
    position[i] = k;
    ++k;
  }
  OverlapPermit sub_permits[M] = {};
  std::size_t permit_origin[M] = {};
  std::size_t kp = 0;
  for (std::size_t q = 0; q < permit_count; ++q) {
    const OverlapPermit& p = permits[q];
    if (p.input >= count || p.output >= count ||
        plan[p.input].region != region || plan[p.output].region != region) {
      continue;
    }
    sub_permits[kp] = {position[p.input], position[p.output], p.op, p.relation,
                       p.distance};
    permit_origin[kp] = q;
    ++kp;
  }
  Violation w = FindViolation(&sub[0], k, region_size, alignment,
                              operator_count, &sub_permits[0], kp);
  if (w.result == ValidationResult::kBadOverlapPermit) {
    w.first = permit_origin[w.first];
    w.second = count;
    return w;
  }
  w.first = w.first < k ? origin[w.first] : count;
  w.second = w.second < k ? origin[w.second] : count;
  return w;
}

/// True when every exact tensor size fits its placement.
[[nodiscard]] constexpr bool RegionTensorBytesFit(const RegionPlacement* plan,
                                                  const std::size_t* bytes,
                                                  std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (bytes[i] > plan[i].size) return false;
  }
  return true;
}

/// A plan across regions as a type (the generated header's `Plan`).
/// `Storage` points to RegionCount pointers, each to its region's array
/// (RegionSizes[r] bytes aligned to Alignment; nullptr for an empty
/// region).
template <std::size_t Alignment, std::size_t OperatorCount,
          std::size_t TensorCount, std::size_t RegionCount,
          const RegionPlacement* Placements, const std::size_t* TensorBytes,
          const std::size_t* RegionSizes, std::byte* const* Storage>
struct RegionPlanTraits {
  static constexpr std::size_t kAlignment = Alignment;  ///< Bytes.
  static constexpr std::size_t kOperatorCount = OperatorCount;
  static constexpr std::size_t kTensorCount = TensorCount;
  static constexpr std::size_t kRegionCount = RegionCount;
  static constexpr const RegionPlacement* kPlacements = Placements;
  static constexpr const std::size_t* kTensorBytes = TensorBytes;
  static constexpr const std::size_t* kRegionSizes = RegionSizes;
  static constexpr std::byte* const* kStorage = Storage;
};

/// Typed access to the tensors of a plan across regions (a
/// RegionPlanTraits): every address is its region's array plus the offset.
template <class PlanT>
class RegionArena {
 public:
  using Plan = PlanT;

  /// The first byte of region `region` (nullptr when it is empty).
  [[nodiscard]] static std::byte* Data(std::size_t region) noexcept {
    return PlanT::kStorage[region];
  }

  /// The first byte of tensor `index`.
  [[nodiscard]] static std::byte* Address(std::size_t index) noexcept {
    return PlanT::kStorage[PlanT::kPlacements[index].region] +
           PlanT::kPlacements[index].offset;
  }

  /// Tensor `Index` as elements of T (the checks of Arena::Get).
  template <class T, std::size_t Index>
  [[nodiscard]] static auto Get() noexcept {
    return detail::TypedTensor<T, Index, PlanT>(
        Data(PlanT::kPlacements[Index].region));
  }

  /// Tensor `id` as elements of T; `id` must come from this plan.
  template <class T, class IdPlan, std::size_t Index>
  [[nodiscard]] static auto Get(TensorId<IdPlan, Index> /*id*/) noexcept {
    static_assert(std::is_same_v<IdPlan, PlanT>,
                  "arenaplan: this tensor belongs to another plan");
    return Get<T, Index>();
  }
};

}  // namespace arenaplan

#endif  // ARENAPLAN_REGIONS_HPP_
