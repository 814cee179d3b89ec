// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// One inference of the model arenaplan_compile() generated (namespace
// model) in its static arena (model::Arena: the .arena section on the
// board, .bss on the host), on the input bytes embedded below from the
// file EXAMPLE_INPUT_FILE names (the inputs concatenated in input order).
// Prints one line,
//   output <2 lowercase hex digits per output byte, outputs in order>
// through semihosting on the board (port/port.hpp) or to stdout on the
// host, and exits 0; exits 2 when the embedded input is not
// kInputTotalBytes long.
#include <cstddef>
#include <cstdint>

#include "model_model.hpp"

#ifdef EXAMPLE_HOST
#include <cstdio>
namespace {
void Print(const char* text) { std::fputs(text, stdout); }
}  // namespace
#else
#include "port/port.hpp"
namespace {
void Print(const char* text) { arenaplan::port::Write(text); }
}  // namespace
#endif

// The input's bytes, in read-only memory (flash on the board).
asm(".pushsection .rodata.example_input, \"a\"\n"
    ".balign 4\n"
    ".global example_input\n"
    "example_input:\n"
    ".incbin \"" EXAMPLE_INPUT_FILE
    "\"\n"
    ".global example_input_end\n"
    "example_input_end:\n"
    ".popsection\n");
extern "C" const std::uint8_t example_input[];
extern "C" const std::uint8_t example_input_end[];

namespace {

/// Prints `count` bytes from `bytes` as hex, 64 bytes per Print call.
void PrintHex(const std::uint8_t* bytes, std::size_t count) {
  constexpr char kDigits[] = "0123456789abcdef";
  char chunk[129];  // 64 bytes as hex, and the NUL
  std::size_t k = 0;
  for (std::size_t i = 0; i < count; ++i) {
    chunk[k++] = kDigits[bytes[i] >> 4];
    chunk[k++] = kDigits[bytes[i] & 0xF];
    if (k == sizeof chunk - 1 || i + 1 == count) {
      chunk[k] = '\0';
      Print(chunk);
      k = 0;
    }
  }
}

}  // namespace

int main() {
  const auto input_bytes =
      static_cast<std::size_t>(example_input_end - example_input);
  if (input_bytes != model::kInputTotalBytes) {
    Print("example: the embedded input's size is not kInputTotalBytes\n");
    return 2;
  }
  auto* const arena = reinterpret_cast<std::int8_t*>(model::Arena::Data());
  std::size_t at = 0;
  for (std::size_t k = 0; k < model::kInputCount; ++k) {
    std::int8_t* input = arena + model::kPlan[model::kInputIndices[k]].offset;
    for (std::size_t i = 0; i < model::kInputSizes[k]; ++i) {
      input[i] = static_cast<std::int8_t>(example_input[at + i]);
    }
    at += model::kInputSizes[k];
  }
  model::Invoke(arena);
  Print("output ");
  for (std::size_t k = 0; k < model::kOutputCount; ++k) {
    PrintHex(reinterpret_cast<const std::uint8_t*>(
                 arena + model::kPlan[model::kOutputIndices[k]].offset),
             model::kOutputSizes[k]);
  }
  Print("\n");
  return 0;
}
