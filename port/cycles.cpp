// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The cycle source: DWT CYCCNT where the core has one (ARMv7-M, ARMv8-M
// Mainline), else the SysTick down-counter run from the core clock.
// QEMU does not model pipeline timing: its counts follow emulated time.
#include <cstdint>

#include "port/port.hpp"

namespace arenaplan::port {
namespace {

volatile std::uint32_t& Reg(std::uint32_t address) {
  return *reinterpret_cast<volatile std::uint32_t*>(address);
}
constexpr std::uint32_t kDemcr = 0xE000EDFC;    // bit 24: TRCENA
constexpr std::uint32_t kDwtCtrl = 0xE0001000;  // bit 0: CYCCNTENA,
                                                // bit 25: NOCYCCNT
constexpr std::uint32_t kDwtCyccnt = 0xE0001004;
constexpr std::uint32_t kSystCsr = 0xE000E010;  // bit 0 ENABLE, 2 CLKSOURCE
constexpr std::uint32_t kSystRvr = 0xE000E014;  // reload value, 24 bits
constexpr std::uint32_t kSystCvr = 0xE000E018;  // current value
constexpr std::uint32_t kSysTickMask = 0x00FFFFFFu;

enum class Source : std::uint8_t { kUnknown, kDwt, kSysTick };
Source source = Source::kUnknown;

Source Start() {
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || \
    defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
  Reg(kDemcr) |= 1u << 24;
  if ((Reg(kDwtCtrl) & (1u << 25)) == 0) {
    Reg(kDwtCyccnt) = 0;
    Reg(kDwtCtrl) |= 1u;
    const std::uint32_t before = Reg(kDwtCyccnt);
    for (volatile int i = 0; i < 64; i = i + 1) {
    }
    // An emulator may accept the writes but never count: check it moves.
    if (Reg(kDwtCyccnt) != before) return Source::kDwt;
  }
#endif
  Reg(kSystRvr) = kSysTickMask;
  Reg(kSystCvr) = 0;
  Reg(kSystCsr) = (1u << 2) | 1u;  // core clock, no interrupt, enabled
  // The counter holds 0 until its first reload: one clock on silicon, but
  // QEMU reloads only when its timer first fires. Wait (bounded) for it so
  // that the first interval measured does not start from a stuck zero.
  for (std::uint32_t i = 0; i < 1000000 && Reg(kSystCvr) == 0; ++i) {
  }
  return Source::kSysTick;
}

}  // namespace

bool HasCycleCounter() {
  if (source == Source::kUnknown) source = Start();
  return source == Source::kDwt;
}

std::uint32_t CycleCount() {
  if (source == Source::kUnknown) source = Start();
  if (source == Source::kDwt) return Reg(kDwtCyccnt);
  // SysTick counts down and wraps at 2^24.
  return (kSysTickMask - Reg(kSystCvr)) & kSysTickMask;
}

void CycleRestart() {
  if (source == Source::kUnknown) source = Start();
  if (source != Source::kSysTick) return;
  Reg(kSystCvr) = 0;  // clears the counter and COUNTFLAG
  // As in Start(): under QEMU the counter holds 0 until its next reload.
  for (std::uint32_t i = 0; i < 1000000 && Reg(kSystCvr) == 0; ++i) {
  }
  const std::uint32_t csr = Reg(kSystCsr);  // clears COUNTFLAG (the reload
  static_cast<void>(csr);                   // may have set it)
}

bool CycleWrapped() {
  // COUNTFLAG (bit 16): the counter reached 0 since the last read of CSR.
  return source == Source::kSysTick && (Reg(kSystCsr) & (1u << 16)) != 0;
}

std::uint32_t CycleDelta(std::uint32_t start, std::uint32_t end) {
  const std::uint32_t delta = end - start;
  return HasCycleCounter() ? delta : delta & kSysTickMask;
}

}  // namespace arenaplan::port
