// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Console output and exit through Arm semihosting ("Semihosting for AArch32
// and AArch64", Arm IHI 0094): on M-profile a call is `BKPT 0xAB` with the
// operation in R0 and the parameter in R1; the result comes back in R0.
#include <cstdint>

#include "port/port.hpp"

namespace arenaplan::port {
namespace {

constexpr std::uint32_t kSysWrite0 = 0x04;           // write a C string
constexpr std::uint32_t kSysExit = 0x18;             // stop, reason only
constexpr std::uint32_t kSysExitExtended = 0x20;     // stop, reason + status
constexpr std::uint32_t kApplicationExit = 0x20026;  // ADP_Stopped_...

std::uint32_t Call(std::uint32_t operation, const void* parameter) {
  register std::uint32_t r0 asm("r0") = operation;
  register const void* r1 asm("r1") = parameter;
  asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

}  // namespace

void Write(const char* text) { Call(kSysWrite0, text); }

void WriteUnsigned(std::uint32_t value) {
  char digits[11];  // 4294967295 has 10 digits, plus the NUL
  char* p = digits + sizeof(digits);
  *--p = '\0';
  do {
    *--p = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  Write(p);
}

void WriteHex(std::uint32_t value) {
  char text[11] = {'0', 'x'};
  for (int i = 0; i < 8; ++i) {
    const std::uint32_t nibble = (value >> (28 - 4 * i)) & 0xFu;
    text[2 + i] =
        static_cast<char>(nibble < 10 ? '0' + nibble : 'a' + nibble - 10);
  }
  text[10] = '\0';
  Write(text);
}

[[noreturn]] void Exit(int status) {
  // SYS_EXIT_EXTENDED carries the status; hosts that only know SYS_EXIT
  // (status 0 or 1 from the reason) get the plain call as a fallback.
  const std::uint32_t block[2] = {kApplicationExit,
                                  static_cast<std::uint32_t>(status)};
  Call(kSysExitExtended, block);
  Call(kSysExit, reinterpret_cast<const void*>(status == 0 ? kApplicationExit
                                                           : 0x20023u));
  for (;;) {
    asm volatile("wfi");
  }
}

}  // namespace arenaplan::port
