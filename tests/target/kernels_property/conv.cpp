// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The kernels' property test (tests/target/kernels_property.cpp): the
// convolutions (CONV_2D, DEPTHWISE_CONV_2D, their dilated forms and
// TRANSPOSE_CONV), FULLY_CONNECTED, the pools and BATCH_MATMUL; the fast
// kernels compared with their references on every case.
#include <cstdint>

#include "tests/target/kernels_property/cases.hpp"
#include "tests/target/kernels_property/harness.hpp"

namespace arenaplan::kernels_property {

namespace {

template <class Mac>
void CheckConvFast(const char* mac, std::int32_t i, const k::ConvParams& p,
                   const k::Shape4& in, const std::int8_t* input,
                   const k::Shape4& filter, const std::int8_t* weights,
                   const std::int32_t* folded, const ChannelQ& q,
                   const k::Shape4& out, const std::int8_t* want,
                   bool depthwise) {
  std::int8_t* got = Filled<std::int8_t>(out.Count(), 0x55);
  if (depthwise) {
    k::DepthwiseConv2DFastWith<Mac>(
        p, in, input, filter, weights, folded, q.Quant(), out, got,
        Filled<std::int8_t>(k::DepthwiseConv2DFastScratchBytes(filter), 0x5a));
  } else {
    k::Conv2DFastWith<Mac>(
        p, in, input, filter, weights, folded, q.Quant(), out, got,
        Filled<std::int8_t>(k::Conv2DFastScratchBytes(filter), 0x5a));
  }
  if (!Same(got, want, out.Count())) {
    Fail(depthwise ? "DEPTHWISE_CONV_2D" : "CONV_2D", i, mac);
  }
}

/// One CONV_2D case: the reference kernel digested, then each fast one
/// compared with it; with `negative` (negative multipliers) the reference
/// only, as the generator emits it.
void ConvCase(Rng& r, Digest& dg, std::int32_t i, bool negative) {
  const Dim dy = RandomDim(r, 12, 5), dx = RandomDim(r, 12, 5);
  const std::int32_t n = r.OneIn(5) ? 2 : 1;
  const std::int32_t c = r.OneIn(3) ? r.In(1, 40) : r.In(1, 9);
  const std::int32_t oc = r.In(1, 13);
  const k::Shape4 in{n, dy.in, dx.in, c}, out{n, dy.out, dx.out, oc};
  const k::Shape4 filter{oc, dy.k, dx.k, c};
  const std::int8_t* input = Random<std::int8_t>(r, in.Count());
  const std::int8_t* weights = Random<std::int8_t>(r, filter.Count());
  const ChannelQ q = RandomChannels(r, oc, negative);
  const Range act = RandomAct(r);
  const k::ConvParams p{-r.Zp(),   r.Zp(), act.lo, act.hi, dy.stride,
                        dx.stride, dy.pad, dx.pad, 1};
  std::int8_t* want = Filled<std::int8_t>(out.Count(), 0xaa);
  k::Conv2D(p, in, input, filter, weights, q.bias, q.Quant(), out, want);
  dg.Fold(want, out.Count());
  if (negative) return;
  std::int32_t* folded = scratch.Get<std::int32_t>(oc);
  k::FoldConvBias(p.input_offset, filter, weights, q.bias, folded);
  CheckConvFast<k::DefaultMac>("Conv2DFast (DefaultMac) != Conv2D", i, p, in,
                               input, filter, weights, folded, q, out, want,
                               false);
  CheckConvFast<k::ScalarMac>("Conv2DFastWith<ScalarMac> != Conv2D", i, p, in,
                              input, filter, weights, folded, q, out, want,
                              false);
  CheckConvFast<k::SimdMac<k::PortableIsa>>(
      "Conv2DFastWith<SimdMac<PortableIsa>> != Conv2D", i, p, in, input, filter,
      weights, folded, q, out, want, false);
}

}  // namespace

void TestConv(std::int32_t cases) {
  Run("CONV_2D", 0x1001, cases,
      [](Rng& r, Digest& dg, std::int32_t i) { ConvCase(r, dg, i, false); });
}

namespace {

/// One pointwise CONV_2D case (rows of width 1 to 9, one to four of them,
/// strides 1 or 2: runs of every length modulo 3), whose pixels the DSP
/// path takes in triples, a run ending in a triple, a pair or two pairs.
/// in_c with and without tails (in_c % 4), out_c mostly even (the pair
/// and triple paths). As ConvCase otherwise.
void PointwiseCase(Rng& r, Digest& dg, std::int32_t i) {
  const Dim dy = RandomDim(r, 4, 1, 1, 2), dx = RandomDim(r, 9, 1, 1, 2);
  const std::int32_t n = r.OneIn(5) ? 2 : 1;
  const std::int32_t c = r.OneIn(2) ? 4 * r.In(1, 17) : r.In(1, 70);
  const std::int32_t oc = r.OneIn(8) ? r.In(1, 13) : 2 * r.In(1, 32);
  const k::Shape4 in{n, dy.in, dx.in, c}, out{n, dy.out, dx.out, oc};
  const k::Shape4 filter{oc, 1, 1, c};
  const std::int8_t* input = Random<std::int8_t>(r, in.Count());
  const std::int8_t* weights = Random<std::int8_t>(r, filter.Count());
  const ChannelQ q = RandomChannels(r, oc);
  const Range act = RandomAct(r);
  const k::ConvParams p{-r.Zp(),   r.Zp(), act.lo, act.hi, dy.stride,
                        dx.stride, dy.pad, dx.pad, 1};
  std::int8_t* want = Filled<std::int8_t>(out.Count(), 0xaa);
  k::Conv2D(p, in, input, filter, weights, q.bias, q.Quant(), out, want);
  dg.Fold(want, out.Count());
  std::int32_t* folded = scratch.Get<std::int32_t>(oc);
  k::FoldConvBias(p.input_offset, filter, weights, q.bias, folded);
  CheckConvFast<k::DefaultMac>("pointwise Conv2DFast (DefaultMac) != Conv2D", i,
                               p, in, input, filter, weights, folded, q, out,
                               want, false);
  CheckConvFast<k::SimdMac<k::PortableIsa>>(
      "pointwise Conv2DFastWith<SimdMac<PortableIsa>> != Conv2D", i, p, in,
      input, filter, weights, folded, q, out, want, false);
}

}  // namespace

void TestPointwise(std::int32_t cases) {
  Run("CONV_2D_POINTWISE", 0x1011, cases,
      [](Rng& r, Digest& dg, std::int32_t i) { PointwiseCase(r, dg, i); });
}

namespace {

/// One DEPTHWISE_CONV_2D case, as ConvCase.
void DepthwiseCase(Rng& r, Digest& dg, std::int32_t i, bool negative) {
  const Dim dy = RandomDim(r, 12, 5), dx = RandomDim(r, 12, 5);
  const std::int32_t n = r.OneIn(5) ? 2 : 1;
  std::int32_t c = r.OneIn(3) ? r.In(1, 40) : r.In(1, 9);
  if (r.OneIn(8)) c = r.In(60, 90);  // more than one channel pass
  const std::int32_t m = r.OneIn(4) ? r.In(2, 3) : 1;
  const std::int32_t oc = c * m;
  const k::Shape4 in{n, dy.in, dx.in, c}, out{n, dy.out, dx.out, oc};
  const k::Shape4 filter{1, dy.k, dx.k, oc};
  const std::int8_t* input = Random<std::int8_t>(r, in.Count());
  const std::int8_t* weights = Random<std::int8_t>(r, filter.Count());
  const ChannelQ q = RandomChannels(r, oc, negative);
  const Range act = RandomAct(r);
  const k::ConvParams p{-r.Zp(),   r.Zp(), act.lo, act.hi, dy.stride,
                        dx.stride, dy.pad, dx.pad, m};
  std::int8_t* want = Filled<std::int8_t>(out.Count(), 0xaa);
  k::DepthwiseConv2D(p, in, input, filter, weights, q.bias, q.Quant(), out,
                     want);
  dg.Fold(want, out.Count());
  if (negative || m != 1 || dy.k * dx.k > k::kMaxDepthwiseTaps) return;
  std::int32_t* folded = scratch.Get<std::int32_t>(oc);
  k::FoldDepthwiseBias(p.input_offset, filter, weights, q.bias, folded);
  CheckConvFast<k::DefaultMac>(
      "DepthwiseConv2DFast (DefaultMac) != DepthwiseConv2D", i, p, in, input,
      filter, weights, folded, q, out, want, true);
  CheckConvFast<k::ScalarMac>(
      "DepthwiseConv2DFastWith<ScalarMac> != DepthwiseConv2D", i, p, in, input,
      filter, weights, folded, q, out, want, true);
  CheckConvFast<k::SimdMac<k::PortableIsa>>(
      "DepthwiseConv2DFastWith<SimdMac<PortableIsa>> != DepthwiseConv2D", i, p,
      in, input, filter, weights, folded, q, out, want, true);
}

}  // namespace

void TestDepthwise(std::int32_t cases) {
  Run("DEPTHWISE_CONV_2D", 0x1002, cases,
      [](Rng& r, Digest& dg, std::int32_t i) {
        DepthwiseCase(r, dg, i, false);
      });
}

namespace {

/// One spatial dimension of a dilated convolution: taps k, dilation dil
/// in [1, 4], SAME and VALID over the effective size (k - 1) * dil + 1
/// (ComputePaddingHeightWidth with a dilation rate), or an explicit
/// leading padding below it.
struct DilatedDim {
  std::int32_t in, k, dil, stride, pad, out;
};

DilatedDim RandomDilatedDim(Rng& r, std::int32_t max_in, std::int32_t max_k) {
  DilatedDim d{};
  d.in = r.In(1, max_in);
  d.k = r.In(1, max_k);
  d.dil = r.In(1, 4);
  d.stride = r.In(1, 3);
  std::int32_t mode = r.In(0, 2);
  if (mode == 1 && (d.k - 1) * d.dil + 1 > d.in) mode = 0;  // VALID: fits
  const std::int32_t span = (d.k - 1) * d.dil + 1;
  if (mode == 0) {
    d.out = (d.in + d.stride - 1) / d.stride;
    const std::int32_t total = (d.out - 1) * d.stride + span - d.in;
    d.pad = total > 0 ? total / 2 : 0;
  } else if (mode == 1) {
    d.out = (d.in - span) / d.stride + 1;
    d.pad = 0;
  } else {
    d.pad = r.In(0, span - 1);
    d.out = r.In(1, (d.in - 1 + d.pad) / d.stride + 1);
  }
  return d;
}

template <class Mac>
void CheckDilatedFast(const char* mac, std::int32_t i,
                      const k::DilatedConvParams& p, const k::Shape4& in,
                      const std::int8_t* input, const k::Shape4& filter,
                      const std::int8_t* weights, const std::int32_t* folded,
                      const ChannelQ& q, const k::Shape4& out,
                      const std::int8_t* want, bool depthwise) {
  std::int8_t* got = Filled<std::int8_t>(out.Count(), 0x55);
  if (depthwise) {
    k::DepthwiseConv2DFastWith<Mac>(
        p, in, input, filter, weights, folded, q.Quant(), out, got,
        Filled<std::int8_t>(k::DepthwiseConv2DFastScratchBytes(filter), 0x5a));
  } else {
    k::Conv2DDilatedFastWith<Mac>(p, in, input, filter, weights, folded,
                                  q.Quant(), out, got);
  }
  if (!Same(got, want, out.Count())) {
    Fail(depthwise ? "DEPTHWISE_CONV_2D dilated" : "CONV_2D dilated", i, mac);
  }
}

}  // namespace

/// Dilated CONV_2D (depthwise: DEPTHWISE_CONV_2D): the reference kernel's
/// bytes in the digest; Conv2DDilatedFast / DepthwiseConv2DDilatedFast on
/// the three multiply-accumulate flavours compared with them.
void TestDilated(std::int32_t cases, bool depthwise) {
  Run(depthwise ? "DEPTHWISE_CONV_2D dilated" : "CONV_2D dilated",
      depthwise ? 0x1009 : 0x1008, cases,
      [depthwise](Rng& r, Digest& dg, std::int32_t i) {
        const DilatedDim dy = RandomDilatedDim(r, 14, 3),
                         dx = RandomDilatedDim(r, 14, 4);
        const std::int32_t n = r.OneIn(5) ? 2 : 1;
        // Some convolution windows above the 256 gathered bytes.
        const std::int32_t c = r.OneIn(3) ? r.In(1, 40) : r.In(1, 9);
        const std::int32_t m = depthwise && r.OneIn(4) ? r.In(2, 3) : 1;
        const std::int32_t oc = depthwise ? c * m : r.In(1, 13);
        const k::Shape4 in{n, dy.in, dx.in, c}, out{n, dy.out, dx.out, oc};
        const k::Shape4 filter = depthwise ? k::Shape4{1, dy.k, dx.k, oc}
                                           : k::Shape4{oc, dy.k, dx.k, c};
        const std::int8_t* input = Random<std::int8_t>(r, in.Count());
        const std::int8_t* weights = Random<std::int8_t>(r, filter.Count());
        const ChannelQ q = RandomChannels(r, oc);
        const Range act = RandomAct(r);
        const k::DilatedConvParams p{{-r.Zp(), r.Zp(), act.lo, act.hi,
                                      dy.stride, dx.stride, dy.pad, dx.pad, m},
                                     dy.dil,
                                     dx.dil};
        std::int8_t* want = Filled<std::int8_t>(out.Count(), 0xaa);
        (depthwise ? k::DepthwiseConv2D<k::DilatedConvParams>
                   : k::Conv2D<k::DilatedConvParams>)(p, in, input, filter,
                                                      weights, q.bias,
                                                      q.Quant(), out, want);
        dg.Fold(want, out.Count());
        if (m != 1) return;  // the reference loop runs those
        std::int32_t* folded = scratch.Get<std::int32_t>(oc);
        (depthwise ? k::FoldDepthwiseBias : k::FoldConvBias)(
            p.input_offset, filter, weights, q.bias, folded);
        CheckDilatedFast<k::DefaultMac>("dilated fast (DefaultMac)", i, p, in,
                                        input, filter, weights, folded, q, out,
                                        want, depthwise);
        CheckDilatedFast<k::ScalarMac>("dilated fast (ScalarMac)", i, p, in,
                                       input, filter, weights, folded, q, out,
                                       want, depthwise);
        CheckDilatedFast<k::SimdMac<k::PortableIsa>>(
            "dilated fast (SimdMac<PortableIsa>)", i, p, in, input, filter,
            weights, folded, q, out, want, depthwise);
      });
}

namespace {

template <class Mac>
void CheckFcFast(const char* mac, std::int32_t i,
                 const k::FullyConnectedParams& p, const std::int8_t* input,
                 const std::int8_t* weights, const std::int32_t* folded,
                 const ChannelQ& q, const std::int8_t* want) {
  const std::int32_t n = p.batches * p.units;
  std::int8_t* got = Filled<std::int8_t>(n, 0x55);
  k::FullyConnectedFastWith<Mac>(p, input, weights, folded, q.Quant(), got);
  if (!Same(got, want, n)) Fail("FULLY_CONNECTED", i, mac);
}

/// One FULLY_CONNECTED case, as ConvCase.
void FullyConnectedCase(Rng& r, Digest& dg, std::int32_t i, bool negative) {
  const std::int32_t batches = r.In(1, 3);
  const std::int32_t depth = r.OneIn(3) ? r.In(1, 300) : r.In(1, 40);
  const std::int32_t units = r.In(1, 23);
  const std::int8_t* input = Random<std::int8_t>(r, batches * depth);
  const std::int8_t* weights = Random<std::int8_t>(r, units * depth);
  const ChannelQ q = RandomChannels(r, units, negative);
  const Range act = RandomAct(r);
  const k::FullyConnectedParams p{-r.Zp(), r.Zp(), act.lo, act.hi,
                                  batches, depth,  units};
  std::int8_t* want = Filled<std::int8_t>(batches * units, 0xaa);
  k::FullyConnected(p, input, weights, q.bias, q.Quant(), want);
  dg.Fold(want, batches * units);
  if (negative) return;
  std::int32_t* folded = scratch.Get<std::int32_t>(units);
  k::FoldFullyConnectedBias(p.input_offset, units, depth, weights, q.bias,
                            folded);
  CheckFcFast<k::DefaultMac>(
      "FullyConnectedFast (DefaultMac) != FullyConnected", i, p, input, weights,
      folded, q, want);
  CheckFcFast<k::ScalarMac>(
      "FullyConnectedFastWith<ScalarMac> != FullyConnected", i, p, input,
      weights, folded, q, want);
  CheckFcFast<k::SimdMac<k::PortableIsa>>(
      "FullyConnectedFastWith<SimdMac<PortableIsa>> != FullyConnected", i, p,
      input, weights, folded, q, want);
}

}  // namespace

void TestFullyConnected(std::int32_t cases) {
  Run("FULLY_CONNECTED", 0x1003, cases, [](Rng& r, Digest& dg, std::int32_t i) {
    FullyConnectedCase(r, dg, i, false);
  });
}

namespace {

/// One TRANSPOSE_CONV case (a reference kernel only), `negative` as in
/// RandomChannels.
void TransposeConvCase(Rng& r, Digest& dg, bool negative) {
  const std::int32_t n = r.OneIn(5) ? 2 : 1;
  const std::int32_t ih = r.In(1, 6), iw = r.In(1, 6);
  const std::int32_t kh = r.In(1, 4), kw = r.In(1, 4);
  const std::int32_t sh = r.In(1, 3), sw = r.In(1, 3);
  const std::int32_t ic = r.In(1, 12), oc = r.In(1, 8);
  // VALID: out = (in - 1) * s + k, no padding; SAME: out = in * s, the
  // padding ComputePaddingHeightWidth gives on the output's size.
  const bool same = r.OneIn(2);
  const std::int32_t oh = same ? ih * sh : (ih - 1) * sh + kh;
  const std::int32_t ow = same ? iw * sw : (iw - 1) * sw + kw;
  const std::int32_t th = (ih - 1) * sh + kh - oh;
  const std::int32_t tw = (iw - 1) * sw + kw - ow;
  const k::Shape4 in{n, ih, iw, ic}, out{n, oh, ow, oc};
  const k::Shape4 filter{oc, kh, kw, ic};
  const std::int8_t* input = Random<std::int8_t>(r, in.Count());
  const std::int8_t* weights = Random<std::int8_t>(r, filter.Count());
  const ChannelQ q = RandomChannels(r, oc, negative);
  const Range act = RandomAct(r);
  const k::ConvParams p{-r.Zp(),
                        r.Zp(),
                        act.lo,
                        act.hi,
                        sh,
                        sw,
                        th > 0 ? th / 2 : 0,
                        tw > 0 ? tw / 2 : 0,
                        1};
  std::int8_t* output = Filled<std::int8_t>(out.Count(), 0xaa);
  k::TransposeConv(p, in, input, filter, weights, q.bias, q.Quant(), out,
                   output);
  dg.Fold(output, out.Count());
}

}  // namespace

void TestTransposeConv(std::int32_t cases) {
  Run("TRANSPOSE_CONV", 0x1004, cases, [](Rng& r, Digest& dg, std::int32_t) {
    TransposeConvCase(r, dg, false);
  });
}

/// The per-channel layers with negative multipliers (negative weight
/// scales): the reference kernels the generator emits for them, digested.
void TestNegativeScales(std::int32_t cases) {
  Run("CONV_2D_NEGATIVE_SCALES", 0x1101, cases,
      [](Rng& r, Digest& dg, std::int32_t i) { ConvCase(r, dg, i, true); });
  Run("DEPTHWISE_CONV_2D_NEGATIVE_SCALES", 0x1102, cases,
      [](Rng& r, Digest& dg, std::int32_t i) {
        DepthwiseCase(r, dg, i, true);
      });
  Run("FULLY_CONNECTED_NEGATIVE_SCALES", 0x1103, cases,
      [](Rng& r, Digest& dg, std::int32_t i) {
        FullyConnectedCase(r, dg, i, true);
      });
  Run("TRANSPOSE_CONV_NEGATIVE_SCALES", 0x1104, cases,
      [](Rng& r, Digest& dg, std::int32_t) { TransposeConvCase(r, dg, true); });
}

void TestPool(std::int32_t cases) {
  for (int max = 0; max < 2; ++max) {
    Run(max ? "MAX_POOL_2D" : "AVERAGE_POOL_2D", 0x1005 + max, cases,
        [max](Rng& r, Digest& dg, std::int32_t) {
          const Dim dy = RandomDim(r, 12, 4), dx = RandomDim(r, 12, 4);
          const std::int32_t n = r.OneIn(5) ? 2 : 1, c = r.In(1, 12);
          const k::Shape4 in{n, dy.in, dx.in, c}, out{n, dy.out, dx.out, c};
          const std::int8_t* input = Random<std::int8_t>(r, in.Count());
          const Range act = RandomAct(r);
          const k::PoolParams p{dy.k,   dx.k,   dy.stride, dx.stride,
                                dy.pad, dx.pad, act.lo,    act.hi};
          std::int8_t* output = Filled<std::int8_t>(out.Count(), 0xaa);
          if (max) {
            k::MaxPool(p, in, input, out, output);
          } else {
            k::AveragePool(p, in, input, out, output);
          }
          dg.Fold(output, out.Count());
        });
  }
}

void TestBatchMatMul(std::int32_t cases) {
  Run("BATCH_MATMUL", 0x1007, cases, [](Rng& r, Digest& dg, std::int32_t) {
    k::BatchMatMulParams p{};
    p.x_zero_point = r.Zp();
    p.y_zero_point = r.Zp();
    p.output_zero_point = r.Zp();
    // double(float(s_x s_y)) / s_out: shifts in [-14, -4].
    p.multiplier = r.Multiplier();
    p.shift = r.In(-14, -4);
    p.rows = r.In(1, 6);
    p.depth = r.In(1, 16);
    p.cols = r.In(1, 6);
    const bool adj_x = r.OneIn(2), adj_y = r.OneIn(2);
    p.x_row_stride = adj_x ? 1 : p.depth;
    p.x_depth_stride = adj_x ? p.rows : 1;
    p.y_depth_stride = adj_y ? 1 : p.cols;
    p.y_col_stride = adj_y ? p.depth : 1;
    std::int32_t xs = p.rows * p.depth, ys = p.depth * p.cols;
    for (int d = 2; d >= 0; --d) {
      p.batch[d] = r.In(1, 2);
      const bool x_b = p.batch[d] > 1 && r.OneIn(3);  // x broadcast here
      const bool y_b = p.batch[d] > 1 && !x_b && r.OneIn(3);
      p.x_batch_stride[d] = x_b ? 0 : xs;
      p.y_batch_stride[d] = y_b ? 0 : ys;
      if (!x_b) xs *= p.batch[d];
      if (!y_b) ys *= p.batch[d];
    }
    const std::int8_t* x = Random<std::int8_t>(r, xs);
    const std::int8_t* y = Random<std::int8_t>(r, ys);
    const std::int32_t n =
        p.batch[0] * p.batch[1] * p.batch[2] * p.rows * p.cols;
    std::int8_t* output = Filled<std::int8_t>(n, 0xaa);
    k::BatchMatMul(p, x, y, output);
    dg.Fold(output, n);
  });
}

}  // namespace arenaplan::kernels_property
