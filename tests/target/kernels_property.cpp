// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Property test of every lowered operator's kernel (kernels/include/
// arenaplan/kernels/, docs/operators.md), one source for the host and the
// boards. For each kernel it runs a fixed set of random cases (its own
// xorshift generator, fixed seeds): random shapes, quantization parameters
// in the ranges the lowerings produce (comments at each case), random data.
// The fast kernels (Conv2DFast, DepthwiseConv2DFast, their dilated forms
// Conv2DDilatedFast and DepthwiseConv2DDilatedFast, FullyConnectedFast:
// DefaultMac, ScalarMac and SimdMac<PortableIsa>; AddFast) are compared with
// their reference kernels on the same case; the first mismatch prints
// "FAIL kernels_property: <kernel> case <i>: ..." and exits 1. Every output
// (and updated state) is folded into a per-kernel FNV-1a digest, printed as
// one line "digest <kernel> cases <n> 0x<hash>" per kernel.
//
// Why equal digests mean correct kernels on a board: on the host the same
// kernels are checked against hand-derived and TFLM-derived expectations by
// the unit tests in tests/host/kernels/ (and end to end against TFLM's
// reference outputs by `make test-reference` / `make test-corpus`). This
// test, built for the host (ctest kernels_property_test, also under ASan
// and UBSan in `make test-asan`) and for mps2-an386 (Cortex-M4, DSP
// extension: SimdMac<AcleIsa>) and mps2-an385 (Cortex-M3, no DSP:
// ScalarMac), passes in `make test-kernels-board` only when each board
// prints the host's digest lines line for line: the board's kernels then
// gave the host's bytes on every case, so the host's checks carry over to
// the board's compiler, instruction set and DSP paths.
//
// Freestanding (no heap, no libc) on the boards: buffers come from a static
// pool. On the host (ARENAPLAN_KERNELS_PROPERTY_HOST) every buffer is its
// own exact-size malloc so that AddressSanitizer sees an overrun.
#include <cstddef>
#include <cstdint>

#include "arenaplan/kernels/kernels.hpp"
#include "port/port.hpp"

#if defined(ARENAPLAN_KERNELS_PROPERTY_HOST)
#include <cstdlib>
#endif

namespace {

namespace k = arenaplan::kernels;
namespace port = arenaplan::port;

// --- failure, generator, buffers, digests ---------------------------------

[[noreturn]] void Fail(const char* kernel, std::int32_t case_index,
                       const char* what) {
  port::Write("FAIL kernels_property: ");
  port::Write(kernel);
  port::Write(" case ");
  port::WriteUnsigned(static_cast<std::uint32_t>(case_index));
  port::Write(": ");
  port::Write(what);
  port::Write("\n");
  port::Exit(1);
}

/// xorshift32 (Marsaglia 2003): the same sequence on every core.
class Rng {
 public:
  explicit Rng(std::uint32_t seed) : s_(seed != 0 ? seed : 1u) {}
  std::uint32_t Bits() {
    s_ ^= s_ << 13;
    s_ ^= s_ >> 17;
    s_ ^= s_ << 5;
    return s_;
  }
  /// Uniform-ish in [lo, hi], both ends included.
  std::int32_t In(std::int32_t lo, std::int32_t hi) {
    const std::uint32_t span =
        static_cast<std::uint32_t>(hi) - static_cast<std::uint32_t>(lo) + 1u;
    const std::uint32_t r = span == 0 ? Bits() : Bits() % span;
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(lo) + r);
  }
  bool OneIn(std::int32_t n) { return In(0, n - 1) == 0; }
  /// A Q0.31 multiplier as QuantizeMultiplier gives: [2^30, 2^31).
  std::int32_t Multiplier() { return In(1 << 30, k::kInt32Max); }
  std::int32_t Zp() { return In(-128, 127); }

 private:
  std::uint32_t s_;
};

/// Per-case buffers, released by Reset() (each case starts with one).
class Scratch {
 public:
  template <class T>
  T* Get(std::int32_t count) {
    const std::size_t bytes =
        static_cast<std::size_t>(count > 0 ? count : 1) * sizeof(T);
#if defined(ARENAPLAN_KERNELS_PROPERTY_HOST)
    if (n_ == kMaxBuffers) Fail("scratch", n_, "too many buffers");
    void* p = std::malloc(bytes);
    if (p == nullptr) Fail("scratch", n_, "out of memory");
    buffers_[n_++] = p;
    return static_cast<T*>(p);
#else
    const std::size_t at = (used_ + 7u) & ~std::size_t{7};
    if (at + bytes > sizeof(pool_)) Fail("scratch", 0, "pool exhausted");
    used_ = at + bytes;
    return reinterpret_cast<T*>(pool_ + at);
#endif
  }
  void Reset() {
#if defined(ARENAPLAN_KERNELS_PROPERTY_HOST)
    for (int i = 0; i < n_; ++i) std::free(buffers_[i]);
    n_ = 0;
#else
    used_ = 0;
#endif
  }

