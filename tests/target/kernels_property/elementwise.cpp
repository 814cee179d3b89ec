// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The kernels' property test (tests/target/kernels_property.cpp): the
// element-wise arithmetic (ADD, SUB, MUL, DIV, MAXIMUM/MINIMUM) and the
// activations (SOFTMAX, LOGISTIC/TANH, RELU, LEAKY_RELU, HARD_SWISH).
#include <cstdint>

#include "tests/target/kernels_property/cases.hpp"
#include "tests/target/kernels_property/harness.hpp"

namespace arenaplan::kernels_property {

void TestAdd(std::int32_t cases) {
  Run("ADD", 0x2001, cases, [](Rng& r, Digest& dg, std::int32_t i) {
    const TwoInputScaling t = RandomTwoInputScaling(r);
    const Range act = RandomAct(r);
    const std::int32_t count = r.In(1, 300);
    const k::AddParams p{-r.Zp(), -r.Zp(), r.Zp(), 20,     t.m1,   t.s1, t.m2,
                         t.s2,    t.mo,    t.so,   act.lo, act.hi, count};
    const std::int8_t* a = Random<std::int8_t>(r, count);
    const std::int8_t* b = Random<std::int8_t>(r, count);
    std::int8_t* want = Filled<std::int8_t>(count, 0xaa);
    std::int8_t* got = Filled<std::int8_t>(count, 0x55);
    k::Add(p, a, b, want);
    k::AddFast(p, a, b, got);
    if (!Same(got, want, count)) Fail("ADD", i, "AddFast != Add");
    dg.Fold(want, count);
  });
  Run("ADD broadcast", 0x2002, cases, [](Rng& r, Digest& dg, std::int32_t) {
    const TwoInputScaling t = RandomTwoInputScaling(r);
    const Range act = RandomAct(r);
    const Broadcast bc = RandomBroadcast(r);
    const k::AddParams p{-r.Zp(), -r.Zp(), r.Zp(), 20,     t.m1,   t.s1, t.m2,
                         t.s2,    t.mo,    t.so,   act.lo, act.hi, 1};
    const std::int8_t* a = Random<std::int8_t>(r, bc.a_count);
    const std::int8_t* b = Random<std::int8_t>(r, bc.b_count);
    std::int8_t* out = Filled<std::int8_t>(bc.out.Count(), 0xaa);
    k::AddBroadcast(p, bc.out, bc.a_stride, bc.b_stride, a, b, out);
    dg.Fold(out, bc.out.Count());
  });
}

void TestSub(std::int32_t cases) {
  Run("SUB", 0x2003, cases, [](Rng& r, Digest& dg, std::int32_t) {
    const TwoInputScaling t = RandomTwoInputScaling(r);
    const Range act = RandomAct(r);
    const Broadcast bc = RandomBroadcast(r);
    k::SubParams p{-r.Zp(), -r.Zp(), r.Zp(), 20,     t.m1,   t.s1, t.m2, t.s2,
                   t.mo,    t.so,    act.lo, act.hi, bc.out, {},   {}};
    CopyStrides(bc.a_stride, p.a_stride);
    CopyStrides(bc.b_stride, p.b_stride);
    const std::int8_t* a = Random<std::int8_t>(r, bc.a_count);
    const std::int8_t* b = Random<std::int8_t>(r, bc.b_count);
    std::int8_t* out = Filled<std::int8_t>(bc.out.Count(), 0xaa);
    k::Sub(p, a, b, out);
    dg.Fold(out, bc.out.Count());
  });
}

void TestMul(std::int32_t cases) {
  Run("MUL", 0x2004, cases, [](Rng& r, Digest& dg, std::int32_t) {
    const Range act = RandomAct(r);
    const Broadcast bc = RandomBroadcast(r);
    // s_a s_b / s_out: shifts in [-11, 1].
    k::MulParams p{r.Zp(),       r.Zp(), r.Zp(), r.Multiplier(),
                   r.In(-11, 1), act.lo, act.hi, bc.out,
                   {},           {}};
    CopyStrides(bc.a_stride, p.a_stride);
    CopyStrides(bc.b_stride, p.b_stride);
    const std::int8_t* a = Random<std::int8_t>(r, bc.a_count);
    const std::int8_t* b = Random<std::int8_t>(r, bc.b_count);
    std::int8_t* out = Filled<std::int8_t>(bc.out.Count(), 0xaa);
    k::Mul(p, a, b, out);
    dg.Fold(out, bc.out.Count());
  });
}

void TestDiv(std::int32_t cases) {
  Run("DIV", 0x2005, cases, [](Rng& r, Digest& dg, std::int32_t) {
    const Range act = RandomAct(r);
    const Broadcast bc = RandomBroadcast(r);
    // s_a / (s_b s_out): the generator takes shifts up to 23.
    k::DivParams p{r.Zp(),       r.Zp(), r.Zp(), r.Multiplier(),
                   r.In(-8, 23), act.lo, act.hi, bc.out,
                   {},           {}};
    CopyStrides(bc.a_stride, p.a_stride);
    CopyStrides(bc.b_stride, p.b_stride);
    const std::int8_t* a = Random<std::int8_t>(r, bc.a_count);
    std::int8_t* b = Random<std::int8_t>(r, bc.b_count);
    // Divisors at the zero point (real 0) now and then, not only by chance.
    if (r.OneIn(4)) b[0] = static_cast<std::int8_t>(p.b_zero_point);
    std::int8_t* out = Filled<std::int8_t>(bc.out.Count(), 0xaa);
    k::Div(p, a, b, out);
    dg.Fold(out, bc.out.Count());
  });
}

void TestMaximumMinimum(std::int32_t cases) {
  Run("MAXIMUM_MINIMUM", 0x2006, cases, [](Rng& r, Digest& dg, std::int32_t) {
    const Broadcast bc = RandomBroadcast(r);
    k::MaximumMinimumParams p{r.OneIn(2), bc.out, {}, {}};
    CopyStrides(bc.a_stride, p.a_stride);
    CopyStrides(bc.b_stride, p.b_stride);
    const std::int8_t* a = Random<std::int8_t>(r, bc.a_count);
    const std::int8_t* b = Random<std::int8_t>(r, bc.b_count);
    std::int8_t* out = Filled<std::int8_t>(bc.out.Count(), 0xaa);
    k::MaximumMinimum(p, a, b, out);
    dg.Fold(out, bc.out.Count());
  });
}

void TestSoftmax(std::int32_t cases) {
  for (int wide = 0; wide < 2; ++wide) {
    Run(wide ? "SOFTMAX int16" : "SOFTMAX", 0x3001 + wide, cases,
        [wide](Rng& r, Digest& dg, std::int32_t) {
          k::SoftmaxParams p{};
          // beta s_in 2^26 for s_in in [2^-9, 2^-2]: left shifts 18..25;
          // diff_min = -floor(31 * 2^26 / 2^shift) (Int8SoftmaxScaling).
          p.input_multiplier = r.Multiplier();
          p.input_left_shift = r.In(18, 25);
          p.diff_min = -static_cast<std::int32_t>((std::int64_t{31} << 26) >>
                                                  p.input_left_shift);
          p.rows = r.In(1, 4);
          p.depth = r.OneIn(4) ? r.In(100, 400) : r.In(1, 40);
          const std::int32_t n = p.rows * p.depth;
          const std::int8_t* input = Random<std::int8_t>(r, n);
          if (wide) {
            std::int16_t* out = Filled<std::int16_t>(n, 0xaa);
            k::SoftmaxInt16(p, input, out);
            dg.Fold(out, n);
          } else {
            std::int8_t* out = Filled<std::int8_t>(n, 0xaa);
            k::Softmax(p, input, out);
            dg.Fold(out, n);
          }
        });
  }
}

void TestSigmoidLike(std::int32_t cases) {
  for (int tanh = 0; tanh < 2; ++tanh) {
    Run(tanh ? "TANH" : "LOGISTIC", 0x3003 + tanh, cases,
        [tanh](Rng& r, Digest& dg, std::int32_t) {
          // s_in 2^27 = M 2^(shift - 31) for s_in in [2^-9, 2^-1]: shifts
          // 19..27; radius floor(15 * 2^27 / 2^shift) (lower_logistic.cpp).
          k::Q4ActivationParams p{};
          p.input_zero_point = r.Zp();
          p.input_left_shift = r.In(19, 27);
          p.input_multiplier = r.Multiplier();
          p.input_range_radius = static_cast<std::int32_t>(
              (std::int64_t{15} << 27) >> p.input_left_shift);
          p.count = r.In(1, 256);
          const std::int8_t* input = Random<std::int8_t>(r, p.count);
          std::int8_t* out = Filled<std::int8_t>(p.count, 0xaa);
          if (tanh) {
            k::Tanh(p, input, out);
          } else {
            k::Logistic(p, input, out);
          }
          dg.Fold(out, p.count);
        });
  }
}

void TestRelu(std::int32_t cases) {
  Run("RELU", 0x3005, cases, [](Rng& r, Digest& dg, std::int32_t) {
    k::ReluParams p{};
    p.input_zero_point = r.Zp();
    p.output_zero_point = r.Zp();
    p.multiplier = r.Multiplier();  // s_in / s_out, shifts in [-2, 2]
    p.shift = r.In(-2, 2);
    p.min = p.output_zero_point;  // quantized 0 (RELU), or RELU_N1_TO_1's
    p.max = 127;
    if (r.OneIn(3)) {
      p.min = r.In(-128, p.output_zero_point);
      p.max = r.In(p.output_zero_point, 127);
    }
    p.count = r.In(1, 300);
    const std::int8_t* input = Random<std::int8_t>(r, p.count);
    std::int8_t* out = Filled<std::int8_t>(p.count, 0xaa);
    k::Relu(p, input, out);
    dg.Fold(out, p.count);
  });
  Run("RELU6", 0x3006, cases, [](Rng& r, Digest& dg, std::int32_t) {
    const std::int32_t lower = r.Zp();
    const k::Relu6Params p{lower, r.In(lower, 127), r.In(1, 300)};
    const std::int8_t* input = Random<std::int8_t>(r, p.count);
    std::int8_t* out = Filled<std::int8_t>(p.count, 0xaa);
    k::Relu6(p, input, out);
    dg.Fold(out, p.count);
  });
}

void TestLeakyRelu(std::int32_t cases) {
  Run("LEAKY_RELU", 0x3007, cases, [](Rng& r, Digest& dg, std::int32_t) {
    // s_in / s_out (shifts [-2, 2]) and alpha s_in / s_out (shifts
    // [-10, 0]).
    const k::LeakyReluParams p{r.Zp(),      r.Zp(),         r.Multiplier(),
                               r.In(-2, 2), r.Multiplier(), r.In(-10, 0),
                               r.In(1, 300)};
    const std::int8_t* input = Random<std::int8_t>(r, p.count);
    std::int8_t* out = Filled<std::int8_t>(p.count, 0xaa);
    k::LeakyRelu(p, input, out);
    dg.Fold(out, p.count);
  });
}

void TestHardSwish(std::int32_t cases) {
  Run("HARD_SWISH", 0x3008, cases, [](Rng& r, Digest& dg, std::int32_t) {
    // HardSwishPrepare's Q0.15 multipliers (DownScaleInt32ToInt16Multiplier
    // of [2^30, 2^31): [2^14, 2^15 - 1]); output exponent <= 0 (TFLM
    // refuses others), the reluish one s_in 256/3 for s_in 2^-9..2^-1.
    const k::HardSwishParams p{r.Zp(),
                               r.Zp(),
                               r.In(1 << 14, 32767),
                               r.In(-7, 0),
                               r.In(1 << 14, 32767),
                               r.In(-2, 7),
                               r.In(1, 300)};
    const std::int8_t* input = Random<std::int8_t>(r, p.count);
    std::int8_t* out = Filled<std::int8_t>(p.count, 0xaa);
    k::HardSwish(p, input, out);
    dg.Fold(out, p.count);
  });
}

}  // namespace arenaplan::kernels_property
