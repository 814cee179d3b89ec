// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Small helpers the host tests share: run a shell command and capture what
// it prints, read and write whole files, and a temporary directory removed
// with everything in it when it goes out of scope. Header-only; POSIX.
#ifndef ARENAPLAN_TESTS_HOST_TEST_UTIL_HPP_
#define ARENAPLAN_TESTS_HOST_TEST_UTIL_HPP_

#include <stdlib.h>  // mkdtemp
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace arenaplan::testing_util {

/// What a finished shell command did.
struct CommandResult {
  int status = -1;     ///< Exit status; -1 when it did not exit normally.
  std::string output;  ///< stdout and stderr together, in order written.
};

/// Runs `command` with /bin/sh (stderr redirected into stdout) and waits for
/// it. Status -1 with output "popen failed" when the shell cannot start.
inline CommandResult RunCommand(const std::string& command) {
  std::FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  std::string output;
  char buf[4096];
  std::size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, pipe)) > 0) {
    output.append(buf, got);
  }
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

/// The host C++ compiler: $ARENAPLAN_HOST_CXX, else "g++".
inline std::string HostCxx() {
  const char* cxx = std::getenv("ARENAPLAN_HOST_CXX");
  return cxx != nullptr ? cxx : "g++";
}

/// Writes `text` to `path` byte for byte, replacing any file there.
inline void WriteFile(const std::filesystem::path& path,
                      const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

/// The whole of the file at `path`, byte for byte; "" when it cannot be
/// opened.
inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A fresh directory made by mkdtemp("/tmp/<prefix>XXXXXX"); it and all it
/// holds are removed by the destructor. Not copyable.
class ScopedTempDir {
 public:
  explicit ScopedTempDir(const std::string& prefix) {
    std::string pattern = "/tmp/" + prefix + "XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data()) != nullptr) path_ = buf.data();
  }
  ~ScopedTempDir() {
    if (path_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScopedTempDir(const ScopedTempDir&) = delete;
  ScopedTempDir& operator=(const ScopedTempDir&) = delete;

  /// The directory, without a trailing slash; "" if mkdtemp failed.
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace arenaplan::testing_util

#endif  // ARENAPLAN_TESTS_HOST_TEST_UTIL_HPP_
