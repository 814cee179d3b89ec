// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The published figures of Pisarchyk & Lee 2019, Tables 1 and 2, transcribed
// from the paper (memory footprint of the intermediate tensors, "MB" that are
// MiB = 2^20 bytes: MobileNet v1's offsets lower bound 4.594 is
// 112*112*96*4 bytes / 2^20). Columns in the paper's order: MobileNet v1,
// MobileNet v2, DeepLab v3, Inception v3, PoseNet, BlazeFace (the order of
// zoo::Networks()).
#ifndef ARENAPLAN_CODEGEN_ZOO_PAPER_TABLES_HPP_
#define ARENAPLAN_CODEGEN_ZOO_PAPER_TABLES_HPP_

#include <array>
#include <cstddef>
#include <string_view>

namespace arenaplan::zoo {

inline constexpr std::size_t kPaperNetworks = 6;

/// One row of a paper table. `strategy` is the registry name of the row's
/// strategy, or "lower-bound" / "naive" for the two baseline rows.
struct PaperRow {
  std::string_view label;     ///< The paper's row label.
  std::string_view strategy;  ///< Registry name, "lower-bound" or "naive".
  std::array<double, kPaperNetworks> mib;
};

/// Table 1: Shared Objects strategies.
inline constexpr std::array<PaperRow, 7> kPaperTable1 = {{
    {"Greedy by Size",
     "greedy-by-size",
     {4.594, 7.178, 6.437, 10.337, 6.347, 0.592}},
    {"Greedy by Size Improved",
     "greedy-by-size-improved",
     {4.594, 6.891, 6.437, 10.337, 6.347, 0.518}},
    {"Greedy by Breadth",
     "greedy-by-breadth",
     {6.125, 6.699, 6.437, 10.676, 8.390, 0.675}},
    {"Greedy (Lee et al. 2019)",
     "greedy-in-order",
     {4.594, 8.039, 7.168, 12.703, 6.347, 0.587}},
    {"Min-cost Flow (Lee et al. 2019)",
     "min-cost-flow",
     {5.359, 7.513, 8.364, 10.624, 7.359, 0.582}},
    {"Lower Bound", "lower-bound", {4.594, 6.604, 6.105, 8.955, 6.347, 0.518}},
    {"Naive", "naive", {19.248, 26.313, 48.642, 54.010, 28.556, 2.698}},
}};

/// Table 2: Offset Calculation strategies.
inline constexpr std::array<PaperRow, 6> kPaperTable2 = {{
    {"Greedy by Size",
     "greedy-by-size",
     {4.594, 5.742, 4.653, 7.914, 6.271, 0.492}},
    {"Greedy by Breadth",
     "greedy-by-breadth",
     {4.594, 5.742, 4.653, 7.914, 7.359, 0.656}},
    {"Greedy (Lee et al. 2019)",
     "greedy-in-order",
     {6.125, 6.508, 4.985, 10.624, 8.362, 0.492}},
    {"Strip Packing (Sekiyama et al. 2018)",
     "strip-packing-best-fit",
     {4.594, 6.029, 4.321, 7.914, 6.271, 0.533}},
    {"Lower Bound", "lower-bound", {4.594, 5.742, 4.320, 7.914, 6.271, 0.492}},
    {"Naive", "naive", {19.248, 26.313, 48.642, 54.010, 28.556, 2.698}},
}};

}  // namespace arenaplan::zoo

#endif  // ARENAPLAN_CODEGEN_ZOO_PAPER_TABLES_HPP_
