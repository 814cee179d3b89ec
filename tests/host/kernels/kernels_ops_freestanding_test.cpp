// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// The kernels added for the corpus operators (QUANTIZE from float32,
// DEQUANTIZE to float32, PAD, ..., the 16x8 CONV_2D and FULLY_CONNECTED as
// dispatched: the DSP path's assembly where the core has the extension)
// build warning-free as firmware with
// every element type the generator emits: arm-none-eabi-g++ for every
// Cortex-M core, -ffreestanding -fno-exceptions -fno-rtti -nostdlib -Wall
// -Wextra -Werror -pedantic, and need no 64-bit division helper (float
// arithmetic may call libgcc's soft-float routines on cores without an FPU;
// the firmware links libgcc).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/host/support/firmware_build.hpp"
#include "tests/host/support/test_util.hpp"

namespace {

namespace fs = std::filesystem;

using arenaplan::testing_util::ExpectBuildsAsFirmware;
using arenaplan::testing_util::ScopedTempDir;
using arenaplan::testing_util::WriteFile;

/// Instantiates every new kernel template with the types the lowerings use.
constexpr char kFirmware[] = R"(#include <cstdint>

#include "arenaplan/kernels/kernels.hpp"

namespace k = ::arenaplan::kernels;
extern "C" void FloatEdges(const k::FloatQuantizeParams& p, const void* in,
                           void* out) {
  k::QuantizeFromFloat(p, static_cast<const float*>(in),
                       static_cast<std::int8_t*>(out));
  k::QuantizeFromFloat(p, static_cast<const float*>(in),
                       static_cast<std::int16_t*>(out));
  k::DequantizeToFloat(p, static_cast<const std::int8_t*>(in),
                       static_cast<float*>(out));
  k::DequantizeToFloat(p, static_cast<const std::uint8_t*>(in),
                       static_cast<float*>(out));
  k::DequantizeToFloat(p, static_cast<const std::int16_t*>(in),
                       static_cast<float*>(out));
  k::Requantize(k::RequantizeParams{}, static_cast<const std::uint8_t*>(in),
                static_cast<std::int8_t*>(out));
}
extern "C" void Int16Layers(const void* in, const std::int8_t* w,
                            const std::int32_t* b32, const std::int64_t* b64,
                            k::ChannelQuant q, void* out) {
  const auto* i16 = static_cast<const std::int16_t*>(in);
  auto* o16 = static_cast<std::int16_t*>(out);
  const k::ConvParams cp{0, 0, -32768, 32767, 1, 2, 1, 0, 1};
  const k::Shape4 is{1, 4, 5, 6}, fs{3, 3, 2, 6}, os{1, 4, 2, 3};
  k::int16::Conv2D(cp, is, i16, fs, w, b64, q, os, o16);
  k::int16::Conv2D(cp, is, i16, fs, w, b32, q, os, o16);
  k::int16::Conv2D(k::DilatedConvParams{cp, 2, 2}, is, i16, fs, w, b64, q, os,
                   o16);
  const k::FullyConnectedParams fp{0, 0, -32768, 32767, 2, 9, 3};
  k::int16::FullyConnected(fp, i16, w, b64, q, o16);
  k::int16::FullyConnected(fp, i16, w, b32, q, o16);
}
extern "C" void ShapeOps(const void* in, void* out) {
  const auto* i8 = static_cast<const std::int8_t*>(in);
  auto* o8 = static_cast<std::int8_t*>(out);
  const auto* i16 = static_cast<const std::int16_t*>(in);
  auto* o16 = static_cast<std::int16_t*>(out);
  const auto* i32 = static_cast<const std::int32_t*>(in);
  auto* o32 = static_cast<std::int32_t*>(out);
  const k::PadParams pad{{1, 2, 2, 3}, {0, 1, 1, 0}, {0, 1, 1, 0}};
  k::Pad<std::int8_t>(pad, -3, i8, o8);
  k::Pad<std::int16_t>(pad, 0, i16, o16);
  k::Pad<std::int32_t>(pad, 0, i32, o32);
  k::Mean(k::MeanParams{{1, 3, 3, 8}, 6, 9, 1 << 30, -3, -1}, i8, o8);
  const k::StridedSliceParams ss{{1, 2, 3, 4}, {0, 0, 0, 0}, {1, 2, 3, 4},
                                 {1, 1, 1, 2}};
  k::StridedSlice<std::int8_t>(ss, i8, o8);
  k::StridedSlice<std::int16_t>(ss, i16, o16);
  k::StridedSlice<std::int32_t>(ss, i32, o32);
  const std::int8_t* const p8[] = {i8, i8 + 4};
  const std::int16_t* const p16[] = {i16, i16 + 4};
  const std::int32_t* const p32[] = {i32, i32 + 4};
  const std::int32_t inner[] = {2, 2};
  k::Concatenation<std::int8_t>(k::ConcatenationParams{2, 2}, p8, inner, o8);
  k::Concatenation<std::int16_t>(k::ConcatenationParams{2, 2}, p16, inner, o16);
  k::Concatenation<std::int32_t>(k::ConcatenationParams{2, 2}, p32, inner, o32);
  k::CopyElements<std::int32_t>(i32, o32, 4);
  k::LeakyRelu(k::LeakyReluParams{1, 2, 1 << 30, 1, 1 << 30, -3, 9}, i8, o8);
  const std::int32_t rows[] = {0, 0, 1}, cols[] = {0, 1};
  const k::ResizeNearestParams rz{{1, 2, 2, 3}, 3, 2, rows, cols};
  k::ResizeNearestNeighbor<std::int8_t>(rz, i8, o8);
  k::ResizeNearestNeighbor<std::int16_t>(rz, i16, o16);
  k::ResizeNearestNeighbor<std::int32_t>(rz, i32, o32);
  const k::TransposeParams tp{{1, 3, 2, 2}, {12, 1, 6, 3}};
  k::Transpose<std::int8_t>(tp, i8, o8);
  k::Transpose<std::int16_t>(tp, i16, o16);
  k::Transpose<std::int32_t>(tp, i32, o32);
  k::Relu(k::ReluParams{-3, 4, 1 << 30, 1, 4, 127, 9}, i8, o8);
  k::Mul(k::MulParams{1, 2, 3, 1 << 30, -2, -128, 127, {1, 2, 2, 3},
                      {12, 6, 3, 1}, {0, 0, 0, 1}},
         i8, i8 + 12, o8);
  k::Logistic(k::LogisticParams{-3, 120, 1 << 30, 24, 9}, i8, o8);
  k::Tanh(k::TanhParams{-3, 120, 1 << 30, 24, 9}, i8, o8);
  k::Relu6(k::Relu6Params{-3, 100, 9}, i8, o8);
  k::MaximumMinimum(k::MaximumMinimumParams{true, {1, 2, 2, 3}, {12, 6, 3, 1},
                                            {0, 0, 0, 1}},
                    i8, i8 + 12, o8);
  k::Sub(k::SubParams{1, 2, 3, 20, 1 << 30, 0, 1 << 30, -1, 1 << 30, -18,
                      -128, 127, {1, 2, 2, 3}, {12, 6, 3, 1}, {0, 0, 0, 1}},
         i8, i8 + 12, o8);
  std::int8_t* const split_outs[] = {o8, o8 + 6};
  const std::int32_t split_inner[] = {3, 3};
  k::Split<std::int8_t>(k::SplitParams{2, 2}, i8, split_inner, split_outs);
  k::HardSwish(k::HardSwishParams{-3, 5, 1 << 14, -6, 1 << 14, 2, 9}, i8, o8);
  k::Div(k::DivParams{1, 2, 3, 1 << 30, 3, -128, 127, {1, 2, 2, 3},
                      {12, 6, 3, 1}, {0, 0, 0, 1}},
         i8, i8 + 12, o8);
  const std::int32_t gather_pos[] = {1, 0};
  const k::GatherParams gp{1, 2, 3, 2, 2};
  k::Gather<std::int8_t>(gp, i8, gather_pos, o8);
  k::Gather<std::int16_t>(gp, i16, gather_pos, o16);
  k::Gather<std::int32_t>(gp, i32, gather_pos, o32);
  k::Gather<float>(gp, static_cast<const float*>(in), gather_pos,
                   static_cast<float*>(out));
  const std::int32_t rb_rows[] = {0, 1, 512, 1, 1, 0};
  const std::int32_t rb_cols[] = {0, 0, -256, 0, 1, 300};
  k::ResizeBilinear(k::ResizeBilinearParams{{1, 2, 2, 3}, 2, 2, rb_rows,
                                            rb_cols},
                    i8, o8);
  k::Cast(i8, o32, 4);
  k::Cast(i32, o8, 4);
  k::Cast(i32, o16, 4);
  k::Cast(static_cast<const float*>(in), o8, 4);
  k::Cast(static_cast<const float*>(in), o32, 4);
  k::Cast(i16, static_cast<float*>(out), 4);
  const k::TileParams tile{{1, 1, 2, 3}, {1, 2, 2, 6}};
  k::Tile<std::int8_t>(tile, i8, o8);
  k::Tile<std::int16_t>(tile, i16, o16);
  k::Tile<std::int32_t>(tile, i32, o32);
  k::Tile<float>(tile, static_cast<const float*>(in), static_cast<float*>(out));
  k::BatchMatMul(k::BatchMatMulParams{1, -2, 3, 1 << 30, -4, {1, 2, 1},
                                      {0, 6, 0}, {0, 0, 0}, 2, 3, 2, 3, 1,
                                      2, 1},
                 i8, i8 + 12, o8);
  const std::int32_t tc_m[] = {1 << 30, 1 << 30};
  const std::int8_t tc_s[] = {-3, 2};
  k::TransposeConv(k::ConvParams{3, -2, -128, 127, 2, 2, 1, 1, 1},
                   {1, 2, 2, 3}, i8, {2, 3, 3, 3}, i8 + 12, nullptr,
                   k::ChannelQuant{tc_m, tc_s}, {1, 4, 4, 2}, o8);
  std::int8_t svdf_state[4] = {};
  const std::int8_t svdf_wt[4] = {1, 2, 3, 4};
  k::Svdf(k::SvdfParams{1, 3, 0, -128, 127, 1, 2, 2, 2, 1, 1 << 30, 1,
                        1 << 30, 1},
          i8, i8 + 4, svdf_wt, nullptr, svdf_state, o8);
  std::int8_t lstm_h[1] = {};
  std::int16_t lstm_c[1] = {};
  const std::int32_t lstm_b[1] = {0};
  k::SequenceLstmParams lp{};
  lp.batches = lp.time_steps = lp.input_size = lp.units = 1;
  for (auto& g : lp.gate) g = k::LstmGate{i8, i8, lstm_b, 1 << 30, 1, 1 << 30, 1};
  k::SequenceLstm(lp, i8, lstm_h, lstm_c, o8);
}
)";

TEST(KernelsOpsFreestanding, NewKernelsBuildForEveryCortexMCore) {
  const ScopedTempDir tmp("arenaplan_ops_fs_");
  ASSERT_FALSE(tmp.path().empty());
  const fs::path dir = tmp.path();
  WriteFile(dir / "firmware.cpp", kFirmware);
  ExpectBuildsAsFirmware(dir, dir / "firmware.cpp", {},
                         {"__aeabi_ldivmod", "__aeabi_uldivmod"});
}

}  // namespace