 private:
#if defined(ARENAPLAN_KERNELS_PROPERTY_HOST)
  static constexpr int kMaxBuffers = 64;
  void* buffers_[kMaxBuffers] = {};
  int n_ = 0;
#else
  alignas(8) unsigned char pool_[192 * 1024];
  std::size_t used_ = 0;
#endif
};

Scratch scratch;

/// FNV-1a (32 bits) over the bytes of every output of one kernel.
class Digest {
 public:
  explicit Digest(const char* name) : name_(name) {}
  template <class T>
  void Fold(const T* v, std::int32_t count) {
    const auto* b = reinterpret_cast<const unsigned char*>(v);
    const std::size_t n = static_cast<std::size_t>(count) * sizeof(T);
    for (std::size_t i = 0; i < n; ++i) {
      h_ = (h_ ^ b[i]) * 16777619u;
    }
  }
  void Case() { ++cases_; }
  void Print() const {
    port::Write("digest ");
    port::Write(name_);
    port::Write(" cases ");
    port::WriteUnsigned(cases_);
    port::Write(" ");
    port::WriteHex(h_);
    port::Write("\n");
  }

 private:
  const char* name_;
  std::uint32_t h_ = 2166136261u;
  std::uint32_t cases_ = 0;
};

/// A random integer of T's width (int32: mostly small, now and then any).
template <class T>
T RandomValue(Rng& r) {
  if (sizeof(T) == 1) return static_cast<T>(r.In(-128, 127));
  if (sizeof(T) == 2) return static_cast<T>(r.In(-32768, 32767));
  return static_cast<T>(r.OneIn(4) ? r.In(k::kInt32Min, k::kInt32Max)
                                   : r.In(-100000, 100000));
}

template <class T>
T* Random(Rng& r, std::int32_t count) {
  T* v = scratch.Get<T>(count);
  for (std::int32_t i = 0; i < count; ++i) v[i] = RandomValue<T>(r);
  return v;
}

/// A float of the kinds the float kernels meet: exact multiples of 2^-7
/// (halves among them: rounding ties), large values, infinities and NaN.
float RandomFloat(Rng& r) {
  const std::int32_t kind = r.In(0, 19);
  if (kind == 0) return static_cast<float>(r.In(-4000000, 4000000)) * 1024.0f;
  if (kind == 1) {
    std::uint32_t bits = r.Bits();
    if (r.OneIn(2)) bits |= 0x7f800000u;  // infinity or NaN
    float f;
    __builtin_memcpy(&f, &bits, sizeof f);
    return f;
  }
  return static_cast<float>(r.In(-40000, 40000)) * 0.0078125f;
}

float* RandomFloats(Rng& r, std::int32_t count) {
  float* v = scratch.Get<float>(count);
  for (std::int32_t i = 0; i < count; ++i) v[i] = RandomFloat(r);
  return v;
}

/// A positive scale s = m * 2^e, m with 24 random bits, e in [lo, hi].
float RandomScale(Rng& r, std::int32_t lo, std::int32_t hi) {
  // One generator call per statement: the order of evaluation of operands
  // (and of function arguments) is unspecified and differs between
  // compilers, so two calls in one expression would give other cases.
  const std::int32_t e = r.In(lo, hi);
  const std::uint32_t bits =
      (static_cast<std::uint32_t>(127 + e) << 23) | (r.Bits() & 0x7fffffu);
  float f;
  __builtin_memcpy(&f, &bits, sizeof f);
  return f;
}

template <class T>
T* Filled(std::int32_t count, unsigned char byte) {
  T* v = scratch.Get<T>(count);
  auto* b = reinterpret_cast<unsigned char*>(v);
  for (std::size_t i = 0; i < static_cast<std::size_t>(count) * sizeof(T); ++i)
    b[i] = byte;
  return v;
}

template <class T>
bool Same(const T* a, const T* b, std::int32_t count) {
  const auto* x = reinterpret_cast<const unsigned char*>(a);
  const auto* y = reinterpret_cast<const unsigned char*>(b);
  for (std::size_t i = 0; i < static_cast<std::size_t>(count) * sizeof(T); ++i)
    if (x[i] != y[i]) return false;
  return true;
}

struct Range {
  std::int32_t lo, hi;
};

/// A fused activation range: none, or a sub-range of int8 (RELU, RELU6,
/// RELU_N1_TO_1 quantized on the output's scale give such ranges).
Range RandomAct(Rng& r) {
  if (r.OneIn(2)) return {-128, 127};
  const std::int32_t lo = r.In(-128, 0);
  return {lo, r.In(lo, 127)};
}

/// One spatial dimension of a window operator: SAME (TFLM's
/// ComputePaddingHeightWidth, dilation 1), VALID, or an explicit leading
/// padding in [0, k - 1] (a PAD folded into the operator).
struct Dim {
  std::int32_t in, k, stride, pad, out;
};

