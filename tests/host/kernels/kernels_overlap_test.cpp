// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The kernels' overlap contracts (kernels/include/arenaplan/kernels/
// overlap.hpp and the kernels' header comments), checked two ways on random
// shapes, strides, paddings (SAME, VALID, and explicit leading padding
// within the contract's preconditions), filter sizes, dilations (the
// convolutions), depth multipliers, channel counts and batches (fixed
// seeds):
//
// 1. The real kernel, run with its output placed exactly the contract's
//    distance d below its input inside one buffer whose every other byte is
//    poisoned, gives the same bytes as the same kernel on separate buffers;
//    the poison outside the two tensors and the input bytes the output does
//    not cover are untouched (ASan also watches the buffer's ends). The same
//    for a few larger distances (monotonicity), and for distances below d
//    that the simulation (2) calls safe (a cross-check of the simulation's
//    loop order against the real kernel).
// 2. An independent second method: a trace of the input reads and output
//    writes in the loop order each header states, written out here loop by
//    loop (not from the closed form). From it, the true smallest distance
//    from which on every placement is safe, D* = max(0, max_j (j -
//    minAfter(j) + 1)) (a backward sweep), and a direct clobber check at any
//    one distance (does an output byte land on an input byte that is read
//    after the write?).
//
// What is proved: the closed form EQUALS D* for every kernel and case
// (overlap.hpp claims exactness, so it is neither unsafe nor loose); the
// trace finds no clobber at d and at larger distances, and finds one at
// d - 1 whenever d > 0 (tightness). The real kernel placed at d - 1 gives
// wrong bytes in most cases (counted per kernel; a clobbered byte can
// happen to leave the output unchanged, e.g. when it is not a window's
// maximum, so only "in some cases" is required).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "arenaplan/kernels/kernels.hpp"
#include "codegen/tflite/geometry.hpp"

namespace {

namespace k = arenaplan::kernels;
namespace tflite = arenaplan::tflite;

/// Deterministic pseudo-random integers (64-bit LCG, high bits).
class Lcg {
 public:
  explicit Lcg(std::uint64_t seed) : s_(seed) {}
  std::int32_t Next(std::int32_t lo, std::int32_t hi) {
    s_ = s_ * 6364136223846793005ull + 1442695040888963407ull;
    return lo + static_cast<std::int32_t>(
                    (s_ >> 33) % static_cast<std::uint64_t>(hi - lo + 1));
  }
  std::int8_t Byte() { return static_cast<std::int8_t>(Next(-128, 127)); }

 private:
  std::uint64_t s_;
};

/// A trace event: a read of input byte i (i >= 0) or a write of output byte
/// j (encoded -1 - j).
using Trace = std::vector<std::int32_t>;
constexpr std::int32_t Write(std::int64_t j) {
  return static_cast<std::int32_t>(-1 - j);
}

/// One kernel call whose output may overlap its streamed input.
struct Case {
  std::string what;
  std::int64_t in_bytes = 0, out_bytes = 0;
  std::vector<std::int8_t> input;  ///< The streamed input's bytes.
  /// Runs the real kernel (other operands bound inside).
  std::function<void(const std::int8_t* in, std::int8_t* out)> run;
  /// Appends the read/write trace in the stated loop order.
  std::function<void(Trace&)> trace;
  std::int64_t contract = 0;  ///< The kernel's constexpr distance.
};

/// D* = max(0, max_j (j - minAfter(j) + 1)): backward sweep.
std::int64_t SimulatedMinimum(const Trace& t) {
  std::int64_t min_after = std::numeric_limits<std::int64_t>::max();
  std::int64_t best = 0;
  for (auto it = t.rbegin(); it != t.rend(); ++it) {
    if (*it >= 0) {
      min_after = std::min<std::int64_t>(min_after, *it);
    } else if (min_after != std::numeric_limits<std::int64_t>::max()) {
      const std::int64_t j = -1 - static_cast<std::int64_t>(*it);
      best = std::max(best, j - min_after + 1);
    }
  }
  return best;
}

/// True when the output placed `x` bytes below the input overwrites an
/// input byte before that byte's last read.
bool Clobbers(const Trace& t, std::int64_t in_bytes, std::int64_t x) {
  std::vector<std::int64_t> last_read(static_cast<std::size_t>(in_bytes), -1);
  for (std::size_t e = 0; e < t.size(); ++e) {
    if (t[e] >= 0) last_read[static_cast<std::size_t>(t[e])] = std::int64_t(e);
  }
  for (std::size_t e = 0; e < t.size(); ++e) {
    if (t[e] >= 0) continue;
    const std::int64_t i = -1 - static_cast<std::int64_t>(t[e]) - x;
    if (i >= 0 && i < in_bytes &&
        last_read[static_cast<std::size_t>(i)] > std::int64_t(e)) {
      return true;
    }
  }
  return false;
}

constexpr std::int64_t kGuard = 64;

/// Runs `c` with the output `x` bytes below the input inside one poisoned
/// buffer. Returns true when the output equals `expect`; `poison_ok` tells
/// whether every byte outside the output kept its value (the input's bytes
/// or the poison).
bool RunOverlapped(const Case& c, std::int64_t x,
                   const std::vector<std::int8_t>& expect, std::int8_t poison,
                   bool* poison_ok) {
  const std::int64_t span = std::max(c.out_bytes, x + c.in_bytes);
  std::vector<std::int8_t> buf(static_cast<std::size_t>(span + 2 * kGuard),
                               poison);
  std::int8_t* out = buf.data() + kGuard;
  std::int8_t* in = out + x;
  std::memcpy(in, c.input.data(), c.input.size());
  c.run(in, out);
  bool ok = true;
  for (std::int64_t b = 0; b < std::int64_t(buf.size()); ++b) {
    const std::int64_t o = b - kGuard;  // Offset from the output's start.
    if (o >= 0 && o < c.out_bytes) continue;
    const std::int64_t i = o - x;
    const std::int8_t want = (i >= 0 && i < c.in_bytes)
                                 ? c.input[static_cast<std::size_t>(i)]
                                 : poison;
    if (buf[static_cast<std::size_t>(b)] != want) ok = false;
  }
  *poison_ok = ok;
  return std::memcmp(out, expect.data(), expect.size()) == 0;
}

/// Per-kernel tallies.
struct Tally {
  int cases = 0;
  int positive = 0;     ///< Cases with d > 0.
  int wrong_below = 0;  ///< Real kernel wrong at d - 1.
  int overlapping = 0;  ///< Cases with d < S_out (a real overlap).
};

/// Every check of the file comment on one case.
void CheckCase(const Case& c, Lcg& rng, Tally& tally) {
  SCOPED_TRACE(c.what);
  ++tally.cases;
  ASSERT_EQ(std::int64_t(c.input.size()), c.in_bytes);
  std::vector<std::int8_t> expect(static_cast<std::size_t>(c.out_bytes));
  c.run(c.input.data(), expect.data());
  const std::int8_t poison = rng.Byte();

  Trace t;
  c.trace(t);
  const std::int64_t sim = SimulatedMinimum(t);
  const std::int64_t d = c.contract;
  EXPECT_EQ(d, sim) << "closed form vs simulated minimum";
  EXPECT_GE(d, 0);
  EXPECT_LE(d, c.out_bytes);
  if (d < c.out_bytes) ++tally.overlapping;

  bool poison_ok = false;
  EXPECT_TRUE(RunOverlapped(c, d, expect, poison, &poison_ok)) << "at d=" << d;
  EXPECT_TRUE(poison_ok) << "at d=" << d;
  EXPECT_FALSE(Clobbers(t, c.in_bytes, d)) << "at d=" << d;
  if (d > 0) {
    ++tally.positive;
    EXPECT_TRUE(Clobbers(t, c.in_bytes, d - 1)) << "tightness at d-1=" << d - 1;
    const bool same = RunOverlapped(c, d - 1, expect, poison, &poison_ok);
    EXPECT_TRUE(poison_ok) << "at d-1";  // Still only the output is written.
    if (!same) ++tally.wrong_below;
  }
  // Larger distances (monotonicity), up to disjoint.
  for (int s = 0; s < 3; ++s) {
    const std::int64_t x =
        d + rng.Next(1, static_cast<std::int32_t>(c.out_bytes - d + 1));
    EXPECT_FALSE(Clobbers(t, c.in_bytes, x)) << "at x=" << x;
    EXPECT_TRUE(RunOverlapped(c, x, expect, poison, &poison_ok))
        << "at x=" << x;
    EXPECT_TRUE(poison_ok) << "at x=" << x;
  }
  // Distances below d the trace calls safe must be safe for the real kernel.
  for (int s = 0; s < 4 && d > 0; ++s) {
    const std::int64_t x = rng.Next(0, static_cast<std::int32_t>(d - 1));
    if (Clobbers(t, c.in_bytes, x)) continue;
    EXPECT_TRUE(RunOverlapped(c, x, expect, poison, &poison_ok))
        << "trace-safe x=" << x;
    EXPECT_TRUE(poison_ok) << "trace-safe x=" << x;
  }
}

// --- sliding-window kernels ------------------------------------------------

/// kConvFast and kDepthwiseFast are fast_conv.hpp's kernels (on the SIMD
/// loops with the portable DSP semantics), checked against the reference
/// kernels' contracts and trace, which fast_conv.hpp states they keep.
enum class Window {
  kConv,
  kDepthwise,
  kAveragePool,
  kMaxPool,
  kConvFast,
  kDepthwiseFast,
  /// A one-input-channel depthwise convolution as the generator lowers it:
  /// Conv2DFast with the filter transposed, under the depthwise contract.
  kDepthwiseAsConv
};

/// Random geometry within the contract's preconditions: SAME, VALID or an
/// explicit leading padding in [0, k - 1] with any output extent whose last
/// window still starts inside the input.
struct Dim {
  std::int32_t in, k, stride, pad, out;
  std::int32_t dil = 1;  ///< Convolutions: elements between taps.
};
Dim RandomDim(Lcg& rng, std::int32_t max_in) {
  Dim d;
  d.in = rng.Next(1, max_in);
  d.k = rng.Next(0, 9) < 3 ? 1 : rng.Next(1, 4);
  d.stride = rng.Next(1, 3);
  const int mode = rng.Next(0, 2);
  if (mode == 1 && d.k > d.in) d.k = d.in;  // VALID needs k <= in.
  if (mode < 2) {
    const auto p = tflite::ComputePadding(
        mode == 0 ? tflite::Padding::kSame : tflite::Padding::kValid, d.in, d.k,
        d.stride);
    d.pad = p.pad_before;
    d.out = p.out;
  } else {
    d.pad = rng.Next(0, d.k - 1);
    d.out = rng.Next(1, (d.in - 1 + d.pad) / d.stride + 1);
  }
  return d;
}

std::string ShapeText(const k::Shape4& s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "[%d,%d,%d,%d]", s.n, s.h, s.w, s.c);
  return buf;
}

