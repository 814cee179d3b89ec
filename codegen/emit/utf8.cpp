// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/emit/utf8.hpp"

#include <cstddef>

namespace arenaplan {
namespace {

/// The length (1 to 4) of the well-formed UTF-8 sequence at `text[i]`, or
/// 0 when the bytes there are ill-formed (Unicode 15, table 3-7).
std::size_t WellFormedLength(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) -> unsigned {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k])
                               : 0x100u;  // Past the end: never valid.
  };
  auto in = [](unsigned b, unsigned lo, unsigned hi) {
    return b >= lo && b <= hi;
  };
  const unsigned b0 = byte(0);
  if (b0 < 0x80) return 1;
  if (in(b0, 0xC2, 0xDF)) return in(byte(1), 0x80, 0xBF) ? 2 : 0;
  if (in(b0, 0xE0, 0xEF)) {
    // E0: no overlong forms; ED: no surrogates (U+D800..U+DFFF).
    const unsigned lo = b0 == 0xE0 ? 0xA0 : 0x80;
    const unsigned hi = b0 == 0xED ? 0x9F : 0xBF;
    return in(byte(1), lo, hi) && in(byte(2), 0x80, 0xBF) ? 3 : 0;
  }
  if (in(b0, 0xF0, 0xF4)) {
    // F0: no overlong forms; F4: nothing above U+10FFFF.
    const unsigned lo = b0 == 0xF0 ? 0x90 : 0x80;
    const unsigned hi = b0 == 0xF4 ? 0x8F : 0xBF;
    return in(byte(1), lo, hi) && in(byte(2), 0x80, 0xBF) &&
                   in(byte(3), 0x80, 0xBF)
               ? 4
               : 0;
  }
  return 0;  // 80..C1 and F5..FF never begin a sequence.
}

}  // namespace

std::string ValidUtf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = WellFormedLength(text, i);
    if (n == 0) {
      out += kReplacementCharacter;
      ++i;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

std::string XmlText(std::string_view text) {
  const std::string valid = ValidUtf8(text);
  std::string out;
  for (std::size_t i = 0; i < valid.size(); ++i) {
    const char c = valid[i];
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += '?';  // XML 1.0 forbids most control characters.
        } else if (valid.compare(i, 2, "\xEF\xBF") == 0 &&
                   i + 2 < valid.size() &&
                   (valid[i + 2] == '\xBE' || valid[i + 2] == '\xBF')) {
          out += kReplacementCharacter;  // U+FFFE, U+FFFF: not characters.
          i += 2;
        } else {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace arenaplan
