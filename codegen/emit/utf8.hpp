// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Names in models and CSVs are untrusted bytes; the JSON and SVG writers
// pass them through ValidUtf8 so their documents are always valid UTF-8;
// the SVG and HTML writers through XmlText.
#ifndef ARENAPLAN_CODEGEN_EMIT_UTF8_HPP_
#define ARENAPLAN_CODEGEN_EMIT_UTF8_HPP_

#include <string>
#include <string_view>

namespace arenaplan {

/// U+FFFD REPLACEMENT CHARACTER in UTF-8.
inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

/// `text` with each byte that does not begin a well-formed UTF-8 sequence
/// (RFC 3629: shortest form, no surrogates, at most U+10FFFF; a truncated
/// sequence counts as ill-formed) replaced by U+FFFD. Well-formed text comes
/// back unchanged.
[[nodiscard]] std::string ValidUtf8(std::string_view text);

/// `text` as XML 1.0 (and HTML) character data or attribute value: markup
/// characters escaped (& < > " '), bytes that are not UTF-8 and characters
/// XML forbids (controls other than tab, newline and return; U+FFFE,
/// U+FFFF) replaced by U+FFFD (controls by '?'), so any name gives a
/// well-formed document and no name can open an element or a script.
[[nodiscard]] std::string XmlText(std::string_view text);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_EMIT_UTF8_HPP_
