// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The four C library functions GCC may call on its own even in freestanding
// code (ISO C semantics; GCC manual, "C Dialect Options", -ffreestanding).
// Firmware links with -nostdlib, so the port provides them. Compiled with
// -fno-tree-loop-distribute-patterns so the loops are not turned back into
// calls to themselves.
#include <cstddef>
#include <cstdint>

extern "C" {

void* memcpy(void* dest, const void* src, std::size_t n) {
  auto* d = static_cast<unsigned char*>(dest);
  const auto* s = static_cast<const unsigned char*>(src);
  while (n-- != 0) *d++ = *s++;
  return dest;
}

void* memmove(void* dest, const void* src, std::size_t n) {
  auto* d = static_cast<unsigned char*>(dest);
  const auto* s = static_cast<const unsigned char*>(src);
  if (d < s) {
    while (n-- != 0) *d++ = *s++;
  } else {
    while (n != 0) {
      --n;
      d[n] = s[n];
    }
  }
  return dest;
}

/// A word of any object's bytes (memset stores through it).
typedef std::uint32_t AnyWord __attribute__((may_alias));

/// Bytes up to a 4-byte boundary, then whole words, then the last bytes:
/// the compiler zeroes a kernel's local arrays (24-64 bytes, once a call)
/// through it, a quarter of the stores and loop steps of a byte loop.
void* memset(void* dest, int value, std::size_t n) {
  auto* d = static_cast<unsigned char*>(dest);
  const auto v = static_cast<unsigned char>(value);
  for (; n != 0 && (reinterpret_cast<std::uintptr_t>(d) & 3) != 0; --n) {
    *d++ = v;
  }
  auto* w = reinterpret_cast<AnyWord*>(d);
  const std::uint32_t word = v * 0x01010101u;
  for (; n >= 4; n -= 4) *w++ = word;
  d = reinterpret_cast<unsigned char*>(w);
  for (; n != 0; --n) *d++ = v;
  return dest;
}

int memcmp(const void* a, const void* b, std::size_t n) {
  const auto* x = static_cast<const unsigned char*>(a);
  const auto* y = static_cast<const unsigned char*>(b);
  for (; n != 0; --n, ++x, ++y) {
    if (*x != *y) return *x < *y ? -1 : 1;
  }
  return 0;
}

// Static objects with destructors register them here; firmware never
// returns from main, so nothing is ever destroyed.
void* __dso_handle = nullptr;
int __cxa_atexit(void (*)(void*), void*, void*) { return 0; }

}  // extern "C"
