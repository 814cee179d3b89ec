// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Runs a fused segment (docs/fuse.md) in an arena: the row schedule of
// row_schedule.hpp with a sink that calls the existing kernels on windows.
// Output row j of a window operator is the kernel run on the window's rows
// [a, b) of each input (a = max(0, stride * j - pad), clipped to the input)
// as a tensor of b - a rows with top padding a - (stride * j - pad) and one
// output row: every output value comes from the same input values in the
// same integer arithmetic as in the whole-tensor call, so the bytes are
// identical. ADD runs on one row. A pool with one output row accumulates
// (int32 sums, or maxima, per output element) row by row and writes its row
// at the end, with the reference pool's rounding and clamp. float32
// operators (the f32 kinds, elem_bytes 4) run the float/ kernels on rows
// the same way: the same taps summed in the same order as the whole call
// (docs/fuse.md, "float32 segments"); no float pool accumulates.
//
// Memory. Each operator but the last has a ring record in the arena: its
// state (accumulating pools: 4 bytes an output element) first, then its
// rows (slot 0 at state end). The segment's inputs are whole tensors at
// their offsets, its output a whole tensor at its offset. Every arena
// offset a segment's execution uses is worked out in one place, the sink
// ResolvingSink, which also checks that every row written fits its ring
// (`ring_bytes`) and moves a ring's held rows down to slot 0 only when the
// next row would not fit above them (a ring planned with rows to spare
// moves less often): as the schedule runs (RunFused, false and nothing more
// written when a row would not fit), or when compiling (ResolveSteps: the
// generated code's table of the recorded calls with their offsets, whose
// `ok` it asserts; RunResolved runs the table with no schedule state and
// no check left for run time). A fast convolution
// (Conv2DFast, the fast depthwise kinds) also has a scratch record
// (fast_conv.hpp's sizing functions) at `scratch_offset`, which each of its
// row calls reuses.
#ifndef ARENAPLAN_KERNELS_FUSED_HPP_
#define ARENAPLAN_KERNELS_FUSED_HPP_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "arenaplan/kernels/add.hpp"
#include "arenaplan/kernels/conv.hpp"
#include "arenaplan/kernels/dilated_conv.hpp"
#include "arenaplan/kernels/fast_conv.hpp"
#include "arenaplan/kernels/float/conv.hpp"
#include "arenaplan/kernels/float/elementwise.hpp"
#include "arenaplan/kernels/float/pooling.hpp"
#include "arenaplan/kernels/pad.hpp"
#include "arenaplan/kernels/pooling.hpp"
#include "arenaplan/kernels/row_schedule.hpp"

