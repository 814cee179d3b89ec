// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Decoding of the example images (uncompressed 8-bit palettized BMP, the
// format of ../shared/images/*.bmp) into the model's int8 input, for the
// host runner and the firmware alike. Freestanding: no heap, no libc.
#ifndef ARENAPLAN_TESTS_PERSON_DETECT_BMP_HPP_
#define ARENAPLAN_TESTS_PERSON_DETECT_BMP_HPP_

#include <cstddef>
#include <cstdint>

namespace person_detect {

namespace detail {
constexpr std::uint32_t U16(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0] | (p[1] << 8));
}
constexpr std::uint32_t U32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) |
         (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) |
         (static_cast<std::uint32_t>(p[3]) << 24);
}
}  // namespace detail

/// Why DecodeGrayBmp failed (kOk on success).
enum class BmpStatus : std::uint8_t {
  kOk,
  kTooShort,        ///< Fewer bytes than the headers or pixel rows need.
  kNotBmp,          ///< No "BM" signature or an unknown info header.
  kWrongSize,       ///< Width or height differs from the expected.
  kNotPalettized8,  ///< Not 8 bits per pixel, or compressed.
  kNotGray,         ///< A palette entry used by a pixel is not gray.
};

/// Decodes a `width` x `height` 8-bit palettized BMP (`bmp`, `size` bytes,
/// borrowed) into `gray` (width * height bytes, top row first, owned by the
/// caller): each pixel becomes its palette entry's level 0..255 (top row
/// first, as PIL's tobytes() gives it).
/// Handles bottom-up (positive height) and top-down rows and the padding of
/// rows to 4 bytes.
constexpr BmpStatus DecodeGrayBmp(const std::uint8_t* bmp, std::size_t size,
                                  std::int32_t width, std::int32_t height,
                                  std::uint8_t* gray) {
  using detail::U16;
  using detail::U32;
  if (size < 54) return BmpStatus::kTooShort;
  if (bmp[0] != 'B' || bmp[1] != 'M') return BmpStatus::kNotBmp;
  const std::uint32_t pixels_at = U32(bmp + 10);
  const std::uint32_t info_size = U32(bmp + 14);
  if (info_size < 40) return BmpStatus::kNotBmp;
  const auto w = static_cast<std::int32_t>(U32(bmp + 18));
  const auto h = static_cast<std::int32_t>(U32(bmp + 22));
  const bool bottom_up = h > 0;
  if (w != width || (bottom_up ? h : -h) != height)
    return BmpStatus::kWrongSize;
  if (U16(bmp + 28) != 8 || U32(bmp + 30) != 0)
    return BmpStatus::kNotPalettized8;
  std::uint32_t colors = U32(bmp + 46);
  if (colors == 0 || colors > 256) colors = 256;
  const std::size_t palette_at = 14 + info_size;
  const std::size_t stride =
      (static_cast<std::size_t>(width) + 3) & ~std::size_t{3};
  if (palette_at + 4 * colors > size ||
      pixels_at + stride * static_cast<std::size_t>(height) > size) {
    return BmpStatus::kTooShort;
  }
  for (std::int32_t y = 0; y < height; ++y) {
    const std::int32_t row = bottom_up ? height - 1 - y : y;
    const std::uint8_t* src =
        bmp + pixels_at + stride * static_cast<std::size_t>(row);
    for (std::int32_t x = 0; x < width; ++x) {
      const std::uint32_t index = src[x];
      if (index >= colors) return BmpStatus::kNotGray;
      const std::uint8_t* bgr = bmp + palette_at + 4 * index;
      if (bgr[0] != bgr[1] || bgr[1] != bgr[2]) return BmpStatus::kNotGray;
      gray[y * width + x] = bgr[0];
    }
  }
  return BmpStatus::kOk;
}

/// Pixel bytes to the model's int8 input, by the convention of the files:
/// ../shared/images/*.bmp are the test images of TFLM's person-detection
/// example, whose pixel bytes ARE the int8 input values (two's complement):
/// TFLM's tools/generate_cc_arrays.py copies the BMP's bytes (PIL tobytes)
/// into an array that the example's test copies unchanged into the int8
/// input tensor. So q = (int8_t)p. (Mapping the byte range linearly onto
/// the input's range instead, q = p - 128, makes person.bmp a near tie,
/// person=-4 no_person=4, in these kernels and in a float computation of
/// the model alike; rendered as gray levels p ^ 0x80, person.bmp is the
/// natural photo. See docs/person_detect.md.)
constexpr void PixelsToInt8(const std::uint8_t* pixels, std::size_t count,
                            std::int8_t* input) {
  for (std::size_t i = 0; i < count; ++i) {
    const std::int32_t p = pixels[i];
    input[i] = static_cast<std::int8_t>(p < 128 ? p : p - 256);
  }
}

/// Output order of person_detect: TFLM's person-detection example labels
/// index 0 "notperson" and index 1 "person".
inline constexpr std::size_t kNoPersonIndex = 0;
inline constexpr std::size_t kPersonIndex = 1;

}  // namespace person_detect

#endif  // ARENAPLAN_TESTS_PERSON_DETECT_BMP_HPP_
