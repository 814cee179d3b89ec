// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Cortex-M start-up: the vector table, the reset handler (copies .data from
// its load address, zeroes .bss, enables the FPU on cores built with one,
// runs static constructors, calls main() and exits with its status), and a
// fault handler that prints what faulted and exits non-zero.
// The symbols used here are defined by port/cortex_m.ld.
#include <cstdint>

#include "port/port.hpp"

extern "C" {
// Linker-script symbols: addresses only, never dereferenced as objects.
extern std::uint32_t __data_load[];   // load address of .data (in CODE)
extern std::uint32_t __data_start[];  // run address of .data (in RAM)
extern std::uint32_t __data_end[];    // one past the last .data word
extern std::uint32_t __bss_start[];
extern std::uint32_t __bss_end[];
extern std::uint32_t __stack_top[];    // initial main stack pointer
extern std::uint32_t __stack_limit[];  // lowest address of the stack
using InitFunction = void (*)();
extern InitFunction __init_array_start[];
extern InitFunction __init_array_end[];

int main();
[[noreturn]] void Reset_Handler();
void Fault_Handler();
[[noreturn]] void arenaplan_fault_report(const std::uint32_t* frame,
                                         std::uint32_t exc_return);
}

namespace {

// System Control Block registers (ARMv7-M ARM B3.2.2, ARMv8-M ARM D1.2).
volatile std::uint32_t& Reg(std::uint32_t address) {
  return *reinterpret_cast<volatile std::uint32_t*>(address);
}
constexpr std::uint32_t kCpacr = 0xE000ED88;  // Coprocessor Access Control
constexpr std::uint32_t kIcsr = 0xE000ED04;   // IPSR mirror: VECTACTIVE
constexpr std::uint32_t kCcr = 0xE000ED14;    // Configuration and Control
constexpr std::uint32_t kShcsr = 0xE000ED24;  // System Handler Ctrl/State
constexpr std::uint32_t kCfsr = 0xE000ED28;   // Configurable Fault Status
constexpr std::uint32_t kHfsr = 0xE000ED2C;   // HardFault Status
constexpr std::uint32_t kMmfar = 0xE000ED34;  // MemManage Fault Address
constexpr std::uint32_t kBfar = 0xE000ED38;   // BusFault Address
constexpr std::uint32_t kSfsr = 0xE000EDE4;   // SecureFault Status (v8-M)

const char* ExceptionName(std::uint32_t number) {
  switch (number) {
    case 2:
      return "NMI";
    case 3:
      return "HardFault";
    case 4:
      return "MemManage";
    case 5:
      return "BusFault";
    case 6:
      return "UsageFault";
    case 7:
      return "SecureFault";
    case 11:
      return "SVCall";
    case 12:
      return "DebugMonitor";
    case 14:
      return "PendSV";
    case 15:
      return "SysTick";
    default:
      return number >= 16 ? "IRQ" : "reserved exception";
  }
}

void WriteField(const char* name, std::uint32_t value) {
  arenaplan::port::Write(name);
  arenaplan::port::WriteHex(value);
}

}  // namespace

