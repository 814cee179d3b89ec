// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// port/libc_min.cpp's memset and memmove on the host, renamed (with its
// other symbols) so they do not replace the host's: every start offset within a
// word, every length up to 70 bytes, against a byte-by-byte loop (the ISO C
// definition), with guard bytes around the range that must stay untouched.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#define memcpy arenaplan_port_memcpy
#define memmove arenaplan_port_memmove
#define memset arenaplan_port_memset
#define memcmp arenaplan_port_memcmp
#define __dso_handle arenaplan_port_dso_handle
#define __cxa_atexit arenaplan_port_cxa_atexit
#include "port/libc_min.cpp"  // NOLINT(bugprone-suspicious-include)
#undef memcpy
#undef memmove
#undef memset
#undef memcmp
#undef __dso_handle
#undef __cxa_atexit

namespace {

constexpr std::size_t kGuard = 8;
constexpr unsigned char kPoison = 0xa5;

TEST(LibcMin, MemsetSetsExactlyItsBytesAtEveryOffsetAndLength) {
  for (int value : {0, 0x5a, -1, 0x17f}) {
    for (std::size_t offset = 0; offset < 8; ++offset) {
      for (std::size_t n = 0; n <= 70; ++n) {
        alignas(8) unsigned char buf[kGuard + 8 + 70 + kGuard];
        std::fill(std::begin(buf), std::end(buf), kPoison);
        unsigned char* at = buf + kGuard + offset;
        EXPECT_EQ(arenaplan_port_memset(at, value, n), at);
        for (std::size_t i = 0; i < sizeof buf; ++i) {
          const bool inside = buf + i >= at && buf + i < at + n;
          const unsigned char want =
              inside ? static_cast<unsigned char>(value) : kPoison;
          ASSERT_EQ(buf[i], want) << "value " << value << " offset " << offset
                                  << " n " << n << " byte " << i;
        }
      }
    }
  }
}

TEST(LibcMin, MemmoveCopiesOverlappingRangesBothWays) {
  for (std::size_t from = 0; from < 12; ++from) {
    for (std::size_t to = 0; to < 12; ++to) {
      for (std::size_t n = 0; n <= 20; ++n) {
        unsigned char buf[40], want[40];
        for (std::size_t i = 0; i < sizeof buf; ++i) {
          buf[i] = want[i] = static_cast<unsigned char>(i * 7 + 1);
        }
        unsigned char tmp[40];
        for (std::size_t i = 0; i < n; ++i) tmp[i] = want[from + i];
        for (std::size_t i = 0; i < n; ++i) want[to + i] = tmp[i];
        arenaplan_port_memmove(buf + to, buf + from, n);
        ASSERT_EQ(0, std::memcmp(buf, want, sizeof buf))
            << "from " << from << " to " << to << " n " << n;
      }
    }
  }
}

}  // namespace
