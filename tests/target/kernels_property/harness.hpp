// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The harness of the kernels' property test (tests/target/kernels_property.cpp,
// whose header comment says what the test checks): failure, the xorshift
// generator, the per-case buffers, the digests and the random cases' shared
// parts (windows, channel quantization, broadcasts, two-input scaling).
// Each kernel family's cases are in a .cpp of this directory.
#ifndef ARENAPLAN_TESTS_TARGET_KERNELS_PROPERTY_HARNESS_HPP_
#define ARENAPLAN_TESTS_TARGET_KERNELS_PROPERTY_HARNESS_HPP_

#include <cstddef>
#include <cstdint>

#include "arenaplan/kernels/kernels.hpp"
#include "port/port.hpp"

#if defined(ARENAPLAN_KERNELS_PROPERTY_HOST)
#include <cstdlib>
#endif

namespace arenaplan::kernels_property {

namespace k = arenaplan::kernels;
namespace port = arenaplan::port;

// --- failure, generator, buffers, digests ---------------------------------

[[noreturn]] inline void Fail(const char* kernel, std::int32_t case_index,
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

/// The one pool every case takes its buffers from.
inline Scratch scratch;

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
inline T RandomValue(Rng& r) {
  if (sizeof(T) == 1) return static_cast<T>(r.In(-128, 127));
  if (sizeof(T) == 2) return static_cast<T>(r.In(-32768, 32767));
  return static_cast<T>(r.OneIn(4) ? r.In(k::kInt32Min, k::kInt32Max)
                                   : r.In(-100000, 100000));
}

template <class T>
inline T* Random(Rng& r, std::int32_t count) {
  T* v = scratch.Get<T>(count);
  for (std::int32_t i = 0; i < count; ++i) v[i] = RandomValue<T>(r);
  return v;
}

/// A float of the kinds the float kernels meet: exact multiples of 2^-7
/// (halves among them: rounding ties), large values, infinities and NaN.
inline float RandomFloat(Rng& r) {
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

inline float* RandomFloats(Rng& r, std::int32_t count) {
  float* v = scratch.Get<float>(count);
  for (std::int32_t i = 0; i < count; ++i) v[i] = RandomFloat(r);
  return v;
}

/// A positive scale s = m * 2^e, m with 24 random bits, e in [lo, hi].
inline float RandomScale(Rng& r, std::int32_t lo, std::int32_t hi) {
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
inline T* Filled(std::int32_t count, unsigned char byte) {
  T* v = scratch.Get<T>(count);
  auto* b = reinterpret_cast<unsigned char*>(v);
  for (std::size_t i = 0; i < static_cast<std::size_t>(count) * sizeof(T); ++i)
    b[i] = byte;
  return v;
}

template <class T>
inline bool Same(const T* a, const T* b, std::int32_t count) {
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
inline Range RandomAct(Rng& r) {
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
inline Dim RandomDim(Rng& r, std::int32_t max_in, std::int32_t max_k,
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

inline ChannelQ RandomChannels(Rng& r, std::int32_t n, bool negative = false) {
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

inline std::int32_t RandomOperand(Rng& r, const std::int32_t out[4],
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

inline Broadcast RandomBroadcast(Rng& r) {
  Broadcast b{};
  const std::int32_t out[4] = {r.In(1, 2), r.In(1, 5), r.In(1, 6), r.In(1, 9)};
  b.out = {out[0], out[1], out[2], out[3]};
  b.a_count = RandomOperand(r, out, b.a_stride);
  b.b_count = RandomOperand(r, out, b.b_stride);
  return b;
}

inline void CopyStrides(const std::int32_t from[4], std::int32_t to[4]) {
  for (int i = 0; i < 4; ++i) to[i] = from[i];
}

inline k::Shape4 RandomShape(Rng& r, std::int32_t max_n, std::int32_t max_hw,
                             std::int32_t max_c) {
  return {r.In(1, max_n), r.In(1, max_hw), r.In(1, max_hw), r.In(1, max_c)};
}

/// Runs `cases` cases of `body(rng, digest, case_index)` with a fresh
/// scratch each, then prints the digest line.
template <class Body>
inline void Run(const char* name, std::uint32_t seed, std::int32_t cases,
                Body body) {
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

/// ADD and SUB's rescaling (TFLM's 20-bit headroom): the operand with the
/// larger scale gets s / (2 max) = 1/2 (2^30, shift 0), the other a ratio
/// below 1/2 (shift in [-6, -1]); the output 2 max / (2^20 s_out), s_out
/// within 2^-3..2^5 of 2 max: shift in [-22, -14].
struct TwoInputScaling {
  std::int32_t m1, s1, m2, s2, mo, so;
};

inline TwoInputScaling RandomTwoInputScaling(Rng& r) {
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

}  // namespace arenaplan::kernels_property

#endif  // ARENAPLAN_TESTS_TARGET_KERNELS_PROPERTY_HARNESS_HPP_