namespace arenaplan::kernels {

/// An int32 that may sit at any byte address (an accumulating pool's
/// running sums in a ring planned with alignment 1).
typedef std::int32_t UnalignedInt32 __attribute__((aligned(1)));

enum class FusedKind : std::uint8_t {
  kConv2DFast,           ///< fast_conv.hpp Conv2DFast (folded bias).
  kDepthwiseConv2DFast,  ///< fast_conv.hpp, depth multiplier 1.
  kDepthwiseConv2D,      ///< conv.hpp reference (any depth multiplier).
  kConv2D,               ///< conv.hpp reference.
  kAveragePool,
  kMaxPool,
  kAdd,
  kConv2DDilatedFast,           ///< dilated_conv.hpp (folded bias).
  kDepthwiseConv2DDilatedFast,  ///< fast_conv.hpp, depth multiplier 1.
  // float32 activations (elem_bytes 4; parameters in FusedOp::f32):
  kConv2DF32,           ///< float/conv.hpp Conv2D (any dilation).
  kDepthwiseConv2DF32,  ///< float/conv.hpp DepthwiseConv2D.
  kAveragePoolF32,      ///< float/pooling.hpp, not accumulating.
  kMaxPoolF32,          ///< float/pooling.hpp, not accumulating.
  kAddF32,              ///< float/elementwise.hpp Add, equal shapes.
  kReluF32,             ///< float/elementwise.hpp Relu.
  kPadF32,              ///< pad.hpp Pad<float>, no padding of H (or N).
};

/// The parameters of the float32 kinds (whole-tensor values; the row call
/// replaces the top padding and the shapes).
struct FusedF32 {
  f32::ConvParams conv{};
  f32::PoolParams pool{};
  f32::AddParams add{};
  PadParams pad{};
  float pad_value = 0.0f;
  const float* filter = nullptr;
  const float* bias = nullptr;
};

/// One operator of a fused segment.
struct FusedOp {
  FusedKind kind = FusedKind::kAdd;
  RowOp row;  ///< Its rows (row_schedule.hpp).
  /// Whole-tensor shapes: the (first) input, the output, the filter.
  Shape4 in_shape{1, 1, 1, 1}, out_shape{1, 1, 1, 1}, filter_shape{1, 1, 1, 1};
  DilatedConvParams conv{};  ///< Factors 1 for undilated convolutions.
  PoolParams pool{};
  AddParams add{};  ///< `count` is ignored: one row is out_shape.w * c.
  const std::int8_t* filter = nullptr;
  const std::int32_t* bias = nullptr;  ///< Folded for the fast kernels.
  ChannelQuant quant{};
  /// Arena offset and bytes of its ring record (operators but the last;
  /// the last: of its state record, 0 bytes when it has none).
  std::size_t ring_offset = 0;
  std::size_t ring_bytes = 0;
  /// Bytes of its accumulating state (4 x out_shape.w x out_shape.c for an
  /// accumulating pool, else 0): the first bytes of its ring record.
  std::size_t state_bytes = 0;
  /// Arena offset of its kernel scratch record (Conv2DFast: at least
  /// Conv2DFastScratchBytes(filter_shape) bytes; the fast depthwise
  /// kinds: DepthwiseConv2DFastScratchBytes; unused by other kinds).
  std::size_t scratch_offset = 0;
  /// Bytes of one element of its activations: 1 (int8 kinds) or 4 (the
  /// f32 kinds); a row is out_shape.w x out_shape.c elements.
  std::size_t elem_bytes = 1;
  /// The f32 kinds' parameters (read by KernelRows only; the generated code
  /// passes them as literals); nullptr for the int8 kinds.
  const FusedF32* f32 = nullptr;
};

/// The schedule's rows of a FusedOp (row_schedule.hpp).
constexpr const RowOp& RowOfOp(const FusedOp& o) { return o.row; }

/// A segment: ops[0 .. n) (WellFormed rows), the arena offsets of its
/// inputs (RowOp input -1 - k is input_offsets[k]) and of its output.
struct FusedSegment {
  const FusedOp* ops = nullptr;
  std::int32_t n = 0;
  const std::size_t* input_offsets = nullptr;
  std::size_t output_offset = 0;
};

/// One output row of a window or element-wise operator: the kernel of
/// `o` on an input of `rows` rows at `x` (and `x2`, ADD's second input
/// row) with top padding `pad`, one output row at `y`. The generated code
/// passes its own Rows type, the same calls with the operator's shapes and
/// parameters as literals (so the compiler folds them as in the unfused
/// build); this one reads them from `o`. `scratch`: the arena at
/// o.scratch_offset.
struct KernelRows {
  static void Row(const FusedOp& o, std::int32_t /*i*/, std::int32_t rows,
                  std::int32_t pad, const std::int8_t* x, const std::int8_t* x2,
                  std::int8_t* y, std::int8_t* scratch) {
    const Shape4 in{1, rows, o.in_shape.w, o.in_shape.c};
    const Shape4 out{1, 1, o.out_shape.w, o.out_shape.c};
    if (o.elem_bytes == 4) {
      RowF32(o, in, out, pad, reinterpret_cast<const float*>(x),
             reinterpret_cast<const float*>(x2), reinterpret_cast<float*>(y));
      return;
    }
    switch (o.kind) {
      case FusedKind::kConv2DFast:
      case FusedKind::kDepthwiseConv2DFast:
      case FusedKind::kDepthwiseConv2D:
      case FusedKind::kConv2D:
      case FusedKind::kConv2DDilatedFast:
      case FusedKind::kDepthwiseConv2DDilatedFast: {
        DilatedConvParams p = o.conv;
        p.pad_h = pad;
        if (o.kind == FusedKind::kConv2DDilatedFast) {
          Conv2DDilatedFast(p, in, x, o.filter_shape, o.filter, o.bias, o.quant,
                            out, y);
        } else if (o.kind == FusedKind::kDepthwiseConv2DDilatedFast) {
          DepthwiseConv2DDilatedFast(p, in, x, o.filter_shape, o.filter, o.bias,
                                     o.quant, out, y, scratch);
        } else if (o.kind == FusedKind::kConv2DFast) {
          Conv2DFast(p, in, x, o.filter_shape, o.filter, o.bias, o.quant, out,
                     y, scratch);
        } else if (o.kind == FusedKind::kDepthwiseConv2DFast) {
          DepthwiseConv2DFast(p, in, x, o.filter_shape, o.filter, o.bias,
                              o.quant, out, y, scratch);
        } else if (o.kind == FusedKind::kDepthwiseConv2D) {
          DepthwiseConv2D(p, in, x, o.filter_shape, o.filter, o.bias, o.quant,
                          out, y);
        } else {
          Conv2D(p, in, x, o.filter_shape, o.filter, o.bias, o.quant, out, y);
        }
        break;
      }
      case FusedKind::kAveragePool:
      case FusedKind::kMaxPool: {
        PoolParams p = o.pool;
        p.pad_h = pad;
        if (o.kind == FusedKind::kAveragePool) {
          AveragePool(p, in, x, out, y);
        } else {
          MaxPool(p, in, x, out, y);
        }
        break;
      }
      case FusedKind::kAdd: {
        AddParams p = o.add;
        p.count = o.out_shape.w * o.out_shape.c;
        Add(p, x, x2, y);
        break;
      }
      default:
        break;
    }
  }

