// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The static arena: one alignas(kAlignment) array of exactly kArenaSize
// bytes, and typed access to every planned tensor at its planned offset.
// Freestanding: no heap, no exceptions, no RTTI, no libc.
//
// Configuration macros (define them the same way in every translation unit):
//   ARENAPLAN_ARENA_SECTION   linker section of the array (default ".arena";
//                             the board's linker script marks it NOLOAD).
//   ARENAPLAN_NO_ARENA_SECTION  leave the array in the toolchain's default
//                             zero-initialised section (.bss).
//   ARENAPLAN_CONST_SECTION   linker section of every constant array of a
//                             generated model source (weights, biases,
//                             requantization parameters, tables); undefined
//                             (the default): each array stays in the
//                             toolchain's own .rodata.NAME section, with
//                             the code. port/cortex_m_const.ld places
//                             ".model_const" in the board's CONST memory
//                             (docs/boards.md).
//   ARENAPLAN_DEBUG           1: BeforeOperator() poisons dead tensors and
//                             checks the guard bytes around live tensors.
//   ARENAPLAN_ON_GUARD_FAILURE(report)  debug mode only: called with the
//                             GuardReport when a check fails (default: none).
#ifndef ARENAPLAN_ARENA_HPP_
#define ARENAPLAN_ARENA_HPP_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "arenaplan/plan.hpp"
#include "arenaplan/tensor.hpp"
#include "arenaplan/violation.hpp"

#ifndef ARENAPLAN_ARENA_SECTION
#define ARENAPLAN_ARENA_SECTION ".arena"
#endif

/// Attributes of the arena array a generated header defines: the board's
/// section (a variable, not a template member: GCC ignores section
/// attributes on static data members of class templates).
#ifdef ARENAPLAN_NO_ARENA_SECTION
#define ARENAPLAN_ARENA_ATTRIBUTES
#else
#define ARENAPLAN_ARENA_ATTRIBUTES [[gnu::section(ARENAPLAN_ARENA_SECTION)]]
#endif

/// Attributes of every constant array a generated model source defines
/// (ARENAPLAN_CONST_SECTION's section, or none).
#ifdef ARENAPLAN_CONST_SECTION
#define ARENAPLAN_CONST_ATTRIBUTES [[gnu::section(ARENAPLAN_CONST_SECTION)]]
#else
#define ARENAPLAN_CONST_ATTRIBUTES
#endif

#if defined(ARENAPLAN_DEBUG) && (ARENAPLAN_DEBUG + 0) != 0
#define ARENAPLAN_DEBUG_ENABLED 1
#else
#define ARENAPLAN_DEBUG_ENABLED 0
#endif

namespace arenaplan {

/// True when the runtime was built with ARENAPLAN_DEBUG=1.
inline constexpr bool kDebugMode = ARENAPLAN_DEBUG_ENABLED != 0;

/// The byte debug mode writes over every byte no live tensor owns.
inline constexpr std::uint8_t kPoisonByte = 0xA5;

/// "No tensor" in a GuardReport.
inline constexpr std::size_t kNoTensor = static_cast<std::size_t>(-1);

/// The outcome of a debug-mode guard check.
struct GuardReport {
  bool ok = true;
  /// The operator whose run left a byte changed outside its live tensors.
  std::size_t op = 0;
  /// The first changed byte, in bytes from the start of the arena.
  std::size_t offset = 0;
  /// The live tensor ending nearest below `offset` (the likeliest writer:
  /// an overrun past its end) and the one starting nearest above it (an
  /// underrun); kNoTensor when there is none.
  std::size_t tensor_below = kNoTensor;
  std::size_t tensor_above = kNoTensor;
};

/// The arena of the plan `PlanT` (an arenaplan::PlanTraits, usually the
/// generated header's `Plan`). Everything is static: the type stands for one
/// static array of exactly PlanT::kArenaSize bytes aligned to
/// PlanT::kAlignment (PlanT::kStorage, which the generated header defines in
/// the arena section), and every accessor resolves to a constant address.
template <class PlanT>
class Arena {
 public:
  using Plan = PlanT;
  static constexpr std::size_t kSize = PlanT::kArenaSize;       ///< Bytes.
  static constexpr std::size_t kAlignment = PlanT::kAlignment;  ///< Bytes.
  static constexpr std::size_t kTensorCount = PlanT::kTensorCount;
  static constexpr std::size_t kOperatorCount = PlanT::kOperatorCount;

  static_assert(validate(PlanT::kPlacements, PlanT::kTensorCount,
                         PlanT::kArenaSize, PlanT::kAlignment,
                         PlanT::kOperatorCount, PlanT::kOverlaps,
                         PlanT::kOverlapCount) == ValidationResult::kOk,
                "arenaplan: the plan fails arenaplan::validate()");
  static_assert(TensorBytesFit(PlanT::kPlacements, PlanT::kTensorBytes,
                               PlanT::kTensorCount),
                "arenaplan: a tensor's exact size exceeds its placement");
  // (No static_assert on kStorage != nullptr: GCC's UndefinedBehaviorSanitizer
  // makes that comparison of a template argument non-constant. The generated
  // header always defines the storage when kArenaSize > 0.)

  /// The first byte of the arena (nullptr when kSize is 0).
  [[nodiscard]] static constexpr std::byte* Data() noexcept {
    return PlanT::kStorage;
  }