/// Everything a window kernel call needs, kept alive by the Case lambdas.
struct WindowCall {
  Window kind;
  k::Shape4 in, filter, out;
  k::DilatedConvParams conv{};
  k::PoolParams pool{};
  std::vector<std::int8_t> weights,
      transposed;  ///< transposed: as [oc, kh, kw, 1]
  std::vector<std::int32_t> bias, mult, folded;
  std::vector<std::int8_t> shift;
};

/// The trace of the loop order stated in conv.hpp / pooling.hpp.
void WindowTrace(const WindowCall& w, Trace& t) {
  const k::Shape4& is = w.in;
  const k::Shape4& os = w.out;
  const bool pool =
      w.kind == Window::kAveragePool || w.kind == Window::kMaxPool;
  const std::int32_t sh = pool ? w.pool.stride_h : w.conv.stride_h;
  const std::int32_t sw = pool ? w.pool.stride_w : w.conv.stride_w;
  const std::int32_t ph = pool ? w.pool.pad_h : w.conv.pad_h;
  const std::int32_t pw = pool ? w.pool.pad_w : w.conv.pad_w;
  const std::int32_t kh = pool ? w.pool.filter_h : w.filter.h;
  const std::int32_t kw = pool ? w.pool.filter_w : w.filter.w;
  const std::int32_t dh = pool ? 1 : w.conv.dilation_h;
  const std::int32_t dw = pool ? 1 : w.conv.dilation_w;
  auto read_window = [&](std::int32_t b, std::int32_t oy, std::int32_t ox,
                         std::int32_t c_begin, std::int32_t c_end) {
    for (std::int32_t ky = 0; ky < kh; ++ky) {
      const std::int32_t y = oy * sh - ph + ky * dh;
      if (y < 0 || y >= is.h) continue;
      for (std::int32_t kx = 0; kx < kw; ++kx) {
        const std::int32_t x = ox * sw - pw + kx * dw;
        if (x < 0 || x >= is.w) continue;
        for (std::int32_t c = c_begin; c < c_end; ++c) {
          t.push_back(((b * is.h + y) * is.w + x) * is.c + c);
        }
      }
    }
  };
  for (std::int32_t b = 0; b < os.n; ++b) {
    for (std::int32_t oy = 0; oy < os.h; ++oy) {
      for (std::int32_t ox = 0; ox < os.w; ++ox) {
        const std::int64_t base = ((b * os.h + oy) * os.w + ox) * os.c;
        if (w.kind == Window::kConv || w.kind == Window::kConvFast) {
          for (std::int32_t oc = 0; oc < os.c; ++oc) {
            read_window(b, oy, ox, 0, is.c);  // Whole window, every oc.
            t.push_back(Write(base + oc));
          }
        } else {
          const std::int32_t dm = pool ? 1 : w.conv.depth_multiplier;
          for (std::int32_t ic = 0; ic < is.c; ++ic) {
            for (std::int32_t m = 0; m < dm; ++m) {
              read_window(b, oy, ox, ic, ic + 1);  // Channel ic only.
              t.push_back(Write(base + ic * dm + m));
            }
          }
        }
      }
    }
  }
}

