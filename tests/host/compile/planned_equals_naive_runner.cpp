// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The runner planned_equals_naive_test.cpp builds at test time with the
// translation units of compiled models it generated (tables.cpp lists their
// Tables). For every graph it runs the naive build (every tensor its own
// bytes: checked here) in an arena filled with 0x5A, and each other mode's
// build in an arena filled with 0xA5, both on the same seeded input
// bytes, and compares the output bytes. `runner K` starts at the K-th
// comparison (after a crash the test restarts past it). Lines written, one
// per event, unbuffered:
//   run K GRAPH MODE                         before comparison K
//   mismatch GRAPH MODE OUTPUT BYTE PLANNED NAIVE   first differing byte
//   sizes GRAPH MODE                         input or output sizes differ
//   shared GRAPH                             the naive plan shares bytes
//   nonaive GRAPH MODE                       no naive build of the graph
//   done COMPARISONS
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <vector>

#include "planned_equals_naive_entry.hpp"

extern const property::Table* const kTables[];
extern const std::size_t kTableCount;

namespace {

using property::Entry;

/// The output bytes of one inference on `input` (the inputs' bytes in
/// order) in an arena first filled with `poison`.
std::vector<std::uint8_t> Run(const Entry& e,
                              const std::vector<std::uint8_t>& input,
                              std::uint8_t poison) {
  auto* arena = static_cast<std::int8_t*>(
      ::operator new(e.arena_size, std::align_val_t(e.alignment)));
  std::memset(arena, poison, e.arena_size);
  std::size_t at = 0;
  for (std::size_t i = 0; i < e.input_count; ++i) {
    std::memcpy(arena + e.plan[e.input_indices[i]].offset, input.data() + at,
                e.input_sizes[i]);
    at += e.input_sizes[i];
  }
  e.invoke(arena);
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < e.output_count; ++i) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(
        arena + e.plan[e.output_indices[i]].offset);
    out.insert(out.end(), p, p + e.output_sizes[i]);
  }
  ::operator delete(arena, std::align_val_t(e.alignment));
  return out;
}

/// True when two placements of the plan share a byte.
bool SharesBytes(const Entry& e) {
  for (std::size_t i = 0; i < e.tensor_count; ++i) {
    for (std::size_t j = i + 1; j < e.tensor_count; ++j) {
      const arenaplan::Placement& a = e.plan[i];
      const arenaplan::Placement& b = e.plan[j];
      if (a.size && b.size && a.offset < b.offset + b.size &&
          b.offset < a.offset + a.size) {
        return true;
      }
    }
  }
  return false;
}

bool SameSizes(const Entry& a, const Entry& b) {
  return a.input_count == b.input_count && a.output_count == b.output_count &&
         std::equal(a.input_sizes, a.input_sizes + a.input_count,
                    b.input_sizes) &&
         std::equal(a.output_sizes, a.output_sizes + a.output_count,
                    b.output_sizes);
}

/// Compares `e`'s outputs with `naive`'s (already run on `input`).
void Compare(const Entry& e, const Entry& naive,
             const std::vector<std::uint8_t>& input,
             const std::vector<std::uint8_t>& expected) {
  if (!SameSizes(e, naive)) {
    std::printf("sizes %u %d\n", e.graph, e.mode);
    return;
  }
  const std::vector<std::uint8_t> got = Run(e, input, 0xA5);
  std::size_t start = 0;
  for (std::size_t o = 0; o < e.output_count; ++o) {
    for (std::size_t i = 0; i < e.output_sizes[o]; ++i) {
      if (got[start + i] != expected[start + i]) {
        std::printf("mismatch %u %d %zu %zu %u %u\n", e.graph, e.mode, o, i,
                    got[start + i], expected[start + i]);
        return;
      }
    }
    start += e.output_sizes[o];
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  const std::size_t first = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 0;
  std::vector<const Entry*> all;
  for (std::size_t t = 0; t < kTableCount; ++t) {
    for (std::size_t i = 0; i < kTables[t]->count; ++i) {
      all.push_back(&kTables[t]->entries[i]);
    }
  }
  std::sort(all.begin(), all.end(), [](const Entry* a, const Entry* b) {
    return a->graph != b->graph ? a->graph < b->graph : a->mode < b->mode;
  });
  std::size_t k = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t end = i;
    while (end < all.size() && all[end]->graph == all[i]->graph) ++end;
    const Entry* naive = all[i]->mode == 0 ? all[i] : nullptr;
    std::vector<std::uint8_t> input, expected;
    bool ran_naive = false;
    for (std::size_t j = naive ? i + 1 : i; j < end; ++j, ++k) {
      if (k < first) continue;
      std::printf("run %zu %u %d\n", k, all[j]->graph, all[j]->mode);
      if (naive == nullptr) {
        std::printf("nonaive %u %d\n", all[j]->graph, all[j]->mode);
        continue;
      }
      if (!ran_naive) {
        ran_naive = true;
        if (SharesBytes(*naive)) std::printf("shared %u\n", naive->graph);
        std::size_t total = 0;
        for (std::size_t n = 0; n < naive->input_count; ++n) {
          total += naive->input_sizes[n];
        }
        std::mt19937 rng(naive->graph + 1u);
        input.resize(total);
        for (auto& v : input) v = static_cast<std::uint8_t>(rng());
        expected = Run(*naive, input, 0x5A);
      }
      Compare(*all[j], *naive, input, expected);
    }
    i = end;
  }
  std::printf("done %zu\n", k);
  return 0;
}
