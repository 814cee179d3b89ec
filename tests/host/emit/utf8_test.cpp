// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// ValidUtf8 against the well-formed byte sequences of Unicode 15 table 3-7,
// worked out by hand.
#include "codegen/emit/utf8.hpp"

#include <gtest/gtest.h>

#include <string>

namespace arenaplan {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

TEST(Utf8, KeepsWellFormedText) {
  for (const std::string& text :
       {std::string(""), std::string("plain ascii"),
        std::string("\x00 nul", 5),          // U+0000 is well-formed.
        std::string("\xC2\x80"),             // U+0080, first 2-byte.
        std::string("\xDF\xBF"),             // U+07FF, last 2-byte.
        std::string("\xE0\xA0\x80"),         // U+0800, first 3-byte.
        std::string("\xED\x9F\xBF"),         // U+D7FF, below surrogates.
        std::string("\xEE\x80\x80"),         // U+E000, above surrogates.
        std::string("\xEF\xBF\xBF"),         // U+FFFF.
        std::string("\xF0\x90\x80\x80"),     // U+10000, first 4-byte.
        std::string("\xF4\x8F\xBF\xBF")}) {  // U+10FFFF, the last.
    EXPECT_EQ(ValidUtf8(text), text);
  }
}

TEST(Utf8, ReplacesEachIllFormedByte) {
  // A stray continuation byte.
  EXPECT_EQ(ValidUtf8("a\x80z"), "a" + kFffd + "z");
  // Overlong '/' (C0 AF): C0 never starts a sequence, AF is a stray.
  EXPECT_EQ(ValidUtf8("\xC0\xAF"), kFffd + kFffd);
  // Overlong 3-byte form (E0 80 AF) and a surrogate (ED A0 80).
  EXPECT_EQ(ValidUtf8("\xE0\x80\xAF"), kFffd + kFffd + kFffd);
  EXPECT_EQ(ValidUtf8("\xED\xA0\x80"), kFffd + kFffd + kFffd);
  // Above U+10FFFF (F4 90 80 80) and bytes that never occur (F5, FF).
  EXPECT_EQ(ValidUtf8("\xF4\x90\x80\x80"), kFffd + kFffd + kFffd + kFffd);
  EXPECT_EQ(ValidUtf8("\xF5\xFF"), kFffd + kFffd);
  // A sequence cut by the end of the text.
  EXPECT_EQ(ValidUtf8("cut\xE2\x82"), "cut" + kFffd + kFffd);
  // After a bad lead byte, a good sequence is kept.
  EXPECT_EQ(ValidUtf8("\xFF\xE2\x82\xAC"), kFffd + "\xE2\x82\xAC");
}

}  // namespace
}  // namespace arenaplan