/// Whether a convolution's window is dilated (the generator's choice of the
/// dilated fast kernels, codegen/compile/lower_conv.cpp).
bool Dilated(const k::DilatedConvParams& p) {
  return p.dilation_h != 1 || p.dilation_w != 1;
}

/// The generator's fast convolution for `p`: Conv2DDilatedFast when
/// dilated, else Conv2DFast on the undilated ConvParams (SIMD loops with
/// the portable DSP semantics).
void ConvFast(const k::DilatedConvParams& p, const k::Shape4& in_shape,
              const std::int8_t* input, const k::Shape4& filter_shape,
              const std::int8_t* filter, const std::int32_t* folded_bias,
              k::ChannelQuant quant, const k::Shape4& out_shape,
              std::int8_t* output) {
  using Mac = k::SimdMac<k::PortableIsa>;
  if (Dilated(p)) {
    k::Conv2DDilatedFastWith<Mac>(p, in_shape, input, filter_shape, filter,
                                  folded_bias, quant, out_shape, output);
  } else {
    std::vector<std::int8_t> scratch(
        static_cast<std::size_t>(k::Conv2DFastScratchBytes(filter_shape)));
    k::Conv2DFastWith<Mac>(p, in_shape, input, filter_shape, filter,
                           folded_bias, quant, out_shape, output,
                           scratch.data());
  }
}

/// A window kernel call of the given geometry with random data and
/// quantization.
Case WindowCase(Window kind, const Dim& dy, const Dim& dx, std::int32_t n,
                std::int32_t c, std::int32_t oc, std::int32_t dm, Lcg& rng) {
  auto w = std::make_shared<WindowCall>();
  w->kind = kind;
  w->in = {n, dy.in, dx.in, c};
  w->out = {n, dy.out, dx.out, oc};
  const bool pool = kind == Window::kAveragePool || kind == Window::kMaxPool;
  if (pool) {
    w->pool = {dy.k,
               dx.k,
               dy.stride,
               dx.stride,
               dy.pad,
               dx.pad,
               rng.Next(-128, -100),
               rng.Next(100, 127)};
  } else {
    w->filter = kind == Window::kConv || kind == Window::kConvFast
                    ? k::Shape4{oc, dy.k, dx.k, c}
                    : k::Shape4{1, dy.k, dx.k, oc};
    w->conv = {{rng.Next(-127, 128), rng.Next(-128, 127), -128, 127, dy.stride,
                dx.stride, dy.pad, dx.pad, dm},
               dy.dil,
               dx.dil};
    w->weights.resize(static_cast<std::size_t>(w->filter.Count()));
    for (auto& v : w->weights) v = rng.Byte();
    for (std::int32_t o = 0; o < oc; ++o) {
      w->bias.push_back(rng.Next(-4000, 4000));
      w->mult.push_back(
          rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()));
      w->shift.push_back(static_cast<std::int8_t>(rng.Next(-12, -6)));
    }
    w->folded.resize(static_cast<std::size_t>(oc));
    if (kind == Window::kConvFast) {
      k::FoldConvBias(w->conv.input_offset, w->filter, w->weights.data(),
                      w->bias.data(), w->folded.data());
    } else if (kind == Window::kDepthwiseFast) {
      k::FoldDepthwiseBias(w->conv.input_offset, w->filter, w->weights.data(),
                           w->bias.data(), w->folded.data());
    } else if (kind == Window::kDepthwiseAsConv) {
      const std::int32_t taps = dy.k * dx.k;
      w->transposed.resize(w->weights.size());
      for (std::int32_t t = 0; t < taps; ++t) {
        for (std::int32_t o = 0; o < oc; ++o) {
          w->transposed[static_cast<std::size_t>(o * taps + t)] =
              w->weights[static_cast<std::size_t>(t * oc + o)];
        }
      }
      k::FoldConvBias(w->conv.input_offset, k::Shape4{oc, dy.k, dx.k, 1},
                      w->transposed.data(), w->bias.data(), w->folded.data());
    }
  }
  Case cs;
  static const char* const kNames[] = {
      "Conv2D",     "DepthwiseConv2D",     "AveragePool",          "MaxPool",
      "Conv2DFast", "DepthwiseConv2DFast", "DepthwiseAsConv2DFast"};
  char what[160];
  std::snprintf(what, sizeof what,
                "%s in %s out %s k %dx%d stride %dx%d pad %d,%d dm %d "
                "dilation %dx%d",
                kNames[static_cast<int>(kind)], ShapeText(w->in).c_str(),
                ShapeText(w->out).c_str(), dy.k, dx.k, dy.stride, dx.stride,
                dy.pad, dx.pad, dm, dy.dil, dx.dil);
  cs.what = what;
  cs.in_bytes = w->in.Count();
  cs.out_bytes = w->out.Count();
  cs.input.resize(static_cast<std::size_t>(cs.in_bytes));
  for (auto& v : cs.input) v = rng.Byte();
  switch (kind) {
    case Window::kConv:
      cs.contract = k::Conv2DOverlapDistance(w->conv, w->in, w->filter, w->out);
      cs.run = [w](const std::int8_t* in, std::int8_t* out) {
        k::Conv2D(w->conv, w->in, in, w->filter, w->weights.data(),
                  w->bias.data(), {w->mult.data(), w->shift.data()}, w->out,
                  out);
      };
      break;
    case Window::kDepthwise:
      cs.contract =
          k::DepthwiseConv2DOverlapDistance(w->conv, w->in, w->filter, w->out);
      cs.run = [w](const std::int8_t* in, std::int8_t* out) {
        k::DepthwiseConv2D(w->conv, w->in, in, w->filter, w->weights.data(),
                           w->bias.data(), {w->mult.data(), w->shift.data()},
                           w->out, out);
      };
      break;
    case Window::kConvFast:
      cs.contract = k::Conv2DOverlapDistance(w->conv, w->in, w->filter, w->out);
      cs.run = [w](const std::int8_t* in, std::int8_t* out) {
        ConvFast(w->conv, w->in, in, w->filter, w->weights.data(),
                 w->folded.data(), {w->mult.data(), w->shift.data()}, w->out,
                 out);
      };
      break;
    case Window::kDepthwiseFast:
      cs.contract =
          k::DepthwiseConv2DOverlapDistance(w->conv, w->in, w->filter, w->out);
      cs.run = [w](const std::int8_t* in, std::int8_t* out) {
        using Mac = k::SimdMac<k::PortableIsa>;
        const k::ChannelQuant q{w->mult.data(), w->shift.data()};
        std::vector<std::int8_t> scratch(static_cast<std::size_t>(
            k::DepthwiseConv2DFastScratchBytes(w->filter)));
        if (Dilated(w->conv)) {
          k::DepthwiseConv2DFastWith<Mac>(w->conv, w->in, in, w->filter,
                                          w->weights.data(), w->folded.data(),
                                          q, w->out, out, scratch.data());
        } else {  // the undilated code: ConvParams
          const k::ConvParams& p = w->conv;
          k::DepthwiseConv2DFastWith<Mac>(p, w->in, in, w->filter,
                                          w->weights.data(), w->folded.data(),
                                          q, w->out, out, scratch.data());
        }
      };
      break;
    case Window::kDepthwiseAsConv:
      cs.contract =
          k::DepthwiseConv2DOverlapDistance(w->conv, w->in, w->filter, w->out);
      cs.run = [w](const std::int8_t* in, std::int8_t* out) {
        k::DilatedConvParams p = w->conv;
        p.depth_multiplier = 1;
        ConvFast(p, w->in, in, k::Shape4{w->out.c, w->filter.h, w->filter.w, 1},
                 w->transposed.data(), w->folded.data(),
                 {w->mult.data(), w->shift.data()}, w->out, out);
      };
      break;
    case Window::kAveragePool:
      cs.contract = k::PoolOverlapDistance(w->pool, w->in, w->out);
      cs.run = [w](const std::int8_t* in, std::int8_t* out) {
        k::AveragePool(w->pool, w->in, in, w->out, out);
      };
      break;
    case Window::kMaxPool:
      cs.contract = k::PoolOverlapDistance(w->pool, w->in, w->out);
      cs.run = [w](const std::int8_t* in, std::int8_t* out) {
        k::MaxPool(w->pool, w->in, in, w->out, out);
      };
      break;
  }
  cs.trace = [w](Trace& t) { WindowTrace(*w, t); };
  return cs;
}