/// `k` > 0: that window (an input of at least k), strides 1 to max_stride;
/// else a window of 1 to max_k, strides 1 to 3.
Dim RandomDim(Rng& r, std::int32_t max_in, std::int32_t max_k,
              std::int32_t k = 0, std::int32_t max_stride = 3) {
  Dim d{};
  d.in = k > 0 ? r.In(k, max_in) : r.In(1, max_in);
  d.k = k > 0 ? k : r.OneIn(3) ? 1 : r.In(1, max_k);
  d.stride = r.In(1, max_stride);
  const std::int32_t mode = r.In(0, 2);
  if (mode == 0) {
    d.out = (d.in + d.stride - 1) / d.stride;
    const std::int32_t total = (d.out - 1) * d.stride + d.k - d.in;
    d.pad = total > 0 ? total / 2 : 0;
  } else if (mode == 1) {
    if (d.k > d.in) d.k = d.in;
    d.out = (d.in - d.k) / d.stride + 1;
    d.pad = 0;
  } else {
    d.pad = r.In(0, d.k - 1);
    d.out = r.In(1, (d.in - 1 + d.pad) / d.stride + 1);
  }
  return d;
}

/// Per-channel requantization and bias of a convolution or fully connected
/// layer: multipliers in [2^30, 2^31) (now and then 0: a zero filter
/// scale), shifts in [-14, 0], bias within +-2^20 or none. With `negative`
/// (a negative weight scale; the generator gives negative multipliers to
/// the reference kernels only)
/// about half the multipliers are negated into (-2^31, -2^30], one in
/// eight of those INT32_MIN (a mantissa that rounds to -2^31).
struct ChannelQ {
  std::int32_t* mult;
  std::int8_t* shift;
  std::int32_t* bias;
  k::ChannelQuant Quant() const { return {mult, shift}; }
};

ChannelQ RandomChannels(Rng& r, std::int32_t n, bool negative = false) {
  ChannelQ q{scratch.Get<std::int32_t>(n), scratch.Get<std::int8_t>(n),
             nullptr};
  const bool has_bias = !r.OneIn(4);
  if (has_bias) q.bias = scratch.Get<std::int32_t>(n);
  for (std::int32_t i = 0; i < n; ++i) {
    q.mult[i] = r.OneIn(16) ? 0 : r.Multiplier();
    if (negative && r.OneIn(2)) {
      q.mult[i] = r.OneIn(8) ? k::kInt32Min : -q.mult[i];
    }
    q.shift[i] = static_cast<std::int8_t>(r.In(-14, 0));
    if (has_bias) q.bias[i] = r.In(-(1 << 20), 1 << 20);
  }
  return q;
}

/// A broadcast of two operands over a 4-D output: each operand dimension
/// equals the output's or is 1 (stride 0).
struct Broadcast {
  k::Shape4 out;
  std::int32_t a_stride[4], b_stride[4];
  std::int32_t a_count, b_count;
};

std::int32_t RandomOperand(Rng& r, const std::int32_t out[4],
                           std::int32_t stride[4]) {
  const bool full = r.OneIn(2);
  std::int32_t step = 1;
  for (int i = 3; i >= 0; --i) {
    const std::int32_t d = full || !r.OneIn(3) ? out[i] : 1;
    stride[i] = d == 1 ? 0 : step;
    step *= d;
  }
  return step;
}

Broadcast RandomBroadcast(Rng& r) {
  Broadcast b{};
  const std::int32_t out[4] = {r.In(1, 2), r.In(1, 5), r.In(1, 6), r.In(1, 9)};
  b.out = {out[0], out[1], out[2], out[3]};
  b.a_count = RandomOperand(r, out, b.a_stride);
  b.b_count = RandomOperand(r, out, b.b_stride);
  return b;
}

void CopyStrides(const std::int32_t from[4], std::int32_t to[4]) {
  for (int i = 0; i < 4; ++i) to[i] = from[i];
}

k::Shape4 RandomShape(Rng& r, std::int32_t max_n, std::int32_t max_hw,
                      std::int32_t max_c) {
  return {r.In(1, max_n), r.In(1, max_hw), r.In(1, max_hw), r.In(1, max_c)};
}

/// Runs `cases` cases of `body(rng, digest, case_index)` with a fresh
/// scratch each, then prints the digest line.
template <class Body>
void Run(const char* name, std::uint32_t seed, std::int32_t cases, Body body) {
  Rng rng(seed);
  Digest digest(name);
  for (std::int32_t i = 0; i < cases; ++i) {
    scratch.Reset();
    body(rng, digest, i);
    digest.Case();
#if defined(ARENAPLAN_KERNELS_PROPERTY_TRACE)
    digest.Print();  // every case's running digest, to find a difference
#endif
  }
  scratch.Reset();
  digest.Print();
}

// --- convolutions and fully connected ---------------------------------------

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
    k::Conv2DFastWith<Mac>(p, in, input, filter, weights, folded, q.Quant(),
                           out, got,
                           Filled<std::int8_t>(
                               k::Conv2DFastScratchBytes(filter), 0x5a));
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

void TestConv(std::int32_t cases) {
  Run("CONV_2D", 0x1001, cases,
      [](Rng& r, Digest& dg, std::int32_t i) { ConvCase(r, dg, i, false); });
}

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

void TestDepthwise(std::int32_t cases) {
  Run("DEPTHWISE_CONV_2D", 0x1002, cases,
      [](Rng& r, Digest& dg, std::int32_t i) {
        DepthwiseCase(r, dg, i, false);
      });
}

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

