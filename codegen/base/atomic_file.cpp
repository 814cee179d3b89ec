// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
#include "codegen/base/atomic_file.hpp"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <set>

#include "codegen/base/errors.hpp"

namespace arenaplan {
namespace atomic_file_detail {

/// One output file being replaced.
struct Target {
  std::string where;      ///< "--out a.csv" or "a.csv": message prefix.
  std::string path;       ///< As given.
  std::string dir;        ///< Directory part of the path ("." if none).
  std::string base;       ///< File name part.
  std::string canonical;  ///< realpath(dir) + "/" + base.
  bool exists = false;    ///< A regular file is there now.
  struct stat st = {};    ///< Its lstat, when it exists.
  mode_t mode = 0;        ///< Mode of the written file.
  std::string temp;       ///< The temporary, once made.
  std::optional<std::size_t> slot;  ///< Its registry slot.
  std::string backup;               ///< The old file, kept during the renames.
  bool backup_aside = false;        ///< Renamed aside, not hard-linked.
};

}  // namespace atomic_file_detail

namespace {

// --- Temporaries removed by SIGINT, SIGTERM and SIGHUP ---------------------

/// The signals that remove temporaries before they end the program.
constexpr std::array<int, 3> kCleanupSignals = {SIGINT, SIGTERM, SIGHUP};

/// Bytes of one registered path, with its terminating NUL.
constexpr std::size_t kSlotBytes = 4096;

/// One registered temporary. `used` is set after `path` is complete and
/// cleared before it changes, always with the cleanup signals blocked, so
/// the handler sees whole paths only.
struct TempSlot {
  volatile sig_atomic_t used = 0;
  char path[kSlotBytes] = {};
};

/// The temporaries of the OutputSet being committed (at most 64 files).
TempSlot g_temp_slots[64];

extern "C" void RemoveTemporariesAndReraise(int sig) {
  // Only async-signal-safe calls: unlink, sigaction, raise.
  for (TempSlot& slot : g_temp_slots) {
    if (slot.used) unlink(slot.path);
  }
  struct sigaction dfl = {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  // Blocked while this handler runs; delivered (default: end the program)
  // as it returns.
  raise(sig);
}

sigset_t CleanupSignalSet() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : kCleanupSignals) sigaddset(&set, sig);
  return set;
}

/// Holds the cleanup signals back for its lifetime, in the calling thread
/// (arenaplan writes its files from its only thread).
class SignalsHeld {
 public:
  SignalsHeld() {
    const sigset_t set = CleanupSignalSet();
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~SignalsHeld() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t old_;
};

/// Installs RemoveTemporariesAndReraise for its lifetime on each cleanup
/// signal that is not ignored (a signal ignored by the caller, e.g. SIGHUP
/// under nohup, stays ignored).
class CleanupHandlers {
 public:
  CleanupHandlers() {
    struct sigaction act = {};
    act.sa_handler = RemoveTemporariesAndReraise;
    act.sa_mask = CleanupSignalSet();
    for (std::size_t i = 0; i < kCleanupSignals.size(); ++i) {
      sigaction(kCleanupSignals[i], nullptr, &old_[i]);
      if (old_[i].sa_handler == SIG_IGN) continue;
      installed_[i] = sigaction(kCleanupSignals[i], &act, nullptr) == 0;
    }
  }
  ~CleanupHandlers() {
    for (std::size_t i = 0; i < kCleanupSignals.size(); ++i) {
      if (installed_[i]) sigaction(kCleanupSignals[i], &old_[i], nullptr);
    }
  }
  CleanupHandlers(const CleanupHandlers&) = delete;
  CleanupHandlers& operator=(const CleanupHandlers&) = delete;