Case RandomWindowCase(Window kind, Lcg& rng) {
  const Dim dy = RandomDim(rng, 16), dx = RandomDim(rng, 16);
  const std::int32_t n = rng.Next(0, 4) == 0 ? 2 : 1;
  const std::int32_t c = rng.Next(1, 8);
  std::int32_t oc = c, dm = 1;
  if (kind == Window::kConv || kind == Window::kConvFast) oc = rng.Next(1, 8);
  if (kind == Window::kDepthwise) {
    dm = rng.Next(1, 3);
    oc = c * dm;
  }
  if (kind == Window::kDepthwiseAsConv) {  // one input channel
    dm = rng.Next(1, 8);
    return WindowCase(kind, dy, dx, n, 1, dm, dm, rng);
  }
  return WindowCase(kind, dy, dx, n, c, oc, dm, rng);
}

void CheckWindowKernel(Window kind, std::uint64_t seed, int cases,
                       Tally& tally) {
  Lcg rng(seed);
  for (int i = 0; i < cases; ++i) {
    const Case c = RandomWindowCase(kind, rng);
    CheckCase(c, rng, tally);
    if (testing::Test::HasFailure()) return;  // One case's report is enough.
  }
}

TEST(KernelsOverlap, Conv2DContractIsExactAndSafe) {
  Tally t;
  CheckWindowKernel(Window::kConv, 101, 500, t);
  EXPECT_EQ(t.cases, 500);
  EXPECT_GT(t.overlapping, t.cases / 2);  // Most cases do overlap.
  EXPECT_GT(t.wrong_below, 0);
  std::printf(
      "Conv2D: %d cases, %d overlapping, %d with d > 0, %d wrong at "
      "d - 1\n",
      t.cases, t.overlapping, t.positive, t.wrong_below);
}

TEST(KernelsOverlap, DepthwiseConv2DContractIsExactAndSafe) {
  Tally t;
  CheckWindowKernel(Window::kDepthwise, 202, 500, t);
  EXPECT_EQ(t.cases, 500);
  EXPECT_GT(t.overlapping, t.cases / 2);
  EXPECT_GT(t.wrong_below, 0);
  std::printf(
      "DepthwiseConv2D: %d cases, %d overlapping, %d with d > 0, %d "
      "wrong at d - 1\n",
      t.cases, t.overlapping, t.positive, t.wrong_below);
}

TEST(KernelsOverlap, FastConvKernelsKeepTheReferenceContracts) {
  for (Window kind : {Window::kConvFast, Window::kDepthwiseFast}) {
    Tally t;
    CheckWindowKernel(kind, kind == Window::kConvFast ? 303 : 404, 500, t);
    EXPECT_EQ(t.cases, 500);
    EXPECT_GT(t.overlapping, t.cases / 2);
    EXPECT_GT(t.wrong_below, 0);
    std::printf(
        "%s: %d cases, %d overlapping, %d with d > 0, %d wrong at d - 1\n",
        kind == Window::kConvFast ? "Conv2DFast" : "DepthwiseConv2DFast",
        t.cases, t.overlapping, t.positive, t.wrong_below);
  }
}

TEST(KernelsOverlap, OneChannelDepthwiseAsConvKeepsTheDepthwiseContract) {
  Tally t;
  CheckWindowKernel(Window::kDepthwiseAsConv, 505, 500, t);
  EXPECT_EQ(t.cases, 500);
  EXPECT_GT(t.overlapping, t.cases / 2);
  std::printf(
      "DepthwiseAsConv2DFast: %d cases, %d overlapping, %d with d > 0\n",
      t.cases, t.overlapping, t.positive);
}

TEST(KernelsOverlap, PoolContractsAreExactAndSafe) {
  Tally avg, max;
  CheckWindowKernel(Window::kAveragePool, 303, 300, avg);
  CheckWindowKernel(Window::kMaxPool, 404, 300, max);
  EXPECT_EQ(avg.cases + max.cases, 600);
  EXPECT_GT(avg.overlapping, avg.cases / 2);
  EXPECT_GT(max.overlapping, max.cases / 2);
  EXPECT_GT(avg.wrong_below, 0);
  EXPECT_GT(max.wrong_below, 0);
  std::printf(
      "AveragePool: %d cases, %d with d > 0, %d wrong at d - 1; "
      "MaxPool: %d cases, %d with d > 0, %d wrong at d - 1\n",
      avg.cases, avg.positive, avg.wrong_below, max.cases, max.positive,
      max.wrong_below);
}

/// Random dilated geometry (taps 1 .. 3, dilation 1 .. 4) within the
/// contract's preconditions: SAME and VALID over the effective size
/// (k - 1) * dil + 1, or an explicit leading padding below it; redrawn
/// until every window holds an in-bounds tap (checked here tap by tap;
/// the kernels' functions give S_out otherwise, tested apart).
Dim RandomDilatedDim(Lcg& rng, std::int32_t max_in) {
  for (;;) {
    Dim d;
    d.in = rng.Next(1, max_in);
    d.k = rng.Next(1, 3);
    d.dil = rng.Next(1, 4);
    d.stride = rng.Next(1, 3);
    const std::int32_t span = (d.k - 1) * d.dil + 1;
    const int mode = rng.Next(0, 2);
    if (mode == 1 && span > d.in) continue;  // VALID needs span <= in.
    if (mode < 2) {
      const auto p = tflite::ComputePadding(
          mode == 0 ? tflite::Padding::kSame : tflite::Padding::kValid, d.in,
          span, d.stride);
      d.pad = p.pad_before;
      d.out = p.out;
    } else {
      d.pad = rng.Next(0, span - 1);
      d.out = rng.Next(1, (d.in - 1 + d.pad) / d.stride + 1);
    }
    bool every = true;
    for (std::int32_t o = 0; o < d.out; ++o) {
      bool hit = false;
      for (std::int32_t t = 0; t < d.k; ++t) {
        const std::int32_t i = o * d.stride - d.pad + t * d.dil;
        hit = hit || (i >= 0 && i < d.in);
      }
      every = every && hit;
    }
    if (every) return d;
  }
}

