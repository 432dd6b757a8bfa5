#include "commitlab/core/paimon/live_writers.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace commitlab {
namespace {

namespace fs = std::filesystem;

int64_t NowMicros() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000 + ts.tv_nsec / 1000;
}

int64_t MtimeMicros(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000 + st.st_mtim.tv_nsec / 1000;
}

void SetMtime(const std::string& path, int64_t seconds_ago) {
  const struct timespec times[2] = {{0, UTIME_OMIT}, {::time(nullptr) - seconds_ago, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

class LiveWritersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "commitlab-live-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern + "/lock";
  }
  void TearDown() override { fs::remove_all(fs::path(dir_).parent_path()); }
  std::string dir_;
};

// Without live writers every file written before the look may go, and none written after it.
TEST_F(LiveWritersTest, WithoutWritersTheCutoffIsTheMomentOfTheLook) {
  fs::create_directories(dir_);
  const std::string before = dir_ + "/../before", after = dir_ + "/../after";
  std::ofstream(before) << "x";
  SetMtime(before, 1);
  Result<LiveWriters> none = FindLiveWriters(dir_);
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_EQ(none->live, 0);
  std::ofstream(after) << "x";
  EXPECT_LT(MtimeMicros(before), none->cutoff_micros);
  EXPECT_GE(MtimeMicros(after), none->cutoff_micros);
  EXPECT_LE(none->cutoff_micros, NowMicros());
  EXPECT_TRUE(FindLiveWriters(dir_ + "/absent").ok());  // no lock directory: no writer ever joined
}

TEST_F(LiveWritersTest, TheCutoffIsTheEarliestLiveWritersStart) {
  Result<LiveWriter> old_writer = LiveWriter::Join(dir_);
  ASSERT_TRUE(old_writer.ok()) << old_writer.status().ToString();
  SetMtime(old_writer->path(), 3600);  // joined an hour ago
  Result<LiveWriter> new_writer = LiveWriter::Join(dir_);
  ASSERT_TRUE(new_writer.ok());
  Result<LiveWriters> found = FindLiveWriters(dir_);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->live, 2);
  EXPECT_EQ(found->cutoff_micros, MtimeMicros(old_writer->path()) - 1'000'000);
}

// What a live writer writes after it joined is never below the cut-off, however old the look.
TEST_F(LiveWritersTest, FilesALiveWriterWroteAreNeverBelowTheCutoff) {
  Result<LiveWriter> w = LiveWriter::Join(dir_);
  ASSERT_TRUE(w.ok());
  const std::string file = dir_ + "/../data-1.parquet";
  std::ofstream(file) << "x";
  Result<LiveWriters> found = FindLiveWriters(dir_);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->live, 1);
  EXPECT_GE(MtimeMicros(file), found->cutoff_micros);
}

TEST_F(LiveWritersTest, AWriterThatLeftIsNoLongerLiveAndItsFileIsGone) {
  std::string path;
  {
    Result<LiveWriter> w = LiveWriter::Join(dir_);
    ASSERT_TRUE(w.ok());
    path = w->path();
    EXPECT_TRUE(fs::exists(path));
    LiveWriter moved = std::move(w).value();  // a moved writer is still live
    ASSERT_EQ(FindLiveWriters(dir_)->live, 1);
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(FindLiveWriters(dir_)->live, 0);
}

// kill -9 leaves the .live file behind, unlocked: the next look counts it as ended and removes it.
TEST_F(LiveWritersTest, AKilledWritersFileIsCountedAsEndedAndRemoved) {
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    Result<LiveWriter> w = LiveWriter::Join(dir_);
    const char c = w.ok() ? 'y' : 'n';
    (void)!::write(ready[1], &c, 1);
    ::pause();
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ASSERT_EQ(c, 'y');
  Result<LiveWriters> while_alive = FindLiveWriters(dir_);
  ASSERT_TRUE(while_alive.ok());
  EXPECT_EQ(while_alive->live, 1);
  ASSERT_EQ(::kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  Result<LiveWriters> after = FindLiveWriters(dir_);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->live, 0);
  EXPECT_EQ(after->stale_removed, 1);
  EXPECT_TRUE(fs::is_empty(dir_));
  ::close(ready[0]);
  ::close(ready[1]);
}

// Only writer-*.live files count: the user claims and anything else in lock/ are not writers.
TEST_F(LiveWritersTest, OtherFilesInTheLockDirectoryAreIgnored) {
  fs::create_directories(dir_);
  std::ofstream(dir_ + "/user-job-A.lock") << "123\n";
  std::ofstream(dir_ + "/writer-notes.txt") << "x";
  fs::create_directory(dir_ + "/writer-1-0.live");  // a directory, not a writer's file
  Result<LiveWriters> found = FindLiveWriters(dir_);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->live, 0);
  EXPECT_TRUE(fs::exists(dir_ + "/user-job-A.lock"));
  EXPECT_TRUE(fs::is_directory(dir_ + "/writer-1-0.live"));
}

}  // namespace
}  // namespace commitlab
