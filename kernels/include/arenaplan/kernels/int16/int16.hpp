// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The int16-activation kernel family (namespace arenaplan::kernels::int16,
// `k::int16::` in generated code): int16 activations with int8 weights
// ("16x8") and int16 element-wise operators, each bit-exact with TensorFlow
// Lite Micro's reference int16 kernel. This header is the family's one
// entry point; kernels.hpp includes it.
//
//   requantize.hpp      64-bit and 32-bit output stages, int16 clamp
//   conv.hpp            Conv2DReference, DepthwiseConv2D
//   fast.hpp            Conv2D, FullyConnected: the DSP path or the
//                       reference loops, by the core
//   transpose_conv.hpp  TransposeConv
//   elementwise.hpp     Add, Sub, Mul, LeakyRelu
//   fully_connected.hpp FullyConnectedReference
//   pooling.hpp         AveragePool, MaxPool
//   mean.hpp            Mean
//   sigmoid.hpp         Logistic, Tanh
//   softmax.hpp         Softmax
#ifndef ARENAPLAN_KERNELS_INT16_INT16_HPP_
#define ARENAPLAN_KERNELS_INT16_INT16_HPP_

#include "arenaplan/kernels/int16/conv.hpp"
#include "arenaplan/kernels/int16/elementwise.hpp"
#include "arenaplan/kernels/int16/fast.hpp"
#include "arenaplan/kernels/int16/fully_connected.hpp"
#include "arenaplan/kernels/int16/mean.hpp"
#include "arenaplan/kernels/int16/pooling.hpp"
#include "arenaplan/kernels/int16/requantize.hpp"
#include "arenaplan/kernels/int16/sigmoid.hpp"
#include "arenaplan/kernels/int16/softmax.hpp"
#include "arenaplan/kernels/int16/transpose_conv.hpp"

#endif  // ARENAPLAN_KERNELS_INT16_INT16_HPP_
