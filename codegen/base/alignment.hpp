// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The alignment of a plan: every size and offset is rounded up to it.
#ifndef ARENAPLAN_CODEGEN_BASE_ALIGNMENT_HPP_
#define ARENAPLAN_CODEGEN_BASE_ALIGNMENT_HPP_

#include <cstdint>

namespace arenaplan {

/// A power of two, in bytes. The check is made once, where the value is
/// made (FromBytes for a number from the user, Of<N> for a constant), so
/// every Alignment in the program is a power of two.
class Alignment {
 public:
  /// One byte: no rounding.
  constexpr Alignment() = default;

  /// `bytes` as an Alignment. Throws InputError
  /// "--align BYTES: must be a power of two" otherwise.
  [[nodiscard]] static Alignment FromBytes(std::uint64_t bytes);

  /// A power of two known at compile time.
  template <std::uint64_t kBytes>
  [[nodiscard]] static constexpr Alignment Of() {
    static_assert(kBytes != 0 && (kBytes & (kBytes - 1)) == 0,
                  "an alignment is a power of two");
    return Alignment(kBytes);
  }

  /// The alignment in bytes (a power of two, at least 1).
  [[nodiscard]] constexpr std::uint64_t bytes() const { return bytes_; }

  friend constexpr bool operator==(Alignment, Alignment) = default;

 private:
  constexpr explicit Alignment(std::uint64_t bytes) : bytes_(bytes) {}

  std::uint64_t bytes_ = 1;
};

/// The default alignment of a model's tensors (.tflite models, and the
/// `records`, `inspect`, `tflm` and `compile` commands): 16 bytes, TFLite's
/// buffer alignment and the alignment of TFLM's arena.
inline constexpr Alignment kModelAlignment = Alignment::Of<16>();

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_BASE_ALIGNMENT_HPP_
