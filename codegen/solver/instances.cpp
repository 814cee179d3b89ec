// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/solver/instances.hpp"

#include <algorithm>
#include <random>
#include <utility>

namespace arenaplan {
namespace {

/// SplitMix64: a small seeded generator with a fixed output on every
/// platform.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform-enough value in [0, n) for n > 0 (modulo bias is irrelevant
  /// here).
  std::uint64_t Below(std::uint64_t n) { return Next() % n; }

 private:
  std::uint64_t state_;
};

/// A piece: bytes [b0, b1) x operators [t0, t1) (ends excluded).
struct Piece {
  std::uint64_t b0, b1;
  std::uint32_t t0, t1;
};

/// Cuts pieces[idx] across time at a random operator; false if it spans one
/// operator.
bool CutTime(std::vector<Piece>& pieces, std::size_t idx, Rng& rng) {
  Piece p = pieces[idx];
  if (p.t1 - p.t0 < 2) return false;
  const std::uint32_t at =
      p.t0 + 1 + static_cast<std::uint32_t>(rng.Below(p.t1 - p.t0 - 1));
  pieces[idx].t1 = at;
  pieces.push_back(Piece{p.b0, p.b1, at, p.t1});
  return true;
}

/// Cuts pieces[idx] across bytes at a random multiple of `align`; false if
/// it is one unit high.
bool CutBytes(std::vector<Piece>& pieces, std::size_t idx, std::uint64_t align,
              Rng& rng) {
  Piece p = pieces[idx];
  const std::uint64_t units = (p.b1 - p.b0) / align;
  if (units < 2) return false;
  const std::uint64_t at = p.b0 + align * (1 + rng.Below(units - 1));
  pieces[idx].b1 = at;
  pieces.push_back(Piece{at, p.b1, p.t0, p.t1});
  return true;
}

/// Guillotine cuts of `pieces` until there are `count` or none can be cut.
void Guillotine(std::vector<Piece>& pieces, std::size_t count,
                const PerfectPackingParams& params, Rng& rng,
                std::size_t first_cuttable = 0) {
  std::size_t failures = 0;
  while (pieces.size() < count && failures < 64) {
    // A piece with probability proportional to its area (in units).
    std::uint64_t total = 0;
    for (std::size_t k = first_cuttable; k < pieces.size(); ++k) {
      const Piece& p = pieces[k];
      total += (p.b1 - p.b0) / params.align * (p.t1 - p.t0);
    }
    if (total == 0) return;
    std::uint64_t pick = rng.Below(total);
    std::size_t idx = first_cuttable;
    for (; idx < pieces.size(); ++idx) {
      const Piece& p = pieces[idx];
      const std::uint64_t area = (p.b1 - p.b0) / params.align * (p.t1 - p.t0);
      if (pick < area) break;
      pick -= area;
    }
    const bool time_first = rng.Below(1000) < params.time_cut_permille;
    const bool cut = time_first ? (CutTime(pieces, idx, rng) ||
                                   CutBytes(pieces, idx, params.align, rng))
                                : (CutBytes(pieces, idx, params.align, rng) ||
                                   CutTime(pieces, idx, rng));
    failures = cut ? 0 : failures + 1;
  }
}

/// Strips of the given heights (bytes, summing to the width), each cut
/// across time until there are `count` pieces in all.
void Strips(std::vector<Piece>& pieces,
            const std::vector<std::uint64_t>& heights, std::size_t count,
            std::uint32_t operators, Rng& rng) {
  std::uint64_t b = 0;
  const std::size_t first = pieces.size();
  for (std::uint64_t h : heights) {
    pieces.push_back(Piece{b, b + h, 0, operators});
    b += h;
  }
  std::size_t failures = 0;
  while (pieces.size() < count && failures < 64) {
    const std::size_t idx = first + rng.Below(pieces.size() - first);
    failures = CutTime(pieces, idx, rng) ? 0 : failures + 1;
  }
}

}  // namespace

