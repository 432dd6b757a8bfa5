#include "commitlab/report/replace_files.h"

#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace commitlab::report {
namespace {

namespace fs = std::filesystem;

class ReplaceFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("commitlab-replace-files-{}", getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Read(const std::string& name) const {
    std::ifstream f(dir_ / name, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
  }
  // Every entry of the folder, hidden ones (temporaries) included.
  std::set<std::string> Listing() const {
    std::set<std::string> out;
    for (const fs::directory_entry& e : fs::directory_iterator(dir_)) out.insert(e.path().filename().string());
    return out;
  }

  fs::path dir_;
};

TEST_F(ReplaceFilesTest, WritesNewFilesAndReplacesOldOnesLeavingNoTemporary) {
  Write("a.txt", "old a, longer than the new text");
  const std::vector<FileText> files = {{dir_ / "a.txt", "new a"}, {dir_ / "b.txt", "new b"}};
  ASSERT_TRUE(ReplaceFiles(files).ok());
  EXPECT_EQ(Read("a.txt"), "new a");
  EXPECT_EQ(Read("b.txt"), "new b");
  EXPECT_EQ(Listing(), (std::set<std::string>{"a.txt", "b.txt"}));
}

TEST_F(ReplaceFilesTest, AFailedWriteKeepsEveryOldFileAndLeavesNoTemporary) {
  Write("a.txt", "old a");
  Write("b.txt", "old b");
  // A file-size limit makes write() fail with EFBIG part-way, as a full disk would (ENOSPC), and
  // unlike a permission it also holds for root.
  rlimit saved{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
  rlimit small = saved;
  small.rlim_cur = 1000;
  auto* const old_handler = std::signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  const std::vector<FileText> files = {{dir_ / "a.txt", "new a"}, {dir_ / "b.txt", std::string(5000, 'b')}};
  const Status st = ReplaceFiles(files);
  setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);

  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), fmt::format("cannot write {}: File too large", (dir_ / "b.txt").string()));
  EXPECT_EQ(Read("a.txt"), "old a");  // written before b failed, but never renamed into place
  EXPECT_EQ(Read("b.txt"), "old b");
  EXPECT_EQ(Listing(), (std::set<std::string>{"a.txt", "b.txt"}));
}

TEST_F(ReplaceFilesTest, AMissingFolderIsAnErrorNamingTheFile) {
  const std::vector<FileText> files = {{dir_ / "a.txt", "a"}, {dir_ / "nope" / "b.txt", "b"}};
  const Status st = ReplaceFiles(files);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(),
            fmt::format("cannot write {}: No such file or directory", (dir_ / "nope" / "b.txt").string()));
  EXPECT_EQ(Listing(), std::set<std::string>{});
}

TEST_F(ReplaceFilesTest, AFolderInTheWayIsAnErrorBeforeAnyFileIsReplaced) {
  Write("a.txt", "old a");
  fs::create_directory(dir_ / "b.txt");
  const std::vector<FileText> files = {{dir_ / "a.txt", "new a"}, {dir_ / "b.txt", "b"}};
  const Status st = ReplaceFiles(files);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), fmt::format("cannot write {}: Is a directory", (dir_ / "b.txt").string()));
  EXPECT_EQ(Read("a.txt"), "old a");
  EXPECT_EQ(Listing(), (std::set<std::string>{"a.txt", "b.txt"}));
}

TEST_F(ReplaceFilesTest, CheckWritableDirLeavesNothingAndRefusesWhatIsNotAFolder) {
  EXPECT_TRUE(CheckWritableDir(dir_).ok());
  EXPECT_EQ(Listing(), std::set<std::string>{});
  Write("file", "x");
  const Status st = CheckWritableDir(dir_ / "file");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), fmt::format("cannot write into {}: Not a directory", (dir_ / "file").string()));
}

}  // namespace
}  // namespace commitlab::report
