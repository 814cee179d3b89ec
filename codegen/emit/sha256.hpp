// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// SHA-256 (FIPS 180-4), used to fingerprint a generator input in the header
// comment so a firmware build can tell which model a plan was made from.
#ifndef ARENAPLAN_CODEGEN_EMIT_SHA256_HPP_
#define ARENAPLAN_CODEGEN_EMIT_SHA256_HPP_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace arenaplan {

/// Incremental SHA-256. Feed bytes with Update() in any number of pieces,
/// then call Finish() once; the object must not be used after Finish().
class Sha256 {
 public:
  Sha256();
  void Update(std::string_view bytes);
  /// The 32-byte digest of everything passed to Update().
  [[nodiscard]] std::array<std::uint8_t, 32> Finish();

 private:
  void Compress(const std::uint8_t* block);  ///< One 64-byte block.

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;  ///< Bytes waiting in buffer_ (0..63).
  std::uint64_t total_ = 0;   ///< Message length so far, in bytes.
};

/// The SHA-256 digest of `bytes` as 64 lowercase hexadecimal digits.
[[nodiscard]] std::string Sha256Hex(std::string_view bytes);

/// The SHA-256 of a whole file's contents (lowercase hex). Throws InputError
/// "PATH: cannot read" when the file cannot be opened or read.
[[nodiscard]] std::string Sha256FileHex(const std::string& path);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_EMIT_SHA256_HPP_
