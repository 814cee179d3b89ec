// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// SHA-256 against the published FIPS 180-2 examples (Appendix B) and,
// for a real file, against the system's sha256sum (a second implementation).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>

#include "codegen/base/errors.hpp"
#include "codegen/emit/sha256.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

// FIPS 180-2 Appendix B.1: SHA-256("abc").
TEST(Sha256, MatchesFipsOneBlockMessage) {
  EXPECT_EQ(Sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

// FIPS 180-2 Appendix B.2: the 448-bit message, which needs a second
// padding block (56 bytes leave no room for the 8-byte length).
TEST(Sha256, MatchesFipsTwoBlockMessage) {
  EXPECT_EQ(
      Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

// FIPS 180-2 Appendix B.3: one million repetitions of 'a', fed in uneven
// pieces to exercise the buffering in Update().
TEST(Sha256, MatchesFipsMillionAInPieces) {
  Sha256 hash;
  const std::string piece(997, 'a');
  std::size_t fed = 0;
  while (fed + piece.size() <= 1000000) {
    hash.Update(piece);
    fed += piece.size();
  }
  hash.Update(std::string(1000000 - fed, 'a'));
  const std::array<std::uint8_t, 32> digest = hash.Finish();
  EXPECT_EQ(digest[0], 0xcd);
  EXPECT_EQ(digest[1], 0xc7);
  EXPECT_EQ(digest[31], 0xd0);
  EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// The digest of the empty message, as published in FIPS 180-2's
// companion example set (and by every SHA-256 tool).
TEST(Sha256, HashesEmptyMessage) {
  EXPECT_EQ(Sha256Hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

// Every length from 0 to 130 crosses the 55/56/64-byte padding edges;
// sha256sum is an independent implementation.
TEST(Sha256, AgreesWithSha256sumAcrossPaddingEdges) {
  if (std::system("command -v sha256sum >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "sha256sum not installed";
  }
  const testing_util::ScopedTempDir tmp("arenaplan_sha256_");
  ASSERT_FALSE(tmp.path().empty());
  const std::string path = tmp.path() + "/sha256_edges.bin";
  for (std::size_t length :
       {0u, 1u, 55u, 56u, 57u, 63u, 64u, 65u, 119u, 120u, 128u, 130u}) {
    std::string bytes;
    for (std::size_t i = 0; i < length; ++i) {
      bytes += static_cast<char>((i * 37 + 11) & 0xff);
    }
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
    std::FILE* p = popen(("sha256sum " + path).c_str(), "r");
    ASSERT_NE(p, nullptr);
    char out[65] = {};
    ASSERT_EQ(std::fread(out, 1, 64, p), 64u);
    pclose(p);
    EXPECT_EQ(Sha256Hex(bytes), std::string(out, 64)) << "length " << length;
    EXPECT_EQ(Sha256FileHex(path), std::string(out, 64)) << "length " << length;
  }
}

TEST(Sha256, RejectsUnreadableFile) {
  EXPECT_THROW((void)Sha256FileHex("/nonexistent/model.tflite"), InputError);
}

}  // namespace
}  // namespace arenaplan