void TestFullyConnected(std::int32_t cases) {
  Run("FULLY_CONNECTED", 0x1003, cases, [](Rng& r, Digest& dg, std::int32_t i) {
    FullyConnectedCase(r, dg, i, false);
  });
}

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

// --- element-wise arithmetic ------------------------------------------------

/// ADD and SUB's rescaling (TFLM's 20-bit headroom): the operand with the
/// larger scale gets s / (2 max) = 1/2 (2^30, shift 0), the other a ratio
/// below 1/2 (shift in [-6, -1]); the output 2 max / (2^20 s_out), s_out
/// within 2^-3..2^5 of 2 max: shift in [-22, -14].
struct TwoInputScaling {
  std::int32_t m1, s1, m2, s2, mo, so;
};

TwoInputScaling RandomTwoInputScaling(Rng& r) {
  TwoInputScaling t{1 << 30, 0, 1 << 30, 0, r.Multiplier(), r.In(-22, -14)};
  if (!r.OneIn(4)) {
    const std::int32_t m = r.Multiplier(), s = r.In(-6, -1);
    if (r.OneIn(2)) {
      t.m1 = m;
      t.s1 = s;
    } else {
      t.m2 = m;
      t.s2 = s;
    }
  }
  return t;
}

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

// --- activations
// ---------------------------------------------------------------

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

// --- quantization and type changes -------------------------------------------

template <class In, class Out>
void RequantizeCase(Rng& r, Digest& dg, std::int32_t in_zp,
                    std::int32_t out_zp) {
  // s_in / s_out: shifts in [-8, 6].
  const k::RequantizeParams p{-in_zp, out_zp, r.Multiplier(), r.In(-8, 6),
                              r.In(1, 300)};
  In* input = scratch.Get<In>(p.count);
  const std::int32_t lo =
      sizeof(In) == 1 ? (static_cast<In>(-1) < 0 ? -128 : 0) : -32768;
  const std::int32_t hi = sizeof(In) == 1 ? lo + 255 : 32767;
  for (std::int32_t i = 0; i < p.count; ++i)
    input[i] = static_cast<In>(r.In(lo, hi));
  Out* out = Filled<Out>(p.count, 0xaa);
  k::Requantize(p, input, out);
  dg.Fold(out, p.count);
}

void TestQuantize(std::int32_t cases) {
  Run("QUANTIZE", 0x4001, cases, [](Rng& r, Digest& dg, std::int32_t) {
    const std::int32_t kind = r.In(0, 5);
    const std::int32_t zp1 = r.Zp(), zp2 = r.Zp(), uzp = r.In(0, 255);
    switch (kind) {
      case 0:
        RequantizeCase<std::int8_t, std::int8_t>(r, dg, zp1, zp2);
        break;
      case 1:
        RequantizeCase<std::uint8_t, std::int8_t>(r, dg, uzp, zp2);
        break;
      case 2:
        RequantizeCase<std::int8_t, std::uint8_t>(r, dg, zp1, uzp);
        break;
      case 3:
        RequantizeCase<std::int16_t, std::int8_t>(r, dg, 0, zp2);
        break;
      case 4:
        RequantizeCase<std::int8_t, std::int16_t>(r, dg, zp1, 0);
        break;
      default:
        RequantizeCase<std::int8_t, std::int32_t>(r, dg, zp1, 0);
        break;
    }
  });
}

template <class T>
void FloatQuantizeCase(Rng& r, Digest& dg, std::int32_t zp) {
  const k::FloatQuantizeParams p{RandomScale(r, -12, 0), zp, r.In(1, 200)};
  const float* input = RandomFloats(r, p.count);
  T* out = Filled<T>(p.count, 0xaa);
  k::QuantizeFromFloat(p, input, out);
  dg.Fold(out, p.count);
}

template <class T>
void DequantizeCase(Rng& r, Digest& dg, std::int32_t zp) {
  const k::FloatQuantizeParams p{RandomScale(r, -12, 0), zp, r.In(1, 200)};
  const T* input = Random<T>(r, p.count);
  float* out = Filled<float>(p.count, 0xaa);
  k::DequantizeToFloat(p, input, out);
  dg.Fold(out, p.count);
}

void TestFloatQuantize(std::int32_t cases) {
  Run("QUANTIZE float", 0x4002, cases, [](Rng& r, Digest& dg, std::int32_t) {
    switch (r.In(0, 2)) {
      case 0:
        FloatQuantizeCase<std::int8_t>(r, dg, r.Zp());
        break;
      case 1:
        FloatQuantizeCase<std::uint8_t>(r, dg, r.In(0, 255));
        break;
      default:
        FloatQuantizeCase<std::int16_t>(r, dg, 0);
        break;
    }
  });
  Run("DEQUANTIZE", 0x4003, cases, [](Rng& r, Digest& dg, std::int32_t) {
    switch (r.In(0, 2)) {
      case 0:
        DequantizeCase<std::int8_t>(r, dg, r.Zp());
        break;
      case 1:
        DequantizeCase<std::uint8_t>(r, dg, r.In(0, 255));
        break;
      default:
        DequantizeCase<std::int16_t>(r, dg, 0);
        break;
    }
  });
}

