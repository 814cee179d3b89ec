// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The overlap statements the lowerings make for the trace check
// (Lowerer::StateOverlap, recorded with the operator's accesses): each from
// the distance function of the kernel header the lowering calls, for the
// call's own geometry.
#include "arenaplan/kernels/conv.hpp"
#include "arenaplan/kernels/overlap.hpp"
#include "arenaplan/kernels/pad.hpp"
#include "arenaplan/kernels/pooling.hpp"
#include "codegen/compile/lowering.hpp"

namespace arenaplan::compile {
namespace {

namespace k = ::arenaplan::kernels;

k::Shape4 KernelShape4(const tflite::Nhwc& d) { return {d.n, d.h, d.w, d.c}; }

/// A kernel's distance in elements of `in`, which `out` shares, in bytes
/// (overlap.hpp's ScaledOverlapDistance); -1 (none) when the types differ.
std::int64_t InBytes(const tflite::Tensor& in, const tflite::Tensor& out,
                     std::int64_t elements) {
  const auto size = tflite::ElementSize(in.type);
  if (!size || in.type != out.type) return -1;
  return k::ScaledOverlapDistance(elements, *size);
}

}  // namespace

void Lowerer::StateOverlap(const tflite::Tensor& in, const tflite::Tensor& out,
                           OverlapRelation relation, std::int64_t distance) {
  if (accesses_.empty() || accesses_.back().position != pos_) {
    throw InternalError("StateOverlap outside an operator's lowering");
  }
  if (distance < 0) return;
  accesses_.back().overlaps.push_back(
      {Index(in), Index(out), relation, static_cast<std::uint64_t>(distance)});
}

void Lowerer::StateElementwise(const tflite::Tensor& in,
                               const tflite::Tensor& out) {
  const auto in_size = tflite::ElementSize(in.type);
  const auto out_size = tflite::ElementSize(out.type);
  if (!in_size || !out_size) return;  // No kernel of such types states one.
  StateOverlap(in, out, OverlapRelation::kOutputBelowBy,
               arenaplan::kernels::ElementwiseOverlapDistance(
                   ElementCount(out), *in_size, *out_size));
}

void StateConvOverlap(Lowerer& l, const tflite::Tensor& in,
                      const tflite::Tensor& out, const tflite::ConvGeometry& g,
                      bool depthwise) {
  // The distance depends on the geometry only (not on the zero points or
  // the activation range); a dilated window's on its factors.
  k::DilatedConvParams p;
  p.input_offset = 0;
  p.output_offset = 0;
  p.act_min = -128;
  p.act_max = 127;
  p.stride_h = g.stride_h;
  p.stride_w = g.stride_w;
  p.pad_h = g.pad_h.pad_before;
  p.pad_w = g.pad_w.pad_before;
  p.depth_multiplier = g.depth_multiplier;
  p.dilation_h = g.dilation_h;
  p.dilation_w = g.dilation_w;
  l.StateOverlap(
      in, out, OverlapRelation::kOutputBelowBy,
      InBytes(in, out,
              depthwise ? k::DepthwiseConv2DOverlapDistance(
                              p, KernelShape4(g.in), KernelShape4(g.filter),
                              KernelShape4(g.out))
                        : k::Conv2DOverlapDistance(p, KernelShape4(g.in),
                                                   KernelShape4(g.filter),
                                                   KernelShape4(g.out))));
}

void StatePoolOverlap(Lowerer& l, const tflite::Tensor& in,
                      const tflite::Tensor& out,
                      const tflite::PoolGeometry& g) {
  const k::PoolParams p{
      g.filter_h,         g.filter_w,         g.stride_h, g.stride_w,
      g.pad_h.pad_before, g.pad_w.pad_before, -128,       127};
  l.StateOverlap(in, out, OverlapRelation::kOutputBelowBy,
                 InBytes(in, out,
                         k::PoolOverlapDistance(p, KernelShape4(g.in),
                                                KernelShape4(g.out))));
}

void StatePadOverlap(Lowerer& l, const tflite::Tensor& in,
                     const tflite::Tensor& out, const Dims4& in_shape,
                     const std::int32_t before[4],
                     const std::int32_t after[4]) {
  const k::PadParams p{KernelShape4(in_shape),
                       k::Shape4{before[0], before[1], before[2], before[3]},
                       k::Shape4{after[0], after[1], after[2], after[3]}};
  l.StateOverlap(in, out, OverlapRelation::kOutputBelowBy,
                 InBytes(in, out, k::PadOverlapDistance(p)));
}

void StateSameShapeInputs(Lowerer& l, const tflite::Tensor& a,
                          const tflite::Tensor& b, const tflite::Tensor& out) {
  for (const tflite::Tensor* t : {&a, &b}) {
    if (t->shape == out.shape && !l.model().IsConstant(*t)) {
      l.StateElementwise(*t, out);
    }
  }
}

void StateUnbroadcastOverlaps(Lowerer& l, const BroadcastOperands& x) {
  // mul.hpp, sub.hpp, div.hpp, maximum_minimum.hpp: the element-wise
  // contract for an input with the output's shape; none for a broadcast one.
  StateSameShapeInputs(l, x.a, x.b, x.out);
}

}  // namespace arenaplan::compile