extern "C" {

[[noreturn]] void Reset_Handler() {
#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
  // ARMv8-M Mainline checks the main stack against MSPLIM: an overflow into
  // the arena or .bss becomes a UsageFault (STKOF) instead of corruption.
  asm volatile("msr msplim, %0" : : "r"(__stack_limit));
#endif
  const std::uint32_t* from = __data_load;
  for (std::uint32_t* to = __data_start; to < __data_end; ++to, ++from) {
    *to = *from;
  }
  for (std::uint32_t* to = __bss_start; to < __bss_end; ++to) *to = 0;
#if defined(__ARM_FP)
  // Full access to CP10 and CP11 (the FPU, and MVE on Cortex-M55) before
  // any floating-point instruction runs (ARMv7-M ARM B3.2.20).
  Reg(kCpacr) |= 0xFu << 20;
  asm volatile("dsb\n\tisb" ::: "memory");
#endif
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || \
    defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
  // Report MemManage, BusFault and UsageFault (and SecureFault on ARMv8-M)
  // under their own names instead of escalating them to HardFault, and
  // trap integer division by zero (ARMv7-M ARM B3.2.8, B3.2.13).
  Reg(kShcsr) |= (1u << 16) | (1u << 17) | (1u << 18)
#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
                 | (1u << 19)
#endif
      ;
  Reg(kCcr) |= 1u << 4;  // DIV_0_TRP
  asm volatile("dsb\n\tisb" ::: "memory");
#endif
  for (InitFunction* f = __init_array_start; f < __init_array_end; ++f) {
    (*f)();
  }
  arenaplan::port::Exit(main());
}

/// Every fault and unexpected interrupt lands here. Finds the stacked
/// exception frame (main or process stack, bit 2 of EXC_RETURN in LR) and
/// passes it with EXC_RETURN to arenaplan_fault_report. Written for ARMv6-M
/// Thumb so one source serves every core.
__attribute__((naked)) void Fault_Handler() {
  asm volatile(
      "movs r0, #4\n\t"
      "mov r1, lr\n\t"
      "tst r0, r1\n\t"
      "bne 1f\n\t"
      "mrs r0, msp\n\t"
      "b 2f\n"
      "1:\n\t"
      "mrs r0, psp\n"
      "2:\n\t"
      "ldr r2, =arenaplan_fault_report\n\t"
      "bx r2\n\t"
      ".ltorg\n");
}

/// Prints the exception, the stacked PC, LR and xPSR, and (on cores that
/// have them) the fault status and address registers, then exits with
/// port::kFaultExitStatus. `frame` points to the stacked R0-R3, R12, LR,
/// PC, xPSR (8 words).
[[noreturn]] void arenaplan_fault_report(const std::uint32_t* frame,
                                         std::uint32_t exc_return) {
  const std::uint32_t number = Reg(kIcsr) & 0x1FFu;
  arenaplan::port::Write("\nFAULT: ");
  arenaplan::port::Write(ExceptionName(number));
  WriteField(" exception=", number);
  WriteField(" pc=", frame[6]);
  WriteField(" lr=", frame[5]);
  WriteField(" xpsr=", frame[7]);
  WriteField(" exc_return=", exc_return);
#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || \
    defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
  // ARMv6-M and ARMv8-M Baseline have no CFSR/HFSR/MMFAR/BFAR.
  WriteField(" cfsr=", Reg(kCfsr));
  WriteField(" hfsr=", Reg(kHfsr));
  WriteField(" mmfar=", Reg(kMmfar));
  WriteField(" bfar=", Reg(kBfar));
#endif
#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8_1M_MAIN__)
  WriteField(" sfsr=", Reg(kSfsr));
#endif
  arenaplan::port::Write("\n");
  arenaplan::port::Exit(arenaplan::port::kFaultExitStatus);
}

}  // extern "C"

namespace {

using Vector = void (*)();

/// Number of external interrupt entries. The tests enable none; any that
/// fires is reported as a fault.
constexpr int kIrqCount = 32;

struct VectorTable {
  std::uint32_t* initial_sp;
  Vector reset;
  Vector system[14];  // NMI .. SysTick (exceptions 2..15)
  Vector irq[kIrqCount];
};

constexpr VectorTable MakeVectorTable() {
  VectorTable t{__stack_top, &Reset_Handler, {}, {}};
  for (Vector& v : t.system) v = &Fault_Handler;
  for (Vector& v : t.irq) v = &Fault_Handler;
  return t;
}

}  // namespace

/// The vector table, placed first in CODE by port/cortex_m.ld (where the
/// core reads VTOR's reset value on every supported board).
extern "C" __attribute__((section(".vectors"), used))
const VectorTable arenaplan_vectors = MakeVectorTable();
