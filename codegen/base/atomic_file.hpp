// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// All-or-nothing output files. Every sub-command that writes files hands
// them to one OutputSet (or WriteFilesAtomically), which
//   1. refuses, before writing anything, a target that is not a regular file
//      (directory, symbolic link, FIFO, socket, character or block device),
//      a target whose directory does not exist, and two targets that name
//      the same file (compared by the canonical directory and name, and by
//      device and inode when the file exists);
//   2. writes each contents to a temporary file beside its target, named
//      `.NAME.arenaplan-tmp.XXXXXX` (hidden), with the mode of the file it
//      replaces (a new file gets 0666 & ~umask), and fsyncs it;
//   3. with SIGINT, SIGTERM and SIGHUP held back, renames every temporary
//      over its target, keeping each replaced file as a hard link
//      `.NAME.arenaplan-old.XXXXXX` (renamed aside instead where the file
//      system has no hard links) until all renames succeeded; when one
//      fails, the files already renamed are put back (or removed, if they
//      are new) and the error names the target.
// Temporaries are removed on any error and when SIGINT, SIGTERM or SIGHUP
// arrives while they are written (the signal is then re-raised). SIGKILL
// cannot be caught: it may leave `.NAME.arenaplan-tmp.XXXXXX` files behind.
#ifndef ARENAPLAN_CODEGEN_BASE_ATOMIC_FILE_HPP_
#define ARENAPLAN_CODEGEN_BASE_ATOMIC_FILE_HPP_

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace arenaplan {

namespace atomic_file_detail {
struct Target;  ///< One output file being replaced (atomic_file.cpp).
}  // namespace atomic_file_detail

/// A set of files written together or not at all (see the file comment).
class OutputSet {
 public:
  /// Adds `path` to be written with `contents`. `option` (e.g. "--out")
  /// prefixes error messages about this file; "" names the path alone.
  void Add(std::string path, std::string contents, std::string option = "");

  /// Names a file the command reads (e.g. "INPUT"): Commit refuses a target
  /// that is this file (same device and inode), so no output overwrites
  /// its own input. A path that does not exist is ignored.
  void KeepUnchanged(const std::string& path, std::string what);

  /// Writes every added file, or none: throws InputError (one line naming
  /// the option and path) and leaves every target as it was.
  void Commit();

  /// For tests: the call that renames a temporary over its target
  /// (default ::rename). It may fail to exercise the restore path.
  void SetRenameForTesting(std::function<int(const char*, const char*)> f) {
    rename_ = std::move(f);
  }

  /// For tests: the call that hard-links a replaced file to its backup
  /// (default ::link). Failing with EPERM exercises the rename-aside path.
  void SetLinkForTesting(std::function<int(const char*, const char*)> f) {
    link_ = std::move(f);
  }

  /// For tests: called with the index of each file once its temporary is
  /// written (e.g. to raise a signal mid-commit).
  void SetAfterTemporaryForTesting(std::function<void(std::size_t)> f) {
    after_temporary_ = std::move(f);
  }

 private:
  struct File {
    std::string path;
    std::string contents;
    std::string option;
  };
  std::vector<File> files_;
  std::vector<std::pair<std::string, std::string>> inputs_;  ///< path, what
  std::function<int(const char*, const char*)> rename_;
  std::function<int(const char*, const char*)> link_;
  std::function<void(std::size_t)> after_temporary_;

  /// Commit's steps: every target examined (refused before anything is
  /// written), then the temporaries written beside them.
  [[nodiscard]] std::vector<atomic_file_detail::Target> ExamineTargets() const;
  void WriteTemporaries(std::vector<atomic_file_detail::Target>& targets) const;
};

/// Writes every (path, contents) pair as one OutputSet; errors name the
/// path.
void WriteFilesAtomically(
    const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_BASE_ATOMIC_FILE_HPP_
