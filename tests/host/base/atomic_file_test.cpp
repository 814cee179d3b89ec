// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// OutputSet: all-or-nothing output files, only regular files replaced, modes
// kept, temporaries removed on errors and on SIGTERM.
#include "codegen/base/atomic_file.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>

#include "codegen/base/errors.hpp"
#include "tests/host/support/test_util.hpp"

namespace arenaplan {
namespace {

namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  std::string Write(const std::string& name, const std::string& text,
                    mode_t mode = 0644) {
    const std::string p = Path(name);
    testing_util::WriteFile(p, text);
    chmod(p.c_str(), mode);
    return p;
  }
  static std::string Read(const std::string& p) {
    return testing_util::ReadFile(p);
  }
  static mode_t Mode(const std::string& p) {
    struct stat st = {};
    lstat(p.c_str(), &st);
    return st.st_mode & 07777;
  }
  /// The names in the directory, hidden ones included.
  std::set<std::string> Names() const {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) {
      names.insert(e.path().filename().string());
    }
    return names;
  }
  /// Commits `set`, expecting InputError; returns its message.
  static std::string CommitError(OutputSet& set) {
    try {
      set.Commit();
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  }
  testing_util::ScopedTempDir tmp_{"arenaplan_atomic_"};
  const std::string dir_ = tmp_.path();
};

TEST_F(AtomicFileTest, WritesEveryFile) {
  const std::string a = Write("a", "old a");
  OutputSet set;
  set.Add(a, "new a");
  set.Add(Path("b"), "new b", "--header");
  set.Commit();
  EXPECT_EQ(Read(a), "new a");
  EXPECT_EQ(Read(Path("b")), "new b");
  EXPECT_EQ(Names(), (std::set<std::string>{"a", "b"}));
}

TEST_F(AtomicFileTest, RestoresEveryReplacedFileWhenALaterRenameFails) {
  const std::string a = Write("a", "old a", 0600);
  const std::string c = Write("c", "old c");
  OutputSet set;
  set.Add(a, "new a");
  set.Add(Path("b"), "new b");  // New: must be gone again.
  set.Add(c, "new c");
  int calls = 0;
  set.SetRenameForTesting([&calls](const char* from, const char* to) {
    if (++calls == 3) {
      errno = EIO;
      return -1;
    }
    return ::rename(from, to);
  });
  const std::string error = CommitError(set);
  EXPECT_EQ(calls, 3);
  EXPECT_NE(error.find(c + ": cannot write (no output changed): "),
            std::string::npos)
      << error;
  EXPECT_EQ(Read(a), "old a");
  EXPECT_EQ(Mode(a), 0600u);
  EXPECT_EQ(Read(c), "old c");
  // No new file, no temporary and no backup left.
  EXPECT_EQ(Names(), (std::set<std::string>{"a", "c"}));
}

TEST_F(AtomicFileTest, WithoutHardLinksRestoresByRenamingAside) {
  // A file system without hard links (link fails with EPERM): the old
  // files are renamed aside instead, and still put back on a failure.
  const std::string a = Write("a", "old a", 0600);
  const std::string b = Write("b", "old b");
  const std::string c = Write("c", "old c");
  auto no_links = [](const char*, const char*) {
    errno = EPERM;
    return -1;
  };
  {
    OutputSet set;
    set.Add(a, "new a");
    set.Add(b, "new b");
    set.Add(c, "new c");
    set.SetLinkForTesting(no_links);
    int calls = 0;
    set.SetRenameForTesting([&calls](const char* from, const char* to) {
      if (++calls == 3) {
        errno = ENOSPC;
        return -1;
      }
      return ::rename(from, to);
    });
    EXPECT_NE(CommitError(set).find(c + ": cannot write (no output changed)"),
              std::string::npos);
    EXPECT_EQ(Read(a), "old a");
    EXPECT_EQ(Mode(a), 0600u);
    EXPECT_EQ(Read(b), "old b");
    EXPECT_EQ(Read(c), "old c");
    EXPECT_EQ(Names(), (std::set<std::string>{"a", "b", "c"}));
  }
  OutputSet set;
  set.Add(a, "new a");
  set.Add(c, "new c");
  set.SetLinkForTesting(no_links);
  set.Commit();
  EXPECT_EQ(Read(a), "new a");
  EXPECT_EQ(Mode(a), 0600u);
  EXPECT_EQ(Read(c), "new c");
  EXPECT_EQ(Names(), (std::set<std::string>{"a", "b", "c"}));
}

TEST_F(AtomicFileTest, RefusesTwoNamesOfTheSameFile) {
  fs::create_directory(Path("d"));
  fs::create_directory_symlink(Path("d"), Path("link"));
  const std::string x = Write("d/x", "old");
  ASSERT_EQ(link(x.c_str(), Path("hard").c_str()), 0);
  const std::pair<std::string, std::string> same[] = {
      {x, x},
      {x, dir_ + "/d/./x"},
      {x, Path("link/x")},                // Through a symlinked directory.
      {x, Path("hard")},                  // A hard link: same device and inode.
      {Path("d/new"), Path("link/new")},  // Not there yet: same canonical.
  };
  for (const auto& [first, second] : same) {
    OutputSet set;
    set.Add(first, "one", "--out");
    set.Add(second, "two", "--header");
    const std::string error = CommitError(set);
    EXPECT_EQ(error, "--out " + first + " and --header " + second +
                         ": name the same file; give each output its own");
    EXPECT_EQ(Read(x), "old");
    EXPECT_FALSE(fs::exists(Path("d/new")));
  }
}

TEST_F(AtomicFileTest, RefusesWhatIsNotARegularFileAndWritesNothing) {
  const std::string a = Write("a", "old a");
  fs::create_directory(Path("dir"));
  ASSERT_EQ(mkfifo(Path("fifo").c_str(), 0644), 0);
  fs::create_symlink(a, Path("symlink"));
  fs::create_symlink(Path("nowhere"), Path("dangling"));
  const int sock = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  sockaddr_un addr = {};
  addr.sun_family = AF_UNIX;
  const std::string sock_path = Path("sock");
  ASSERT_LT(sock_path.size(), sizeof addr.sun_path);
  std::strcpy(addr.sun_path, sock_path.c_str());
  ASSERT_EQ(bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  const std::pair<std::string, std::string> refused[] = {
      {Path("dir"), "is a directory"},
      {Path("dir/"), "is a directory"},
      {Path("fifo"), "is a FIFO"},
      {Path("symlink"), "is a symbolic link (not followed)"},
      {Path("dangling"), "is a symbolic link (not followed)"},
      {sock_path, "is a socket"},
  };
  for (const auto& [target, words] : refused) {
    OutputSet set;
    set.Add(a, "new a", "--out");  // Would be fine alone.
    set.Add(target, "x", "--svg");
    EXPECT_EQ(CommitError(set), "--svg " + target + ": " + words +
                                    "; only regular files are replaced");
    EXPECT_EQ(Read(a), "old a");
  }
  close(sock);
  // Each is still what it was.
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(Path("dir"))));
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(Path("fifo"))));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(Path("symlink"))));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(Path("dangling"))));
  EXPECT_FALSE(fs::exists(Path("nowhere")));
  EXPECT_TRUE(fs::is_socket(fs::symlink_status(sock_path)));
  EXPECT_EQ(Names(), (std::set<std::string>{"a", "dir", "fifo", "symlink",
                                            "dangling", "sock"}));
}

