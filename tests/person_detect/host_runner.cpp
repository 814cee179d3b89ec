// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Host run of person_detect with the code `arenaplan compile` generated, once
// per planning strategy (all_models.cpp, written by gen_models.sh). The
// reference is the plan of the "naive" offsets strategy, in which every
// tensor has its own bytes (checked here: no two placements share a byte,
// whatever their lifetimes). Every other plan must give the same output
// bytes on both images, and the scores must classify both images.
//
//   person_detect_host IMAGES_DIR
// prints, per image, the firmware's line
//   person_detect image=<person|no_person> person=<int> no_person=<int>
// and exits 0 only when every plan equals the reference and both images are
// classified correctly.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>
#include <string>
#include <vector>

#include "tests/person_detect/bmp.hpp"
#include "tests/person_detect/models.hpp"

namespace {

using person_detect::kModelCount;
using person_detect::kModels;
using person_detect::ModelEntry;

constexpr std::int32_t kSide = 96;
constexpr std::size_t kPixels = kSide * kSide;

bool LoadImage(const std::string& path, std::vector<std::int8_t>* input) {
  std::ifstream f(path, std::ios::binary);
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                                        std::istreambuf_iterator<char>());
  std::vector<std::uint8_t> gray(kPixels);
  const auto status = person_detect::DecodeGrayBmp(bytes.data(), bytes.size(),
                                                   kSide, kSide, gray.data());
  if (status != person_detect::BmpStatus::kOk) {
    std::fprintf(stderr, "%s: not a 96x96 8-bit gray BMP (status %d)\n",
                 path.c_str(), static_cast<int>(status));
    return false;
  }
  input->resize(kPixels);
  person_detect::PixelsToInt8(gray.data(), kPixels, input->data());
  return true;
}

/// True when no two placements of `m` share a byte (lifetimes ignored).
bool NoSharing(const ModelEntry& m) {
  for (std::size_t i = 0; i < m.tensor_count; ++i) {
    for (std::size_t j = i + 1; j < m.tensor_count; ++j) {
      const auto& a = m.plan[i];
      const auto& b = m.plan[j];
      if (a.size && b.size && a.offset < b.offset + b.size &&
          b.offset < a.offset + a.size) {
        return false;
      }
    }
  }
  return true;
}

/// Runs `m` on `input` in a fresh arena filled with `fill` (so a kernel that
/// read bytes it never wrote would change the output); returns the output.
std::vector<std::int8_t> Run(const ModelEntry& m,
                             const std::vector<std::int8_t>& input,
                             std::uint8_t fill) {
  auto* arena = static_cast<std::int8_t*>(
      ::operator new (m.arena_size, std::align_val_t{m.alignment}));
  std::memset(arena, fill, m.arena_size);
  std::memcpy(arena + m.input_offset, input.data(), m.input_bytes);
  m.invoke(arena);
  std::vector<std::int8_t> out(arena + m.output_offset,
                               arena + m.output_offset + m.output_bytes);
  ::operator delete (arena, std::align_val_t{m.alignment});
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s IMAGES_DIR\n", argv[0]);
    return 2;
  }
  const ModelEntry* reference = nullptr;
  for (std::size_t i = 0; i < kModelCount; ++i) {
    if (std::strcmp(kModels[i].strategy, "offsets/naive") == 0)
      reference = &kModels[i];
  }
  if (reference == nullptr || !NoSharing(*reference)) {
    std::fprintf(stderr, "no reference plan without sharing (offsets/naive)\n");
    return 1;
  }
  bool ok = true;
  for (const char* image : {"person", "no_person"}) {
    std::vector<std::int8_t> input;
    if (!LoadImage(std::string(argv[1]) + "/" + image + ".bmp", &input))
      return 2;
    const auto expect = Run(*reference, input, 0x00);
    if (expect.size() != 2) return 1;
    const int person = expect[person_detect::kPersonIndex];
    const int no_person = expect[person_detect::kNoPersonIndex];
    std::printf("person_detect image=%s person=%d no_person=%d\n", image,
                person, no_person);
    const bool is_person = std::strcmp(image, "person") == 0;
    if (is_person ? !(person > no_person) : !(no_person > person)) {
      std::fprintf(stderr, "%s: misclassified\n", image);
      ok = false;
    }
    for (std::size_t i = 0; i < kModelCount; ++i) {
      const auto got = Run(kModels[i], input, 0xA5);
      const bool same = got == expect;
      std::fprintf(stderr, "  %-40s arena %7zu bytes: %s\n",
                   kModels[i].strategy, kModels[i].arena_size,
                   same ? "equal" : "DIFFERENT");
      ok = ok && same;
    }
  }
  return ok ? 0 : 1;
}
