// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// LOGISTIC and TANH on int16 activations, the readable form. Matches
// TensorFlow Lite's reference_integer_ops Logistic and Tanh for int16 as
// TFLM's logistic.cc and tanh.cc call them: a lookup with linear
// interpolation in a 256-entry table T of sigmoid(i / 24) in unsigned 0.16
// fixed point, raised for interpolation (tanh(x) = 2 sigmoid(2x) - 1 reads
// the same table); the generator computes T on the host and passes it
// (codegen/compile/lower_sigmoid16.cpp says how).
//
// Both first rescale the input (zero point 0):
//   x = (q * input_multiplier + r) >> input_left_shift
//   (r = 2^(input_left_shift - 1), or 0 for a shift of 0; the generator has
//   turned TFLM's power-of-two case, multiplier 0, into 3 << shift, shift 0)
// and interpolate on a = |x| (all unsigned 32-bit):
//   LOGISTIC: h = a >> 9, f = a & 511; v = 0x7FFF << 10 when h >= 255, else
//             (T[h] << 9) + f * (T[h + 1] - T[h]);
//             out = (x >= 0 ? v + 2^9 : 2^25 - v + 2^9 - 1) >> 10
//   TANH:     h = a >> 8, f = a & 255; v = 0xFFFF << 8 when h >= 255, else
//             (T[h] << 8) + f * (T[h + 1] - T[h]);
//             out = (x >= 0 ? v - 2^23 + 2^7 : -v + 2^23 + 2^7 - 1) >> 8
//             (signed, arithmetic shift)
// The output scale is 2^-15 (the generator checks), zero point 0.
//
// Loop order: elements ascending, each read, then written: the
// element-wise contract d = 0 holds in elements, but no overlap contract is
// stated for int16 (the generator plans input and output apart).
#ifndef ARENAPLAN_KERNELS_INT16_SIGMOID_HPP_
#define ARENAPLAN_KERNELS_INT16_SIGMOID_HPP_

#include <cstdint>

namespace arenaplan::kernels::int16 {

/// The parameters of int16 LOGISTIC and TANH (header comment).
struct SigmoidParams {
  std::int32_t input_multiplier;  ///< At most 32767 (TFLM's bound).
  std::int32_t input_left_shift;  ///< In [0, 31].
  std::int32_t count;             ///< Elements.
  /// T, 256 entries (header comment); not owned.
  const std::uint16_t* table;
};

/// x of the header comment: the input rescaled to the table's scale.
[[nodiscard]] constexpr std::int32_t SigmoidInput(const SigmoidParams& p,
                                                  std::int16_t q) {
  const std::int32_t r =
      p.input_left_shift > 0 ? std::int32_t{1} << (p.input_left_shift - 1) : 0;
  return (q * p.input_multiplier + r) >> p.input_left_shift;
}

/// v of the header comment: T at a >> frac_bits, interpolated by the low
/// frac_bits bits of a; `saturated` when the index reaches 255.
[[nodiscard]] constexpr std::uint32_t SigmoidLookup(const SigmoidParams& p,
                                                    std::uint32_t a,
                                                    int frac_bits,
                                                    std::uint32_t saturated) {
  const std::uint32_t h = a >> frac_bits;
  if (h >= 255) return saturated;
  const std::uint32_t lo = p.table[h], hi = p.table[h + 1];
  const std::uint32_t f = a & ((std::uint32_t{1} << frac_bits) - 1);
  return (lo << frac_bits) + f * (hi - lo);
}

/// LOGISTIC on int16 (header comment).
inline void Logistic(const SigmoidParams& p, const std::int16_t* input,
                     std::int16_t* output) {
  for (std::int32_t i = 0; i < p.count; ++i) {
    const std::int32_t x = SigmoidInput(p, input[i]);
    const std::uint32_t a =
        static_cast<std::uint32_t>(x < 0 ? -x : x);  // |x| < 2^31
    const std::uint32_t v = SigmoidLookup(p, a, 9, 0x7FFFu << 10);
    const std::uint32_t r =
        x >= 0 ? v + (1u << 9) : (1u << 25) - v + (1u << 9) - 1;
    output[i] = static_cast<std::int16_t>(r >> 10);
  }
}

/// TANH on int16 (header comment).
inline void Tanh(const SigmoidParams& p, const std::int16_t* input,
                 std::int16_t* output) {
  for (std::int32_t i = 0; i < p.count; ++i) {
    const std::int32_t x = SigmoidInput(p, input[i]);
    const std::uint32_t a = static_cast<std::uint32_t>(x < 0 ? -x : x);
    const auto v =
        static_cast<std::int32_t>(SigmoidLookup(p, a, 8, 0xFFFFu << 8));
    const std::int32_t r =
        x >= 0 ? v - (1 << 23) + (1 << 7) : -v + (1 << 23) + (1 << 7) - 1;
    output[i] = static_cast<std::int16_t>(r >> 8);
  }
}

}  // namespace arenaplan::kernels::int16

#endif  // ARENAPLAN_KERNELS_INT16_SIGMOID_HPP_