TEST_F(AtomicFileTest, RefusesACharacterDevice) {
  // A device node of our own (the null device's numbers) in the temporary
  // directory, so a failing check could never replace the system's.
  const std::string dev = Path("null");
  if (mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
    GTEST_SKIP() << "cannot make a device node here: " << std::strerror(errno);
  }
  OutputSet set;
  set.Add(dev, "x", "--out");
  EXPECT_EQ(CommitError(set), "--out " + dev +
                                  ": is a character device; only regular "
                                  "files are replaced");
  struct stat st = {};
  ASSERT_EQ(lstat(dev.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST_F(AtomicFileTest, RefusesTheSystemNullDeviceWhenNotRoot) {
  // Only unprivileged: then /dev is not writable, so even a failing check
  // could not replace /dev/null.
  if (geteuid() == 0) GTEST_SKIP() << "running as root";
  OutputSet set;
  set.Add("/dev/null", "x", "--out");
  EXPECT_EQ(CommitError(set),
            "--out /dev/null: is a character device; only regular files are "
            "replaced");
}

TEST_F(AtomicFileTest, KeepsTheModeOfAReplacedFileAndUsesTheUmaskForANewOne) {
  const std::string secret = Write("secret", "old", 0600);
  const std::string exec = Write("exec", "old", 0750);
  const mode_t old_mask = umask(027);
  OutputSet set;
  set.Add(secret, "new");
  set.Add(exec, "new");
  set.Add(Path("fresh"), "new");
  set.Commit();
  umask(old_mask);
  EXPECT_EQ(Read(secret), "new");
  EXPECT_EQ(Mode(secret), 0600u);
  EXPECT_EQ(Mode(exec), 0750u);
  EXPECT_EQ(Mode(Path("fresh")), 0640u);  // 0666 & ~027.
}

TEST_F(AtomicFileTest, RefusesAMissingDirectory) {
  OutputSet set;
  set.Add(Path("no/such/dir/file"), "x", "--out");
  EXPECT_EQ(CommitError(set), "--out " + Path("no/such/dir/file") +
                                  ": cannot write: No such file or directory");
  EXPECT_TRUE(Names().empty());
}

TEST_F(AtomicFileTest, SigtermWhileWritingRemovesTheTemporaries) {
  const std::string a = Write("a", "old a");
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    OutputSet set;
    set.Add(a, "new a");
    set.Add(Path("b"), std::string(1 << 20, 'b'));
    // Both temporaries exist when the signal comes.
    set.SetAfterTemporaryForTesting([](std::size_t i) {
      if (i == 1) raise(SIGTERM);
    });
    try {
      set.Commit();
    } catch (...) {
    }
    _exit(0);  // Not reached when the signal ends the process.
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_EQ(Read(a), "old a");
  EXPECT_EQ(Names(), std::set<std::string>{"a"});
}

TEST_F(AtomicFileTest, TemporariesAreHiddenAndNamedAfterTheTarget) {
  OutputSet set;
  set.Add(Path("plan.csv"), "x");
  std::set<std::string> seen;
  set.SetAfterTemporaryForTesting([&](std::size_t) { seen = Names(); });
  set.Commit();
  ASSERT_EQ(seen.size(), 1u);
  const std::string temp = *seen.begin();
  EXPECT_EQ(temp.rfind(".plan.csv.arenaplan-tmp.", 0), 0u) << temp;
  EXPECT_EQ(temp.size(), std::string(".plan.csv.arenaplan-tmp.XXXXXX").size());
}

}  // namespace
}  // namespace arenaplan