std::vector<TensorUsageRecord> GeneratePerfectPacking(
    const PerfectPackingParams& params, std::uint64_t seed,
    std::vector<std::uint64_t>* offsets) {
  Rng rng(seed);
  const std::uint64_t align = std::max<std::uint64_t>(1, params.align);
  PerfectPackingParams p = params;
  p.align = align;
  const std::uint64_t units = params.width / align;
  std::vector<Piece> pieces;
  if (units == 0 || params.operators == 0 || params.buffers == 0) return {};
  switch (params.cut) {
    case PackingCut::kGuillotine:
      pieces.push_back(Piece{0, units * align, 0, params.operators});
      Guillotine(pieces, params.buffers, p, rng);
      break;
    case PackingCut::kStrips:
    case PackingCut::kEqualSizes: {
      // About sqrt(buffers) strips.
      std::uint64_t strips = 1;
      while ((strips + 1) * (strips + 1) <= params.buffers) ++strips;
      strips = std::min(strips, units);
      std::vector<std::uint64_t> heights;
      if (params.cut == PackingCut::kEqualSizes) {
        heights.assign(strips, units / strips * align);
        heights.back() += (units % strips) * align;  // the last takes the rest
      } else {
        // Random cut points: strips - 1 distinct multiples of align.
        std::vector<std::uint64_t> cuts = {0, units};
        while (cuts.size() < strips + 1) {
          const std::uint64_t c = 1 + rng.Below(units - 1);
          if (std::find(cuts.begin(), cuts.end(), c) == cuts.end())
            cuts.push_back(c);
        }
        std::sort(cuts.begin(), cuts.end());
        for (std::size_t k = 1; k < cuts.size(); ++k)
          heights.push_back((cuts[k] - cuts[k - 1]) * align);
      }
      Strips(pieces, heights, params.buffers, params.operators, rng);
      break;
    }
    case PackingCut::kLongLivedSmall: {
      // Small strips at the bottom, one unit high each, cut once or not at
      // all across time (so each piece lives for half the operators or
      // more on average); the rest of the width is cut by guillotine.
      const std::uint64_t small =
          std::min<std::uint64_t>(params.buffers / 10 / 2, units / 2);
      std::uint64_t b = 0;
      for (std::uint64_t k = 0; k < small; ++k, b += align) {
        pieces.push_back(Piece{b, b + align, 0, params.operators});
        if (rng.Below(2) == 0) CutTime(pieces, pieces.size() - 1, rng);
      }
      const std::size_t first = pieces.size();
      pieces.push_back(Piece{b, units * align, 0, params.operators});
      Guillotine(pieces, params.buffers, p, rng, first);
      break;
    }
  }
  std::vector<TensorUsageRecord> records;
  records.reserve(pieces.size());
  if (offsets != nullptr) offsets->clear();
  for (const Piece& piece : pieces) {
    records.push_back({piece.t0, piece.t1 - 1, piece.b1 - piece.b0});
    if (offsets != nullptr) offsets->push_back(piece.b0);
  }
  return records;
}

std::vector<TensorUsageRecord> ReverseTime(
    std::span<const TensorUsageRecord> records) {
  std::uint32_t last = 0;
  for (const TensorUsageRecord& r : records) last = std::max(last, r.last_op);
  std::vector<TensorUsageRecord> out;
  out.reserve(records.size());
  for (const TensorUsageRecord& r : records) {
    out.push_back({last - r.last_op, last - r.first_op, r.size});
  }
  return out;
}

std::vector<TensorUsageRecord> PermuteRecords(
    std::span<const TensorUsageRecord> records, std::uint64_t seed) {
  std::vector<TensorUsageRecord> out(records.begin(), records.end());
  Rng rng(seed);
  for (std::size_t k = out.size(); k > 1; --k) {
    std::swap(out[k - 1], out[rng.Below(k)]);
  }
  return out;
}

std::vector<TensorUsageRecord> GenerateDenseLifetimes(std::size_t n,
                                                      std::uint64_t seed) {
  std::vector<TensorUsageRecord> out(n);
  if (n == 0) return out;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> op(
      0, static_cast<std::uint32_t>(n - 1));
  std::uniform_int_distribution<std::uint64_t> units(1, 65536);
  for (TensorUsageRecord& r : out) {
    std::uint32_t a = op(rng);
    std::uint32_t b = op(rng);
    if (a > b) std::swap(a, b);
    r = TensorUsageRecord{a, b, units(rng) * 16};
  }
  return out;
}

}  // namespace arenaplan