template <class From, class To>
void CastCase(Rng& r, Digest& dg) {
  const std::int32_t count = r.In(1, 200);
  From* input = scratch.Get<From>(count);
  for (std::int32_t i = 0; i < count; ++i) {
    if constexpr (static_cast<From>(0.5) != 0) {
      input[i] = static_cast<From>(RandomFloat(r));
    } else {
      input[i] = RandomValue<From>(r);
    }
  }
  To* out = Filled<To>(count, 0xaa);
  k::Cast<From, To>(input, out, count);
  dg.Fold(out, count);
}

void TestCast(std::int32_t cases) {
  Run("CAST", 0x4004, cases, [](Rng& r, Digest& dg, std::int32_t) {
    switch (r.In(0, 9)) {
      case 0:
        CastCase<std::int8_t, std::int16_t>(r, dg);
        break;
      case 1:
        CastCase<std::int8_t, std::int32_t>(r, dg);
        break;
      case 2:
        CastCase<std::int8_t, float>(r, dg);
        break;
      case 3:
        CastCase<std::int16_t, std::int8_t>(r, dg);
        break;
      case 4:
        CastCase<std::int32_t, std::int8_t>(r, dg);
        break;
      case 5:
        CastCase<std::int32_t, float>(r, dg);
        break;
      case 6:
        CastCase<float, std::int8_t>(r, dg);
        break;
      case 7:
        CastCase<float, std::int16_t>(r, dg);
        break;
      case 8:
        CastCase<float, std::int32_t>(r, dg);
        break;
      default:
        CastCase<std::int16_t, float>(r, dg);
        break;
    }
  });
}

// --- reductions and recurrent operators -------------------------------------

void TestMean(std::int32_t cases) {
  Run("MEAN", 0x5001, cases, [](Rng& r, Digest& dg, std::int32_t) {
    k::MeanParams p{};
    p.input = RandomShape(r, 2, 7, 12);
    p.reduced = r.OneIn(2) ? 6 : r.In(1, 15);  // 6: h and w (global pool)
    std::int32_t num = 1, out_count = 1;
    const std::int32_t dims[4] = {p.input.n, p.input.h, p.input.w, p.input.c};
    for (int d = 0; d < 4; ++d) {
      if (p.reduced & (8 >> d)) {
        num *= dims[d];
      } else {
        out_count *= dims[d];
      }
    }
    const std::int32_t zp_in = r.Zp();
    p.input_zero_point_times_count = zp_in * num;
    // s_in / (s_out num): shifts in [-14, 0].
    p.multiplier = r.Multiplier();
    p.shift = r.In(-14, 0);
    p.output_zero_point = r.Zp();
    const std::int8_t* input = Random<std::int8_t>(r, p.input.Count());
    std::int8_t* out = Filled<std::int8_t>(out_count, 0xaa);
    k::Mean(p, input, out);
    dg.Fold(out, out_count);
  });
}

template <class T>
void SvdfCase(Rng& r, Digest& dg, std::int32_t state_zp) {
  k::SvdfParams p{};
  p.input_offset = -r.Zp();
  p.state_zero_point = state_zp;
  p.output_offset = r.Zp();
  const Range act = RandomAct(r);
  p.act_min = act.lo;
  p.act_max = act.hi;
  p.batches = r.In(1, 2);
  p.input_size = r.In(1, 20);
  p.rank = r.In(1, 2);
  const std::int32_t units = r.In(1, 6);
  p.filters = units * p.rank;
  p.memory = r.In(1, 8);
  // s_in s_wf / s_state (shifts [-12, -2]); s_state s_time / s_out (shifts
  // [-22, -6]).
  p.feature_multiplier = r.Multiplier();
  p.feature_shift = r.In(-12, -2);
  p.output_multiplier = r.Multiplier();
  p.output_shift = r.In(-22, -6);
  const std::int8_t* input = Random<std::int8_t>(r, p.batches * p.input_size);
  const std::int8_t* wf = Random<std::int8_t>(r, p.filters * p.input_size);
  const T* wt = Random<T>(r, p.filters * p.memory);
  const std::int32_t* bias = nullptr;
  if (!r.OneIn(3)) {
    std::int32_t* b = scratch.Get<std::int32_t>(units);
    for (std::int32_t u = 0; u < units; ++u) b[u] = r.In(-(1 << 16), 1 << 16);
    bias = b;
  }
  const std::int32_t state_n = p.batches * p.filters * p.memory;
  T* state = Random<T>(r, state_n);
  std::int8_t* out = Filled<std::int8_t>(p.batches * units, 0xaa);
  for (int step = 0; step < 3; ++step) {  // the state shifts between steps
    k::Svdf<T>(p, input, wf, wt, bias, state, out);
    dg.Fold(out, p.batches * units);
  }
  dg.Fold(state, state_n);
}

void TestSvdf(std::int32_t cases) {
  Run("SVDF", 0x5002, cases, [](Rng& r, Digest& dg, std::int32_t) {
    if (r.OneIn(2)) {
      SvdfCase<std::int8_t>(r, dg, r.Zp());
    } else {
      SvdfCase<std::int16_t>(r, dg, 0);
    }
  });
}