  /// One row of a float32 kind: the whole-tensor kernel on the window, as
  /// for the int8 kinds (same taps in the same order, docs/fuse.md).
  static void RowF32(const FusedOp& o, const Shape4& in, const Shape4& out,
                     std::int32_t pad, const float* x, const float* x2,
                     float* y) {
    const FusedF32& f = *o.f32;
    switch (o.kind) {
      case FusedKind::kConv2DF32:
      case FusedKind::kDepthwiseConv2DF32: {
        f32::ConvParams p = f.conv;
        p.pad_h = pad;
        if (o.kind == FusedKind::kConv2DF32) {
          f32::Conv2D(p, in, x, o.filter_shape, f.filter, f.bias, out, y);
        } else {
          f32::DepthwiseConv2D(p, in, x, o.filter_shape, f.filter, f.bias, out,
                               y);
        }
        break;
      }
      case FusedKind::kAveragePoolF32:
      case FusedKind::kMaxPoolF32: {
        f32::PoolParams p = f.pool;
        p.pad_h = pad;
        if (o.kind == FusedKind::kAveragePoolF32) {
          f32::AveragePool(p, in, x, out, y);
        } else {
          f32::MaxPool(p, in, x, out, y);
        }
        break;
      }
      case FusedKind::kAddF32: {
        const std::int32_t wc = out.w * out.c;
        const f32::AddParams p{
            f.add.act, out, {wc, wc, out.c, 1}, {wc, wc, out.c, 1}};
        f32::Add(p, x, x2, y);
        break;
      }
      case FusedKind::kReluF32:
        f32::Relu(out.w * out.c, x, y);
        break;
      case FusedKind::kPadF32: {
        PadParams p = f.pad;
        p.input = Shape4{1, 1, o.in_shape.w, o.in_shape.c};
        Pad<float>(p, f.pad_value, x, y);
        break;
      }
      default:
        break;
    }
  }
};

namespace fused_detail {

/// MoveDown's copy of `bytes` (a multiple of 32) from the 4-byte aligned
/// `from` down to `to`: 128 bytes a step as four load-multiple /
/// store-multiple pairs of eight words (10 instructions with the loop's
/// compare and branch; with four words a pair 32 bytes took 6, and the
/// compiler's own copy of the loop 20, through the stack), then 64 and 32
/// bytes once if left. Each group of eight words is read before it
/// is written, and the words written lie below the next ones read. The
/// words in named registers (clobbered; r7 and r9, which a frame or
/// platform may reserve, not among them), so that the lists are in
/// ascending order for any compiler (no register variables). Inlined into
/// the resolved steps' loop (a drop of rows whose offsets and sizes are
/// multiples of 32 needs no call).
[[gnu::always_inline]] inline void MoveDownBy32(std::uint32_t* d,
                                                const std::uint32_t* f,
                                                std::size_t bytes) {
#if defined(__thumb2__) && defined(__OPTIMIZE__)
  const std::uint32_t* const end = f + (bytes / 128) * 32;
  if (f != end) {
    __asm__ volatile(
        "1:\n\t"
        "ldmia %[f]!, {r4, r5, r6, r8, r10, r11, r12, lr}\n\t"
        "stmia %[d]!, {r4, r5, r6, r8, r10, r11, r12, lr}\n\t"
        "ldmia %[f]!, {r4, r5, r6, r8, r10, r11, r12, lr}\n\t"
        "stmia %[d]!, {r4, r5, r6, r8, r10, r11, r12, lr}\n\t"
        "ldmia %[f]!, {r4, r5, r6, r8, r10, r11, r12, lr}\n\t"
        "stmia %[d]!, {r4, r5, r6, r8, r10, r11, r12, lr}\n\t"
        "ldmia %[f]!, {r4, r5, r6, r8, r10, r11, r12, lr}\n\t"
        "stmia %[d]!, {r4, r5, r6, r8, r10, r11, r12, lr}\n\t"
        "cmp %[f], %[end]\n\t"
        "bne 1b\n\t"
        : [f] "+r"(f), [d] "+r"(d)
        : [end] "r"(end)
        : "r4", "r5", "r6", "r8", "r10", "r11", "r12", "lr", "cc", "memory");
  }
  if ((bytes & 64) != 0) {
    __asm__ volatile(
        "ldmia %[f]!, {r4, r5, r6, r8, r10, r11, r12, lr}\n\t"
        "stmia %[d]!, {r4, r5, r6, r8, r10, r11, r12, lr}\n\t"
        "ldmia %[f]!, {r4, r5, r6, r8, r10, r11, r12, lr}\n\t"
        "stmia %[d]!, {r4, r5, r6, r8, r10, r11, r12, lr}\n\t"
        : [f] "+r"(f), [d] "+r"(d)
        :
        : "r4", "r5", "r6", "r8", "r10", "r11", "r12", "lr", "memory");
  }
  if ((bytes & 32) != 0) {
    __asm__ volatile(
        "ldmia %[f]!, {r4, r5, r6, r8, r10, r11, r12, lr}\n\t"
        "stmia %[d]!, {r4, r5, r6, r8, r10, r11, r12, lr}\n\t"
        : [f] "+r"(f), [d] "+r"(d)
        :
        : "r4", "r5", "r6", "r8", "r10", "r11", "r12", "lr", "memory");
  }
#else
  for (std::size_t k = 0; k < bytes; k += 4) *d++ = *f++;
#endif
}

/// Copies the `bytes` bytes at `from` down to `to` (to < from; the two
/// ranges may overlap): a ring drop moving its kept rows to slot 0. Every
/// byte is read before the copy writes at its address: the copy runs
/// forward and reads at least as far ahead as it has written.
inline void MoveDown(std::uint8_t* to, const std::uint8_t* from,
                     std::size_t bytes) {
  std::size_t k = 0;
  if (((reinterpret_cast<std::uintptr_t>(to) |
        reinterpret_cast<std::uintptr_t>(from)) &
       3) == 0) {
    auto* d = reinterpret_cast<std::uint32_t*>(to);
    const auto* f = reinterpret_cast<const std::uint32_t*>(from);
    k = (bytes / 32) * 32;
    MoveDownBy32(d, f, k);
    d += k / 4;
    f += k / 4;
    for (; k + 4 <= bytes; k += 4) *d++ = *f++;
  }
  for (; k < bytes; ++k) to[k] = from[k];
}

/// Reads and writes an int32 at byte `at` (4-byte aligned when kAligned).
/// (A template argument would drop UnalignedInt32's alignment, so the type
/// is chosen here, not deduced.)
template <bool kAligned>
inline std::int32_t Load(const std::uint8_t* at) {
  if constexpr (kAligned) {
    return *reinterpret_cast<const std::int32_t*>(at);
  } else {
    return *reinterpret_cast<const UnalignedInt32*>(at);
  }
}
template <bool kAligned>
inline void Store(std::uint8_t* at, std::int32_t v) {
  if constexpr (kAligned) {
    *reinterpret_cast<std::int32_t*>(at) = v;
  } else {
    *reinterpret_cast<UnalignedInt32*>(at) = v;
  }
}

/// Adds the bytes of four channels at px, px + step, ... (below end; px
/// below end) to the running sums at acc (4-byte aligned when kAligned),
/// with at most 256 of them: two words of 16-bit lanes (Isa::Sxtab16: channels
/// 0 and 2 in one, 1 and 3 in the other; a lane holds 256 bytes' sum, at least
/// -32,768, without overflow), then added to the int32 sums. One word load
/// and two instructions per pixel, not four byte loads and four adds.
template <bool kAligned, class Isa>
inline void AddLanes(std::uint8_t* acc, const std::int8_t* px,
                     const std::int8_t* end, std::int32_t step) {
  std::uint32_t even = 0, odd = 0;
  do {
    const std::uint32_t v = dsp_detail::Load4(px);
    even = Isa::Sxtab16(even, v), odd = Isa::Sxtab16Ror8(odd, v);
  } while ((px += step) < end);
  const auto lo = [](std::uint32_t w) {
    return static_cast<std::int32_t>(static_cast<std::int16_t>(w & 0xFFFF));
  };
  const auto hi = [](std::uint32_t w) {
    return static_cast<std::int32_t>(static_cast<std::int16_t>(w >> 16));
  };
  Store<kAligned>(acc, Load<kAligned>(acc) + lo(even));
  Store<kAligned>(acc + 4, Load<kAligned>(acc + 4) + lo(odd));
  Store<kAligned>(acc + 8, Load<kAligned>(acc + 8) + hi(even));
  Store<kAligned>(acc + 12, Load<kAligned>(acc + 12) + hi(odd));
}

#if defined(__ARM_FEATURE_DSP)
/// The ISA of AccumulateInto's sums (AddLanes); void without SXTAB16.
using LaneIsa = AcleIsa;
#else
using LaneIsa = void;
#endif

/// AccumulateRow's work on `state` (the pool's running sums, or maxima when
/// kMax, out_shape.w x out_shape.c int32s; 4-byte aligned when kAligned).
/// Loop order: per output pixel, channels in groups of four held in
/// registers while the window's columns of the row are added (or compared)
/// into them, then stored: one load and one store of the state per group
/// and row, not per input byte; sums of at most 256 columns in 16-bit
/// lanes with Isa (AddLanes) when it is not void. Integer sums and maxima
/// do not depend on the order, so the state is the reference pool's
/// whatever the order.
template <bool kAligned, bool kMax, class Isa = LaneIsa>
void AccumulateInto(const FusedOp& o, std::uint8_t* state,
                    const std::int8_t* row, bool first) {
  const std::int32_t c_n = o.out_shape.c, w_n = o.out_shape.w;
  const std::int32_t in_c = o.in_shape.c;
  if (first) {
    for (std::int32_t k = 0; k < w_n * c_n; ++k) {
      Store<kAligned>(state + 4 * k, kMax ? -128 : 0);
    }
  }
  const auto into = [](std::int32_t a, std::int32_t v) {
    return kMax ? (v > a ? v : a) : a + v;
  };
  for (std::int32_t ox = 0; ox < w_n; ++ox) {
    const std::int32_t x0 = ox * o.pool.stride_w - o.pool.pad_w;
    const std::int32_t kb = x0 < 0 ? -x0 : 0;
    const std::int32_t ke = o.pool.filter_w < o.in_shape.w - x0
                                ? o.pool.filter_w
                                : o.in_shape.w - x0;
    if (ke <= kb) continue;
    std::uint8_t* const acc = state + 4 * ox * c_n;
    const std::int8_t* const begin = row + (x0 + kb) * in_c;
    const std::int8_t* const end = begin + (ke - kb) * in_c;
    std::int32_t c = 0;
    if constexpr (!kMax && !std::is_void_v<Isa>) {
      if (ke - kb <= 256) {
        for (; c + 4 <= c_n; c += 4) {
          AddLanes<kAligned, Isa>(acc + 4 * c, begin + c, end, in_c);
        }
      }
    }
    for (; c + 4 <= c_n; c += 4) {
      std::int32_t a0 = Load<kAligned>(acc + 4 * c);
      std::int32_t a1 = Load<kAligned>(acc + 4 * c + 4);
      std::int32_t a2 = Load<kAligned>(acc + 4 * c + 8);
      std::int32_t a3 = Load<kAligned>(acc + 4 * c + 12);
      for (const std::int8_t* px = begin + c; px < end; px += in_c) {
        a0 = into(a0, px[0]);
        a1 = into(a1, px[1]);
        a2 = into(a2, px[2]);
        a3 = into(a3, px[3]);
      }
      Store<kAligned>(acc + 4 * c, a0);
      Store<kAligned>(acc + 4 * c + 4, a1);
      Store<kAligned>(acc + 4 * c + 8, a2);
      Store<kAligned>(acc + 4 * c + 12, a3);
    }
    for (; c < c_n; ++c) {
      std::int32_t a = Load<kAligned>(acc + 4 * c);
      for (const std::int8_t* px = begin + c; px < end; px += in_c) {
        a = into(a, *px);
      }
      Store<kAligned>(acc + 4 * c, a);
    }
  }
}

/// Accumulating pool `o` reads its input row at `row` into its state at
/// `state` (any byte: a ring planned with --align 1), first setting it
/// when `first` (the window's first row).
inline void AccumulateRow(const FusedOp& o, std::uint8_t* state,
                          const std::int8_t* row, bool first) {
  const bool aligned = (reinterpret_cast<std::uintptr_t>(state) & 3) == 0;
  if (o.kind == FusedKind::kMaxPool) {
    aligned ? AccumulateInto<true, true>(o, state, row, first)
            : AccumulateInto<false, true>(o, state, row, first);
  } else {
    aligned ? AccumulateInto<true, false>(o, state, row, first)
            : AccumulateInto<false, false>(o, state, row, first);
  }
}

/// Accumulating pool `o` writes its row at `out` from its state, `rows`
/// input rows pooled (pooling.hpp's rounding and clamp).
inline void FinishPool(const FusedOp& o, const std::uint8_t* at,
                       std::int8_t* out, std::int32_t rows) {
  const UnalignedInt32* state = reinterpret_cast<const UnalignedInt32*>(at);
  const bool max = o.kind == FusedKind::kMaxPool;
  const std::int32_t c_n = o.out_shape.c;
  for (std::int32_t ox = 0; ox < o.out_shape.w; ++ox) {
    const std::int32_t x0 = ox * o.pool.stride_w - o.pool.pad_w;
    const std::int32_t kb = x0 < 0 ? -x0 : 0;
    const std::int32_t ke = o.pool.filter_w < o.in_shape.w - x0
                                ? o.pool.filter_w
                                : o.in_shape.w - x0;
    const std::int32_t count = rows * (ke > kb ? ke - kb : 0);
    for (std::int32_t c = 0; c < c_n; ++c) {
      std::int32_t acc = state[ox * c_n + c];
      if (!max && count > 0) {
        acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
      }
      out[ox * c_n + c] = ClampToInt8(acc, o.pool.act_min, o.pool.act_max);
    }
  }
}

}  // namespace fused_detail

/// One call of a segment's schedule with its arena offsets worked out
/// (ResolvingSink): what the executor does at that call (ExecuteStep),
/// without the schedule's state. `Offset`: the offsets' type (std::size_t
/// at run time; the generated tables' narrower ResolvedOffset).
template <class Offset>
struct FusedStep {
  /// Arena offsets (bytes). Compute: x the first input row read, x2 an
  /// ADD's second input row, y the first output row. Drop: x the first row
  /// kept, y slot 0 (x > y), x2 the bytes moved. Accumulate: x the input
  /// row, y the pool's state. Finish: x the state, y the output row.
  Offset x = 0, x2 = 0, y = 0;
  std::uint8_t op = 0;    ///< The operator (its index in the segment).
  std::uint8_t kind = 0;  ///< kRowStep* (row_schedule.hpp).
  /// Compute: the input rows of the window; Accumulate: 1 at the window's
  /// first row, else 0; Finish: the rows pooled.
  std::uint16_t rows = 0;
  /// Compute: the window's top padding (negative for a window that starts
  /// past the input's last row: none of its rows are read).
  std::int16_t pad = 0;
};

/// The schedule's sink that works out each call's FusedStep (every arena
/// address a fused segment's execution uses, in one place) and hands it
/// to `emit` (a callable taking const FusedStep<std::size_t>&): executed
/// at once (RunFused) or recorded (ResolveSteps, at compile time).
/// `Schedule`: BasicRowSchedule or BasicRowReplay of FusedOp; kElem: the
/// bytes of an element of every op, or 0 to read each op's. ok() turns
/// false, and nothing more is emitted, at the first row that does not fit
/// its ring or whose offsets or counts do not fit a step.
template <class Schedule, std::size_t kElem, class Emitter>
class ResolvingSink {
 public:
  constexpr ResolvingSink(const FusedSegment& seg, const Schedule& schedule,
                          Emitter& emit)
      : seg_(seg), s_(schedule), emit_(emit) {}

