// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The kernels' property test (tests/target/kernels_property.cpp) for the
// 16x8 kernels the firmware picks per core: int16::Conv2D and
// int16::FullyConnected as dispatched (int16/fast.hpp: the DSP path where
// the core has the DSP extension, the reference loops elsewhere), each
// compared with Conv2DReference / FullyConnectedReference, with 64-bit and
// 32-bit accumulators (int64 or int32 bias). The digests fold the
// references' outputs, so a board prints the host's lines only when its
// kernels pass. The overlapped convolution cases run the dispatched kernel
// with its output starting Conv2DOverlapDistance elements (times 2 bytes)
// below its input, in one buffer, and compare with the reference.
// 32-bit cases keep the activations within +-2000 (the reference's int32
// sum must not overflow).
#include <cstdint>

#include "tests/target/kernels_property/cases.hpp"
#include "tests/target/kernels_property/harness.hpp"

namespace arenaplan::kernels_property {

namespace {

namespace k16 = k::int16;

std::int16_t* Activations(Rng& r, std::int32_t count, bool narrow) {
  std::int16_t* v = scratch.Get<std::int16_t>(count);
  for (std::int32_t i = 0; i < count; ++i) {
    v[i] = static_cast<std::int16_t>(narrow       ? r.In(-2000, 2000)
                                     : r.OneIn(4) ? -32768
                                                  : r.In(-32768, 32767));
  }
  return v;
}

/// Multipliers in [2^30, 2^31) and shifts in [lo, hi].
k::ChannelQuant Quant16(Rng& r, std::int32_t n, std::int32_t lo,
                        std::int32_t hi) {
  std::int32_t* m = scratch.Get<std::int32_t>(n);
  std::int8_t* s = scratch.Get<std::int8_t>(n);
  for (std::int32_t i = 0; i < n; ++i) {
    m[i] = r.Multiplier();
    s[i] = static_cast<std::int8_t>(r.In(lo, hi));
  }
  return {m, s};
}

template <class Acc>
const Acc* Bias(Rng& r, std::int32_t n) {
  if (r.OneIn(4)) return nullptr;
  Acc* b = scratch.Get<Acc>(n);
  for (std::int32_t i = 0; i < n; ++i) b[i] = r.In(-(1 << 24), 1 << 24);
  return b;
}

template <class Acc>
void ConvCase(Rng& r, Digest& dg, std::int32_t i, const char* name) {
  const bool narrow = sizeof(Acc) == 4;
  const Dim dy = RandomDim(r, 9, 5), dx = RandomDim(r, 12, 7);
  const std::int32_t in_c = r.In(1, narrow ? 8 : 40), out_c = r.In(1, 9);
  const k::Shape4 in{r.OneIn(8) ? 2 : 1, dy.in, dx.in, in_c};
  const k::Shape4 filter{out_c, dy.k, dx.k, in_c};
  const k::Shape4 out{in.n, dy.out, dx.out, out_c};
  const std::int16_t* input = Activations(r, in.Count(), narrow);
  const std::int8_t* weights = Random<std::int8_t>(r, filter.Count());
  const Acc* bias = Bias<Acc>(r, out_c);
  const k::ChannelQuant q = Quant16(r, out_c, narrow ? -14 : -24, -8);
  const Range act = r.OneIn(4) ? Range{0, 32767} : Range{-32768, 32767};
  const k::ConvParams p{0,         0,      act.lo, act.hi, dy.stride,
                        dx.stride, dy.pad, dx.pad, 1};
  std::int16_t* want = Filled<std::int16_t>(out.Count(), 0xaa);
  k16::Conv2DReference(p, in, input, filter, weights, bias, q, out, want);
  dg.Fold(want, out.Count());
  std::int16_t* got = Filled<std::int16_t>(out.Count(), 0x55);
  k16::Conv2D(p, in, input, filter, weights, bias, q, out, got);
  if (!Same(got, want, out.Count())) Fail(name, i, "dispatched != reference");
  const std::int64_t d = k::Conv2DOverlapDistance(p, in, filter, out);
  if (d < 0 || d > out.Count()) return;
  const auto di = static_cast<std::int32_t>(d);  // elements (x 2 bytes)
  const std::int32_t end =
      di + in.Count() > out.Count() ? di + in.Count() : out.Count();
  std::int16_t* buf = Filled<std::int16_t>(end, 0x5a);
  for (std::int32_t j = 0; j < in.Count(); ++j) buf[di + j] = input[j];
  k16::Conv2D(p, in, buf + di, filter, weights, bias, q, out, buf);
  if (!Same(buf, want, out.Count())) Fail(name, i, "overlapped at distance");
}

template <class Acc>
void FullyConnectedCase(Rng& r, Digest& dg, std::int32_t i, const char* name) {
  const bool narrow = sizeof(Acc) == 4;
  const std::int32_t batches = r.In(1, 3), units = r.In(1, 9);
  const std::int32_t depth = r.OneIn(4) ? r.In(500, 1200) : r.In(1, 300);
  const std::int16_t* input = Activations(r, batches * depth, narrow);
  const std::int8_t* weights = Random<std::int8_t>(r, units * depth);
  const Acc* bias = Bias<Acc>(r, units);
  const k::ChannelQuant q = Quant16(r, units, narrow ? -14 : -26, -8);
  const k::FullyConnectedParams p{0,       r.In(-3, 3), -32768, 32767,
                                  batches, depth,       units};
  std::int16_t* want = Filled<std::int16_t>(batches * units, 0xaa);
  k16::FullyConnectedReference(p, input, weights, bias, q, want);
  dg.Fold(want, batches * units);
  std::int16_t* got = Filled<std::int16_t>(batches * units, 0x55);
  k16::FullyConnected(p, input, weights, bias, q, got);
  if (!Same(got, want, batches * units)) {
    Fail(name, i, "dispatched != reference");
  }
}

}  // namespace

void TestInt16(std::int32_t cases) {
  Run("CONV_2D int16 dispatched", 0x5001, cases,
      [](Rng& r, Digest& dg, std::int32_t i) {
        ConvCase<std::int64_t>(r, dg, i, "CONV_2D int16 dispatched");
      });
  Run("CONV_2D int16 acc32 dispatched", 0x5002, cases,
      [](Rng& r, Digest& dg, std::int32_t i) {
        ConvCase<std::int32_t>(r, dg, i, "CONV_2D int16 acc32 dispatched");
      });
  Run("FULLY_CONNECTED int16 dispatched", 0x5003, cases,
      [](Rng& r, Digest& dg, std::int32_t i) {
        FullyConnectedCase<std::int64_t>(r, dg, i,
                                         "FULLY_CONNECTED int16 dispatched");
      });
  Run("FULLY_CONNECTED int16 acc32 dispatched", 0x5004, cases,
      [](Rng& r, Digest& dg, std::int32_t i) {
        FullyConnectedCase<std::int32_t>(
            r, dg, i, "FULLY_CONNECTED int16 acc32 dispatched");
      });
}

}  // namespace arenaplan::kernels_property
