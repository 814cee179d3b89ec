// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/zoo/networks.hpp"

#include <array>

namespace arenaplan::zoo {
namespace {

constexpr auto kNetworks = std::to_array<ZooNetwork>({
    {"mobilenet_v1", "MobileNet v1",
     "MobileNet v1 1.0, 224x224, ImageNet classifier (Howard et al. 2017)",
     &BuildMobileNetV1},
    {"mobilenet_v2", "MobileNet v2",
     "MobileNet v2 1.0, 224x224, ImageNet classifier (Sandler et al. 2018)",
     &BuildMobileNetV2},
    {"deeplab_v3", "DeepLab v3",
     "DeepLab v3, MobileNet v2 0.5 backbone, output stride 8, 257x257, 21 "
     "classes (Chen et al. 2017)",
     &BuildDeepLabV3},
    {"inception_v3", "Inception v3",
     "Inception v3, 299x299, ImageNet classifier (Szegedy et al. 2016)",
     &BuildInceptionV3},
    {"posenet", "PoseNet",
     "PoseNet, MobileNet v1 1.0 backbone, output stride 32, 257x257 "
     "(Papandreou et al. 2018)",
     &BuildPoseNet},
    {"blazeface", "BlazeFace",
     "BlazeFace front/short-range face detector, 128x128 (Bazarevsky et al. "
     "2019)",
     &BuildBlazeFace},
});

}  // namespace

std::span<const ZooNetwork> Networks() { return kNetworks; }

const ZooNetwork* FindNetwork(std::string_view name) {
  for (const ZooNetwork& n : kNetworks) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

}  // namespace arenaplan::zoo