  [[nodiscard]] constexpr bool ok() const { return ok_; }

  /// The schedule's drop only marks rows free (it moves HeldLo): the kept
  /// rows move to slot 0 when the ring's next row would not fit above
  /// them (OutputRow), so a ring with rows to spare moves less often.
  constexpr void Drop(std::int32_t, std::int32_t) {}

  constexpr void Compute(std::int32_t i, std::int32_t j) {
    const FusedOp& o = seg_.ops[i];
    const std::int32_t a = s_.WindowFirst(i, j), b = s_.WindowEnd(i, j);
    FusedStep<std::size_t> st = Step(i, kRowStepCompute);
    if (!OutputRow(i, j, st.y)) return;
    st.x = b > a ? InputRow(i, 0, a) : 0;  // no row read: any offset
    st.x2 = o.row.input_count > 1 ? InputRow(i, 1, j) : 0;
    Count(st.rows, b - a);
    Count(st.pad, a - (o.row.stride * j - o.row.pad));
    Send(st);
  }

  constexpr void Accumulate(std::int32_t i, std::int32_t y) {
    FusedStep<std::size_t> st = Step(i, kRowStepAccumulate);
    st.x = InputRow(i, 0, y);
    st.y = seg_.ops[i].ring_offset;
    st.rows = y == s_.WindowFirst(i, 0) ? 1 : 0;
    Send(st);
  }