Case RandomDilatedWindowCase(Window kind, Lcg& rng) {
  const Dim dy = RandomDilatedDim(rng, 14), dx = RandomDilatedDim(rng, 14);
  const std::int32_t n = rng.Next(0, 4) == 0 ? 2 : 1;
  std::int32_t c = rng.Next(1, 8), oc = c, dm = 1;
  if (kind == Window::kConv || kind == Window::kConvFast) {
    // Some windows above Conv2DDilatedFast's 256 gathered bytes.
    if (rng.Next(0, 2) == 0) c = rng.Next(20, 40);
    oc = rng.Next(1, 8);
  }
  if (kind == Window::kDepthwise) {
    dm = rng.Next(1, 3);
    oc = c * dm;
  }
  if (kind == Window::kDepthwiseAsConv) {
    dm = rng.Next(1, 8);
    return WindowCase(kind, dy, dx, n, 1, dm, dm, rng);
  }
  return WindowCase(kind, dy, dx, n, c, oc, dm, rng);
}

TEST(KernelsOverlap, DilatedConvContractsAreExactAndSafe) {
  const Window kinds[] = {Window::kConv, Window::kDepthwise, Window::kConvFast,
                          Window::kDepthwiseFast, Window::kDepthwiseAsConv};
  std::uint64_t seed = 606;
  for (Window kind : kinds) {
    Lcg rng(seed++);
    Tally t;
    int dilated = 0;
    for (int i = 0; i < 300 && !testing::Test::HasFailure(); ++i) {
      const Case c = RandomDilatedWindowCase(kind, rng);
      dilated += c.what.find("dilation 1x1") == std::string::npos;
      CheckCase(c, rng, t);
    }
    EXPECT_EQ(t.cases, 300);
    EXPECT_GT(dilated, 250);
    EXPECT_GT(t.overlapping, t.cases / 2);
    if (kind != Window::kDepthwiseAsConv) {
      EXPECT_GT(t.wrong_below, 0);
    }
    std::printf(
        "dilated kind %d: %d cases (%d dilated), %d overlapping, %d with "
        "d > 0, %d wrong at d - 1\n",
        static_cast<int>(kind), t.cases, dilated, t.overlapping, t.positive,
        t.wrong_below);
  }
}

// A dilated Conv1D as DEPTHWISE_CONV_2D: input 1x5x1 = (10, 20, 30, 40,
// 50), taps (1, 1) two columns apart (dilation 2), stride 1, SAME (span 3,
// one column of padding before), input offset 0, bias 0 and a multiplier
// of exactly 1 (2^30 with shift 1): output ox = x[ox - 1] + x[ox + 1] =
// (20, 40, 60, 80, 40). overlap.hpp's example derives d = 1. At d' = 0 (in
// place) output 0 (20) replaces input 0 (10) before output 1 reads it:
// output 1 becomes 20 + 30 = 50, and each output replaces the input the
// next one reads: 50 + 40 = 90, 90 + 50 = 140 (clamped to 127), 127.
TEST(KernelsOverlap, DilatedConv1DDistanceIsExactByHand) {
  const k::DilatedConvParams p{{0, 0, -128, 127, 1, 1, 0, 1, 1}, 1, 2};
  const k::Shape4 in{1, 1, 5, 1}, f{1, 1, 2, 1}, out{1, 1, 5, 1};
  const std::int8_t w[2] = {1, 1};
  const std::int32_t mult[1] = {1 << 30};
  const std::int8_t shift[1] = {1};
  EXPECT_EQ(k::DepthwiseConv2DOverlapDistance(p, in, f, out), 1);
  const auto run = [&](std::int64_t x) {
    std::int8_t buf[6] = {0, 0, 0, 0, 0, 0};
    std::int8_t* o = buf;
    std::int8_t* i = buf + x;
    const std::int8_t data[5] = {10, 20, 30, 40, 50};
    std::memcpy(i, data, 5);
    k::DepthwiseConv2D(p, in, i, f, w, nullptr, {mult, shift}, out, o);
    return std::vector<std::int8_t>(o, o + 5);
  };
  EXPECT_EQ(run(1), (std::vector<std::int8_t>{20, 40, 60, 80, 40}));
  EXPECT_EQ(run(0), (std::vector<std::int8_t>{20, 50, 90, 127, 127}));
}

// CONV_2D 4x4x2 into 4x4x3, 3x3 taps dilated 2x2, stride 1, SAME: span 5,
// padding 2 before. First tap rows Y(oy) = (0, 1, 0, 1) (output row 1 taps
// rows -1, 1, 3), likewise X. The last pixel P = 15 writes its second
// byte, 15 * 3 + 1 = 46, before its third output channel re-reads input
// (1, 1), byte (1 * 4 + 1) * 2 = 10: d = 46 - 10 + 1 = 37 (undilated 3x3
// SAME gives 27).
static_assert(k::Conv2DOverlapDistance(
                  k::DilatedConvParams{{0, 0, -128, 127, 1, 1, 2, 2, 1}, 2, 2},
                  {1, 4, 4, 2}, {3, 3, 3, 2}, {1, 4, 4, 3}) == 37);
// Two rows, two taps three rows apart, SAME: span 4, padding 1 before;
// output row 0 taps rows -1 and 2, neither in the input: outside the
// preconditions, no overlap (S_out = 2).
static_assert(k::DepthwiseConv2DOverlapDistance(
                  k::DilatedConvParams{{0, 0, -128, 127, 1, 1, 1, 0, 1}, 3, 1},
                  {1, 2, 1, 1}, {1, 2, 1, 1}, {1, 2, 1, 1}) == 2);

/// SAME geometry of one dimension (TFLite's padding).
Dim Same(std::int32_t in, std::int32_t k, std::int32_t stride) {
  const auto p = tflite::ComputePadding(tflite::Padding::kSame, in, k, stride);
  return {in, k, stride, p.pad_before, p.out};
}

