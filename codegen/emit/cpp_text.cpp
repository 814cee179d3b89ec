// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/emit/cpp_text.hpp"

#include <cstdint>
#include <cstdio>
#include <set>

namespace arenaplan {
namespace {

void AppendHex(std::string& out, unsigned char u) {
  static constexpr char kDigits[] = "0123456789abcdef";
  out += "\\x";
  out += kDigits[u >> 4];
  out += kDigits[u & 0xf];
}

bool IsPrintableAscii(unsigned char u) { return u >= 0x20 && u < 0x7f; }

bool IsIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

/// Lower-case names GCC or Clang predefine as macros on some host or target
/// (in GNU modes), and lower-case macros of the C library headers the
/// generated code includes or that commonly come with them.
bool IsLowerCaseMacro(std::string_view part) {
  // clang-format off
  static const std::set<std::string_view> kMacros = {
      // Systems and processors (GCC and Clang in GNU modes).
      "linux", "unix", "i386", "i486", "i586", "i686", "sun", "sparc", "mips",
      "vax", "hppa", "hp9000", "m68k", "mc68000", "ibm032", "pyr", "ns32000",
      // The C library's lower-case macros.
      "offsetof", "assert", "errno", "setjmp", "va_arg", "va_start", "va_end",
      "va_copy", "alloca", "stdin", "stdout", "stderr",
      "bool_true_false_are_defined"};
  // clang-format on
  return kMacros.count(part) != 0;
}

bool IsAllCaps(std::string_view part) {
  bool letter = false;
  for (char c : part) {
    if (c >= 'a' && c <= 'z') return false;
    if (c >= 'A' && c <= 'Z') letter = true;
  }
  return letter;
}

}  // namespace

std::string CommentText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char prev = '\0';
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (!IsPrintableAscii(u) || c == '\\' || (c == '?' && prev == '?') ||
        (c == '/' && prev == '*')) {
      AppendHex(out, u);
      prev = '\0';  // the escape ends in a hex digit
    } else {
      out += c;
      prev = c;
    }
  }
  return out;
}

std::string StringLiteral(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (!IsPrintableAscii(u) || c == '?') {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\%03o", u);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

std::string TerminalText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto u = static_cast<unsigned char>(text[i]);
    if (u < 0x80) {
      if (IsPrintableAscii(u)) {
        out += text[i];
      } else {
        AppendHex(out, u);
      }
      ++i;
      continue;
    }
    // A well-formed UTF-8 sequence (shortest form, no surrogates, at most
    // U+10FFFF) that is not a C1 control is kept whole.
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (u >= 0xc2 && u <= 0xdf) {
      len = 2;
      cp = u & 0x1f;
    } else if (u >= 0xe0 && u <= 0xef) {
      len = 3;
      cp = u & 0x0f;
    } else if (u >= 0xf0 && u <= 0xf4) {
      len = 4;
      cp = u & 0x07;
    }
    bool ok = len != 0 && i + len <= text.size();
    for (std::size_t k = 1; ok && k < len; ++k) {
      const auto b = static_cast<unsigned char>(text[i + k]);
      if ((b & 0xc0) != 0x80) ok = false;
      cp = (cp << 6) | (b & 0x3f);
    }
    if (ok) {
      const std::uint32_t min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
      ok = cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) &&
           !(cp >= 0x80 && cp <= 0x9f);
    }
    if (ok) {
      out.append(text.substr(i, len));
      i += len;
    } else {
      AppendHex(out, u);
      ++i;
    }
  }
  return out;
}

bool IsCppKeyword(std::string_view word) {
  static const std::set<std::string_view> kKeywords = {
      "alignas",       "alignof",     "and",
      "and_eq",        "asm",         "auto",
      "bitand",        "bitor",       "bool",
      "break",         "case",        "catch",
      "char",          "char8_t",     "char16_t",
      "char32_t",      "class",       "compl",
      "concept",       "const",       "consteval",
      "constexpr",     "constinit",   "const_cast",
      "continue",      "co_await",    "co_return",
      "co_yield",      "decltype",    "default",
      "delete",        "do",          "double",
      "dynamic_cast",  "else",        "enum",
      "explicit",      "export",      "extern",
      "false",         "float",       "for",
      "friend",        "goto",        "if",
      "inline",        "int",         "long",
      "mutable",       "namespace",   "new",
      "noexcept",      "not",         "not_eq",
      "nullptr",       "operator",    "or",
      "or_eq",         "private",     "protected",
      "public",        "register",    "reinterpret_cast",
      "requires",      "return",      "short",
      "signed",        "sizeof",      "static",
      "static_assert", "static_cast", "struct",
      "switch",        "template",    "this",
      "thread_local",  "throw",       "true",
      "try",           "typedef",     "typeid",
      "typename",      "union",       "unsigned",
      "using",         "virtual",     "void",
      "volatile",      "wchar_t",     "while",
      "xor",           "xor_eq"};
  return kKeywords.count(word) != 0;
}

std::string NamespaceProblem(std::string_view name) {
  if (name.empty()) return "is empty";
  std::size_t start = 0;
  while (true) {
    const std::size_t sep = name.find("::", start);
    const std::string_view part = name.substr(
        start,
        sep == std::string_view::npos ? std::string_view::npos : sep - start);
    if (part.empty()) return "has an empty part (a C++ namespace path is a::b)";
    for (char c : part) {
      if (!IsIdentifierChar(c)) {
        return "is not a C++ namespace path (ASCII letters, digits and '_' "
               "parts joined by '::')";
      }
    }
    const std::string p(part);
    if (part[0] >= '0' && part[0] <= '9') {
      return "part '" + p + "' starts with a digit";
    }
    if (IsCppKeyword(part)) return "part '" + p + "' is a C++ keyword";
    if (part.find("__") != std::string_view::npos || part[0] == '_') {
      return "part '" + p +
             "' is reserved (identifiers with '__' or a leading '_' belong "
             "to the implementation)";
    }
    if (IsAllCaps(part)) {
      return "part '" + p +
             "' is spelt like a macro (all capitals, e.g. NULL, SIZE_MAX: "
             "the standard headers define such names)";
    }
    if (IsLowerCaseMacro(part)) {
      return "part '" + p + "' is a macro compilers or the C library define";
    }
    if (part == "main") return "part 'main' is the program's entry point";
    if (part == "std" || part == "arenaplan") {
      return "part '" + p + "' would hide ::" + p +
             ", which the generated code names";
    }
    if (sep == std::string_view::npos) return "";
    start = sep + 2;
  }
}

std::string IncludeGuard(std::string_view prefix, std::string_view key) {
  std::string g(prefix);
  for (char c : key) {
    if ((c >= 'a' && c <= 'z')) {
      g += static_cast<char>(c - 'a' + 'A');
    } else if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
      g += c;
    } else if (!g.empty() && g.back() != '_') {
      g += '_';
    }
  }
  if (g.empty() || g.back() != '_') g += '_';
  // FNV-1a, 64 bits, of the exact key: keeps "model"/"Model" and
  // "a_b"/"a::b" apart although their upper-cased spellings agree.
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : key) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  g += buf;
  for (char& c : g) {
    if (c >= 'a' && c <= 'f') c = static_cast<char>(c - 'a' + 'A');
  }
  return g + "_";
}

}  // namespace arenaplan