void TestLstm(std::int32_t cases) {
  Run("UNIDIRECTIONAL_SEQUENCE_LSTM", 0x5003, cases,
      [](Rng& r, Digest& dg, std::int32_t) {
        k::SequenceLstmParams p{};
        p.batches = r.In(1, 2);
        p.time_steps = r.In(1, 3);
        p.input_size = r.In(1, 8);
        p.units = r.In(1, 6);
        p.time_major = r.OneIn(2);
        p.input_offset = -r.Zp();
        p.hidden_zero_point = r.Zp();
        p.hidden_offset = -p.hidden_zero_point;
        for (k::LstmGate& g : p.gate) {
          g.input_weights = Random<std::int8_t>(r, p.units * p.input_size);
          g.recurrent_weights = Random<std::int8_t>(r, p.units * p.units);
          g.bias = nullptr;
          if (!r.OneIn(3)) {
            std::int32_t* b = scratch.Get<std::int32_t>(p.units);
            for (std::int32_t j = 0; j < p.units; ++j)
              b[j] = r.In(-(1 << 12), 1 << 12);
            g.bias = b;
          }
          // s_x s_w / 2^-12 and s_h s_r / 2^-12: shifts in [-6, 1].
          g.input_multiplier = r.Multiplier();
          g.input_shift = r.In(-6, 1);
          g.recurrent_multiplier = r.Multiplier();
          g.recurrent_shift = r.In(-6, 1);
        }
        // Cell scale 2^c, c in [-15, -8] (lstm.hpp's rule for tanh).
        const std::int32_t c = r.In(-15, -8);
        const std::int32_t e = 15 + c - 3;
        p.cell_tanh_multiplier = e >= 0 ? 0 : 3;
        p.cell_tanh_shift = e >= 0 ? e : -e;
        p.clip = r.OneIn(2);
        p.cell_clip = static_cast<std::int16_t>(r.In(1000, 32767));
        // forget (Q0.15) x cell -> cell: 2^-15; input x cell gate (Q0.15 x
        // Q0.15) -> cell: 2^(-30 - c); output x tanh -> hidden: 2^-30 / s_h.
        p.forget_cell = {1 << 30, -14};
        p.input_cell_gate = {1 << 30, -30 - c + 1};
        p.output_hidden = {r.Multiplier(), r.In(-24, -21)};
        const std::int32_t rows = p.batches * p.time_steps;
        const std::int8_t* input = Random<std::int8_t>(r, rows * p.input_size);
        std::int8_t* hidden = Random<std::int8_t>(r, p.batches * p.units);
        std::int16_t* cell = Random<std::int16_t>(r, p.batches * p.units);
        std::int8_t* out = Filled<std::int8_t>(rows * p.units, 0xaa);
        k::SequenceLstm(p, input, hidden, cell, out);
        dg.Fold(out, rows * p.units);
        dg.Fold(hidden, p.batches * p.units);
        dg.Fold(cell, p.batches * p.units);
      });
}

// --- data movement
// ------------------------------------------------------------

template <class T>
void PadCase(Rng& r, Digest& dg) {
  k::PadParams p{};
  p.input = RandomShape(r, 2, 6, 8);
  p.before = {r.In(0, 1), r.In(0, 2), r.In(0, 2), r.In(0, 2)};
  p.after = {r.In(0, 1), r.In(0, 2), r.In(0, 2), r.In(0, 2)};
  const k::Shape4 o = k::PadOutputShape(p);
  const T* input = Random<T>(r, p.input.Count());
  T* out = Filled<T>(o.Count(), 0xaa);
  k::Pad<T>(p, RandomValue<T>(r), input, out);
  dg.Fold(out, o.Count());
}

void TestPad(std::int32_t cases) {
  Run("PAD", 0x6001, cases, [](Rng& r, Digest& dg, std::int32_t) {
    if (r.OneIn(4)) {
      PadCase<std::int16_t>(r, dg);
    } else {
      PadCase<std::int8_t>(r, dg);
    }
  });
}

void TestStridedSlice(std::int32_t cases) {
  Run("STRIDED_SLICE", 0x6002, cases, [](Rng& r, Digest& dg, std::int32_t) {
    k::StridedSliceParams p{};
    p.input = RandomShape(r, 2, 7, 9);
    const std::int32_t dims[4] = {p.input.n, p.input.h, p.input.w, p.input.c};
    std::int32_t count = 1;
    for (int d = 0; d < 4; ++d) {
      // Resolved as strided_slice_logic.h leaves them: start inside the
      // dimension, stop one past the last taken (or -1 going backwards).
      const bool back = r.OneIn(4);
      p.stride[d] = back ? -r.In(1, 2) : r.In(1, 3);
      p.start[d] = r.In(0, dims[d] - 1);
      p.stop[d] =
          back ? r.In(-1, p.start[d] - 1) : r.In(p.start[d] + 1, dims[d]);
      const std::int32_t span =
          back ? p.start[d] - p.stop[d] : p.stop[d] - p.start[d];
      const std::int32_t step = back ? -p.stride[d] : p.stride[d];
      count *= (span + step - 1) / step;
    }
    const std::int8_t* input = Random<std::int8_t>(r, p.input.Count());
    std::int8_t* out = Filled<std::int8_t>(count, 0xaa);
    k::StridedSlice(p, input, out);
    dg.Fold(out, count);
  });
}

