// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// LOGISTIC and TANH on int16 activations, the readable form. Matches
// TensorFlow Lite's reference_integer_ops Logistic and Tanh for int16 as
// TFLM's logistic.cc and tanh.cc call them: a lookup with linear
// interpolation in kSigmoidTable, 256 entries of sigmoid(i / 24) in
// unsigned 0.16 fixed point (tanh(x) = 2 sigmoid(2x) - 1 reads the same
// table). The LSTM (lstm.hpp) uses the same element functions.
//
// Both first rescale the input (zero point 0):
//   x = (q * input_multiplier + r) >> input_left_shift
//   (r = 2^(input_left_shift - 1), or 0 for a shift of 0; TFLM's
//   power-of-two case, multiplier 0, means 3 << shift and shift 0)
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
// Loop order: elements ascending, each read (once), then written. Overlap
// contract (overlap.hpp, ElementwiseOverlapDistance with 2-byte elements
// in and out): d = 0, in place.
#ifndef ARENAPLAN_KERNELS_INT16_SIGMOID_HPP_
#define ARENAPLAN_KERNELS_INT16_SIGMOID_HPP_

#include <cstdint>

namespace arenaplan::kernels::int16 {

/// sigmoid(i / 24) in unsigned 0.16 fixed point for i = 0 .. 255 (the last
/// entry 65535): the table TFLite's int16 LOGISTIC and TANH interpolate in
/// (tensorflow/lite/kernels/internal/common.h, sigmoid_table_uint16). Entry
/// i < 255 is 2^16 (s - h^2 s'' / 16) rounded to nearest, s = sigmoid(i h),
/// h = 1/24, s'' = s (1 - s) (1 - 2 s): the sample raised by half the
/// largest gap between the concave curve and its chord over one step
/// (kernels_int16_test derives every entry so).
inline constexpr std::uint16_t kSigmoidTable[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498,
    40149, 40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255,
    46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865,
    52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174,
    56503, 56823, 57133, 57433, 57724, 58007, 58280, 58544, 58800, 59048, 59288,
    59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110, 61279, 61441,
    61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886,
    62990, 63090, 63186, 63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835,
    63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450,
    64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845,
    64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097,
    65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360,
    65367, 65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425,
    65429, 65433, 65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465,
    65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
    65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508,
    65509, 65510, 65511, 65512, 65513, 65514, 65515, 65516, 65517, 65517, 65518,
    65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524, 65525,
    65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529,
    65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531, 65531,
    65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533, 65533, 65533,
    65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65535};

/// The input of SigmoidInt16 and TanhInt16: x * multiplier shifted right
/// by `shift`, rounding half up; multiplier 0 means 3 << shift and no shift.
[[nodiscard]] constexpr std::int32_t ScaledSigmoidInput(std::int16_t x,
                                                        std::int32_t multiplier,
                                                        std::int32_t shift) {
  if (multiplier == 0) {
    multiplier = 3 << shift;
    shift = 0;
  }
  const std::int32_t round = shift > 0 ? (1 << (shift - 1)) : 0;
  return (static_cast<std::int32_t>(x) * multiplier + round) >> shift;
}

/// The int16 sigmoid of TFLite's reference_integer_ops::Logistic with its
/// (input_multiplier, input_left_shift) (header comment; multiplier 0 means
/// 3 << shift and no shift). Result Q0.15 in [0, 32767].
[[nodiscard]] constexpr std::int16_t SigmoidInt16(std::int16_t x,
                                                  std::int32_t multiplier,
                                                  std::int32_t shift) {
  const std::int32_t v = ScaledSigmoidInput(x, multiplier, shift);
  const std::uint32_t a = static_cast<std::uint32_t>(v < 0 ? -v : v);
  const std::uint32_t index = a >> 9;
  std::uint32_t r = 0;
  if (index >= 255) {
    r = std::uint32_t{0x7FFF} << 10;
  } else {
    const std::uint32_t lo = kSigmoidTable[index];
    const std::uint32_t hi = kSigmoidTable[index + 1];
    r = (lo << 9) + (a & 0x1FFu) * (hi - lo);
  }
  // sigmoid(-x) = 1 - sigmoid(x); round to nearest and drop 10 bits.
  r = v >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1u;
  return static_cast<std::int16_t>(r >> 10);
}

/// The int16 tanh of TFLite's reference_integer_ops::Tanh with its
/// (input_multiplier, input_left_shift): multiplier 0 means 3 << shift and
/// no shift; otherwise x * multiplier is shifted right by `shift`, rounding
/// half up. The scaled |v| / 2^8 is 2|x| in steps of 1/24 (for a Q3.12 x:
/// multiplier 3, shift 0, as 2^8 / 3 / 2^12 = 1/48), since tanh(y) =
/// 2 sigmoid(2y) - 1; high bits index the table, the low 8 bits
/// interpolate. Result Q0.15 in [-32767, 32767].
[[nodiscard]] constexpr std::int16_t TanhInt16(std::int16_t x,
                                               std::int32_t multiplier,
                                               std::int32_t shift) {
  const std::int32_t v = ScaledSigmoidInput(x, multiplier, shift);
  const std::uint32_t a = static_cast<std::uint32_t>(v < 0 ? -v : v);
  const std::uint32_t index = a >> 8;
  std::int32_t r = 0;
  if (index >= 255) {
    r = static_cast<std::int32_t>(std::uint32_t{0xFFFF} << 8);
  } else {
    const std::uint32_t lo = kSigmoidTable[index];
    const std::uint32_t hi = kSigmoidTable[index + 1];
    r = static_cast<std::int32_t>((lo << 8) + (a & 0xFFu) * (hi - lo));
  }
  r = v >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
  return static_cast<std::int16_t>(r >> 8);
}

/// The parameters of int16 LOGISTIC and TANH (header comment).
struct SigmoidParams {
  std::int32_t input_multiplier;  ///< At most 32767; 0: 3 << shift.
  std::int32_t input_left_shift;  ///< In [0, 31].
  std::int32_t count;             ///< Elements.
};

/// LOGISTIC on int16 (header comment).
inline void Logistic(const SigmoidParams& p, const std::int16_t* input,
                     std::int16_t* output) {
  for (std::int32_t i = 0; i < p.count; ++i) {
    output[i] = SigmoidInt16(input[i], p.input_multiplier, p.input_left_shift);
  }
}

/// TANH on int16 (header comment).
inline void Tanh(const SigmoidParams& p, const std::int16_t* input,
                 std::int16_t* output) {
  for (std::int32_t i = 0; i < p.count; ++i) {
    output[i] = TanhInt16(input[i], p.input_multiplier, p.input_left_shift);
  }
}

}  // namespace arenaplan::kernels::int16

#endif  // ARENAPLAN_KERNELS_INT16_SIGMOID_HPP_