 private:
  std::array<struct sigaction, kCleanupSignals.size()> old_ = {};
  std::array<bool, kCleanupSignals.size()> installed_ = {};
};

/// Creates a temporary from `pattern` (ending in XXXXXX; replaced in place)
/// and registers it, with the signals held so no signal sees a half-made
/// entry. Returns the descriptor and slot, or -1 with errno set.
int MakeRegisteredTemporary(std::string& pattern, std::size_t* slot_index) {
  if (pattern.size() + 1 > kSlotBytes) {
    errno = ENAMETOOLONG;
    return -1;
  }
  SignalsHeld held;
  std::size_t free_slot = std::size(g_temp_slots);
  for (std::size_t i = 0; i < std::size(g_temp_slots); ++i) {
    if (!g_temp_slots[i].used) {
      free_slot = i;
      break;
    }
  }
  if (free_slot == std::size(g_temp_slots)) {
    errno = EMFILE;
    return -1;
  }
  const int fd = mkostemp(pattern.data(), O_CLOEXEC);
  if (fd < 0) return -1;
  std::memcpy(g_temp_slots[free_slot].path, pattern.c_str(),
              pattern.size() + 1);
  g_temp_slots[free_slot].used = 1;
  *slot_index = free_slot;
  return fd;
}

/// Forgets slot `i` (its file is renamed or removed).
void Unregister(std::size_t i) {
  SignalsHeld held;
  g_temp_slots[i].used = 0;
}

// --- Targets ----------------------------------------------------------------

/// What a target's type is, in words, for the refusal message.
const char* FileTypeWords(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link (not followed)";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/// The process's file-creation mask (read without changing it for good).
mode_t CurrentUmask() {
  const mode_t mask = umask(022);
  umask(mask);
  return mask;
}

/// One target as found before anything is written.
using atomic_file_detail::Target;

[[noreturn]] void Fail(const Target& t, const std::string& what) {
  throw InputError(t.where + ": " + what);
}

[[noreturn]] void FailErrno(const Target& t, const std::string& what, int err) {
  Fail(t, what + ": " + std::strerror(err));
}

/// Examines `path`: refuses what must not be replaced (see the header).
Target Examine(const std::string& path, const std::string& option,
               mode_t umask_bits) {
  Target t;
  t.where = option.empty() ? path : option + " " + path;
  t.path = path;
  if (path.empty()) Fail(t, "empty file name");
  const std::size_t slash = path.rfind('/');
  t.dir = slash == std::string::npos ? "."
          : slash == 0               ? "/"
                                     : path.substr(0, slash);
  t.base = slash == std::string::npos ? path : path.substr(slash + 1);

  struct stat st = {};
  if (lstat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) {
      Fail(t, std::string("is ") + FileTypeWords(st.st_mode) +
                  "; only regular files are replaced");
    }
    t.exists = true;
    t.st = st;
    t.mode = st.st_mode & 07777;
  } else if (errno == ENOENT) {
    t.mode = 0666 & ~umask_bits;
  } else {
    FailErrno(t, "cannot write", errno);
  }
  if (t.base.empty() || t.base == "." || t.base == "..") {
    Fail(t, "not a file name");
  }
  char resolved[PATH_MAX];
  if (realpath(t.dir.c_str(), resolved) == nullptr) {
    FailErrno(t, "cannot write", errno);
  }
  t.canonical = std::string(resolved) + "/" + t.base;
  return t;
}

/// Writes all of `contents` to `fd`, then its owner (best effort) and mode,
/// then fsync. Returns 0 or an errno value.
int FillTemporary(int fd, const std::string& contents, const Target& t) {
  const char* data = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    const ssize_t n = write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  if (t.exists) {
    // Keep the owner when allowed (root); a plain user owns what it makes.
    if (fchown(fd, t.st.st_uid, t.st.st_gid) != 0) {
      // Not permitted: the new file belongs to the caller, like any write.
    }
  }
  if (fchmod(fd, t.mode) != 0) return errno;
  if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS) return errno;
  return 0;
}

/// Removes every temporary still registered for `targets`.
void RemoveTemporaries(std::vector<Target>& targets) {
  for (Target& t : targets) {
    if (!t.slot) continue;
    unlink(t.temp.c_str());
    Unregister(*t.slot);
    t.slot.reset();
  }
}

/// Best-effort fsync of a directory, so the renames are on disk.
void SyncDirectory(const std::string& dir) {
  const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  if (fsync(fd) != 0) {
    // Some file systems do not sync directories; the data is synced.
  }
  close(fd);
}

/// After target i failed to be replaced: puts back what was replaced,
/// newest first (target i's old file too when `moved_aside`), removes what
/// was new, and drops the hard-linked backups of the rest. Returns the
/// backups that could not be put back, each after a space.
std::string Undo(std::vector<Target>& targets, std::size_t i,
                 bool moved_aside) {
  const Target& t = targets[i];
  // Put back what was replaced, newest first; remove what was new.
  std::string unrestored;
  if (moved_aside && ::rename(t.backup.c_str(), t.path.c_str()) != 0) {
    unrestored += " " + t.backup;
  }
  for (std::size_t j = i; j-- > 0;) {
    const Target& u = targets[j];
    if (u.exists) {
      if (::rename(u.backup.c_str(), u.path.c_str()) != 0) {
        unrestored += " " + u.backup;
      }
    } else {
      unlink(u.path.c_str());
    }
  }
  for (std::size_t j = i; j < targets.size(); ++j) {
    // Links were made for all; files set aside only up to i (handled).
    if (!targets[j].backup.empty() && !targets[j].backup_aside) {
      unlink(targets[j].backup.c_str());
    }
  }
  return unrestored;
}

/// Keeps every existing target's old file as a hard link beside it (or,
/// where the file system has none, marks it to be renamed aside just
/// before its replacement). On failure removes what it made and throws.
void KeepBackups(std::vector<Target>& targets,
                 const std::function<int(const char*, const char*)>& link_fn) {
  for (std::size_t i = 0; i < targets.size(); ++i) {
    Target& t = targets[i];
    if (!t.exists) continue;
    t.backup = t.dir + "/." + t.base + ".arenaplan-old." +
               t.temp.substr(t.temp.size() - 6);
    if (link_fn(t.path.c_str(), t.backup.c_str()) == 0) continue;
    const int err = errno;
    if (err == EPERM || err == ENOTSUP || err == EOPNOTSUPP || err == EMLINK ||
        err == ENOSYS) {
      // No hard links here: the old file is renamed aside just before its
      // replacement instead (the target is briefly absent).
      t.backup_aside = true;
      continue;
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (!targets[j].backup.empty() && !targets[j].backup_aside) {
        unlink(targets[j].backup.c_str());
      }
    }
    RemoveTemporaries(targets);
    FailErrno(t, "cannot keep the old file while replacing it", err);
  }
}

}  // namespace

