// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// arenaplan's integer (and float32: float/float.hpp) reference kernels,
// header-only and freestanding (no heap, no exceptions, no RTTI, no libc):
// what the code emitted by `arenaplan compile` calls.
#ifndef ARENAPLAN_KERNELS_KERNELS_HPP_
#define ARENAPLAN_KERNELS_KERNELS_HPP_

#include "arenaplan/kernels/add.hpp"
#include "arenaplan/kernels/batch_matmul.hpp"
#include "arenaplan/kernels/broadcast.hpp"
#include "arenaplan/kernels/cast.hpp"
#include "arenaplan/kernels/concatenation.hpp"
#include "arenaplan/kernels/conv.hpp"
#include "arenaplan/kernels/dilated_conv.hpp"
#include "arenaplan/kernels/div.hpp"
#include "arenaplan/kernels/dsp.hpp"
#include "arenaplan/kernels/fast_conv.hpp"
#include "arenaplan/kernels/fast_fully_connected.hpp"
#include "arenaplan/kernels/fixed_point.hpp"
#include "arenaplan/kernels/float/float.hpp"
#include "arenaplan/kernels/float_quantize.hpp"
#include "arenaplan/kernels/fully_connected.hpp"
#include "arenaplan/kernels/gather.hpp"
#include "arenaplan/kernels/hard_swish.hpp"
#include "arenaplan/kernels/headers_digest.hpp"
#include "arenaplan/kernels/int16/int16.hpp"
#include "arenaplan/kernels/leaky_relu.hpp"
#include "arenaplan/kernels/logistic.hpp"
#include "arenaplan/kernels/lstm.hpp"
#include "arenaplan/kernels/maximum_minimum.hpp"
#include "arenaplan/kernels/mean.hpp"
#include "arenaplan/kernels/mul.hpp"
#include "arenaplan/kernels/overlap.hpp"
#include "arenaplan/kernels/pad.hpp"
#include "arenaplan/kernels/pooling.hpp"
#include "arenaplan/kernels/quantization.hpp"
#include "arenaplan/kernels/quantize.hpp"
#include "arenaplan/kernels/relu.hpp"
#include "arenaplan/kernels/reshape.hpp"
#include "arenaplan/kernels/resize_bilinear.hpp"
#include "arenaplan/kernels/resize_nearest_neighbor.hpp"
#include "arenaplan/kernels/shape.hpp"
#include "arenaplan/kernels/softmax.hpp"
#include "arenaplan/kernels/split.hpp"
#include "arenaplan/kernels/strided_slice.hpp"
#include "arenaplan/kernels/sub.hpp"
#include "arenaplan/kernels/svdf.hpp"
#include "arenaplan/kernels/tanh.hpp"
#include "arenaplan/kernels/tile.hpp"
#include "arenaplan/kernels/transpose.hpp"
#include "arenaplan/kernels/transpose_conv.hpp"

#endif  // ARENAPLAN_KERNELS_KERNELS_HPP_
