// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The kernels' property test (tests/target/kernels_property.cpp): the
// operators that move data (PAD, STRIDED_SLICE, CONCATENATION/SPLIT,
// GATHER, the resizes, TRANSPOSE, TILE and the plain copies).
#include <cstdint>

#include "arenaplan/kernels/fused.hpp"
#include "tests/target/kernels_property/cases.hpp"
#include "tests/target/kernels_property/harness.hpp"

namespace arenaplan::kernels_property {

namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

void TestTranspose(std::int32_t cases) {
  Run("TRANSPOSE", 0x6008, cases, [](Rng& r, Digest& dg, std::int32_t) {
    if (r.OneIn(4)) {
      TransposeCase<std::int32_t>(r, dg);
    } else {
      TransposeCase<std::int8_t>(r, dg);
    }
  });
}

namespace {

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

}  // namespace

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
  // A fused ring's drop (fused.hpp MoveDown): `bytes` bytes moved `shift`
  // bytes down within one buffer, the ranges overlapping whenever shift <
  // bytes; half the cases word-aligned at both ends (the word and
  // load-multiple paths), sizes across several 32-byte steps. Expected: the
  // source bytes read from a copy taken before the move, the bytes outside
  // the destination unchanged.
  Run("RING_DROP", 0x600c, cases * 4, [](Rng& r, Digest& dg, std::int32_t i) {
    const bool aligned = r.OneIn(2);
    const std::int32_t at = aligned ? 4 * r.In(0, 2) : r.In(0, 7);
    const std::int32_t shift = aligned ? 4 * r.In(1, 40) : r.In(1, 160);
    const std::int32_t bytes = r.In(0, 300);
    const std::int32_t n = at + shift + bytes + r.In(0, 8);
    std::uint8_t* buffer = Random<std::uint8_t>(r, n);
    std::uint8_t* before = Filled<std::uint8_t>(n, 0);
    for (std::int32_t k = 0; k < n; ++k) before[k] = buffer[k];
    k::fused_detail::MoveDown(buffer + at, buffer + at + shift,
                              static_cast<std::size_t>(bytes));
    for (std::int32_t k = 0; k < n; ++k) {
      const bool moved = k >= at && k < at + bytes;
      if (buffer[k] != (moved ? before[k + shift] : before[k])) {
        Fail("RING_DROP", i, "a byte differs from the copy taken before");
      }
    }
    dg.Fold(buffer, n);
  });
}

}  // namespace arenaplan::kernels_property
