// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// libFuzzer target over `compile`: any byte string that reads as a model
// must either compile or raise a one-line InputError naming the input, and
// the generated C++ must be text a model cannot steer:
//   * every byte is printable ASCII or a newline;
//   * `//` comments never end in a backslash (line splice) and hold no
//     "??" (trigraphs), no block comment is opened;
//   * string literals use only \" \\ \NNN \xNN escapes, no "??";
//   * every identifier is [A-Za-z_][A-Za-z0-9_]* and not reserved (no "__",
//     no leading '_' + capital);
//   * preprocessor lines are only include guards, #endif and #include of
//     file names made of [A-Za-z0-9_./-];
//   * every quantization parameter of a kernel call is in range
//     (tests/fuzz/kernel_params_check.hpp: multipliers, shifts, zero
//     points, clamps; the LSTM's and AddBroadcast's sizes and strides).
// Built by mk/fuzz.mk with -fsanitize=fuzzer,address,undefined.
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/base/errors.hpp"
#include "codegen/compile/generate.hpp"
#include "codegen/emit/sha256.hpp"
#include "codegen/regions/regions.hpp"
#include "codegen/tflite/model.hpp"
#include "tests/fuzz/fuzz_check.hpp"
#include "tests/fuzz/kernel_params_check.hpp"

