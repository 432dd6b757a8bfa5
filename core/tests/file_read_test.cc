#include "commitlab/core/file_read.h"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace commitlab {
namespace {

class FileReadTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) / ("file_read_test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(FileReadTest, ReadsAWholeFileUpToItsLimit) {
  const std::string path = Write("f", "hello");
  Result<std::string> r = ReadRegularFile(path, 5);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, "hello");
  Result<std::string> over = ReadRegularFile(path, 4);
  EXPECT_EQ(over.status().code(), Code::kCorruption);
  EXPECT_EQ(over.status().message(), path + ": file is larger than 4 bytes");
}

TEST_F(FileReadTest, APrefixStopsAtItsLength) {
  const std::string path = Write("f", "{\"type\":\"header\"} and more");
  Result<std::string> r = ReadRegularFilePrefix(path, 6);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "{\"type");
}

TEST_F(FileReadTest, AMissingFileIsNotFoundNamingThePath) {
  Result<std::string> r = ReadRegularFile((dir_ / "absent").string(), 10);
  EXPECT_EQ(r.status().code(), Code::kNotFound);
  EXPECT_EQ(r.status().message(), (dir_ / "absent").string());
}

// A FIFO would block the open until a writer came; a device would never end; a directory is not
// a file: each is refused at once.
TEST_F(FileReadTest, FifosDevicesAndDirectoriesAreRefusedWithoutBlocking) {
  const std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const auto& [path, kind] : std::vector<std::pair<std::string, std::string>>{
           {fifo, "FIFO"}, {"/dev/zero", "character device"}, {dir_.string(), "directory"}}) {
    Result<std::string> r = ReadRegularFile(path, 1 << 20);
    EXPECT_EQ(r.status().code(), Code::kCorruption) << path;
    EXPECT_EQ(r.status().message(), path + ": not a regular file (a " + kind + ")");
    EXPECT_EQ(ReadRegularFilePrefix(path, 16).status().code(), Code::kCorruption) << path;
  }
}

}  // namespace
}  // namespace commitlab
