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
// their offsets, its output a whole tensor at its offset. The executor
// checks that every row written fits its ring (`ring_bytes`) and reports
// false, writing nothing further, when one would not. A fast convolution
// (Conv2DFast, the fast depthwise kinds) also has a scratch record
// (fast_conv.hpp's sizing functions) at `scratch_offset`, which each of its
// row calls reuses.
#ifndef ARENAPLAN_KERNELS_FUSED_HPP_
#define ARENAPLAN_KERNELS_FUSED_HPP_

#include <cstddef>
#include <cstdint>

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

/// Bytes of one row of `s` at `elem_bytes` bytes an element.
inline std::size_t RowBytes(const Shape4& s, std::size_t elem_bytes) {
  return static_cast<std::size_t>(s.w) * static_cast<std::size_t>(s.c) *
         elem_bytes;
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
#if defined(__thumb2__) && defined(__OPTIMIZE__)
    // Thirty-two bytes a step as two load-multiple / store-multiple pairs
    // of four words (6 instructions with the loop's compare and branch;
    // the compiler's copy of the same loop took 20, through the stack).
    // Each group of four words is read before it is written, and the words
    // written lie below the next ones read.
    const std::uint32_t* const end = f + (bytes / 32) * 8;
    if (f != end) {
      // The four words in named registers (clobbered), so that the lists
      // are in ascending order for any compiler (no register variables).
      __asm__ volatile(
          "1:\n\t"
          "ldmia %[f]!, {r4, r5, r6, r8}\n\t"
          "stmia %[d]!, {r4, r5, r6, r8}\n\t"
          "ldmia %[f]!, {r4, r5, r6, r8}\n\t"
          "stmia %[d]!, {r4, r5, r6, r8}\n\t"
          "cmp %[f], %[end]\n\t"
          "bne 1b\n\t"
          : [f] "+r"(f), [d] "+r"(d)
          : [end] "r"(end)
          : "r4", "r5", "r6", "r8", "cc", "memory");
      k = (bytes / 32) * 32;
    }
#endif
    for (; k + 4 <= bytes; k += 4) *d++ = *f++;
  }
  for (; k < bytes; ++k) to[k] = from[k];
}

/// The schedule's sink for RunFused (`Schedule`: a
/// BasicRowSchedule<FusedOp, N>; kElem: RunFused's).
template <class Rows, class Schedule, std::size_t kElem>
class ArenaSink {
 public:
  ArenaSink(const FusedSegment& seg, std::uint8_t* arena,
            const Schedule& schedule)
      : seg_(seg), arena_(arena), s_(schedule) {}

  bool ok() const { return ok_; }

  void Drop(std::int32_t i, std::int32_t new_lo) {
    if (!ok_) return;
    const FusedOp& o = seg_.ops[i];
    const std::size_t row = RowBytes(o.out_shape, Elem(o));
    std::uint8_t* rows = arena_ + o.ring_offset + o.state_bytes;
    const std::int32_t kept = s_.Next(i) - new_lo;
    if (kept <= 0) return;
    MoveDown(rows, rows + static_cast<std::size_t>(new_lo - s_.HeldLo(i)) * row,
             static_cast<std::size_t>(kept) * row);
  }

  /// Inlined into the schedule's loop (its one call), with the Rows::Row
  /// it calls: the row call's arguments in Invoke()'s frame, not in a
  /// second one.
  [[gnu::always_inline]] void Compute(std::int32_t i, std::int32_t j) {
    if (!ok_) return;
    const FusedOp& o = seg_.ops[i];
    std::int8_t* out = OutputRow(i, j);
    if (out == nullptr) return;
    const std::int32_t a = s_.WindowFirst(i, j), b = s_.WindowEnd(i, j);
    const std::int8_t* x2 =
        o.row.input_count > 1 ? InputRows(i, 1, j) : nullptr;
    Rows::Row(o, i, b - a, a - (o.row.stride * j - o.row.pad),
              InputRows(i, 0, a), x2, out,
              reinterpret_cast<std::int8_t*>(arena_ + o.scratch_offset));
  }

