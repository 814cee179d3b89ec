// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Graph folding at generation time: operators whose work another operator
// or the memory layout can do are removed from subgraph 0, and with them a
// tensor each (one usage record fewer). `arenaplan plan MODEL`, `records`,
// `inspect` and `compile` fold by default (--no-fold: not), so the plan and
// the compiled code agree; `arenaplan tflm` never folds (TFLM runs every
// operator). The rules (docs/compile.md, "Folding"):
//
//  1. RESHAPE, SQUEEZE, EXPAND_DIMS: the output becomes an alias of the
//     input (the same bytes, offset 0). Not when the output is a graph
//     output and the input's bytes already hold a graph input or output.
//  2. PAD, PADV2 into the one operator that reads its output, when that is
//     input 0 of CONV_2D, DEPTHWISE_CONV_2D, MAX_POOL_2D or AVERAGE_POOL_2D:
//     int8 in and out quantized alike, a constant [4, 2] padding of rows
//     and columns only (batch and depth 0), the output not a graph output,
//     and the consumer's padding-skipping kernel bit-exact on it:
//      - convolutions: the pad value is the input zero point (PAD always;
//        PADV2 when its constant is), so each padded tap adds
//        (zp - zp) * w = 0, as the kernels' skipped taps do;
//      - MAX_POOL_2D: the pad value is -128, or at most the input zero point
//        with a RELU or RELU6 activation (whose lower clamp is the zero
//        point): the maximum over a window with pad values v, clamped, then
//        equals the clamped maximum over its in-bounds elements (-128 when
//        none, as the kernel starts), since v <= every clamp result;
//      - AVERAGE_POOL_2D: TFLM divides by the in-bounds elements only, so a
//        padded element counts in the unfolded divisor and not in the
//        folded one: folded only when no output window reads a padded
//        element (then the PAD has no effect on the result).
//     The consumer reads the PAD's input with Operator::extra_padding set.
//  3. CONCATENATION (no fused activation) along an axis with only 1s
//     before it in the output (the outermost non-unit axis or an earlier
//     unit one), so every input is one contiguous run of the output: each
//     input becomes an alias inside the output at the bytes of the inputs
//     before it, when the inputs and the output have one type and identical
//     quantization (else TFLM requantizes: no fold), each input is a
//     distinct planned tensor whose bytes (with its RESHAPE aliases) are
//     read only by this operator, and none of those is a graph input or
//     output, and when the largest operator breadth (the offsets lower
//     bound, sizes rounded to 16 bytes) does not grow: the output now lives
//     from its first input's producer on, which can cost more than the copy
//     saves (face_detection_short_range). The producers then write straight
//     into the output.
//
// Under --fp32 nothing is folded (sizes are not the tensors' bytes), nor is
// a tensor whose size --assume-dim changed.
#ifndef ARENAPLAN_CODEGEN_TFLITE_FOLD_HPP_
#define ARENAPLAN_CODEGEN_TFLITE_FOLD_HPP_

#include <cstddef>
#include <string>
#include <vector>

#include "codegen/input/input.hpp"
#include "codegen/tflite/model.hpp"

namespace arenaplan::tflite {

/// What FoldGraph removed.
struct FoldReport {
  std::size_t reshapes = 0;  ///< RESHAPE / SQUEEZE / EXPAND_DIMS made aliases.
  std::size_t pads = 0;      ///< PAD / PADV2 folded into their consumer.
  std::size_t concatenations = 0;  ///< CONCATENATION written in place.
  [[nodiscard]] std::size_t Total() const {
    return reshapes + pads + concatenations;
  }
};

/// Folds subgraph 0 of `model` in place by the rules above: sets
/// Operator::folded on each removed operator, Operator::extra_padding and
/// input 0 on a PAD's consumer, Tensor::alias_of / alias_offset on each
/// aliased tensor (always to a tensor that is no alias). Operators that do
/// not meet a rule are left as they are (they are lowered as before). Never
/// throws for a model tflite::ReadModel accepted.
FoldReport FoldGraph(Model& model, const InputOptions& options);

}  // namespace arenaplan::tflite

#endif  // ARENAPLAN_CODEGEN_TFLITE_FOLD_HPP_
