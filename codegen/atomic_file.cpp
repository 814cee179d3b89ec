// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "codegen/errors.hpp"

namespace arenaplan {
namespace {

/// Writes `contents` to a fresh temporary file in `path`'s directory and
/// returns its name. Throws InputError naming `path` on failure.
std::string WriteTemporary(const std::string& path, const std::string& contents) {
  std::string temp = path + ".tmp.XXXXXX";
  const int fd = mkstemp(temp.data());
  if (fd < 0) {
    throw InputError(path + ": cannot write: " + std::strerror(errno));
  }
  const char* data = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    const ssize_t n = write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      close(fd);
      std::remove(temp.c_str());
      throw InputError(path + ": cannot write: " + std::strerror(err));
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  // mkstemp creates 0600; outputs are ordinary files.
  fchmod(fd, 0644);
  if (close(fd) != 0) {
    const int err = errno;
    std::remove(temp.c_str());
    throw InputError(path + ": cannot write: " + std::strerror(err));
  }
  return temp;
}

}  // namespace

void WriteFilesAtomically(
    const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::string> temps;
  try {
    for (const auto& [path, contents] : files) {
      temps.push_back(WriteTemporary(path, contents));
    }
  } catch (...) {
    for (const std::string& t : temps) std::remove(t.c_str());
    throw;
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (std::rename(temps[i].c_str(), files[i].first.c_str()) != 0) {
      const int err = errno;
      for (std::size_t j = i; j < temps.size(); ++j) std::remove(temps[j].c_str());
      throw InputError(files[i].first + ": cannot write: " + std::strerror(err));
    }
  }
}

}  // namespace arenaplan
