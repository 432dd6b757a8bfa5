#include "commitlab/core/file_write.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

#include "commitlab/core/file_read.h"

namespace commitlab {
namespace {

namespace fs = std::filesystem;

class FileWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("file_write_test-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
    return names;
  }
  std::string Read(const std::string& path) { return ReadRegularFile(path, 1 << 20).value(); }
  fs::path dir_;
};

TEST_F(FileWriteTest, ReplacesTheFileAndLeavesNoTemporary) {
  const std::string path = (dir_ / "f.txt").string();
  ASSERT_TRUE(WriteFileAtomically(path, "old").ok());
  ASSERT_TRUE(WriteFileAtomically(path, "new content").ok());
  EXPECT_EQ(Read(path), "new content");
  EXPECT_EQ(Names(), std::vector<std::string>{"f.txt"});
}

TEST_F(FileWriteTest, TheTemporaryIsHiddenBesideTheFileAndUniqueEachTime) {
  const std::string path = (dir_ / "snapshot-1").string();
  std::vector<std::string> synced;
  Result<std::string> a = WriteTempBeside(path, "a", true, [&](const std::string& p) { synced.push_back(p); });
  Result<std::string> b = WriteTempBeside(path, "b", false, [&](const std::string& p) { synced.push_back(p); });
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(*a, *b);
  EXPECT_EQ(fs::path(*a).parent_path(), dir_);
  EXPECT_TRUE(fs::path(*a).filename().string().starts_with(".snapshot-1."));
  EXPECT_TRUE(a->ends_with(".tmp"));
  EXPECT_EQ(Read(*a), "a");
  EXPECT_EQ(Read(*b), "b");
  EXPECT_EQ(synced, std::vector<std::string>{*a});  // only the one asked to sync
  EXPECT_FALSE(fs::exists(path));                   // the caller moves it into place
}

TEST_F(FileWriteTest, AnErrorNamesTheFileNotItsTemporary) {
  const std::string path = (dir_ / "missing" / "f.txt").string();
  Status st = WriteFileAtomically(path, "x");
  EXPECT_EQ(st.code(), Code::kIOError);
  EXPECT_EQ(st.message(), "cannot write " + path + ": No such file or directory");
}

TEST_F(FileWriteTest, AFolderInTheWayKeepsItAndLeavesNoTemporary) {
  fs::create_directories(dir_ / "d");
  Status st = WriteFileAtomically((dir_ / "d").string(), "x");
  EXPECT_EQ(st.message(), "cannot write " + (dir_ / "d").string() + ": Is a directory");
  EXPECT_TRUE(fs::is_directory(dir_ / "d"));
  EXPECT_EQ(Names(), std::vector<std::string>{"d"});
}

// A write cut short (here by a file-size limit; a full disk is the same) leaves the old file whole.
// A rename replaces a name, not what it points at: a device node, a FIFO or a symbolic link at the
// path is someone else's, and is left as it was.
TEST_F(FileWriteTest, WhatIsNotARegularFileIsNeverReplaced) {
  Status dev = WriteFileAtomically("/dev/null", "x");
  EXPECT_EQ(dev.code(), Code::kInvalidArgument);
  EXPECT_EQ(dev.message(), "cannot write /dev/null: it is a character device, not a regular file; not replacing it");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));

  const fs::path fifo = dir_ / "fifo", link = dir_ / "link", target = dir_ / "target.txt";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  ASSERT_TRUE(WriteFileAtomically(target.string(), "theirs").ok());
  fs::create_symlink(target, link);
  EXPECT_EQ(WriteFileAtomically(fifo.string(), "x").message(),
            "cannot write " + fifo.string() + ": it is a FIFO, not a regular file; not replacing it");
  EXPECT_EQ(WriteFileAtomically(link.string(), "x").message(),
            "cannot write " + link.string() + ": it is a symbolic link, not a regular file; not replacing it");
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(*ReadRegularFile(target.string(), 100), "theirs");
  EXPECT_TRUE(CheckReplaceable(target.string()).ok());
  EXPECT_TRUE(CheckReplaceable((dir_ / "new-name").string()).ok());
}

TEST_F(FileWriteTest, AShortWriteLeavesTheOldFileAsItWas) {
  const std::string path = (dir_ / "f.txt").string();
  ASSERT_TRUE(WriteFileAtomically(path, "old").ok());
  struct rlimit old_limit;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  struct rlimit small = old_limit;
  small.rlim_cur = 4;
  auto* old_handler = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  Status st = WriteFileAtomically(path, "longer than four bytes");
  ::setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(st.message(), "cannot write " + path + ": File too large");
  EXPECT_EQ(Read(path), "old");
  EXPECT_EQ(Names(), std::vector<std::string>{"f.txt"});
}

}  // namespace
}  // namespace commitlab
