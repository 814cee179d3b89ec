// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Small helpers the host tests share: run a shell command (or the built
// arenaplan) and capture what it prints, the host compiler command for
// generated code, the shared models, read and write whole files, and a
// temporary directory removed with everything in it when it goes out of
// scope. Header-only; POSIX. ARENAPLAN_SOURCE_DIR, ARENAPLAN_SHARED_DIR and
// ARENAPLAN_BINARY are defined for every host test (CMakeLists.txt).
#ifndef ARENAPLAN_TESTS_HOST_SUPPORT_TEST_UTIL_HPP_
#define ARENAPLAN_TESTS_HOST_SUPPORT_TEST_UTIL_HPP_

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

/// The host C++ compiler for bulk builds of generated code, where compile
/// time matters more than one compiler's warnings: $ARENAPLAN_HOST_CXX,
/// else clang++ when the shell finds it (it builds generated model code at
/// -O0 about 1.6 times faster than g++: 3.1 s against 5.1 s of CPU for 160
/// models of planned_equals_naive_test), else g++.
inline std::string FastHostCxx() {
  if (std::getenv("ARENAPLAN_HOST_CXX") != nullptr) return HostCxx();
  static const bool clang =
      RunCommand("command -v clang++ >/dev/null").status == 0;
  return clang ? "clang++" : "g++";
}

/// Runs the built arenaplan with `args` (a shell command line tail);
/// output holds its stdout and stderr together, status its exit code.
inline CommandResult RunArenaplan(const std::string& args) {
  return RunCommand(std::string(ARENAPLAN_BINARY) + " " + args);
}

/// The host compiler command for generated code: `cxx` (HostCxx() unless
/// given), the language `standard` ("c++17", "gnu++17"), then `flags`, then
/// core/include on the include path, ending in a space; the caller appends
/// its own -I, sources and -o.
inline std::string HostCompileCommand(const std::string& standard,
                                      const std::string& flags,
                                      const std::string& cxx = HostCxx()) {
  return cxx + " -std=" + standard + " " + flags +
         " -I" ARENAPLAN_SOURCE_DIR "/core/include ";
}

/// The shared models' directory, with a trailing slash.
inline const std::string kModels =
    std::string(ARENAPLAN_SHARED_DIR) + "/models/";

/// The six shared models the reader and TFLM tests load (float and int8,
/// the smallest to person_detect, one with a dynamic dimension: plan it
/// with --assume-dim 1), file names without ".tflite".
inline constexpr const char* kModelNames[] = {
    "hello_world_int8",  "hello_world_float", "micro_speech_quantized",
    "keyword_scrambled", "person_detect",     "face_detection_short_range"};

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

#endif  // ARENAPLAN_TESTS_HOST_SUPPORT_TEST_UTIL_HPP_
