// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Compile-time handles of a plan: the plan's traits, a tensor id bound to
// its plan, the typed view returned by arenaplan::Arena, and the typed
// access that Arena and RegionArena share.
// Freestanding: no heap, no exceptions, no RTTI, no libc.
#ifndef ARENAPLAN_TENSOR_HPP_
#define ARENAPLAN_TENSOR_HPP_

#include <cstddef>
#include <type_traits>

#include "arenaplan/plan.hpp"

namespace arenaplan {

/// Everything the runtime needs to know about one plan, as a type. A
/// generated header defines `using Plan = arenaplan::PlanTraits<...>` from its
/// own constants, so each model's plan is a distinct type.
/// `Placements` points to the plan's table (kTensorCount entries; at least
/// one element of storage so an empty plan is still a valid array).
/// `TensorBytes` points to each tensor's exact size in bytes, before rounding
/// to the alignment (TensorBytes[i] <= Placements[i].size).
/// `Storage` is the arena array: ArenaSize bytes aligned to Alignment,
/// defined once by the generated header (nullptr when ArenaSize is 0).
/// `Overlaps` points to the plan's allowed overlaps (OverlapCount entries;
/// nullptr and 0 for a plan without any).
template <std::size_t ArenaSize, std::size_t Alignment,
          std::size_t OperatorCount, std::size_t TensorCount,
          const Placement* Placements, const std::size_t* TensorBytes,
          std::byte* Storage, const OverlapPermit* Overlaps = nullptr,
          std::size_t OverlapCount = 0>
struct PlanTraits {
  static constexpr std::size_t kArenaSize = ArenaSize;  ///< Bytes.
  static constexpr std::size_t kAlignment = Alignment;  ///< Bytes.
  static constexpr std::size_t kOperatorCount = OperatorCount;
  static constexpr std::size_t kTensorCount = TensorCount;
  static constexpr const Placement* kPlacements = Placements;
  static constexpr const std::size_t* kTensorBytes = TensorBytes;
  static constexpr std::byte* kStorage = Storage;
  static constexpr const OverlapPermit* kOverlaps = Overlaps;
  static constexpr std::size_t kOverlapCount = OverlapCount;
};

/// The id of tensor `Index` of the plan `PlanT`. Naming a tensor the plan
/// does not have (Index >= kTensorCount) fails to compile. Converts to the
/// index, so `kPlan[kSomeTensor]` reads the tensor's placement.
template <class PlanT, std::size_t Index>
struct TensorId {
  static_assert(Index < PlanT::kTensorCount,
                "arenaplan: this tensor is not in the plan (index >= "
                "kTensorCount)");
  using Plan = PlanT;
  static constexpr std::size_t kIndex = Index;
  constexpr operator std::size_t() const noexcept { return Index; }
};

/// A tensor seen as `Count` elements of type T: a pointer into the arena plus
/// a compile-time element count. Non-owning; the arena owns the bytes.
template <class T, std::size_t Count>
struct TensorSpan {
  T* data;  ///< First element, at the tensor's planned offset.
  static constexpr std::size_t kCount = Count;  ///< Elements, not bytes.

  [[nodiscard]] static constexpr std::size_t size() noexcept { return Count; }
  [[nodiscard]] static constexpr std::size_t size_bytes() noexcept {
    return Count * sizeof(T);
  }
  [[nodiscard]] constexpr T& operator[](std::size_t i) const noexcept {
    return data[i];
  }
  [[nodiscard]] constexpr T* begin() const noexcept { return data; }
  [[nodiscard]] constexpr T* end() const noexcept { return data + Count; }
};

namespace detail {

/// Tensor `Index` of the plan `PlanT` (a PlanTraits or a RegionPlanTraits)
/// as elements of T: its first byte is `base` plus its offset (bytes),
/// `base` being the array that holds it (the arena, or its region's
/// array). Arena::Get and RegionArena::Get share it. Fails to compile when
/// the tensor is not in the plan, when sizeof(T) does not divide the
/// tensor's exact size, or when T needs more alignment than the plan gives.
template <class T, std::size_t Index, class PlanT>
[[nodiscard]] auto TypedTensor(std::byte* base) noexcept {
  static_assert(Index < PlanT::kTensorCount,
                "arenaplan: this tensor is not in the plan (index >= "
                "kTensorCount)");
  static_assert(std::is_object_v<T> && !std::is_array_v<T>,
                "arenaplan: the element type must be a non-array object "
                "type");
  constexpr std::size_t kBytes = PlanT::kTensorBytes[Index];
  constexpr std::size_t kOffset = PlanT::kPlacements[Index].offset;
  static_assert(kBytes % sizeof(T) == 0,
                "arenaplan: the element type's size does not divide the "
                "tensor's size");
  static_assert(alignof(T) <= PlanT::kAlignment && kOffset % alignof(T) == 0,
                "arenaplan: the element type needs more alignment than the "
                "plan gives (plan with a larger --align)");
  return TensorSpan<T, kBytes / sizeof(T)>{
      reinterpret_cast<T*>(base + kOffset)};
}

}  // namespace detail

}  // namespace arenaplan

#endif  // ARENAPLAN_TENSOR_HPP_
