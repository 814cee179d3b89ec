// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The two checks of the kernels' overlap contracts (kernels/include/
// arenaplan/kernels/overlap.hpp and the kernels' header comments), shared by
// tests/host/kernels/kernels_overlap_*_test.cpp:
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
//    writes in the loop order each header states, written out by each test
//    loop by loop (not from the closed form). From it, the true smallest
//    distance from which on every placement is safe, D* = max(0, max_j (j -
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
// maximum, so only "in some cases" is required). Distances and indices are
// in bytes.
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_OVERLAP_CASE_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_OVERLAP_CASE_HPP_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "arenaplan/kernels/kernels.hpp"
#include "tests/host/support/lcg.hpp"

namespace arenaplan::overlap_case {

namespace k = ::arenaplan::kernels;

using ::arenaplan::testing_util::Lcg;

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
  /// The input's element alignment (bytes): the real kernel runs only at
  /// distances that are multiples of it (the output itself is aligned).
  std::int64_t in_align = 1;
};

/// D* = max(0, max_j (j - minAfter(j) + 1)): backward sweep.
inline std::int64_t SimulatedMinimum(const Trace& t) {
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
inline bool Clobbers(const Trace& t, std::int64_t in_bytes, std::int64_t x) {
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
inline bool RunOverlapped(const Case& c, std::int64_t x,
                          const std::vector<std::int8_t>& expect,
                          std::int8_t poison, bool* poison_ok) {
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

/// "[n,h,w,c]".
inline std::string ShapeText(const k::Shape4& s) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "[%d,%d,%d,%d]", s.n, s.h, s.w, s.c);
  return buf;
}

/// Per-kernel tallies.
struct Tally {
  int cases = 0;
  int positive = 0;     ///< Cases with d > 0.
  int wrong_below = 0;  ///< Real kernel wrong at d - in_align.
  int overlapping = 0;  ///< Cases with d < S_out (a real overlap).
};

/// Every check of the file comment on one case.
inline void CheckCase(const Case& c, Lcg& rng, Tally& tally) {
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
  EXPECT_EQ(d % c.in_align, 0) << "a distance the input cannot sit at";
  if (d > 0) {
    ++tally.positive;
    EXPECT_TRUE(Clobbers(t, c.in_bytes, d - 1)) << "tightness at d-1=" << d - 1;
    const std::int64_t below = d - c.in_align;  // The next aligned distance.
    if (below >= 0) {
      const bool same = RunOverlapped(c, below, expect, poison, &poison_ok);
      EXPECT_TRUE(poison_ok) << "at " << below;  // Only the output written.
      if (!same) ++tally.wrong_below;
    }
  }
  // Larger distances (monotonicity), up to disjoint.
  const std::int64_t steps = (c.out_bytes - d) / c.in_align + 1;
  for (int s = 0; s < 3; ++s) {
    const std::int64_t x =
        d + c.in_align * rng.Next(1, static_cast<std::int32_t>(steps));
    EXPECT_FALSE(Clobbers(t, c.in_bytes, x)) << "at x=" << x;
    EXPECT_TRUE(RunOverlapped(c, x, expect, poison, &poison_ok))
        << "at x=" << x;
    EXPECT_TRUE(poison_ok) << "at x=" << x;
  }
  // Distances below d the trace calls safe must be safe for the real kernel.
  for (int s = 0; s < 4 && d > 0; ++s) {
    const std::int64_t x = rng.Next(0, static_cast<std::int32_t>(d - 1));
    if (x % c.in_align != 0 || Clobbers(t, c.in_bytes, x)) continue;
    EXPECT_TRUE(RunOverlapped(c, x, expect, poison, &poison_ok))
        << "trace-safe x=" << x;
    EXPECT_TRUE(poison_ok) << "trace-safe x=" << x;
  }
}

/// The byte trace of `elements` (an element trace: reads of input element
/// i, writes of output element j) for elements of `size` bytes read and
/// written whole: each event becomes its element's bytes in order.
inline Trace ScaleTrace(const Trace& elements, std::int64_t size) {
  Trace t;
  t.reserve(elements.size() * static_cast<std::size_t>(size));
  for (const std::int32_t e : elements) {
    for (std::int64_t b = 0; b < size; ++b) {
      t.push_back(e >= 0 ? static_cast<std::int32_t>(e * size + b)
                         : Write((-1 - std::int64_t{e}) * size + b));
    }
  }
  return t;
}

// --- element-wise kernels ----------------------------------------------------

/// The trace of an element-wise loop over `count` elements: the
/// `in_size` bytes of input element i read, then the `out_size` bytes of
/// output element i written, i ascending (1-byte elements: byte i read,
/// then byte i written).
inline void ElementwiseTrace(std::int64_t count, Trace& t,
                             std::int64_t in_size = 1,
                             std::int64_t out_size = 1) {
  for (std::int64_t i = 0; i < count; ++i) {
    for (std::int64_t b = 0; b < in_size; ++b) {
      t.push_back(static_cast<std::int32_t>(i * in_size + b));
    }
    for (std::int64_t b = 0; b < out_size; ++b) {
      t.push_back(Write(i * out_size + b));
    }
  }
}

/// An element-wise kernel of two inputs with input 1 (`first`) or input 2
/// streamed into the output: the other input's `count` random bytes are
/// drawn first, then the streamed input's.
using BinaryKernel =
    std::function<void(const std::int8_t*, const std::int8_t*, std::int8_t*)>;
inline Case BinaryElementwiseCase(const std::string& name, std::int32_t count,
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
inline Case UnaryElementwiseCase(
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
}  // namespace arenaplan::overlap_case

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_OVERLAP_CASE_HPP_