TEST(KernelsOverlap, ModelShapesAreExactAndSafe) {
  // Full-size operators of the shared models, with the distances the
  // pair finder reports for them (tests/host/overlap/overlap_pairs_test.cpp
  // derives those by hand): the same two methods as on the random shapes.
  struct Shape {
    Window kind;
    Dim dy, dx;
    std::int32_t c, oc, dm;
    std::int64_t d;
  };
  const Shape shapes[] = {
      // person_detect operators 0, 1, 2, 3 and 27.
      {Window::kDepthwise, Same(96, 3, 2), Same(96, 3, 2), 1, 8, 8, 9313},
      {Window::kDepthwise, Same(48, 3, 1), Same(48, 3, 1), 8, 8, 1, 392},
      {Window::kConv, Same(48, 1, 1), Same(48, 1, 1), 8, 16, 1, 18439},
      {Window::kDepthwise, Same(48, 3, 2), Same(48, 3, 2), 16, 16, 1, 0},
      {Window::kAveragePool, {3, 3, 1, 0, 1}, {3, 3, 1, 0, 1}, 256, 256, 1, 0},
      // kws_ref_model operator 0 (10x4 filter, stride 2), ResNet-8's first.
      {Window::kConv, Same(49, 10, 2), Same(10, 4, 2), 1, 64, 1, 7552},
      {Window::kConv, Same(32, 3, 1), Same(32, 3, 1), 3, 16, 1, 13413},
  };
  Lcg rng(909);
  Tally tally;
  for (const Shape& sh : shapes) {
    const Case c =
        WindowCase(sh.kind, sh.dy, sh.dx, 1, sh.c, sh.oc, sh.dm, rng);
    EXPECT_EQ(c.contract, sh.d) << c.what;
    CheckCase(c, rng, tally);
  }
  EXPECT_EQ(tally.cases, 7);
}

// --- element-wise kernels and RESHAPE ---------------------------------------

/// The trace of an element-wise loop: byte i read, then byte i written.
void ElementwiseTrace(std::int64_t count, Trace& t) {
  for (std::int64_t i = 0; i < count; ++i) {
    t.push_back(static_cast<std::int32_t>(i));
    t.push_back(Write(i));
  }
}

/// An element-wise kernel of two inputs with input 1 (`first`) or input 2
/// streamed into the output: the other input's `count` random bytes are
/// drawn first, then the streamed input's.
using BinaryKernel =
    std::function<void(const std::int8_t*, const std::int8_t*, std::int8_t*)>;
Case BinaryElementwiseCase(const std::string& name, std::int32_t count,
                           bool first, Lcg& rng, BinaryKernel kernel) {
  auto other = std::make_shared<std::vector<std::int8_t>>(
      static_cast<std::size_t>(count));
  for (auto& v : *other) v = rng.Byte();
  Case c;
  c.what = name + ", input " + (first ? "1" : "2") + " overlapped, count " +
           std::to_string(count);
  c.in_bytes = c.out_bytes = count;
  c.input.resize(static_cast<std::size_t>(count));
  for (auto& v : c.input) v = rng.Byte();
  c.contract = k::kElementwiseOverlapDistance;
  c.run = [kernel = std::move(kernel), other, first](const std::int8_t* in,
                                                     std::int8_t* out) {
    if (first) {
      kernel(in, other->data(), out);
    } else {
      kernel(other->data(), in, out);
    }
  };
  c.trace = [count](Trace& t) { ElementwiseTrace(count, t); };
  return c;
}

/// An element-wise kernel of one input, run in place or below it: the
/// input's `count` random bytes.
Case UnaryElementwiseCase(
    const std::string& name, std::int32_t count, Lcg& rng,
    std::function<void(const std::int8_t*, std::int8_t*)> kernel) {
  Case c;
  c.what = name + ", count " + std::to_string(count);
  c.in_bytes = c.out_bytes = count;
  c.input.resize(static_cast<std::size_t>(count));
  for (auto& v : c.input) v = rng.Byte();
  c.contract = k::kElementwiseOverlapDistance;
  c.run = std::move(kernel);
  c.trace = [count](Trace& t) { ElementwiseTrace(count, t); };
  return c;
}

TEST(KernelsOverlap, AddContractHoldsForEitherInput) {
  Lcg rng(505);
  Tally tally;
  for (int i = 0; i < 120; ++i) {
    const bool fast = i >= 60;  // AddFast, the generated code's kernel
    k::AddParams p;
    const std::int32_t count = rng.Next(1, 300);
    p = {rng.Next(-127, 128),
         rng.Next(-127, 128),
         rng.Next(-128, 127),
         20,
         rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
         rng.Next(-3, 0),
         rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
         rng.Next(-3, 0),
         rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
         rng.Next(-20, -17),
         -128,
         127,
         count};
    const bool first = i % 2 == 0;  // Which input streams into the output.
    auto* add = fast ? &k::AddFast : &k::Add;
    CheckCase(BinaryElementwiseCase(
                  fast ? "AddFast" : "Add", count, first, rng,
                  [p, add](const std::int8_t* a, const std::int8_t* b,
                           std::int8_t* out) { add(p, a, b, out); }),
              rng, tally);
    if (HasFailure()) return;
  }
  EXPECT_EQ(tally.positive, 0);  // d = 0 always: in place.
  EXPECT_EQ(tally.overlapping, 120);
}

TEST(KernelsOverlap, Int8RequantizeIsInPlace) {
  Lcg rng(606);
  Tally tally;
  for (int i = 0; i < 40; ++i) {
    k::RequantizeParams p;
    const std::int32_t count = rng.Next(1, 300);
    p = {rng.Next(-127, 128), rng.Next(-128, 127),
         rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
         rng.Next(-2, 1), count};
    CheckCase(
        UnaryElementwiseCase("Requantize int8 -> int8", count, rng,
                             [p](const std::int8_t* in, std::int8_t* out) {
                               k::Requantize(p, in, out);
                             }),
        rng, tally);
    if (HasFailure()) return;
  }
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, LeakyReluIsInPlace) {
  Lcg rng(9898);
  Tally tally;
  for (int i = 0; i < 40; ++i) {
    k::LeakyReluParams p;
    const std::int32_t count = rng.Next(1, 300);
    p = {rng.Next(-128, 127),
         rng.Next(-128, 127),
         rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
         rng.Next(-2, 1),
         rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
         rng.Next(-6, -1),
         count};
    CheckCase(
        UnaryElementwiseCase("LeakyRelu", count, rng,
                             [p](const std::int8_t* in, std::int8_t* out) {
                               k::LeakyRelu(p, in, out);
                             }),
        rng, tally);
    if (HasFailure()) return;
  }
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, ReluIsInPlace) {
  Lcg rng(1919);
  Tally tally;
  for (int i = 0; i < 40; ++i) {
    k::ReluParams p;
    const std::int32_t count = rng.Next(1, 300);
    const std::int32_t zp_out = rng.Next(-128, 127);
    p = {rng.Next(-128, 127),
         zp_out,
         rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
         rng.Next(-2, 1),
         zp_out,
         127,
         count};
    CheckCase(
        UnaryElementwiseCase("Relu", count, rng,
                             [p](const std::int8_t* in, std::int8_t* out) {
                               k::Relu(p, in, out);
                             }),
        rng, tally);
    if (HasFailure()) return;
  }
  EXPECT_EQ(tally.overlapping, 40);
}

