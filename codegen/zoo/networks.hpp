// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The six networks of the paper's evaluation (Pisarchyk & Lee 2019, §6,
// Tables 1 and 2), built from their published architecture definitions as
// the TFLite GPU inference graphs the paper measured: fp32, batch 1,
// activations fused into the producing operator, batch norm folded into
// the convolution.
#ifndef ARENAPLAN_CODEGEN_ZOO_NETWORKS_HPP_
#define ARENAPLAN_CODEGEN_ZOO_NETWORKS_HPP_

#include <span>
#include <string_view>

#include "codegen/records.hpp"

namespace arenaplan::zoo {

struct ZooNetwork {
  std::string_view name;         ///< CLI name, e.g. "mobilenet_v1".
  std::string_view title;        ///< The paper's column header.
  std::string_view description;  ///< One line: variant and source.
  /// Builds the records; `source` is "zoo:NAME".
  UsageProblem (*build)();
};

/// The networks in the paper's column order (Tables 1 and 2).
[[nodiscard]] std::span<const ZooNetwork> Networks();

/// The network named `name` (without "zoo:"), or nullptr.
[[nodiscard]] const ZooNetwork* FindNetwork(std::string_view name);

// Builders (one per network; codegen/zoo/*.cpp).
UsageProblem BuildMobileNetV1();
UsageProblem BuildMobileNetV2();
UsageProblem BuildDeepLabV3();
UsageProblem BuildInceptionV3();
UsageProblem BuildPoseNet();
UsageProblem BuildBlazeFace();

}  // namespace arenaplan::zoo

#endif  // ARENAPLAN_CODEGEN_ZOO_NETWORKS_HPP_
