// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// person_detect firmware: the code `arenaplan compile` generated for
// person_detect.tflite (namespace pd, one plan), its activations in the
// plan's static arena (.arena section in RAM), its weights in flash; the
// two test images are embedded by images.S. For each image it prints
//   person_detect image=<person|no_person> person=<int> no_person=<int>
// then a line of figures, and exits 0 only when both images are
// classified correctly (semihosting exit status).
#include <cstddef>
#include <cstdint>

#include "pd_model.hpp"
#include "port/port.hpp"
#include "tests/person_detect/bmp.hpp"

extern "C" const std::uint8_t pd_person_bmp[];
extern "C" const std::uint8_t pd_person_bmp_end[];
extern "C" const std::uint8_t pd_no_person_bmp[];
extern "C" const std::uint8_t pd_no_person_bmp_end[];

namespace {

namespace port = arenaplan::port;

void WriteInt(int v) {
  if (v < 0) {
    port::Write("-");
    port::WriteUnsigned(static_cast<std::uint32_t>(-v));
  } else {
    port::WriteUnsigned(static_cast<std::uint32_t>(v));
  }
}

/// Runs one image; returns true when it is classified as `is_person` says.
bool Classify(const char* name, const std::uint8_t* bmp,
              const std::uint8_t* end, bool is_person) {
  static_assert(pd::kInputBytes == 96 * 96, "person_detect takes 96x96x1");
  static_assert(pd::kOutputBytes == 2, "person_detect gives two scores");
  auto* arena = reinterpret_cast<std::int8_t*>(pd::Arena::Data());
  std::int8_t* input = arena + pd::kPlan[pd::kInputIndex].offset;
  const std::int8_t* output = arena + pd::kPlan[pd::kOutputIndex].offset;
  // Decode the pixel bytes straight into the input tensor, then convert in
  // place (element by element: each byte is read before it is written).
  auto* pixels = reinterpret_cast<std::uint8_t*>(input);
  const auto status = person_detect::DecodeGrayBmp(
      bmp, static_cast<std::size_t>(end - bmp), 96, 96, pixels);
  if (status != person_detect::BmpStatus::kOk) {
    port::Write("FAIL person_detect: bad image ");
    port::Write(name);
    port::Write("\n");
    return false;
  }
  person_detect::PixelsToInt8(pixels, pd::kInputBytes, input);
  const std::uint32_t start = port::CycleCount();
  pd::Invoke(arena);
  const std::uint32_t ticks = port::CycleDelta(start, port::CycleCount());
  const int person = output[person_detect::kPersonIndex];
  const int no_person = output[person_detect::kNoPersonIndex];
  port::Write("person_detect image=");
  port::Write(name);
  port::Write(" person=");
  WriteInt(person);
  port::Write(" no_person=");
  WriteInt(no_person);
  port::Write("\n");
  port::Write("figures image=");
  port::Write(name);
  port::Write(" arena=");
  port::WriteUnsigned(static_cast<std::uint32_t>(pd::kArenaSize));
  port::Write(port::HasCycleCounter() ? " dwt_cycles=" : " systick_ticks=");
  port::WriteUnsigned(ticks);
  port::Write("\n");
  return is_person ? person > no_person : no_person > person;
}

}  // namespace

int main() {
  const bool ok_person =
      Classify("person", pd_person_bmp, pd_person_bmp_end, true);
  const bool ok_no_person =
      Classify("no_person", pd_no_person_bmp, pd_no_person_bmp_end, false);
  if (ok_person && ok_no_person) {
    port::Write("PASS person_detect\n");
    return 0;
  }
  port::Write("FAIL person_detect: misclassified\n");
  return 1;
}