/// One output row of w x ch elements, the output's own strides for both
/// inputs (element-wise): the shape and strides of the tests below.
struct RowShape {
  std::int32_t w, ch;
  k::Shape4 Shape() const { return {1, 1, w, ch}; }
  std::int32_t Count() const { return w * ch; }
};
RowShape RandomRow(Lcg& rng) {
  const std::int32_t w = rng.Next(1, 20), ch = rng.Next(1, 15);
  return {w, ch};
}

TEST(KernelsOverlap, MulContractHoldsForEitherInput) {
  Lcg rng(1818);
  Tally tally;
  for (int i = 0; i < 40; ++i) {
    const RowShape r = RandomRow(rng);
    const k::MulParams p = {
        rng.Next(-128, 127),
        rng.Next(-128, 127),
        rng.Next(-128, 127),
        rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
        rng.Next(-10, -6),
        -128,
        127,
        r.Shape(),
        {0, 0, r.ch, 1},
        {0, 0, r.ch, 1}};
    CheckCase(
        BinaryElementwiseCase("Mul", r.Count(), i % 2 == 0, rng,
                              [p](const std::int8_t* a, const std::int8_t* b,
                                  std::int8_t* out) { k::Mul(p, a, b, out); }),
        rng, tally);
    if (HasFailure()) return;
  }
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, DivContractHoldsForEitherInput) {
  Lcg rng(4242);
  Tally tally;
  for (int i = 0; i < 40; ++i) {
    const RowShape r = RandomRow(rng);
    const k::DivParams p = {
        rng.Next(-128, 127),
        rng.Next(-128, 127),
        rng.Next(-128, 127),
        rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
        rng.Next(-2, 12),
        -128,
        127,
        r.Shape(),
        {0, 0, r.ch, 1},
        {0, 0, r.ch, 1}};
    CheckCase(
        BinaryElementwiseCase("Div", r.Count(), i % 2 == 0, rng,
                              [p](const std::int8_t* a, const std::int8_t* b,
                                  std::int8_t* out) { k::Div(p, a, b, out); }),
        rng, tally);
    if (HasFailure()) return;
  }
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, MaximumMinimumContractHoldsForEitherInput) {
  Lcg rng(5757);
  Tally tally;
  for (int i = 0; i < 40; ++i) {
    const RowShape r = RandomRow(rng);
    const k::MaximumMinimumParams p = {
        i % 4 < 2, r.Shape(), {0, 0, r.ch, 1}, {0, 0, r.ch, 1}};
    CheckCase(BinaryElementwiseCase(
                  p.maximum ? "Maximum" : "Minimum", r.Count(), i % 2 == 0, rng,
                  [p](const std::int8_t* a, const std::int8_t* b,
                      std::int8_t* out) { k::MaximumMinimum(p, a, b, out); }),
              rng, tally);
    if (HasFailure()) return;
  }
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, SubContractHoldsForEitherInput) {
  Lcg rng(4242);
  Tally tally;
  for (int i = 0; i < 40; ++i) {
    const RowShape r = RandomRow(rng);
    const k::SubParams p = {
        rng.Next(-127, 128),
        rng.Next(-127, 128),
        rng.Next(-128, 127),
        20,
        rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
        rng.Next(-3, 0),
        rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
        rng.Next(-3, 0),
        rng.Next(1 << 30, std::numeric_limits<std::int32_t>::max()),
        rng.Next(-20, -14),
        -128,
        127,
        r.Shape(),
        {0, 0, r.ch, 1},
        {0, 0, r.ch, 1}};
    CheckCase(
        BinaryElementwiseCase("Sub", r.Count(), i % 2 == 0, rng,
                              [p](const std::int8_t* a, const std::int8_t* b,
                                  std::int8_t* out) { k::Sub(p, a, b, out); }),
        rng, tally);
    if (HasFailure()) return;
  }
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, HardSwishIsInPlace) {
  Lcg rng(1171);
  Tally tally;
  for (int i = 0; i < 40; ++i) {
    k::HardSwishParams p;
    const std::int32_t count = rng.Next(1, 300);
    p = {rng.Next(-128, 127),
         rng.Next(-128, 127),
         rng.Next(1 << 14, 32767),
         rng.Next(-10, 0),
         rng.Next(1 << 14, 32767),
         rng.Next(-3, 4),
         count};
    CheckCase(
        UnaryElementwiseCase("HardSwish", count, rng,
                             [p](const std::int8_t* in, std::int8_t* out) {
                               k::HardSwish(p, in, out);
                             }),
        rng, tally);
    if (HasFailure()) return;
  }
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, LogisticTanhAndRelu6AreInPlace) {
  Lcg rng(1428);
  Tally tally;
  for (int i = 0; i < 40; ++i) {
    const std::int32_t count = rng.Next(1, 300);
    // Scale 2^-4: 2^23 = 0.5 * 2^24, shift 24, radius 15 * 2^27 / 2^24.
    const std::int32_t zp = rng.Next(-128, 127);
    const bool tanh = i % 2 == 1;
    CheckCase(
        UnaryElementwiseCase(
            tanh ? "Tanh" : "Logistic", count, rng,
            [=](const std::int8_t* in, std::int8_t* out) {
              if (tanh && zp % 3 == 0) {
                k::Relu6(k::Relu6Params{zp, zp / 2 + 64, count}, in, out);
              } else if (tanh) {
                k::Tanh(k::TanhParams{zp, 120, 1 << 30, 24, count}, in, out);
              } else {
                k::Logistic(k::LogisticParams{zp, 120, 1 << 30, 24, count}, in,
                            out);
              }
            }),
        rng, tally);
    if (HasFailure()) return;
  }
  EXPECT_EQ(tally.overlapping, 40);
}

TEST(KernelsOverlap, ReshapeSkipsTheCopyOnAliasAndCopiesForward) {
  Lcg rng(707);
  Tally tally;
  for (int i = 0; i < 20; ++i) {
    const std::int32_t count = rng.Next(1, 200);
    std::vector<std::int8_t> data(static_cast<std::size_t>(count));
    for (auto& v : data) v = rng.Byte();
    // Alias: the same address, nothing changes.
    std::vector<std::int8_t> alias = data;
    k::Reshape(alias.data(), alias.data(), alias.size());
    EXPECT_EQ(alias, data);
    // Any distance below (forward copy, element-wise: d = 0).
    Case c;
    c.what = "Reshape, count " + std::to_string(count);
    c.in_bytes = c.out_bytes = count;
    c.input = data;
    c.contract = 0;
    c.run = [count](const std::int8_t* in, std::int8_t* out) {
      k::Reshape(in, out, static_cast<std::size_t>(count));
    };
    c.trace = [count](Trace& t) { ElementwiseTrace(count, t); };
    CheckCase(c, rng, tally);
    if (HasFailure()) return;
  }
}

// --- PAD -------------------------------------------------------------------

