// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Helium int8 dot products of one input vector with four weight rows:
// VMLADAVA (sixteen int8 products added to a 32-bit accumulator, modulo
// 2^32, as the reference's int32 sums), sixteen bytes per instruction; a
// last partial block of n % 16 bytes tail-predicated (its inactive lanes
// read no memory and add nothing). Reads x[0, n) (or the same 16 bytes once
// when fixed) and each row's n bytes in ascending blocks of 16; writes no
// memory.
#ifndef ARENAPLAN_KERNELS_HELIUM_DOT_HPP_
#define ARENAPLAN_KERNELS_HELIUM_DOT_HPP_

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)

#include <arm_mve.h>

#include <cstdint>
#include <type_traits>

#include "arenaplan/kernels/dsp.hpp"
#include "arenaplan/kernels/helium/requantize.hpp"

namespace arenaplan::kernels::helium {

/// Four weight rows, one per output channel of a group (a row may repeat
/// for the missing channels of a last group of fewer than four).
struct Rows4 {
  const std::int8_t *w0, *w1, *w2, *w3;
};

/// (a0, a1, a2, a3) as one vector: two VMOVs of two general registers into
/// two lanes each.
ARENAPLAN_KERNELS_INLINE int32x4_t Lanes(std::int32_t a0, std::int32_t a1,
                                         std::int32_t a2, std::int32_t a3) {
  int32x4_t v;
  __asm__(
      "vmov %q[v][2], %q[v][0], %[a0], %[a2]\n\t"
      "vmov %q[v][3], %q[v][1], %[a1], %[a3]"
      : [v] "=&w"(v)
      : [a0] "r"(a0), [a1] "r"(a1), [a2] "r"(a2), [a3] "r"(a3));
  return v;
}

/// The four sums start[k] (0 when start is nullptr) + sum_{i < n} x_i *
/// row_k[off + i], k = 0 .. 3, as one vector (lane k), x_i = x[i], or x[i % 16]
/// when `fixed` (then x holds 16 bytes, a vector of the zero point); n >= 0;
/// sums modulo 2^32. A tail-predicated low-overhead loop (DLSTP.8 / LETP: the
/// last iteration's lanes i >= n inactive, loading nothing and adding nothing),
/// in assembly so that its nine pointers and accumulators stay in registers
/// (GCC 12 at -Os spilled them: 21 instructions per 16 bytes instead of 10).
ARENAPLAN_KERNELS_INLINE int32x4_t Dot4(const std::int8_t* x, bool fixed,
                                        Rows4 r, std::int32_t off,
                                        std::int32_t n,
                                        const std::int32_t* start = nullptr) {
  const std::int8_t *w0 = r.w0 + off, *w1 = r.w1 + off, *w2 = r.w2 + off,
                    *w3 = r.w3 + off;
  std::int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  if (start != nullptr)
    a0 = start[0], a1 = start[1], a2 = start[2], a3 = start[3];
  if (n > 0) {
    if (!fixed) {
      __asm__ volatile(
          "dlstp.8 lr, %[n]\n"
          "1:\n\t"
          "vldrb.8 q0, [%[x]], #16\n\t"
          "vldrb.8 q1, [%[w0]], #16\n\t"
          "vmladava.s8 %[a0], q0, q1\n\t"
          "vldrb.8 q2, [%[w1]], #16\n\t"
          "vmladava.s8 %[a1], q0, q2\n\t"
          "vldrb.8 q1, [%[w2]], #16\n\t"
          "vmladava.s8 %[a2], q0, q1\n\t"
          "vldrb.8 q2, [%[w3]], #16\n\t"
          "vmladava.s8 %[a3], q0, q2\n\t"
          "letp lr, 1b\n"
          : [x] "+r"(x), [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2),
            [w3] "+r"(w3), [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2),
            [a3] "+Te"(a3)
          : [n] "r"(n)
          : "q0", "q1", "q2", "lr", "memory");
    } else {
      __asm__ volatile(
          "vldrb.8 q0, [%[x]]\n\t"
          "dlstp.8 lr, %[n]\n"
          "1:\n\t"
          "vldrb.8 q1, [%[w0]], #16\n\t"
          "vmladava.s8 %[a0], q0, q1\n\t"
          "vldrb.8 q2, [%[w1]], #16\n\t"
          "vmladava.s8 %[a1], q0, q2\n\t"
          "vldrb.8 q1, [%[w2]], #16\n\t"
          "vmladava.s8 %[a2], q0, q1\n\t"
          "vldrb.8 q2, [%[w3]], #16\n\t"
          "vmladava.s8 %[a3], q0, q2\n\t"
          "letp lr, 1b\n"
          : [w0] "+r"(w0), [w1] "+r"(w1), [w2] "+r"(w2), [w3] "+r"(w3),
            [a0] "+Te"(a0), [a1] "+Te"(a1), [a2] "+Te"(a2), [a3] "+Te"(a3)
          : [x] "r"(x), [n] "r"(n)
          : "q0", "q1", "q2", "lr", "memory");
    }
  }
  return Lanes(a0, a1, a2, a3);
}

/// Rows of output channels [oc, oc + min(n, 4)) of a weight matrix with
/// `per` bytes per channel; the missing channels of a last group repeat
/// channel oc's row (read, their sums never stored).
ARENAPLAN_KERNELS_INLINE Rows4 RowsOf(const std::int8_t* weights,
                                      std::int32_t per, std::int32_t oc,
                                      std::int32_t n) {
  const std::int8_t* w0 = weights + oc * per;
  return Rows4{w0, n > 1 ? w0 + per : w0, n > 2 ? w0 + 2 * per : w0,
               n > 3 ? w0 + 3 * per : w0};
}

/// out[k] = stage(sum[k] + bias[oc + k]) for k < min(n, 4), n >= 1, the
/// channels oc + k (Stage4::Store). Writes only out[0, min(n, 4)).
ARENAPLAN_KERNELS_INLINE void Finish4(int32x4_t sum, const std::int32_t* bias,
                                      std::int32_t oc, std::int32_t n,
                                      const Stage4& stage, std::int8_t* out) {
  const std::int32_t lanes = n < 4 ? n : 4;
  const mve_pred16_t p = vctp32q(static_cast<std::uint32_t>(lanes));
  stage.Store(vaddq_s32(sum, vldrwq_z_s32(bias + oc, p)), oc, lanes, out);
}

/// out[oc] = stage(bias[oc] + sum_{i < n} x[i] * filter[oc * n + i]) for
/// oc in [0, groups_end), groups_end a multiple of 4: the output channels in
/// groups of four, ascending, each group reading x[0, n) (Dot4), then
/// writing its four bytes. Outlined, the stage's constants in registers
/// across the groups.
ARENAPLAN_KERNELS_OUTLINE void VectorGroups(
    const std::int8_t* x, const std::int8_t* filter, std::int32_t n,
    std::int32_t groups_end, const std::int32_t* bias, const Stage4& stage_in,
    std::int8_t* out) {
  const std::int32_t* m = stage_in.multiplier;
  const std::int8_t* s = stage_in.shift;
  const std::int32_t offset = stage_in.offset;
  const int32x4_t lo = vdupq_n_s32(stage_in.lo), hi = vdupq_n_s32(stage_in.hi);
  const Stage4 stage{nullptr, nullptr, offset, 0, 0};  // Bytes only
  for (std::int8_t* const end = out + groups_end; out != end;
       out += 4, bias += 4, m += 4, s += 4, filter += 4 * n) {
    const int32x4_t sum = Dot4(
        x, false, Rows4{filter, filter + n, filter + 2 * n, filter + 3 * n}, 0,
        n, bias);  // the sums start at the biases
    vstrbq_s32(out, stage.Bytes(sum, vldrwq_s32(m), vldrbq_s32(s), lo, hi));
  }
}

/// Whether HeldGroups takes vectors of n bytes: 1 to 48, or 64 (the
/// windows of 49 to 63 bytes no model here has are left to VectorGroups).
constexpr bool HeldTakes(std::int32_t n) {
  return n > 0 && (n <= 48 || n == 64);
}

/// VectorGroups for n bytes, 16(K - 1) < n <= 16K (K in [1, 3]; K = 4:
/// n = 64 only, HeldTakes), when
/// every shift of the channels [0, groups_end) is <= 0 (ScatterBytes'
/// right-shift form, whose instructions it uses), groups_end a positive
/// multiple of 4: x is read once into K vector registers (the last one's
/// lanes from n on zero, not read) before any output byte is written; then
/// per group of four output channels, ascending, the four filter rows
/// (contiguous, 4n bytes) in ascending blocks of 16 bytes, one VMLADAVA
/// each (no loop per row: 8K + 8 instructions per group for K <= 3, 8K
/// for K = 4, instead of Dot4's 10 per 16 bytes with its setup; for K <= 3
/// a row's last block of r = n - 16(K - 1) bytes, 1 to 16, is a predicated
/// load, VPST + VLDRBT, reading no byte past the row, and the pointer
/// moves on by r), the sums from the biases,
/// and the four bytes written. One low-overhead loop over the groups in
/// assembly, every pointer post-incremented (about 52 instructions per
/// group for kws_ref_model's 40-byte windows; VectorGroups took about 105).
/// The last block's predicate is set in VPR once (VCTP before the loop; an
/// output operand "=Up" tells the compiler VPR changes); one instance per
/// K, whether or not n is a multiple of 16 (r = 16: all lanes; flash:
/// 8 instructions more per group for n = 16, 32 or 48).
/// Writes only out[0, groups_end).
template <int K>
ARENAPLAN_KERNELS_OUTLINE void HeldGroups(
    const std::int8_t* x, const std::int8_t* filter, std::int32_t n,
    std::int32_t groups_end, const std::int32_t* bias, const Stage4& stage,
    std::int8_t* out) {
  static_assert(K >= 1 && K <= 4);
  const std::int32_t r = n - 16 * (K - 1);  // the last block's bytes
  const int8x16_t x0 = K > 1 ? vldrbq_s8(x) : vdupq_n_s8(0);
  const int8x16_t x1 = K > 2 ? vldrbq_s8(x + 16) : x0;
  const int8x16_t x2 = K > 3 ? vldrbq_s8(x + 32) : x0;
  const int8x16_t last =
      vldrbq_z_s8(x + 16 * (K - 1), vctp8q(static_cast<std::uint32_t>(r)));
  const int32x4_t offset = vdupq_n_s32(stage.offset);
  // The clamp range as two sixteen-bit halves of one register (VMOVLB /
  // VMOVLT widen them back): a general register fewer for the loop.
  const std::int32_t lohi = static_cast<std::int32_t>(
      (static_cast<std::uint32_t>(stage.hi) << 16) |
      (static_cast<std::uint32_t>(stage.lo) & 0xffffu));
  const std::int32_t* m = stage.multiplier;
  const std::int8_t* s = stage.shift;
  std::int32_t a0 = groups_end / 4, a1, a2, a3;  // a0: first the count
  int32x4_t vm, vs, va;  // a row block, then the stage's vectors
  mve_pred16_t vpr;      // VPR as the last block's VCTP leaves it
  // One instruction per line:
  // clang-format off
  __asm__ volatile(
      ".if %c[k] < 4\n\t"
      "vctp.8 %[r]\n\t"
      ".endif\n\t"
      "dls lr, %[a0]\n"
      "1:\n\t"
      "ldrd %[a0], %[a1], [%[b]], #8\n\t"
      "ldrd %[a2], %[a3], [%[b]], #8\n\t"
      ".irp acc, %[a0], %[a1], %[a2], %[a3]\n\t"
      ".if %c[k] > 1\n\t"
      "vldrb.8 %q[m], [%[w]], #16\n\t"
      "vmladava.s8 \\acc, %q[m], %q[x0]\n\t"
      ".endif\n\t"
      ".if %c[k] > 2\n\t"
      "vldrb.8 %q[m], [%[w]], #16\n\t"
      "vmladava.s8 \\acc, %q[m], %q[x1]\n\t"
      ".endif\n\t"
      ".if %c[k] > 3\n\t"
      "vldrb.8 %q[m], [%[w]], #16\n\t"
      "vmladava.s8 \\acc, %q[m], %q[x2]\n\t"
      ".endif\n\t"
      ".if %c[k] < 4\n\t"
      "vpst\n\t"
      "vldrbt.8 %q[m], [%[w]]\n\t"
      "add %[w], %[w], %[r]\n\t"
      ".else\n\t"
      "vldrb.8 %q[m], [%[w]], #16\n\t"
      ".endif\n\t"
      "vmladava.s8 \\acc, %q[m], %q[last]\n\t"
      ".endr\n\t"
      "vmov %q[a][2], %q[a][0], %[a0], %[a2]\n\t"
      "vmov %q[a][3], %q[a][1], %[a1], %[a3]\n\t"
      "vldrw.u32 %q[m], [%[mp]], #16\n\t"
      "vldrb.s32 %q[s], [%[sp]], #4\n\t"
      ARENAPLAN_KERNELS_HELIUM_STAGE_RIGHT("%q[offset]")
      "vdup.32 %q[m], %[lohi]\n\t"
      "vmovlb.s16 %q[m], %q[m]\n\t"
      "vmax.s32 %q[a], %q[a], %q[m]\n\t"
      "vdup.32 %q[m], %[lohi]\n\t"
      "vmovlt.s16 %q[m], %q[m]\n\t"
      "vmin.s32 %q[a], %q[a], %q[m]\n\t"
      "vstrb.32 %q[a], [%[o]], #4\n\t"
      "le lr, 1b\n"
      : [a0] "+&Te"(a0), [a1] "=&Te"(a1), [a2] "=&Te"(a2), [a3] "=&Te"(a3),
        [w] "+&r"(filter), [b] "+&r"(bias), [mp] "+&r"(m), [sp] "+&l"(s),
        [o] "+&r"(out), [m] "=&w"(vm), [s] "=&w"(vs), [a] "=&w"(va),
        [vpr] "=Up"(vpr)
      : [x0] "w"(x0), [x1] "w"(x1), [x2] "w"(x2), [last] "w"(last),
        [offset] "w"(offset), [lohi] "r"(lohi), [r] "r"(r), [k] "i"(K)
      : "lr", "memory");
  // clang-format on
}

/// VectorGroups over all `channels` output channels, the last group of
/// fewer than four tail-predicated (Finish4). `held`: HeldTakes(n) and no
/// channel shifts left (the caller's check, once per layer); then
/// HeldGroups does the groups.
ARENAPLAN_KERNELS_INLINE void VectorChannels(
    const std::int8_t* x, const std::int8_t* filter, std::int32_t n,
    std::int32_t channels, const std::int32_t* bias, const Stage4& stage,
    std::int8_t* out, bool held = false) {
  const std::int32_t groups_end = channels & ~3;
  if (held && groups_end > 0) {
    if (n <= 16) {
      HeldGroups<1>(x, filter, n, groups_end, bias, stage, out);
    } else if (n <= 32) {
      HeldGroups<2>(x, filter, n, groups_end, bias, stage, out);
    } else if (n <= 48) {
      HeldGroups<3>(x, filter, n, groups_end, bias, stage, out);
    } else {
      HeldGroups<4>(x, filter, n, groups_end, bias, stage, out);
    }
  } else {
    VectorGroups(x, filter, n, groups_end, bias, stage, out);
  }
  if (groups_end < channels) {
    const std::int32_t left = channels - groups_end;
    Finish4(Dot4(x, false, RowsOf(filter, n, groups_end, left), 0, n), bias,
            groups_end, left, stage, out + groups_end);
  }
}

}  // namespace arenaplan::kernels::helium

#endif  // __ARM_FEATURE_MVE & 1

#endif  // ARENAPLAN_KERNELS_HELIUM_DOT_HPP_