void OutputSet::Add(std::string path, std::string contents,
                    std::string option) {
  files_.push_back({std::move(path), std::move(contents), std::move(option)});
}

void OutputSet::KeepUnchanged(const std::string& path, std::string what) {
  inputs_.emplace_back(path, std::move(what));
}

void OutputSet::Commit() {
  if (files_.empty()) return;
  if (files_.size() > std::size(g_temp_slots)) {
    throw InternalError("too many output files at once");
  }
  // 1. Examine every target before anything is written.
  std::vector<Target> targets = ExamineTargets();

  // 2. Temporaries beside their targets, removed on any error or signal.
  CleanupHandlers handlers;
  WriteTemporaries(targets);

  // 3. Rename all, with the signals held so the set is never half done.
  SignalsHeld held;
  auto rename_fn = rename_ ? rename_ : [](const char* from, const char* to) {
    return ::rename(from, to);
  };
  auto link_fn = link_ ? link_ : [](const char* from, const char* to) {
    return ::link(from, to);
  };
  KeepBackups(targets, link_fn);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    Target& t = targets[i];
    bool moved_aside = false;
    int err = 0;
    if (t.backup_aside) {
      if (::rename(t.path.c_str(), t.backup.c_str()) == 0) {
        moved_aside = true;
      } else {
        err = errno;
      }
    }
    if (err == 0) {
      if (rename_fn(t.temp.c_str(), t.path.c_str()) == 0) {
        Unregister(*t.slot);
        t.slot.reset();
        continue;
      }
      err = errno;
    }
    const std::string unrestored = Undo(targets, i, moved_aside);
    RemoveTemporaries(targets);
    FailErrno(t,
              unrestored.empty()
                  ? "cannot write (no output changed)"
                  : "cannot write; old files kept as" + unrestored,
              err);
  }
  std::set<std::string> dirs;
  for (const Target& t : targets) {
    if (!t.backup.empty()) unlink(t.backup.c_str());
    dirs.insert(t.dir);
  }
  for (const std::string& dir : dirs) SyncDirectory(dir);
}

std::vector<Target> OutputSet::ExamineTargets() const {
  const mode_t umask_bits = CurrentUmask();
  std::vector<Target> targets;
  targets.reserve(files_.size());
  for (const File& f : files_) {
    Target t = Examine(f.path, f.option, umask_bits);
    for (const Target& u : targets) {
      const bool same_inode = t.exists && u.exists &&
                              t.st.st_dev == u.st.st_dev &&
                              t.st.st_ino == u.st.st_ino;
      if (same_inode || t.canonical == u.canonical) {
        throw InputError(u.where + " and " + t.where +
                         ": name the same file; give each output its own");
      }
    }
    for (const auto& [input, what] : inputs_) {
      struct stat st = {};
      if (t.exists && stat(input.c_str(), &st) == 0 &&
          st.st_dev == t.st.st_dev && st.st_ino == t.st.st_ino) {
        Fail(t, "is the " + what + " " + input + "; write elsewhere");
      }
    }
    targets.push_back(std::move(t));
  }
  return targets;
}

void OutputSet::WriteTemporaries(std::vector<Target>& targets) const {
  try {
    for (std::size_t i = 0; i < targets.size(); ++i) {
      Target& t = targets[i];
      t.temp = t.dir + "/." + t.base + ".arenaplan-tmp.XXXXXX";
      std::size_t slot = 0;
      const int fd = MakeRegisteredTemporary(t.temp, &slot);
      if (fd < 0) FailErrno(t, "cannot write", errno);
      t.slot = slot;
      const int err = FillTemporary(fd, files_[i].contents, t);
      const int close_err = close(fd) != 0 ? errno : 0;
      if (err != 0) FailErrno(t, "cannot write", err);
      if (close_err != 0) FailErrno(t, "cannot write", close_err);
      if (after_temporary_) after_temporary_(i);
    }
  } catch (...) {
    RemoveTemporaries(targets);
    throw;
  }
}

void WriteFilesAtomically(
    const std::vector<std::pair<std::string, std::string>>& files) {
  OutputSet set;
  for (const auto& [path, contents] : files) set.Add(path, contents);
  set.Commit();
}

}  // namespace arenaplan
