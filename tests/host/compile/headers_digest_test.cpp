// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// kernels/include/arenaplan/kernels/headers_digest.hpp: its digest is the
// headers' on disk (computed here in C++, scripts/headers_digest.sh computes
// it with coreutils), HeadersDigestIs compares whole strings, and a
// generated model source compiles against these headers but not with
// another digest in its static_assert.
#include "arenaplan/kernels/headers_digest.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "codegen/compile/generate.hpp"
#include "codegen/emit/sha256.hpp"
#include "codegen/tflite/model.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

namespace fs = std::filesystem;

constexpr char kDigestFile[] =
    "kernels/include/arenaplan/kernels/headers_digest.hpp";

/// The manifest digest of headers_digest.hpp's comment, file by file.
std::string DigestOnDisk() {
  const fs::path root(ARENAPLAN_SOURCE_DIR);
  std::vector<std::string> files;
  for (const char* dir : {"core/include", "kernels/include"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      if (!e.is_regular_file()) continue;
      const std::string rel = fs::relative(e.path(), root).generic_string();
      if (rel != kDigestFile) files.push_back(rel);
    }
  }
  std::sort(files.begin(), files.end());  // byte order, as LC_ALL=C sort
  std::string manifest;
  for (const std::string& f : files) {
    manifest += f + "\n" + Sha256FileHex((root / f).string()) + "\n";
  }
  return Sha256Hex(manifest);
}

TEST(HeadersDigest, MatchesTheHeadersOnDisk) {
  EXPECT_EQ(std::string(kernels::kHeadersDigest), DigestOnDisk())
      << "a firmware header changed: run scripts/headers_digest.sh --write";
}

TEST(HeadersDigest, ComparesWholeStrings) {
  const std::string d = kernels::kHeadersDigest;
  EXPECT_TRUE(kernels::HeadersDigestIs(d.c_str()));
  EXPECT_FALSE(kernels::HeadersDigestIs(d.substr(0, 63).c_str()));
  EXPECT_FALSE(kernels::HeadersDigestIs((d + "0").c_str()));
  std::string other = d;
  other[40] = other[40] == 'a' ? 'b' : 'a';
  EXPECT_FALSE(kernels::HeadersDigestIs(other.c_str()));
  EXPECT_FALSE(kernels::HeadersDigestIs(""));
}

TEST(HeadersDigest, CodeForOtherHeadersDoesNotCompile) {
  const std::string path = testing_util::kModels + "hello_world_int8.tflite";
  compile::CompileOptions o;
  const compile::CompiledModel out =
      compile::CompileModel(tflite::ReadModelFile(path), path, o);
  const std::string digest = kernels::kHeadersDigest;
  const std::size_t at = out.model_source.find(
      "static_assert(k::HeadersDigestIs(\"" + digest + "\")");
  ASSERT_NE(at, std::string::npos) << out.model_source;
  std::string other = out.model_source;
  const std::size_t hex = other.find(digest, at);
  other[hex] = other[hex] == '0' ? '1' : '0';
  const testing_util::ScopedTempDir scoped("arenaplan_digest_");
  const fs::path tmp(scoped.path());
  testing_util::WriteFile(tmp / out.arena_header_name, out.arena_header);
  testing_util::WriteFile(tmp / out.model_header_name, out.model_header);
  testing_util::WriteFile(tmp / "ok.cpp", out.model_source);
  testing_util::WriteFile(tmp / "other.cpp", other);
  const std::string cc = testing_util::HostCompileCommand(
                             "c++17", "-fsyntax-only -Wall -Wextra -Werror") +
                         "-I" ARENAPLAN_SOURCE_DIR "/kernels/include -I" +
                         tmp.string() + " ";
  const auto ok = testing_util::RunCommand(cc + (tmp / "ok.cpp").string());
  EXPECT_EQ(ok.status, 0) << ok.output;
  const auto run = testing_util::RunCommand(cc + (tmp / "other.cpp").string());
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("generated for other kernel headers"),
            std::string::npos)
      << run.output;
}

}  // namespace
}  // namespace arenaplan
