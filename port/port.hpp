// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The Cortex-M port: what firmware (and the on-target tests) may call.
// Console output and exit go through Arm semihosting, so they work under
// `qemu-system-arm -semihosting-config enable=on,target=native` and under a
// debugger; on a board without a debugger attached a semihosting call traps.
// Freestanding: no heap, no exceptions, no libc.
#ifndef ARENAPLAN_PORT_PORT_HPP_
#define ARENAPLAN_PORT_PORT_HPP_

#include <cstdint>

namespace arenaplan::port {

/// Writes the NUL-terminated string `text` to the host console
/// (semihosting SYS_WRITE0). `text` is borrowed for the call only.
void Write(const char* text);

/// Writes `value` in decimal.
void WriteUnsigned(std::uint32_t value);

/// Writes `value` as "0x" followed by 8 hexadecimal digits.
void WriteHex(std::uint32_t value);

/// Ends the program with `status` as the emulator's (or debugger's) exit
/// status: semihosting SYS_EXIT_EXTENDED with ADP_Stopped_ApplicationExit.
/// Never returns; if the host ignores the request the core waits forever.
[[noreturn]] void Exit(int status);

/// True when the core counts cycles in DWT CYCCNT (ARMv7-M and ARMv8-M
/// Mainline). Under QEMU the count follows emulated time, not real cycles.
bool HasCycleCounter();

/// A free-running count, in core clock cycles (DWT CYCCNT, 32 bits) where
/// HasCycleCounter(), else in SysTick ticks of the core clock (24 bits).
/// Wraps; take differences with CycleDelta().
std::uint32_t CycleCount();

/// Cycles from `start` to `end` (two CycleCount() values), modulo the
/// counter's width; right when less than one wrap period passed between.
std::uint32_t CycleDelta(std::uint32_t start, std::uint32_t end);

/// Restarts the SysTick counter from the top of its period (no-op with a
/// cycle counter), so that an interval measured from the next CycleCount()
/// wraps only after 2^24 ticks; outside any measured interval (it waits for
/// the counter's reload).
void CycleRestart();

/// True when the SysTick counter reached 0 since CycleRestart(): an interval
/// measured from just after CycleRestart() was longer than the counter's
/// 2^24 ticks, so CycleDelta() is wrong for it. Always false with DWT
/// CYCCNT (32 bits, unchecked).
bool CycleWrapped();

/// The word PaintStack() fills the free stack with.
inline constexpr std::uint32_t kStackPaint = 0xC5AC57ACu;

/// The current stack pointer (the main stack's, in Thread mode), as an
/// address. Inlined, so it reads the caller's own stack pointer.
[[gnu::always_inline]] inline std::uint32_t StackPointer() {
  std::uint32_t sp;
  asm volatile("mov %0, sp" : "=r"(sp));
  return sp;
}

/// The highest address + 1 of the main stack (its initial pointer) and its
/// lowest address (__stack_top and __stack_limit of port/cortex_m.ld).
std::uint32_t StackTop();
std::uint32_t StackLimit();

/// Fills every word from StackLimit() up to (not including) the stack
/// pointer of PaintStack itself with kStackPaint: the stack no call has
/// used yet. PaintStack writes no stack of its own (a leaf without a
/// frame), so the words between its caller's stack pointer and its own
/// are none or a few and are left as they are.
void PaintStack();

/// The lowest address in [StackLimit(), StackTop()) whose word no longer
/// holds kStackPaint since PaintStack(): everything below it was never
/// written (the stack's low-water mark). StackLimit() itself when even
/// the lowest word was written (the stack may have overflowed).
std::uint32_t StackLowWater();

/// The exit status of a firmware that stopped on a fault (HardFault,
/// MemManage, BusFault, UsageFault, SecureFault or an unexpected IRQ).
inline constexpr int kFaultExitStatus = 3;

}  // namespace arenaplan::port

#endif  // ARENAPLAN_PORT_PORT_HPP_
