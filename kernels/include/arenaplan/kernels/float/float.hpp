// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The float32 kernel family (namespace arenaplan::kernels::f32, `k::f32::`
// in generated code): float32 activations, weights and biases, each
// bit-exact with TensorFlow Lite Micro's reference float kernel: the same
// operations on IEEE single values in the same order, every product and
// sum rounded to float on its own. The exceptions are the kernels that
// TFLite computes with libm's expf / tanhf (LOGISTIC, TANH, SOFTMAX): they
// use math.hpp's own exp and tanh, within a stated ULP of the host's libm,
// not bit-exact. This header is the family's one entry point; kernels.hpp
// includes it.
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
//   elementwise.hpp      Add, Sub, Mul, Div, Maximum, Minimum, Relu, Relu6
//   fully_connected.hpp  FullyConnected
//   lstm.hpp             SequenceLstm (math.hpp's exp and tanh)
//   math.hpp             Exp, Expm1, Tanh of one float (no libm)
//   mean.hpp             Mean
//   pooling.hpp          AveragePool, MaxPool
//   resize_bilinear.hpp  ResizeBilinear
//   transcendental.hpp   Logistic, Tanh, Softmax (math.hpp's exp and tanh:
//                        within stated ULP of TFLM, not bit-exact)
// PAD of float32 tensors is pad.hpp's Pad<float>, and the shape operators
// (RESHAPE, TRANSPOSE, STRIDED_SLICE, CONCATENATION, PACK, SPLIT, SPLIT_V,
// UNPACK, RESIZE_NEAREST_NEIGHBOR) their own kernels' float instances:
// they move elements only.
#ifndef ARENAPLAN_KERNELS_FLOAT_FLOAT_HPP_
#define ARENAPLAN_KERNELS_FLOAT_FLOAT_HPP_

#include "arenaplan/kernels/float/activation.hpp"
#include "arenaplan/kernels/float/conv.hpp"
#include "arenaplan/kernels/float/elementwise.hpp"
#include "arenaplan/kernels/float/fully_connected.hpp"
#include "arenaplan/kernels/float/lstm.hpp"
#include "arenaplan/kernels/float/mean.hpp"
#include "arenaplan/kernels/float/pooling.hpp"
#include "arenaplan/kernels/float/resize_bilinear.hpp"
#include "arenaplan/kernels/float/transcendental.hpp"

#endif  // ARENAPLAN_KERNELS_FLOAT_FLOAT_HPP_
