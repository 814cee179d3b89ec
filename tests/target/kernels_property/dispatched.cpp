// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The kernels' property test (tests/target/kernels_property.cpp) for the
// kernels the firmware picks per core: Conv2DFast, DepthwiseConv2DFast,
// FullyConnectedFast, AddFast, AveragePool and MaxPool as dispatched
// (fast_conv.hpp, fast_fully_connected.hpp, add.hpp, pooling.hpp: the
// Helium kernels of kernels/include/arenaplan/kernels/helium/ on a core
// with integer MVE, the DSP or scalar loops elsewhere), and the four-lane
// Helium requantization. Channel counts 1 to 67 (Helium's
// 16-byte vectors and four-channel groups with every tail), 2,000 cases per
// kernel; each is compared with the reference kernel (and, for the
// requantization, MultiplyByQuantizedMultiplier lane by lane over all int32
// inputs, multipliers of either sign and shifts in [-31, 30]); the digests
// fold the references' outputs, so a board prints the host's lines only
// when its kernels pass. The overlapped cases run the dispatched kernel with
// its output starting the reference contract's distance below its input,
// in one buffer, and compare with the separate-buffer reference.
#include <cstdint>

#include "tests/target/kernels_property/cases.hpp"
#include "tests/target/kernels_property/harness.hpp"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#define ARENAPLAN_KERNELS_PROPERTY_MVE 1
#else
#define ARENAPLAN_KERNELS_PROPERTY_MVE 0
#endif

