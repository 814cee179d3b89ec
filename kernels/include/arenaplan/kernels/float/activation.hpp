// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The fused activation of the float32 kernels: TensorFlow Lite's
// ActivationFunctionWithMinMax, min(max(x, lo), hi) with std::max(a, b) =
// (a < b) ? b : a and std::min(a, b) = (b < a) ? b : a. So a NaN passes
// through, -0.0 stays -0.0 under RELU (0 < -0.0 is false), and +-infinity
// becomes +-FLT_MAX under NONE and RELU (TFLite's bounds are
// numeric_limits<float>::lowest() and max(), not infinities; the generator
// writes them so, see codegen/compile/lower_fully_connected_f32.cpp).
#ifndef ARENAPLAN_KERNELS_FLOAT_ACTIVATION_HPP_
#define ARENAPLAN_KERNELS_FLOAT_ACTIVATION_HPP_

namespace arenaplan::kernels::f32 {

/// The clamp range of a fused activation, both ends included.
struct ActivationRange {
  float min, max;
};

/// min(max(x, r.min), r.max) in TFLite's operand order (header comment).
[[nodiscard]] constexpr float Activate(float x, const ActivationRange& r) {
  const float lower = x < r.min ? r.min : x;
  return r.max < lower ? r.max : lower;
}

}  // namespace arenaplan::kernels::f32

#endif  // ARENAPLAN_KERNELS_FLOAT_ACTIVATION_HPP_