namespace {

using namespace arenaplan;  // NOLINT
using fuzz::Check;

bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsIdentChar(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

void CheckIdentifier(std::string_view id) {
  Check(!id.empty() && IsIdentStart(id[0]));
  for (char c : id) Check(IsIdentChar(c));
  Check(id.find("__") == std::string_view::npos);
  Check(!(id.size() >= 2 && id[0] == '_' && id[1] >= 'A' && id[1] <= 'Z'));
}

/// A preprocessor line: guards, a flag defined to a number, #endif,
/// #pragma once, #include of a safe file name.
void CheckDirective(std::string_view line) {
  // The profile hooks' fixed lines (codegen/compile/profile.cpp): no byte
  // of them comes from the model.
  for (const char* fixed :
       {"#ifdef ARENAPLAN_PROFILE", "#else", "#endif",
        "#define ARENAPLAN_PROFILE_MARK(step)",
        "#define ARENAPLAN_PROFILE_MARK(step) "
        "::arenaplan::profile::Mark(step);"}) {
    if (line == fixed) return;
  }
  auto rest_is_identifier = [&](std::string_view prefix) {
    if (line.substr(0, prefix.size()) != prefix) return false;
    CheckIdentifier(line.substr(prefix.size()));
    return true;
  };
  if (rest_is_identifier("#ifndef ")) return;
  if (line.substr(0, 8) == "#define ") {
    // A guard, or a flag set to a number (ARENAPLAN_PLAN_HAS_REGIONS 1 in
    // a header across regions).
    std::string_view rest = line.substr(8);
    const std::size_t space = rest.find(' ');
    if (space != std::string_view::npos) {
      const std::string_view value = rest.substr(space + 1);
      Check(!value.empty());
      for (char c : value) Check(IsDigit(c));
      rest = rest.substr(0, space);
    }
    CheckIdentifier(rest);
    return;
  }
  if (line.substr(0, 8) == "#endif  ") {
    Check(line.substr(8, 3) == "// ");
    CheckIdentifier(line.substr(11));
    return;
  }
  if (line == "#pragma once") return;
  if (line.substr(0, 9) == "#include ") {
    const std::string_view name = line.substr(9);
    Check(name.size() >= 3);
    const char close = name[0] == '<' ? '>' : '"';
    Check(name[0] == '<' || name[0] == '"');
    Check(name.back() == close);
    for (char c : name.substr(1, name.size() - 2)) {
      Check(IsIdentChar(c) || c == '.' || c == '/' || c == '-');
    }
    return;
  }
  Check(false);
}

/// Lexes `text` as the generated C++ (no raw strings, no char literals,
/// no block comments) and checks every comment, literal and identifier.
void CheckCpp(const std::string& text) {
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    Check(c == '\n' || (u >= 0x20 && u < 0x7f));
  }
  std::size_t i = 0;
  bool line_start = true;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (line_start && c == '#') {
      const std::size_t end = text.find('\n', i);
      Check(end != std::string::npos);
      CheckDirective(std::string_view(text).substr(i, end - i));
      i = end;
      continue;
    }
    if (c != ' ') line_start = false;
    if (text.compare(i, 2, "//") == 0) {
      const std::size_t end = text.find('\n', i);
      Check(end != std::string::npos);
      const std::string_view comment(text.data() + i, end - i);
      Check(comment.back() != '\\');
      Check(comment.find("??") == std::string_view::npos);
      i = end;
      continue;
    }
    Check(text.compare(i, 2, "/*") != 0);
    Check(c != '\'');
    if (c == '"') {
      ++i;
      while (true) {
        Check(i < text.size());
        const char s = text[i];
        Check(s != '\n');
        Check(!(s == '?' && text[i + 1] == '?'));  // no trigraph
        if (s == '"') break;
        if (s == '\\') {
          Check(i + 1 < text.size());
          const char e = text[i + 1];
          if (e == '"' || e == '\\') {
            i += 2;
          } else if (e == 'x') {
            // Hex escapes: the constant pool's byte strings, always two
            // lowercase digits each.
            i += 2;
            std::size_t digits = 0;
            while (i < text.size() &&
                   std::isxdigit(static_cast<unsigned char>(text[i]))) {
              ++i;
              ++digits;
            }
            Check(digits == 2);
          } else {
            Check(e >= '0' && e <= '7');
            std::size_t digits = 0;
            ++i;
            while (digits < 3 && i < text.size() && text[i] >= '0' &&
                   text[i] <= '7') {
              ++i;
              ++digits;
            }
            Check(digits == 3);
          }
          continue;
        }
        ++i;
      }
      ++i;
      continue;
    }
    if (IsIdentStart(c)) {
      std::size_t end = i;
      while (end < text.size() && IsIdentChar(text[end])) ++end;
      CheckIdentifier(std::string_view(text).substr(i, end - i));
      i = end;
      continue;
    }
    if (IsDigit(c)) {  // a number: skip digits, '.', exponent, suffixes
      while (i < text.size() &&
             (IsIdentChar(text[i]) || text[i] == '.' ||
              ((text[i] == '-' || text[i] == '+') &&
               (text[i - 1] == 'e' || text[i - 1] == 'E')))) {
        ++i;
      }
      continue;
    }
    ++i;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::span<const std::uint8_t> bytes(data, size);
  tflite::Model model;
  try {
    model = tflite::ReadModel(bytes, "fuzz.tflite");
  } catch (const InputError& e) {
    fuzz::CheckMessage(e.what(), "fuzz");
    return 0;
  }
  compile::CompileOptions options;
  options.namespace_name = "m";
  options.input.assume_dim = 1;
  options.plan.strategy = "greedy-by-size";
  options.input_sha256 =
      Sha256Hex(std::string_view(reinterpret_cast<const char*>(data), size));
  // The last byte picks how the model is planned, so that mutations reach
  // each: without options, with --overlap (docs/overlap.md), or across
  // two regions whose capacities come from the byte before it
  // (docs/regions.md).
  const std::uint8_t mode = size > 0 ? data[size - 1] % 3 : 0;
  if (mode == 1) {
    options.input.overlap = true;
    options.plan.overlap = true;
  } else if (mode == 2) {
    const std::uint64_t fast =
        static_cast<std::uint64_t>(size > 1 ? data[size - 2] : 0) << 8;
    options.regions = {ParseRegion("dtcm:" + std::to_string(fast) + ":.dtcm"),
                       ParseRegion("ram:1048576")};
  }
  try {
    const compile::CompiledModel out =
        compile::CompileModel(model, "fuzz.tflite", options);
    CheckCpp(out.arena_header);
    CheckCpp(out.model_header);
    CheckCpp(out.model_source);
    fuzz::CheckKernelParams(out.model_source);
  } catch (const InputError& e) {
    fuzz::CheckMessage(e.what(), "fuzz");
  } catch (const InfeasibleError& e) {
    // No assignment of the tensors to the regions fits: one line.
    fuzz::Check(mode == 2 &&
                std::string(e.what()).find('\n') == std::string::npos);
  }
  return 0;
}