template <class T>
void ConcatSplitCase(Rng& r, Digest& dg, bool split) {
  const std::int32_t outer = r.In(1, 6), n = r.In(1, 4);
  std::int32_t inner[4];
  std::int32_t total = 0;
  for (std::int32_t i = 0; i < n; ++i) {
    inner[i] = r.In(1, 10);
    total += inner[i];
  }
  T* parts[4];
  for (std::int32_t i = 0; i < n; ++i) {
    parts[i] = split ? Filled<T>(outer * inner[i], 0xaa)
                     : Random<T>(r, outer * inner[i]);
  }
  if (split) {
    const T* input = Random<T>(r, outer * total);
    k::Split<T>(k::SplitParams{outer, n}, input, inner, parts);
    for (std::int32_t i = 0; i < n; ++i) dg.Fold(parts[i], outer * inner[i]);
  } else {
    T* out = Filled<T>(outer * total, 0xaa);
    k::Concatenation<T>(k::ConcatenationParams{outer, n}, parts, inner, out);
    dg.Fold(out, outer * total);
  }
}

void TestConcatSplit(std::int32_t cases) {
  for (int split = 0; split < 2; ++split) {
    Run(split ? "SPLIT" : "CONCATENATION", 0x6003 + split, cases,
        [split](Rng& r, Digest& dg, std::int32_t) {
          if (r.OneIn(4)) {
            ConcatSplitCase<std::int32_t>(r, dg, split);
          } else {
            ConcatSplitCase<std::int8_t>(r, dg, split);
          }
        });
  }
}

template <class T>
void GatherCase(Rng& r, Digest& dg) {
  const k::GatherParams p{r.In(1, 2), r.In(1, 3), r.In(1, 6), r.In(1, 5),
                          r.In(1, 6)};
  const T* input = Random<T>(r, p.batch * p.outer * p.axis * p.inner);
  std::int32_t* positions = scratch.Get<std::int32_t>(p.batch * p.coords);
  for (std::int32_t i = 0; i < p.batch * p.coords; ++i) {
    // Now and then outside the axis: the kernel clamps it.
    positions[i] = r.OneIn(8) ? r.In(-3, p.axis + 2) : r.In(0, p.axis - 1);
  }
  const std::int32_t n = p.batch * p.outer * p.coords * p.inner;
  T* out = Filled<T>(n, 0xaa);
  k::Gather<T>(p, input, positions, out);
  dg.Fold(out, n);
}

void TestGather(std::int32_t cases) {
  Run("GATHER", 0x6005, cases, [](Rng& r, Digest& dg, std::int32_t) {
    switch (r.In(0, 3)) {
      case 0:
        GatherCase<std::int16_t>(r, dg);
        break;
      case 1:
        GatherCase<std::int32_t>(r, dg);
        break;
      default:
        GatherCase<std::int8_t>(r, dg);
        break;
    }
  });
}

void TestResize(std::int32_t cases) {
  Run("RESIZE_NEAREST_NEIGHBOR", 0x6006, cases,
      [](Rng& r, Digest& dg, std::int32_t) {
        const k::Shape4 in = RandomShape(r, 2, 6, 6);
        const std::int32_t oh = r.In(1, 12), ow = r.In(1, 12);
        // GetNearestNeighbor without align_corners or half-pixel centres:
        // floor(y in / out).
        std::int32_t* rows = scratch.Get<std::int32_t>(oh);
        std::int32_t* cols = scratch.Get<std::int32_t>(ow);
        for (std::int32_t y = 0; y < oh; ++y) rows[y] = y * in.h / oh;
        for (std::int32_t x = 0; x < ow; ++x) cols[x] = x * in.w / ow;
        const k::ResizeNearestParams p{in, oh, ow, rows, cols};
        const std::int8_t* input = Random<std::int8_t>(r, in.Count());
        const std::int32_t n = in.n * oh * ow * in.c;
        std::int8_t* out = Filled<std::int8_t>(n, 0xaa);
        k::ResizeNearestNeighbor(p, input, out);
        dg.Fold(out, n);
      });
  Run("RESIZE_BILINEAR", 0x6007, cases, [](Rng& r, Digest& dg, std::int32_t) {
    const k::Shape4 in = RandomShape(r, 2, 6, 6);
    const std::int32_t oh = r.In(1, 12), ow = r.In(1, 12);
    // ResizeBilinearInteger's positions in 1/1024 of a pixel: scale
    // round(1024 in / out), position y * scale, lo = its pixel, hi the next
    // (clamped), weight its fraction.
    auto table = [](std::int32_t in_n, std::int32_t out_n) {
      std::int32_t* t = scratch.Get<std::int32_t>(3 * out_n);
      const std::int32_t scale = (1024 * in_n + out_n / 2) / out_n;
      for (std::int32_t y = 0; y < out_n; ++y) {
        const std::int32_t pos = y * scale;
        std::int32_t lo = pos / 1024;
        if (lo > in_n - 1) lo = in_n - 1;
        t[3 * y] = lo;
        t[3 * y + 1] = lo + 1 < in_n ? lo + 1 : in_n - 1;
        t[3 * y + 2] = pos - (pos / 1024) * 1024;
      }
      return t;
    };
    const k::ResizeBilinearParams p{in, oh, ow, table(in.h, oh),
                                    table(in.w, ow)};
    const std::int8_t* input = Random<std::int8_t>(r, in.Count());
    const std::int32_t n = in.n * oh * ow * in.c;
    std::int8_t* out = Filled<std::int8_t>(n, 0xaa);
    k::ResizeBilinear(p, input, out);
    dg.Fold(out, n);
  });
}

