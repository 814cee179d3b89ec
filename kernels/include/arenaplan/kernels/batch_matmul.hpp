// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// BATCH_MATMUL of two int8 tensors (rank 2 to 5, batch dimensions
// broadcast). Matches TensorFlow Lite Micro's tensorflow/lite/micro/
// kernels/batch_matmul.cc (BatchMatMulPrepare: multiplier
// double(float(s_x * s_y)) / double(s_out), GetQuantizedConvolutionMultipler
// without bias; no fused activation, so the clamp is int8's range) with
// tensorflow/lite/kernels/internal/reference/batch_matmul.h (int8, int32
// accumulator). For every batch b and output element (i, j):
//
//   acc = sum_k (x[b][i][k] - zp_x) * (y[b][k][j] - zp_y)
//   out[b][i][j] = clamp(zp_out + MBQM(acc, M, s), -128, 127),
//
// where x is the left operand, transposed first when adj_x, and y the right
// one, transposed first when adj_y. TFLM copies the operands into
// transposed scratch buffers; here the transposes are strides instead (the
// generator passes where element (i, k) of x and (k, j) of y lie), so no
// scratch memory is needed. The sum is exact in int32 for depths below
// 2^31 / 255^2 = 33025 (TFLM's accumulator is int32 as well); integer
// addition is associative, so the order of the terms does not matter.
//
// Loop order: batches in row-major order, then i, j, k; output element
// (b, i, j) is written after all its reads. No overlap contract: each
// output row reads whole rows and columns of both inputs.
#ifndef ARENAPLAN_KERNELS_BATCH_MATMUL_HPP_
#define ARENAPLAN_KERNELS_BATCH_MATMUL_HPP_

#include <cstdint>

#include "arenaplan/kernels/quantization.hpp"

namespace arenaplan::kernels {

struct BatchMatMulParams {
  std::int32_t x_zero_point, y_zero_point, output_zero_point;
  std::int32_t multiplier, shift;  ///< double(float(s_x * s_y)) / s_out.
  std::int32_t batch[3];           ///< Output batch dimensions (1 if none).
  std::int32_t x_batch_stride[3];  ///< Elements; 0 on a broadcast dimension.
  std::int32_t y_batch_stride[3];
  std::int32_t rows, depth, cols;  ///< Output rows i, sum index k, columns j.
  std::int32_t x_row_stride, x_depth_stride;  ///< x[i][k] at i*rs + k*ds.
  std::int32_t y_depth_stride, y_col_stride;  ///< y[k][j] at k*ds + j*cs.
};

/// output = x * y per batch (header comment); output is [batch..., rows,
/// cols] row-major. The output must not overlap an input.
inline void BatchMatMul(const BatchMatMulParams& p, const std::int8_t* x,
                        const std::int8_t* y, std::int8_t* output) {
  std::int8_t* out = output;
  for (std::int32_t b0 = 0; b0 < p.batch[0]; ++b0) {
    for (std::int32_t b1 = 0; b1 < p.batch[1]; ++b1) {
      for (std::int32_t b2 = 0; b2 < p.batch[2]; ++b2) {
        const std::int8_t* xb = x + b0 * p.x_batch_stride[0] +
                                b1 * p.x_batch_stride[1] +
                                b2 * p.x_batch_stride[2];
        const std::int8_t* yb = y + b0 * p.y_batch_stride[0] +
                                b1 * p.y_batch_stride[1] +
                                b2 * p.y_batch_stride[2];
        for (std::int32_t i = 0; i < p.rows; ++i) {
          for (std::int32_t j = 0; j < p.cols; ++j) {
            std::int32_t acc = 0;
            for (std::int32_t k = 0; k < p.depth; ++k) {
              acc += (xb[i * p.x_row_stride + k * p.x_depth_stride] -
                      p.x_zero_point) *
                     (yb[k * p.y_depth_stride + j * p.y_col_stride] -
                      p.y_zero_point);
            }
            *out++ = ClampToInt8(
                p.output_zero_point +
                    MultiplyByQuantizedMultiplier(acc, p.multiplier, p.shift),
                -128, 127);
          }
        }
      }
    }
  }
}

}  // namespace arenaplan::kernels

#endif  // ARENAPLAN_KERNELS_BATCH_MATMUL_HPP_
