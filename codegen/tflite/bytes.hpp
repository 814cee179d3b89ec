// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Little-endian words of a flatbuffer, read from raw bytes (the caller
// checks the bounds: every read is within `b`).
#ifndef ARENAPLAN_CODEGEN_TFLITE_BYTES_HPP_
#define ARENAPLAN_CODEGEN_TFLITE_BYTES_HPP_

#include <cstddef>
#include <cstdint>
#include <span>

namespace arenaplan::tflite {

/// The little-endian 32-bit word at byte `at` of `b`.
inline std::uint32_t LoadU32(std::span<const std::uint8_t> b, std::size_t at) {
  return static_cast<std::uint32_t>(b[at]) |
         static_cast<std::uint32_t>(b[at + 1]) << 8 |
         static_cast<std::uint32_t>(b[at + 2]) << 16 |
         static_cast<std::uint32_t>(b[at + 3]) << 24;
}
/// The little-endian 16-bit word at byte `at` of `b`.
inline std::uint16_t LoadU16(std::span<const std::uint8_t> b, std::size_t at) {
  return static_cast<std::uint16_t>(b[at] | b[at + 1] << 8);
}

}  // namespace arenaplan::tflite

#endif  // ARENAPLAN_CODEGEN_TFLITE_BYTES_HPP_