template <class T>
void TransposeCase(Rng& r, Digest& dg) {
  const k::Shape4 in = RandomShape(r, 3, 6, 7);
  const std::int32_t dims[4] = {in.n, in.h, in.w, in.c};
  const std::int32_t in_stride[4] = {in.h * in.w * in.c, in.w * in.c, in.c, 1};
  std::int32_t perm[4] = {0, 1, 2, 3};
  for (int i = 3; i > 0; --i) {  // Fisher-Yates
    const std::int32_t j = r.In(0, i);
    const std::int32_t t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  k::TransposeParams p{};
  p.output = {dims[perm[0]], dims[perm[1]], dims[perm[2]], dims[perm[3]]};
  for (int i = 0; i < 4; ++i) p.stride[i] = in_stride[perm[i]];
  const T* input = Random<T>(r, in.Count());
  T* out = Filled<T>(in.Count(), 0xaa);
  k::Transpose<T>(p, input, out);
  dg.Fold(out, in.Count());
}

void TestTranspose(std::int32_t cases) {
  Run("TRANSPOSE", 0x6008, cases, [](Rng& r, Digest& dg, std::int32_t) {
    if (r.OneIn(4)) {
      TransposeCase<std::int32_t>(r, dg);
    } else {
      TransposeCase<std::int8_t>(r, dg);
    }
  });
}

template <class T>
void TileCase(Rng& r, Digest& dg) {
  const k::Shape4 in = RandomShape(r, 2, 4, 5);
  const k::TileParams p{in,
                        {in.n * r.In(1, 2), in.h * r.In(1, 3),
                         in.w * r.In(1, 3), in.c * r.In(1, 3)}};
  const T* input = Random<T>(r, in.Count());
  T* out = Filled<T>(p.output.Count(), 0xaa);
  k::Tile<T>(p, input, out);
  dg.Fold(out, p.output.Count());
}

void TestTile(std::int32_t cases) {
  Run("TILE", 0x6009, cases, [](Rng& r, Digest& dg, std::int32_t) {
    if (r.OneIn(3)) {
      TileCase<std::int32_t>(r, dg);
    } else {
      TileCase<std::int8_t>(r, dg);
    }
  });
}

void TestCopies(std::int32_t cases) {
  Run("RESHAPE", 0x600a, cases, [](Rng& r, Digest& dg, std::int32_t) {
    const std::int32_t n = r.In(1, 300);
    const std::int8_t* input = Random<std::int8_t>(r, n);
    std::int8_t* out = Filled<std::int8_t>(n, 0xaa);
    k::Reshape(input, out, static_cast<std::size_t>(n));
    dg.Fold(out, n);
  });
  Run("SHAPE", 0x600b, cases, [](Rng& r, Digest& dg, std::int32_t) {
    const std::int32_t n = r.In(1, 5);
    const std::int32_t* input = Random<std::int32_t>(r, n);
    std::int32_t* out = Filled<std::int32_t>(n, 0xaa);
    k::CopyElements(input, out, n);
    dg.Fold(out, n);
  });
}

#include "tests/target/kernels_property_helium.inc"

}  // namespace

int main() {
  // Case counts: a few seconds per board under QEMU (docs/operators.md).
  TestConv(150);
  TestDepthwise(150);
  TestDilated(120, /*depthwise=*/false);
  TestDilated(120, /*depthwise=*/true);
  TestFullyConnected(150);
  TestTransposeConv(100);
  TestNegativeScales(100);
  TestPool(150);
  TestBatchMatMul(150);
  TestAdd(200);
  TestSub(200);
  TestMul(200);
  TestDiv(200);
  TestMaximumMinimum(200);
  TestSoftmax(100);
  TestSigmoidLike(200);
  TestRelu(200);
  TestLeakyRelu(200);
  TestHardSwish(200);
  TestQuantize(200);
  TestFloatQuantize(200);
  TestCast(200);
  TestMean(150);
  TestSvdf(150);
  TestLstm(100);
  TestPad(150);
  TestStridedSlice(150);
  TestConcatSplit(150);
  TestGather(150);
  TestResize(150);
  TestTranspose(150);
  TestTile(150);
  TestCopies(100);
  TestDispatched(2000);
  port::Write("PASS kernels_property\n");
  return 0;
}