  constexpr void Finish(std::int32_t i) {
    FusedStep<std::size_t> st = Step(i, kRowStepFinish);
    if (!OutputRow(i, 0, st.y)) return;
    st.x = seg_.ops[i].ring_offset;
    Count(st.rows, s_.WindowEnd(i, 0) - s_.WindowFirst(i, 0));
    Send(st);
  }

 private:
  constexpr FusedStep<std::size_t> Step(std::int32_t i,
                                        std::uint8_t kind) const {
    FusedStep<std::size_t> st;
    st.op = static_cast<std::uint8_t>(i);
    st.kind = kind;
    return st;
  }
  /// v in `to`, or ok_ false when it does not fit.
  template <class T>
  constexpr void Count(T& to, std::int32_t v) {
    if (v < std::numeric_limits<T>::min() ||
        v > std::numeric_limits<T>::max()) {
      ok_ = false;
    }
    to = static_cast<T>(v);
  }
  constexpr void Send(const FusedStep<std::size_t>& st) {
    if (ok_) emit_(st);
  }

  /// Bytes of a row of `s`, one of `o`'s shapes: elements of kElem bytes
  /// when given (a constant the compiler folds), else of the op's
  /// elem_bytes.
  static constexpr std::size_t RowBytes(const Shape4& s, const FusedOp& o) {
    return static_cast<std::size_t>(s.w) * static_cast<std::size_t>(s.c) *
           (kElem != 0 ? kElem : o.elem_bytes);
  }

