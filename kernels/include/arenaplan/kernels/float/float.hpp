// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The float32 kernel family (namespace arenaplan::kernels::f32, `k::f32::`
// in generated code): float32 activations, weights and biases, each
// bit-exact with TensorFlow Lite Micro's reference float kernel: the same
// operations on IEEE single values in the same order, every product and
// sum rounded to float on its own. This header is the family's one entry
// point; kernels.hpp includes it.
//
// Bit-exactness needs the compiler not to contract a product and a sum
// into one fused multiply-add (one rounding instead of two): GCC does so
// in C++ unless told otherwise (its default is -ffp-contract=fast, and the
// FPUs of Cortex-M4F/M7/M33/M55 have VFMA). Compile code that includes
// this header with -ffp-contract=off, as `make run`, the firmware scripts
// (scripts/firmware_lib.sh) and the host tests do.
//
//   activation.hpp       the fused activation's clamp (TFLite's min(max()))
//   conv.hpp             Conv2D, DepthwiseConv2D
//   elementwise.hpp      Add, Relu
//   fully_connected.hpp  FullyConnected
//   pooling.hpp          AveragePool, MaxPool
// PAD of float32 tensors is pad.hpp's Pad<float> (it moves elements only).
#ifndef ARENAPLAN_KERNELS_FLOAT_FLOAT_HPP_
#define ARENAPLAN_KERNELS_FLOAT_FLOAT_HPP_

#include "arenaplan/kernels/float/activation.hpp"
#include "arenaplan/kernels/float/conv.hpp"
#include "arenaplan/kernels/float/elementwise.hpp"
#include "arenaplan/kernels/float/fully_connected.hpp"
#include "arenaplan/kernels/float/pooling.hpp"

#endif  // ARENAPLAN_KERNELS_FLOAT_FLOAT_HPP_