namespace arenaplan::kernels_property {

namespace {

/// An int32 of the requantization's edge kinds or any value.
std::int32_t EdgeInt32(Rng& r) {
  switch (r.In(0, 7)) {
    case 0:
      return k::kInt32Min;
    case 1:
      return k::kInt32Max;
    case 2:
      return r.In(-3, 3);
    case 3:
      return k::kInt32Min + r.In(0, 3);
    case 4:
      return k::kInt32Max - r.In(0, 3);
    default:
      return r.In(k::kInt32Min, k::kInt32Max);
  }
}

void TestHeliumRequantize(std::int32_t cases) {
  Run("REQUANTIZE x4", 0x4001, cases, [](Rng& r, Digest& dg, std::int32_t i) {
    std::int32_t acc[4], mult[4], want[4];
    std::int8_t shift[4], want8[4];
    const std::int32_t offset = r.Zp();
    const Range act = RandomAct(r);
    for (std::int32_t k = 0; k < 4; ++k) {
      acc[k] = EdgeInt32(r);
      mult[k] = r.OneIn(2) ? r.Multiplier() : EdgeInt32(r);
      shift[k] =
          static_cast<std::int8_t>(r.OneIn(2) ? r.In(-31, 30) : r.In(-14, 0));
      // A shift a rounding tie lands on: the low bits of 2ab give 2^(r-1).
      if (r.OneIn(4) && shift[k] < 0) {
        acc[k] = static_cast<std::int32_t>(
            static_cast<std::uint32_t>(r.In(-8, 8)) << (-shift[k] - 1));
      }
      want[k] = k::MultiplyByQuantizedMultiplier(acc[k], mult[k], shift[k]);
      // The clamped exact sum (the int32 sum may overflow at the edges).
      const std::int64_t v = std::int64_t{want[k]} + offset;
      want8[k] = static_cast<std::int8_t>(v < act.lo   ? act.lo
                                          : v > act.hi ? act.hi
                                                       : v);
    }
    dg.Fold(want, 4);
    dg.Fold(want8, 4);
#if ARENAPLAN_KERNELS_PROPERTY_MVE
    namespace h = k::helium;
    std::int32_t got[4];
    vst1q_s32(
        got, h::Requantize(vld1q_s32(acc), vld1q_s32(mult), vldrbq_s32(shift)));
    if (!Same(got, want, 4)) Fail("REQUANTIZE x4", i, "helium::Requantize");
    const std::int32_t n = r.In(1, 4);
    std::int8_t got8[5] = {0x55, 0x55, 0x55, 0x55, 0x55};
    const h::Stage4 stage{mult, shift, offset, act.lo, act.hi};
    stage.Store(vld1q_s32(acc), 0, n, got8);
    if (!Same(got8, want8, n) || got8[n] != 0x55 || got8[4] != 0x55) {
      Fail("REQUANTIZE x4", i, "helium::Stage4::Store");
    }
#else
    (void)i;
    (void)r.In(1, 4);  // the same generator sequence on every core
#endif
  });
}

/// A channel count of 1 to 67, often around the vectors' 4 and 16 bytes.
std::int32_t WideChannels(Rng& r) {
  if (r.OneIn(3)) return r.In(1, 67);
  const std::int32_t base = 16 * r.In(0, 4);
  const std::int32_t c = base + r.In(-2, 3);
  return c < 1 ? 1 : (c > 67 ? 67 : c);
}

/// Whether an overlapped run is possible: the output `d` bytes below the
/// input, both in one buffer of d + max(in, out - d... ) bytes.
void CheckOverlapped(const char* kernel, std::int32_t i, std::int64_t d,
                     const std::int8_t* input, std::int32_t in_bytes,
                     std::int32_t out_bytes, const std::int8_t* want,
                     bool depthwise, const k::ConvParams& p,
                     const k::Shape4& in, const k::Shape4& filter,
                     const std::int8_t* weights, const std::int32_t* folded,
                     const ChannelQ& q, const k::Shape4& out) {
  if (d < 0 || d > out_bytes) return;
  const std::int32_t di = static_cast<std::int32_t>(d);
  const std::int32_t end =
      di + in_bytes > out_bytes ? di + in_bytes : out_bytes;
  std::int8_t* buf = Filled<std::int8_t>(end, 0x5a);  // poison
  for (std::int32_t j = 0; j < in_bytes; ++j) buf[di + j] = input[j];
  if (depthwise) {
    k::DepthwiseConv2DFast(
        p, in, buf + di, filter, weights, folded, q.Quant(), out, buf,
        Filled<std::int8_t>(k::DepthwiseConv2DFastScratchBytes(filter), 0x5a));
  } else {
    k::Conv2DFast(p, in, buf + di, filter, weights, folded, q.Quant(), out, buf,
                  Filled<std::int8_t>(k::Conv2DFastScratchBytes(filter), 0x5a));
  }
  if (!Same(buf, want, out_bytes)) Fail(kernel, i, "overlapped at distance");
}

/// Cases of TestDispatchedConv besides any (1 to 67 channels, windows up
/// to 5x5): depthwise kEights (8 + 16k channels, k in [0, 3]: a last group
/// of exactly eight, Helium's DepthwiseHalves<1>) and kThree (3x3 windows,
/// strides 1 and 2, 1 to 67 channels, now and then a channel shifting left:
/// Helium's ScatterBytes<true>); CONV_2D kHeld (windows of at most 64
/// bytes, RandomHeldWindow, strides 1 and 2, 1 to 67 output channels, now
/// and then one shifting left: Helium's HeldGroups, or its fallback).
enum class ConvCases { kAny, kEights, kThree, kHeld };

/// A filter window of kh x kw taps of c input channels: half the time
/// kh * kw * c = 16, 32, 48 or 64 bytes (1x1, 1x2, 2x1, 2x2 or 4x4 taps),
/// else at most 48 bytes of 1x1 to 3x3 taps (a last block of fewer than 16
/// bytes: HeldGroups' tail).
struct HeldWindow {
  std::int32_t kh, kw, c;
};
HeldWindow RandomHeldWindow(Rng& r) {
  if (r.OneIn(2)) {
    static constexpr std::int32_t kTaps[5][2] = {
        {1, 1}, {1, 2}, {2, 1}, {2, 2}, {4, 4}};
    const std::int32_t bytes = 16 * r.In(1, 4), t = r.In(0, 4);
    return HeldWindow{kTaps[t][0], kTaps[t][1],
                      bytes / (kTaps[t][0] * kTaps[t][1])};
  }
  const std::int32_t kh = r.In(1, 3), kw = r.In(1, 3);
  return HeldWindow{kh, kw, r.In(1, 48 / (kh * kw))};
}

void TestDispatchedConv(std::int32_t cases, bool depthwise,
                        ConvCases kind = ConvCases::kAny) {
  const bool eights = kind == ConvCases::kEights,
             three = kind == ConvCases::kThree, held = kind == ConvCases::kHeld;
  const char* name = eights  ? "DEPTHWISE_CONV_2D dispatched, 8 + 16k channels"
                     : three ? "DEPTHWISE_CONV_2D dispatched, 3x3"
                     : held  ? "CONV_2D dispatched, windows of 1-64 bytes"
                     : depthwise ? "DEPTHWISE_CONV_2D dispatched"
                                 : "CONV_2D dispatched";
  Run(name,
      eights      ? 0x4007
      : three     ? 0x4008
      : held      ? 0x4009
      : depthwise ? 0x4003
                  : 0x4002,
      cases, [&](Rng& r, Digest& dg, std::int32_t i) {
        const HeldWindow hw = held ? RandomHeldWindow(r) : HeldWindow{};
        const std::int32_t c = eights ? 8 + 16 * r.In(0, 3)
                               : held ? hw.c
                                      : WideChannels(r);
        const std::int32_t oc = depthwise ? c : WideChannels(r);
        // Small windows for wide layers: the reference's cost under QEMU.
        const std::int32_t max_k = !depthwise && c * oc > 600 ? 3 : 5;
        const Dim dy = three  ? RandomDim(r, 9, 3, 3, 2)
                       : held ? RandomDim(r, 7, hw.kh, hw.kh, 2)
                              : RandomDim(r, 7, max_k),
                  dx = three  ? RandomDim(r, 9, 3, 3, 2)
                       : held ? RandomDim(r, 7, hw.kw, hw.kw, 2)
                              : RandomDim(r, 7, max_k);
        const std::int32_t n = r.OneIn(8) ? 2 : 1;
        const k::Shape4 in{n, dy.in, dx.in, c}, out{n, dy.out, dx.out, oc};
        const k::Shape4 filter = depthwise ? k::Shape4{1, dy.k, dx.k, oc}
                                           : k::Shape4{oc, dy.k, dx.k, c};
        const std::int8_t* input = Random<std::int8_t>(r, in.Count());
        const std::int8_t* weights = Random<std::int8_t>(r, filter.Count());
        const ChannelQ q = RandomChannels(r, oc);
        if ((three || held) && r.OneIn(4)) {  // a channel shifting left
          q.shift[r.In(0, oc - 1)] = static_cast<std::int8_t>(r.In(1, 4));
        }
        const Range act = RandomAct(r);
        const k::ConvParams p{-r.Zp(),   r.Zp(), act.lo, act.hi, dy.stride,
                              dx.stride, dy.pad, dx.pad, 1};
        std::int8_t* want = Filled<std::int8_t>(out.Count(), 0xaa);
        std::int32_t* folded = scratch.Get<std::int32_t>(oc);
        std::int8_t* got = Filled<std::int8_t>(out.Count(), 0x55);
        std::int64_t d;
        if (depthwise) {
          k::DepthwiseConv2D(p, in, input, filter, weights, q.bias, q.Quant(),
                             out, want);
          k::FoldDepthwiseBias(p.input_offset, filter, weights, q.bias, folded);
          k::DepthwiseConv2DFast(
              p, in, input, filter, weights, folded, q.Quant(), out, got,
              Filled<std::int8_t>(k::DepthwiseConv2DFastScratchBytes(filter),
                                  0x5a));
          d = k::DepthwiseConv2DOverlapDistance(p, in, filter, out);
        } else {
          k::Conv2D(p, in, input, filter, weights, q.bias, q.Quant(), out,
                    want);
          k::FoldConvBias(p.input_offset, filter, weights, q.bias, folded);
          k::Conv2DFast(
              p, in, input, filter, weights, folded, q.Quant(), out, got,
              Filled<std::int8_t>(k::Conv2DFastScratchBytes(filter), 0x5a));
          d = k::Conv2DOverlapDistance(p, in, filter, out);
        }
        dg.Fold(want, out.Count());
        if (!Same(got, want, out.Count()))
          Fail(name, i, "dispatched != reference");
        CheckOverlapped(name, i, d, input, in.Count(), out.Count(), want,
                        depthwise, p, in, filter, weights, folded, q, out);
      });
}

void TestDispatchedFullyConnected(std::int32_t cases) {
  Run("FULLY_CONNECTED dispatched", 0x4004, cases,
      [](Rng& r, Digest& dg, std::int32_t i) {
        const std::int32_t batches = r.In(1, 3);
        const std::int32_t depth = r.OneIn(3) ? r.In(1, 300) : WideChannels(r);
        const std::int32_t units = WideChannels(r);
        const std::int8_t* input = Random<std::int8_t>(r, batches * depth);
        const std::int8_t* weights = Random<std::int8_t>(r, units * depth);
        const ChannelQ q = RandomChannels(r, units);
        const Range act = RandomAct(r);
        const k::FullyConnectedParams p{-r.Zp(), r.Zp(), act.lo, act.hi,
                                        batches, depth,  units};
        std::int8_t* want = Filled<std::int8_t>(batches * units, 0xaa);
        k::FullyConnected(p, input, weights, q.bias, q.Quant(), want);
        dg.Fold(want, batches * units);
        std::int32_t* folded = scratch.Get<std::int32_t>(units);
        k::FoldFullyConnectedBias(p.input_offset, units, depth, weights, q.bias,
                                  folded);
        std::int8_t* got = Filled<std::int8_t>(batches * units, 0x55);
        k::FullyConnectedFast(p, input, weights, folded, q.Quant(), got);
        if (!Same(got, want, batches * units)) {
          Fail("FULLY_CONNECTED dispatched", i, "dispatched != reference");
        }
      });
}

void TestDispatchedAdd(std::int32_t cases) {
  Run("ADD dispatched", 0x4005, cases, [](Rng& r, Digest& dg, std::int32_t i) {
    TwoInputScaling t = RandomTwoInputScaling(r);
    // Now and then a left shift (the Helium kernel declines it).
    if (r.OneIn(8)) t.so = r.In(1, 2);
    const Range act = RandomAct(r);
    const std::int32_t count = r.OneIn(2) ? r.In(1, 20) : r.In(1, 300);
    const k::AddParams p{-r.Zp(), -r.Zp(), r.Zp(), 20,     t.m1,   t.s1, t.m2,
                         t.s2,    t.mo,    t.so,   act.lo, act.hi, count};
    const std::int8_t* a = Random<std::int8_t>(r, count);
    const std::int8_t* b = Random<std::int8_t>(r, count);
    std::int8_t* want = Filled<std::int8_t>(count, 0xaa);
    k::Add(p, a, b, want);
    dg.Fold(want, count);
    std::int8_t* got = Filled<std::int8_t>(count, 0x55);
    k::AddFast(p, a, b, got);
    if (!Same(got, want, count)) Fail("ADD dispatched", i, "!= Add");
    // In place, the output over input 1 or 2 (distance 0), or a few bytes
    // below it in one buffer.
    const std::int32_t d = r.In(0, 5);
    const bool second = r.OneIn(2);
    std::int8_t* buf = Filled<std::int8_t>(count + d, 0x5a);
    for (std::int32_t j = 0; j < count; ++j) buf[d + j] = second ? b[j] : a[j];
    k::AddFast(p, second ? a : buf + d, second ? buf + d : b, buf);
    if (!Same(buf, want, count)) Fail("ADD dispatched", i, "overlapped");
  });
}

/// AveragePool (max false) or MaxPool (max true) as dispatched against
/// detail::Pool, the reference, in separate buffers and with the output at
/// PoolOverlapDistance below the input in one buffer.
void TestDispatchedPool(std::int32_t cases, bool max) {
  const char* name =
      max ? "MAX_POOL_2D dispatched" : "AVERAGE_POOL_2D dispatched";
  Run(name, max ? 0x400a : 0x4006, cases,
      [max, name](Rng& r, Digest& dg, std::int32_t i) {
        const Dim dy = RandomDim(r, 9, 5), dx = RandomDim(r, 9, 5);
        const std::int32_t n = r.OneIn(8) ? 2 : 1, c = WideChannels(r);
        const k::Shape4 in{n, dy.in, dx.in, c}, out{n, dy.out, dx.out, c};
        const std::int8_t* input = Random<std::int8_t>(r, in.Count());
        const Range act = RandomAct(r);
        const k::PoolParams p{dy.k,   dx.k,   dy.stride, dx.stride,
                              dy.pad, dx.pad, act.lo,    act.hi};
        const auto dispatched = [max, &p, &in, &out](const std::int8_t* x,
                                                     std::int8_t* y) {
          if (max) {
            k::MaxPool(p, in, x, out, y);
          } else {
            k::AveragePool(p, in, x, out, y);
          }
        };
        std::int8_t* want = Filled<std::int8_t>(out.Count(), 0xaa);
        if (max) {  // the reference
          k::detail::Pool<true>(p, in, input, out, want);
        } else {
          k::detail::Pool<false>(p, in, input, out, want);
        }
        dg.Fold(want, out.Count());
        std::int8_t* got = Filled<std::int8_t>(out.Count(), 0x55);
        dispatched(input, got);
        if (!Same(got, want, out.Count())) Fail(name, i, "!= reference");
        const std::int64_t d = k::PoolOverlapDistance(p, in, out);
        if (d < 0 || d > out.Count()) return;
        const auto di = static_cast<std::int32_t>(d);
        const std::int32_t end =
            di + in.Count() > out.Count() ? di + in.Count() : out.Count();
        std::int8_t* buf = Filled<std::int8_t>(end, 0x5a);
        for (std::int32_t j = 0; j < in.Count(); ++j) buf[di + j] = input[j];
        dispatched(buf + di, buf);
        if (!Same(buf, want, out.Count()))
          Fail(name, i, "overlapped at distance");
      });
}

}  // namespace

void TestDispatched(std::int32_t cases) {
  TestDispatchedPool(cases, false);
  TestDispatchedPool(cases, true);
  TestDispatchedAdd(cases);
  TestHeliumRequantize(cases);
  TestDispatchedConv(cases, false);
  TestDispatchedConv(cases, true);
  TestDispatchedConv(cases, true, ConvCases::kEights);
  TestDispatchedConv(cases, true, ConvCases::kThree);
  TestDispatchedConv(cases, false, ConvCases::kHeld);
  TestDispatchedFullyConnected(cases);
}

}  // namespace arenaplan::kernels_property