  /// Where operator i writes row j (`at`), first moving the rows its
  /// ring holds, [HeldLo(i), j), down to slot 0 (a drop step) when row j
  /// would not fit above them; false (and ok_ false) when the ring is too
  /// small even so.
  constexpr bool OutputRow(std::int32_t i, std::int32_t j, std::size_t& at) {
    const FusedOp& o = seg_.ops[i];
    const std::size_t row = RowBytes(o.out_shape, o);
    if (i == seg_.n - 1) {
      at = seg_.output_offset + static_cast<std::size_t>(j) * row;
      return true;
    }
    const std::size_t rows = o.ring_offset + o.state_bytes;
    const auto fits = [&](std::int32_t base) {
      return o.state_bytes + static_cast<std::size_t>(j - base + 1) * row <=
             o.ring_bytes;
    };
    const std::int32_t lo = s_.HeldLo(i);
    if (!fits(base_[i]) && lo > base_[i]) {
      FusedStep<std::size_t> st = Step(i, kRowStepDrop);
      st.y = rows;
      st.x = rows + static_cast<std::size_t>(lo - base_[i]) * row;
      st.x2 = static_cast<std::size_t>(j - lo) * row;
      Send(st);
      base_[i] = lo;
    }
    if (!fits(base_[i])) {
      ok_ = false;
      return false;
    }
    at = rows + static_cast<std::size_t>(j - base_[i]) * row;
    return true;
  }