/// PAD's trace, loop by loop from the header: output elements in row-major
/// order; one inside the input's box reads the input element at its own
/// coordinates (computed here from them, not counted), then writes.
void PadTrace(const k::PadParams& p, Trace& t) {
  const k::Shape4 o = k::PadOutputShape(p);
  std::int64_t j = 0;
  for (std::int32_t n = 0; n < o.n; ++n) {
    for (std::int32_t y = 0; y < o.h; ++y) {
      for (std::int32_t x = 0; x < o.w; ++x) {
        for (std::int32_t c = 0; c < o.c; ++c, ++j) {
          const std::int32_t a = n - p.before.n, b = y - p.before.h;
          const std::int32_t e = x - p.before.w, f = c - p.before.c;
          if (a >= 0 && a < p.input.n && b >= 0 && b < p.input.h && e >= 0 &&
              e < p.input.w && f >= 0 && f < p.input.c) {
            t.push_back(((a * p.input.h + b) * p.input.w + e) * p.input.c + f);
          }
          t.push_back(Write(j));
        }
      }
    }
  }
}

TEST(KernelsOverlap, PadContractIsExactAndSafe) {
  Lcg rng(3434);
  Tally tally;
  for (int i = 0; i < 150; ++i) {
    auto p = std::make_shared<k::PadParams>(k::PadParams{
        {rng.Next(1, 2), rng.Next(1, 7), rng.Next(1, 7), rng.Next(1, 5)},
        {rng.Next(0, 1), rng.Next(0, 3), rng.Next(0, 3), rng.Next(0, 2)},
        {rng.Next(0, 1), rng.Next(0, 3), rng.Next(0, 3), rng.Next(0, 2)}});
    const k::Shape4 o = k::PadOutputShape(*p);
    const auto value = rng.Byte();
    Case c;
    c.what = "Pad " + ShapeText(p->input) + " before " + ShapeText(p->before) +
             " after " + ShapeText(p->after);
    c.in_bytes =
        std::int64_t{p->input.n} * p->input.h * p->input.w * p->input.c;
    c.out_bytes = std::int64_t{o.n} * o.h * o.w * o.c;
    c.input.resize(static_cast<std::size_t>(c.in_bytes));
    for (auto& v : c.input) v = rng.Byte();
    c.contract = k::PadOverlapDistance(*p);
    c.run = [p, value](const std::int8_t* in, std::int8_t* out) {
      k::Pad<std::int8_t>(*p, value, in, out);
    };
    c.trace = [p](Trace& t) { PadTrace(*p, t); };
    CheckCase(c, rng, tally);
    // The input fits inside the output's bytes: in + d <= out.
    EXPECT_LE(c.in_bytes + c.contract, c.out_bytes) << c.what;
    if (HasFailure()) return;
  }
  EXPECT_GT(tally.positive, 100);
  EXPECT_GT(tally.wrong_below, 50);
}

// --- hand-derived figures --------------------------------------------------

// person_detect's first 1x1 CONV_2D (operator 2), 48x48x8 into 48x48x16,
// stride 1, no padding. The last pixel P = 2303 writes its 15th byte
// (oc = 14, byte 2303 * 16 + 14 = 36862) before its 16th output channel
// re-reads its 8 input bytes 2303 * 8 .. 2303 * 8 + 7 (first 18424): so
// 36862 - d < 18424, d >= 18439. Earlier pixels need less (the output runs
// ahead of the input by 8 bytes a pixel).
static_assert(k::Conv2DOverlapDistance({0, 0, -128, 127, 1, 1, 0, 0, 1},
                                       {1, 48, 48, 8}, {16, 1, 1, 8},
                                       {1, 48, 48, 16}) == 18439);
// The same with a batch of 2 over a 2x2x1 input into 2x2x2: the last pixel
// P = 7 writes byte 14 before re-reading input byte 7: d = 14 - 7 + 1 = 8.
static_assert(k::Conv2DOverlapDistance({0, 0, -128, 127, 1, 1, 0, 0, 1},
                                       {2, 2, 2, 1}, {2, 1, 1, 1},
                                       {2, 2, 2, 2}) == 8);
// person_detect's operator 0, DEPTHWISE_CONV_2D 96x96x1 into 48x48x8
// (depth multiplier 8), 3x3 stride 2, SAME: total padding (48 - 1) * 2 +
// 3 - 96 = 1, none before. The last pixel (47, 47), P = 2303, writes its
// 7th byte (m = 6, byte 2303 * 8 + 6 = 18430) before its 8th output channel
// re-reads the window's first byte, input (94, 94) = 94 * 96 + 94 = 9118:
// d = 18430 - 9118 + 1 = 9313.
static_assert(k::DepthwiseConv2DOverlapDistance({0, 0, -128, 127, 2, 2, 0, 0,
                                                 8},
                                                {1, 96, 96, 1}, {1, 3, 3, 8},
                                                {1, 48, 48, 8}) == 9313);
// A 3x3 stride 1 SAME depthwise convolution, 10x10x4, multiplier 1: pixel
// (y, x) writes channel 2 before reading channel 3 of input (y - 1, x - 1):
// byte (10 y + x) * 4 + 2 vs (10 (y - 1) + x - 1) * 4 + 3: d = 44 =
// (W + 1) * C.
static_assert(k::DepthwiseConv2DOverlapDistance({0, 0, -128, 127, 1, 1, 1, 1,
                                                 1},
                                                {1, 10, 10, 4}, {1, 3, 3, 4},
                                                {1, 10, 10, 4}) == 44);
// 2x2 stride 2 pooling: every output pixel lies below the inputs it reads.
static_assert(k::PoolOverlapDistance({2, 2, 2, 2, 0, 0, -128, 127},
                                     {1, 16, 16, 4}, {1, 8, 8, 4}) == 0);
// Outside the preconditions (leading padding 3 >= a 3-wide window: the
// first window reads nothing), or shapes that do not match: no overlap.
static_assert(k::PoolOverlapDistance({3, 3, 1, 1, 3, 0, -128, 127},
                                     {1, 8, 8, 2}, {1, 8, 6, 2}) == 96);
static_assert(k::Conv2DOverlapDistance({0, 0, -128, 127, 1, 1, 0, 0, 1},
                                       {1, 4, 4, 3}, {5, 1, 1, 2},
                                       {1, 4, 4, 5}) == 80);

TEST(KernelsOverlap, HandFiguresHoldAtRunTimeToo) {
  // The static_asserts above, evaluated by the same functions at run time.
  const k::ConvParams p{0, 0, -128, 127, 1, 1, 0, 0, 1};
  k::Shape4 in{1, 48, 48, 8}, f{16, 1, 1, 8}, out{1, 48, 48, 16};
  EXPECT_EQ(k::Conv2DOverlapDistance(p, in, f, out), 18439);
  // Footprint of the pair: max(S_out, d + S_in) = max(36864, 18439 +
  // 18432) = 36871 bytes instead of 55296.
  EXPECT_EQ(
      std::max<std::int64_t>(out.Count(), 18439 + std::int64_t{in.Count()}),
      36871);
}

}  // namespace
