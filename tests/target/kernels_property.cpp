// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Property test of every lowered operator's kernel (kernels/include/
// arenaplan/kernels/, docs/operators.md), one source for the host and the
// boards. For each kernel it runs a fixed set of random cases (its own
// xorshift generator, fixed seeds): random shapes, quantization parameters
// in the ranges the lowerings produce (comments at each case), random data.
// The fast kernels (Conv2DFast, DepthwiseConv2DFast, their dilated forms
// Conv2DDilatedFast and DepthwiseConv2DDilatedFast, FullyConnectedFast:
// DefaultMac, ScalarMac and SimdMac<PortableIsa>; AddFast) are compared with
// their reference kernels on the same case; the first mismatch prints
// "FAIL kernels_property: <kernel> case <i>: ..." and exits 1. Every output
// (and updated state) is folded into a per-kernel FNV-1a digest, printed as
// one line "digest <kernel> cases <n> 0x<hash>" per kernel.
//
// Why equal digests mean correct kernels on a board: on the host the same
// kernels are checked against hand-derived and TFLM-derived expectations by
// the unit tests in tests/host/kernels/ (and end to end against TFLM's
// reference outputs by `make test-reference` / `make test-corpus`). This
// test, built for the host (ctest kernels_property_test, also under ASan
// and UBSan in `make test-asan`) and for mps2-an386 (Cortex-M4, DSP
// extension: SimdMac<AcleIsa>) and mps2-an385 (Cortex-M3, no DSP:
// ScalarMac), passes in `make test-kernels-board` only when each board
// prints the host's digest lines line for line: the board's kernels then
// gave the host's bytes on every case, so the host's checks carry over to
// the board's compiler, instruction set and DSP paths.
//
// Freestanding (no heap, no libc) on the boards: buffers come from a static
// pool. On the host (ARENAPLAN_KERNELS_PROPERTY_HOST) every buffer is its
// own exact-size malloc so that AddressSanitizer sees an overrun.
//
// The cases are in tests/target/kernels_property/, one .cpp per kernel family
// (harness.hpp: the generator, buffers and digests they share).
#include "port/port.hpp"
#include "tests/target/kernels_property/cases.hpp"

namespace kp = arenaplan::kernels_property;

int main() {
  // Case counts: a few seconds per board under QEMU (docs/operators.md).
  kp::TestConv(150);
  kp::TestPointwise(150);
  kp::TestDepthwise(150);
  kp::TestDilated(120, /*depthwise=*/false);
  kp::TestDilated(120, /*depthwise=*/true);
  kp::TestFullyConnected(150);
  kp::TestTransposeConv(100);
  kp::TestNegativeScales(100);
  kp::TestPool(150);
  kp::TestBatchMatMul(150);
  kp::TestAdd(200);
  kp::TestSub(200);
  kp::TestMul(200);
  kp::TestDiv(200);
  kp::TestMaximumMinimum(200);
  kp::TestSoftmax(100);
  kp::TestSigmoidLike(200);
  kp::TestRelu(200);
  kp::TestLeakyRelu(200);
  kp::TestHardSwish(200);
  kp::TestQuantize(200);
  kp::TestFloatQuantize(200);
  kp::TestCast(200);
  kp::TestMean(150);
  kp::TestSvdf(150);
  kp::TestLstm(100);
  kp::TestPad(150);
  kp::TestStridedSlice(150);
  kp::TestConcatSplit(150);
  kp::TestGather(150);
  kp::TestResize(150);
  kp::TestTranspose(150);
  kp::TestTile(150);
  kp::TestCopies(100);
  kp::TestDispatched(2000);
  kp::TestInt16(300);
  arenaplan::port::Write("PASS kernels_property\n");
  return 0;
}