  /// Tensor `Index` as elements of T. Fails to compile when the tensor is
  /// not in the plan, when sizeof(T) does not divide the tensor's exact
  /// size, or when T needs more alignment than the plan gives.
  template <class T, std::size_t Index>
  [[nodiscard]] static auto Get() noexcept {
    return detail::TypedTensor<T, Index, PlanT>(PlanT::kStorage);
  }

  /// Tensor `id` as elements of T; `id` must come from this plan.
  template <class T, class IdPlan, std::size_t Index>
  [[nodiscard]] static auto Get(TensorId<IdPlan, Index> /*id*/) noexcept {
    static_assert(std::is_same_v<IdPlan, PlanT>,
                  "arenaplan: this tensor belongs to another plan");
    return Get<T, Index>();
  }

  /// Call before running operator `op` (0 .. kOperatorCount - 1), and
  /// AfterLastOperator() after the last one. Debug mode: checks that the
  /// previous operator (op - 1) changed no byte outside the tensors alive
  /// during it, then fills every byte outside the tensors alive during `op`
  /// with kPoisonByte. Otherwise: does nothing and compiles to nothing.
  static GuardReport BeforeOperator(std::size_t op) noexcept {
#if ARENAPLAN_DEBUG_ENABLED
    GuardReport report;
    if (op > 0) report = Check(op - 1);
    Poison(op);
    return report;
#else
    (void)op;
    return GuardReport{};
#endif
  }

  /// Debug mode: checks the last operator's guard bytes. Otherwise nothing.
  static GuardReport AfterLastOperator() noexcept {
#if ARENAPLAN_DEBUG_ENABLED
    if (kOperatorCount == 0) return GuardReport{};
    return Check(kOperatorCount - 1);
#else
    return GuardReport{};
#endif
  }

  /// True when tensor `i` is alive during operator `op` (inclusive ends).
  [[nodiscard]] static constexpr bool IsAlive(std::size_t i,
                                              std::size_t op) noexcept {
    return PlanT::kPlacements[i].first_op <= op &&
           op <= PlanT::kPlacements[i].last_op;
  }

  /// Fills every byte no tensor alive during `op` owns with kPoisonByte. A
  /// live tensor owns [offset, offset + exact size); its alignment padding
  /// is therefore poisoned too and acts as a guard after it.
  static void Poison(std::size_t op) noexcept {
    // volatile: a plain loop may become a call to memset, which a
    // freestanding image need not have.
    volatile std::byte* const bytes = PlanT::kStorage;
    ForEachFreeRange(op, [bytes](std::size_t begin, std::size_t end) {
      for (std::size_t k = begin; k < end; ++k) {
        bytes[k] = static_cast<std::byte>(kPoisonByte);
      }
      return true;
    });
  }

  /// Checks that every byte no tensor alive during `op` owns still holds
  /// kPoisonByte (it was poisoned before `op` ran). Calls
  /// ARENAPLAN_ON_GUARD_FAILURE(report) when defined and a byte changed.
  [[nodiscard]] static GuardReport Check(std::size_t op) noexcept {
    const std::byte* const bytes = PlanT::kStorage;
    GuardReport report;
    ForEachFreeRange(op, [&](std::size_t begin, std::size_t end) {
      for (std::size_t k = begin; k < end; ++k) {
        if (bytes[k] != static_cast<std::byte>(kPoisonByte)) {
          report.ok = false;
          report.op = op;
          report.offset = k;
          return false;
        }
      }
      return true;
    });
    if (!report.ok) {
      std::size_t best_below = 0;
      std::size_t best_above = kSize;
      for (std::size_t i = 0; i < kTensorCount; ++i) {
        if (!IsAlive(i, op) || PlanT::kTensorBytes[i] == 0) continue;
        const std::size_t begin = PlanT::kPlacements[i].offset;
        const std::size_t end = begin + PlanT::kTensorBytes[i];
        if (end <= report.offset &&
            (report.tensor_below == kNoTensor || end > best_below)) {
          best_below = end;
          report.tensor_below = i;
        }
        if (begin > report.offset &&
            (report.tensor_above == kNoTensor || begin < best_above)) {
          best_above = begin;
          report.tensor_above = i;
        }
      }
#ifdef ARENAPLAN_ON_GUARD_FAILURE
      ARENAPLAN_ON_GUARD_FAILURE(report);
#endif
    }
    return report;
  }

 private:
  /// Calls visit(begin, end) for every maximal byte range [begin, end) of
  /// the arena that no tensor alive during `op` owns, in address order,
  /// until visit returns false. O(kTensorCount) per range; no memory.
  template <class Visit>
  static void ForEachFreeRange(std::size_t op, Visit visit) noexcept {
    std::size_t pos = 0;
    while (pos < kSize) {
      std::size_t next = kSize;  // Nearest owned byte at or after pos.
      bool inside = false;
      for (std::size_t i = 0; i < kTensorCount; ++i) {
        if (!IsAlive(i, op) || PlanT::kTensorBytes[i] == 0) continue;
        const std::size_t begin = PlanT::kPlacements[i].offset;
        const std::size_t end = begin + PlanT::kTensorBytes[i];
        if (begin <= pos && pos < end) {
          pos = end;
          inside = true;
          break;
        }
        if (begin > pos && begin < next) next = begin;
      }
      if (inside) continue;
      if (!visit(pos, next)) return;
      pos = next;
    }
  }
};

}  // namespace arenaplan

#endif  // ARENAPLAN_ARENA_HPP_
