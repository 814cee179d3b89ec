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
//   * every quantization parameter of a kernel call is in range (the
//     k::DivParams and k::BatchMatMulParams ones too):
//     multipliers 0 or in [2^30, 2^31), shifts in [-31, 30], zero points
//     in the type's range, activation clamps min <= max within int8.
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

/// The integers of every "NAME{a, b, ...}" initializer of `text`, outside
/// `//` comments (a tensor name in a comment may spell NAME{).
std::vector<std::vector<long long>> Initializers(const std::string& text,
                                                 const std::string& name) {
  std::vector<std::vector<long long>> all;
  const std::string key = name + "{";
  for (std::size_t at = text.find(key); at != std::string::npos;
       at = text.find(key, at + 1)) {
    const std::size_t line = text.rfind('\n', at);
    const std::size_t comment =
        text.find("//", line == std::string::npos ? 0 : line + 1);
    if (comment < at) continue;
    std::vector<long long> v;
    const char* p = text.c_str() + at + key.size();
    while (*p != '}') {
      char* end = nullptr;
      v.push_back(std::strtoll(p, &end, 10));
      Check(end != p);
      p = end;
      while (*p == ',' || *p == ' ') ++p;
    }
    all.push_back(v);
  }
  return all;
}

/// The first `n` integers of every "NAME{a, b, ..." initializer of `text`
/// outside `//` comments, for parameters whose later fields are nested
/// initializers (k::Shape4{...}, {...}).
std::vector<std::vector<long long>> LeadingIntegers(const std::string& text,
                                                    const std::string& name,
                                                    std::size_t n) {
  std::vector<std::vector<long long>> all;
  const std::string key = name + "{";
  for (std::size_t at = text.find(key); at != std::string::npos;
       at = text.find(key, at + 1)) {
    const std::size_t line = text.rfind('\n', at);
    const std::size_t comment =
        text.find("//", line == std::string::npos ? 0 : line + 1);
    if (comment < at) continue;
    std::vector<long long> v;
    const char* p = text.c_str() + at + key.size();
    while (v.size() < n) {
      char* end = nullptr;
      v.push_back(std::strtoll(p, &end, 10));
      Check(end != p);
      p = end;
      while (*p == ',' || *p == ' ' || *p == '\n') ++p;
    }
    all.push_back(v);
  }
  return all;
}

/// The values of every "const std::int32_t kMultiplierK[N] = {...}" (or
/// int8_t kShiftK) array.
std::vector<long long> ArrayValues(const std::string& text,
                                   const std::string& prefix) {
  std::vector<long long> v;
  for (std::size_t at = text.find(prefix); at != std::string::npos;
       at = text.find(prefix, at + 1)) {
    const char* p = text.c_str() + text.find('{', at) + 1;
    while (true) {
      while (*p == ' ' || *p == '\n' || *p == ',') ++p;
      if (*p == '}') break;
      char* end = nullptr;
      v.push_back(std::strtoll(p, &end, 10));
      Check(end != p);
      p = end;
    }
  }
  return v;
}

void CheckMultiplier(long long m) {
  Check(m == 0 || (m >= (1LL << 30) && m < (1LL << 31)));
}
void CheckShift(long long s) { Check(s >= -31 && s <= 30); }
void CheckInt8(long long v) { Check(v >= -128 && v <= 127); }
void CheckRange(long long lo, long long hi) {
  CheckInt8(lo);
  CheckInt8(hi);
  Check(lo <= hi);
}

void CheckQuantization(const std::string& source) {
  for (long long m : ArrayValues(source, "const std::int32_t kMultiplier"))
    CheckMultiplier(m);
  for (long long s : ArrayValues(source, "const std::int8_t kShift"))
    CheckShift(s);
  // {-in_zp, out_zp, act_min, act_max, ...}; the input zero point negated.
  for (const char* name : {"k::ConvParams", "k::FullyConnectedParams"}) {
    for (const auto& v : Initializers(source, name)) {
      Check(v.size() >= 4);
      CheckInt8(-v[0]);
      CheckInt8(v[1]);
      CheckRange(v[2], v[3]);
    }
  }
  for (const auto& v : Initializers(source, "k::PoolParams")) {
    Check(v.size() == 8);
    CheckRange(v[6], v[7]);
  }
  for (const auto& v : Initializers(source, "k::AddParams")) {
    Check(v.size() == 13);
    CheckInt8(-v[0]);
    CheckInt8(-v[1]);
    CheckInt8(v[2]);
    for (int k : {4, 6, 8}) CheckMultiplier(v[k]);
    for (int k : {5, 7, 9}) CheckShift(v[k]);
    CheckRange(v[10], v[11]);
  }
  for (const auto& v : Initializers(source, "k::RequantizeParams")) {
    Check(v.size() == 5);
    Check(-v[0] >= -32768 && -v[0] <= 32767);  // int8 or int16 input
    Check(v[1] >= INT32_MIN && v[1] <= INT32_MAX);
    CheckMultiplier(v[2]);
    CheckShift(v[3]);
  }
  for (const auto& v : Initializers(source, "k::SvdfParams")) {
    Check(v.size() == 14);
    CheckInt8(-v[0]);
    CheckInt8(v[1]);  // state zero point: 0 (int16 state) or an int8 value
    CheckInt8(v[2]);
    CheckRange(v[3], v[4]);
    CheckMultiplier(v[10]);
    CheckShift(v[11]);
    CheckMultiplier(v[12]);
    CheckShift(v[13]);
  }
  for (const auto& v : Initializers(source, "k::HardSwishParams")) {
    Check(v.size() == 7);
    CheckInt8(v[0]);
    CheckInt8(v[1]);
    // Q0.15 multipliers (a Q0.31 one in [2^30, 2^31) rounded), the output
    // exponent never positive (TFLM's HardSwishPrepare).
    Check(v[2] >= (1 << 14) && v[2] <= 32767);
    Check(v[3] >= -31 && v[3] <= 0);
    Check(v[4] >= (1 << 14) && v[4] <= 32767);
    CheckShift(v[5]);
  }
  // DIV and BATCH_MATMUL: {zp_a, zp_b, zp_out, multiplier, shift, ...};
  // DIV's shift at most 23 (div.hpp), then its clamp.
  for (const auto& v : LeadingIntegers(source, "k::DivParams", 7)) {
    for (int k : {0, 1, 2}) CheckInt8(v[k]);
    CheckMultiplier(v[3]);
    Check(v[4] >= -31 && v[4] <= 23);
    CheckRange(v[5], v[6]);
  }
  for (const auto& v : LeadingIntegers(source, "k::BatchMatMulParams", 5)) {
    for (int k : {0, 1, 2}) CheckInt8(v[k]);
    CheckMultiplier(v[3]);
    CheckShift(v[4]);
  }
  for (const auto& v : Initializers(source, "k::SoftmaxParams")) {
    Check(v.size() == 5);
    CheckMultiplier(v[0]);
    Check(v[1] >= 1 && v[1] <= 31);  // a left shift: real > 1
    Check(v[2] <= 0);
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
    CheckQuantization(out.model_source);
  } catch (const InputError& e) {
    fuzz::CheckMessage(e.what(), "fuzz");
  } catch (const InfeasibleError& e) {
    // No assignment of the tensors to the regions fits: one line.
    fuzz::Check(mode == 2 &&
                std::string(e.what()).find('\n') == std::string::npos);
  }
  return 0;
}