  /// Accumulating pool i reads input row y into its state.
  void Accumulate(std::int32_t i, std::int32_t y) {
    if (!ok_) return;
    const FusedOp& o = seg_.ops[i];
    std::uint8_t* const at = arena_ + o.ring_offset;
    // The ring may start at any byte (--align 1): an int32 of alignment 1
    // unless it starts on four.
    const bool aligned = (reinterpret_cast<std::uintptr_t>(at) & 3) == 0;
    if (o.kind == FusedKind::kMaxPool) {
      aligned ? AccumulateInto<true, true>(at, i, y)
              : AccumulateInto<false, true>(at, i, y);
    } else {
      aligned ? AccumulateInto<true, false>(at, i, y)
              : AccumulateInto<false, false>(at, i, y);
    }
  }

  /// Accumulating pool i writes its row 0 (pooling.hpp's rounding).
  void Finish(std::int32_t i) {
    if (!ok_) return;
    const FusedOp& o = seg_.ops[i];
    std::int8_t* out = OutputRow(i, 0);
    if (out == nullptr) return;
    const UnalignedInt32* state =
        reinterpret_cast<const UnalignedInt32*>(arena_ + o.ring_offset);
    const bool max = o.kind == FusedKind::kMaxPool;
    const std::int32_t rows = s_.WindowEnd(i, 0) - s_.WindowFirst(i, 0);
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

 private:
  /// Reads and writes the int32 at byte `at` (4-byte aligned when
  /// kAligned). (A template argument would drop UnalignedInt32's
  /// alignment, so the type is chosen here, not deduced.)
  template <bool kAligned>
  static std::int32_t Load(const std::uint8_t* at) {
    if constexpr (kAligned) {
      return *reinterpret_cast<const std::int32_t*>(at);
    } else {
      return *reinterpret_cast<const UnalignedInt32*>(at);
    }
  }
  template <bool kAligned>
  static void Store(std::uint8_t* at, std::int32_t v) {
    if constexpr (kAligned) {
      *reinterpret_cast<std::int32_t*>(at) = v;
    } else {
      *reinterpret_cast<UnalignedInt32*>(at) = v;
    }
  }

  /// Accumulate's work on the state at `at` (the pool's running sums, or
  /// maxima when kMax, out_shape.w x out_shape.c int32s; `at` 4-byte
  /// aligned when kAligned). Loop order: per output pixel, channels in
  /// groups of four held in registers while the window's columns of the
  /// row are added (or compared) into them, then stored: one load and one
  /// store of the state per group and row, not per input byte. Integer
  /// sums and maxima do not depend on the order, so the state is the
  /// reference pool's whatever the order.
  template <bool kAligned, bool kMax>
  void AccumulateInto(std::uint8_t* at, std::int32_t i, std::int32_t y) {
    const FusedOp& o = seg_.ops[i];
    const std::int32_t c_n = o.out_shape.c, w_n = o.out_shape.w;
    const std::int32_t in_c = o.in_shape.c;
    if (y == s_.WindowFirst(i, 0)) {
      for (std::int32_t k = 0; k < w_n * c_n; ++k) {
        Store<kAligned>(at + 4 * k, kMax ? -128 : 0);
      }
    }
    const auto into = [](std::int32_t a, std::int32_t v) {
      return kMax ? (v > a ? v : a) : a + v;
    };
    const std::int8_t* row = InputRows(i, 0, y);
    for (std::int32_t ox = 0; ox < w_n; ++ox) {
      const std::int32_t x0 = ox * o.pool.stride_w - o.pool.pad_w;
      const std::int32_t kb = x0 < 0 ? -x0 : 0;
      const std::int32_t ke = o.pool.filter_w < o.in_shape.w - x0
                                  ? o.pool.filter_w
                                  : o.in_shape.w - x0;
      if (ke <= kb) continue;
      std::uint8_t* const acc = at + 4 * ox * c_n;
      const std::int8_t* const first = row + (x0 + kb) * in_c;
      const std::int8_t* const end = first + (ke - kb) * in_c;
      std::int32_t c = 0;
      for (; c + 4 <= c_n; c += 4) {
        std::int32_t a0 = Load<kAligned>(acc + 4 * c);
        std::int32_t a1 = Load<kAligned>(acc + 4 * c + 4);
        std::int32_t a2 = Load<kAligned>(acc + 4 * c + 8);
        std::int32_t a3 = Load<kAligned>(acc + 4 * c + 12);
        for (const std::int8_t* px = first + c; px < end; px += in_c) {
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
        for (const std::int8_t* px = first + c; px < end; px += in_c) {
          a = into(a, *px);
        }
        Store<kAligned>(acc + 4 * c, a);
      }
    }
  }

  /// Where operator i writes row j, or nullptr (and ok_ false) when its
  /// ring is too small.
  [[gnu::always_inline]] std::int8_t* OutputRow(std::int32_t i,
                                                std::int32_t j) {
    const FusedOp& o = seg_.ops[i];
    const std::size_t row = RowBytes(o.out_shape, Elem(o));
    if (i == seg_.n - 1) {
      return reinterpret_cast<std::int8_t*>(arena_ + seg_.output_offset +
                                            static_cast<std::size_t>(j) * row);
    }
    const std::size_t slot = static_cast<std::size_t>(j - s_.HeldLo(i));
    if (o.state_bytes + (slot + 1) * row > o.ring_bytes) {
      ok_ = false;
      return nullptr;
    }
    return reinterpret_cast<std::int8_t*>(arena_ + o.ring_offset +
                                          o.state_bytes + slot * row);
  }

  /// Row y of operator i's input q (in its ring, or in a segment input).
  [[gnu::always_inline]] const std::int8_t* InputRows(std::int32_t i,
                                                      std::int32_t q,
                                                      std::int32_t y) const {
    const std::int32_t p = seg_.ops[i].row.input[q];
    const std::size_t row = RowBytes(seg_.ops[i].in_shape, Elem(seg_.ops[i]));
    if (p < 0) {
      return reinterpret_cast<const std::int8_t*>(
          arena_ + seg_.input_offsets[-1 - p] +
          static_cast<std::size_t>(y) * row);
    }
    const FusedOp& src = seg_.ops[p];
    return reinterpret_cast<const std::int8_t*>(
        arena_ + src.ring_offset + src.state_bytes +
        static_cast<std::size_t>(y - s_.HeldLo(p)) * row);
  }

  /// Bytes of an element of `o`: kElem when given (a constant the
  /// compiler folds), else the op's elem_bytes.
  [[gnu::always_inline]] static std::size_t Elem(const FusedOp& o) {
    return kElem != 0 ? kElem : o.elem_bytes;
  }

  const FusedSegment& seg_;
  std::uint8_t* arena_;
  const Schedule& s_;
  bool ok_ = true;
};

}  // namespace fused_detail

/// Runs `seg` in `arena`, each row by Rows::Row (KernelRows: the kernels
/// the FusedOps name). False when a ring is too small for the schedule
/// (the rows after the overflow are not computed); the segment's rows must
/// be WellFormed (the generator checks) and seg.n <= N (the schedule's
/// state on the stack is 8 x N bytes: the generated code gives N =
/// seg.n). kElem: the bytes of an element of every op (elem_bytes; the
/// generated code gives its segment's, 1 or 4), or 0 to read each op's.
template <class Rows = KernelRows, std::int32_t N = kMaxSegmentOps,
          std::size_t kElem = 0>
inline bool RunFused(const FusedSegment& seg, std::uint8_t* arena) {
  if (seg.n > N) return false;
  BasicRowSchedule<FusedOp, N> schedule(seg.ops, seg.n);
  fused_detail::ArenaSink<Rows, BasicRowSchedule<FusedOp, N>, kElem> sink(
      seg, arena, schedule);
  schedule.Run(sink);
  return sink.ok();
}

/// RunFused with the schedule's calls recorded at build time: `steps`
/// are the calls BasicRowSchedule<FusedOp, N>(seg.ops, seg.n) makes (the
/// generator records them, RowStepRecorder), replayed in order with the
/// same rows and rings (BasicRowReplay), without the demand bookkeeping.
/// kElem as above.
template <class Rows = KernelRows, std::int32_t N = kMaxSegmentOps,
          std::size_t kElem = 0, std::size_t S>
inline bool RunFused(const FusedSegment& seg, const RowStep (&steps)[S],
                     std::uint8_t* arena) {
  if (seg.n > N) return false;
  BasicRowReplay<FusedOp, N> replay(seg.ops, seg.n, steps,
                                    static_cast<std::int32_t>(S));
  fused_detail::ArenaSink<Rows, BasicRowReplay<FusedOp, N>, kElem> sink(
      seg, arena, replay);
  replay.Run(sink);
  return sink.ok();
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_FUSED_HPP_