  /// Row y of operator i's input q (in its ring, or in a segment input).
  constexpr std::size_t InputRow(std::int32_t i, std::int32_t q,
                                 std::int32_t y) const {
    const std::int32_t p = seg_.ops[i].row.input[q];
    const std::size_t row = RowBytes(seg_.ops[i].in_shape, seg_.ops[i]);
    if (p < 0) {
      return seg_.input_offsets[-1 - p] + static_cast<std::size_t>(y) * row;
    }
    const FusedOp& src = seg_.ops[p];
    return src.ring_offset + src.state_bytes +
           static_cast<std::size_t>(y - base_[p]) * row;
  }

  const FusedSegment& seg_;
  const Schedule& s_;
  Emitter& emit_;
  /// Per operator: the row at slot 0 of its ring (at most HeldLo).
  std::int32_t base_[kMaxSegmentOps] = {};
  bool ok_ = true;
};

/// Runs one resolved step in `arena`, its rows by Rows::Row (below).
template <class Rows, class Offset>
[[gnu::always_inline]] inline void ExecuteStep(const FusedSegment& seg,
                                               const FusedStep<Offset>& st,
                                               std::uint8_t* arena) {
  const FusedOp& o = seg.ops[st.op];
  switch (st.kind) {
    case kRowStepDrop:
      // Words (an arena and offsets aligned to 4) and a multiple of 32
      // bytes: the copy loop inline, no call.
      if (((reinterpret_cast<std::uintptr_t>(arena) | st.x | st.y) & 3) == 0 &&
          (st.x2 & 31) == 0) {
        fused_detail::MoveDownBy32(
            reinterpret_cast<std::uint32_t*>(arena + st.y),
            reinterpret_cast<const std::uint32_t*>(arena + st.x), st.x2);
      } else if (st.x2 != 0) {
        fused_detail::MoveDown(arena + st.y, arena + st.x, st.x2);
      }
      break;
    case kRowStepCompute:
      Rows::Row(o, st.op, st.rows, st.pad,
                reinterpret_cast<const std::int8_t*>(arena + st.x),
                reinterpret_cast<const std::int8_t*>(arena + st.x2),
                reinterpret_cast<std::int8_t*>(arena + st.y),
                reinterpret_cast<std::int8_t*>(arena + o.scratch_offset));
      break;
    case kRowStepAccumulate:
      fused_detail::AccumulateRow(
          o, arena + st.y, reinterpret_cast<const std::int8_t*>(arena + st.x),
          st.rows != 0);
      break;
    default:
      fused_detail::FinishPool(o, arena + st.x,
                               reinterpret_cast<std::int8_t*>(arena + st.y),
                               st.rows);
      break;
  }
}

/// Runs `seg` in `arena`, each row by Rows::Row (KernelRows: the kernels
/// the FusedOps name), the schedule worked out as it runs. False when a
/// ring is too small for the schedule (the rows after the overflow are not
/// computed); the segment's rows must be WellFormed (the generator checks)
/// and seg.n <= N (the schedule's state on the stack is 8 x N bytes).
/// kElem: the bytes of an element of every op (1 or 4), or 0 to read each
/// op's.
template <class Rows = KernelRows, std::int32_t N = kMaxSegmentOps,
          std::size_t kElem = 0>
inline bool RunFused(const FusedSegment& seg, std::uint8_t* arena) {
  if (seg.n > N) return false;
  BasicRowSchedule<FusedOp, N> schedule(seg.ops, seg.n);
  const auto run = [&](const FusedStep<std::size_t>& st) {
    ExecuteStep<Rows>(seg, st, arena);
  };
  ResolvingSink<BasicRowSchedule<FusedOp, N>, kElem, decltype(run)> sink(
      seg, schedule, run);
  schedule.Run(sink);
  return sink.ok();
}

/// The offsets of a resolved table: 16 bits when every arena offset and
/// byte count fits (an arena below 65,536 bytes), else 32.
template <std::size_t kArenaBytes>
using ResolvedOffset =
    std::conditional_t<(kArenaBytes < 0x10000), std::uint16_t, std::uint32_t>;

/// A segment's resolved steps, worked out when compiling (ResolveSteps):
/// `ok` false when a row does not fit its ring, or an offset or count its
/// field; steps[0 .. count) otherwise.
template <class Offset, std::size_t S>
struct ResolvedSteps {
  bool ok = true;
  std::size_t count = 0;
  FusedStep<Offset> steps[S > 0 ? S : 1] = {};
};

/// The steps of recorded `steps[0 .. count)` (BasicRowSchedule<FusedOp,
/// N>(seg.ops, seg.n)'s calls: the generator records them) with their
/// offsets, without the drops that move nothing; `ok` false unless there
/// are at most S of them (count them first with S = 0: `count` is right
/// whatever S). A constant expression for constant arguments: the
/// generated code works its table out when compiling and asserts `ok`.
template <class Offset, std::int32_t N, std::size_t kElem, std::size_t S>
constexpr ResolvedSteps<Offset, S> ResolveSteps(const FusedSegment& seg,
                                                const RowStep* steps,
                                                std::int32_t count) {
  ResolvedSteps<Offset, S> out;
  if (seg.n > N) {
    out.ok = false;
    return out;
  }
  BasicRowReplay<FusedOp, N> replay(seg.ops, seg.n, steps, count);
  const auto keep = [&out](const FusedStep<std::size_t>& st) {
    if (st.kind == kRowStepDrop && st.x2 == 0) return;
    const std::size_t most = static_cast<Offset>(~Offset{0});
    if (st.x > most || st.x2 > most || st.y > most) out.ok = false;
    if (out.count < S) {
      FusedStep<Offset>& to = out.steps[out.count];
      to.x = static_cast<Offset>(st.x);
      to.x2 = static_cast<Offset>(st.x2);
      to.y = static_cast<Offset>(st.y);
      to.op = st.op;
      to.kind = st.kind;
      to.rows = st.rows;
      to.pad = st.pad;
    }
    ++out.count;
  };
  ResolvingSink<BasicRowReplay<FusedOp, N>, kElem, decltype(keep)> sink(
      seg, replay, keep);
  replay.Run(sink);
  if (!sink.ok() || out.count > S) out.ok = false;
  return out;
}
template <class Offset, std::int32_t N, std::size_t kElem, std::size_t S,
          std::size_t R>
constexpr ResolvedSteps<Offset, S> ResolveSteps(const FusedSegment& seg,
                                                const RowStep (&steps)[R]) {
  return ResolveSteps<Offset, N, kElem, S>(seg, steps,
                                           static_cast<std::int32_t>(R));
}

/// Runs the resolved steps of `seg` (ResolveSteps, ok) in `arena`: the
/// schedule's calls in order with the offsets worked out when compiling,
/// no schedule state and no ring check at run time (ResolveSteps made
/// them). Inlined into the generated Invoke(): a frame of its own, holding
/// the row calls' inlined pixel loops, would sit on Invoke()'s
/// (person_detect FUSE=1 on mps2-an386: peak stack 712 bytes, 584
/// inlined).
template <class Rows, class Offset, std::size_t S>
ARENAPLAN_KERNELS_INLINE void RunResolved(const FusedSegment& seg,
                                          const ResolvedSteps<Offset, S>& run,
                                          std::uint8_t* arena) {
  for (std::size_t k = 0; k < run.count; ++k) {
    ExecuteStep<Rows>(seg, run.steps[k], arena);
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_FUSED_HPP_
