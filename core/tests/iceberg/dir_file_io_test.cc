#include "commitlab/core/iceberg/dir_file_io.h"

#include <stdlib.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace commitlab::iceberg {
namespace {

using ::testing::HasSubstr;

class DirFileIOTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/commitlab-fileio-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    root_ = dir;
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  std::string root_;
};

TEST_F(DirFileIOTest, ADataFileReadsBackWithItsRowsFromAnotherInstance) {
  DirFileIO a(root_), b(root_);
  FileRef f = MakeDataFile("data/x.parquet", {{{"name", std::string("hits")}, {"value", int64_t{15}}}}, "dt=1");
  ASSERT_TRUE(
      a.Write({.path = f->path(), .kind = FileKind::kData, .written_micros = 7, .writer = "w", .data = f}).ok());
  Result<FileRef> back = b.ReadDataFile("data/x.parquet");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ((*back)->rows, f->rows);
  EXPECT_EQ((*back)->file.partition, "dt=1");
  ASSERT_TRUE(a.Write({.path = "metadata/snap-1.avro", .kind = FileKind::kManifestList, .writer = "w"}).ok());
  std::vector<StoredFile> all = b.List();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].path, "data/x.parquet");
  EXPECT_EQ(all[0].written_micros, 7);
  EXPECT_EQ(all[1].kind, FileKind::kManifestList);
}

TEST_F(DirFileIOTest, APathIsWrittenOnceAndStaysInsideTheRoot) {
  DirFileIO io(root_);
  FileRef f = MakeDataFile("data/x.parquet", {});
  ASSERT_TRUE(io.Write({.path = f->path(), .data = f}).ok());
  Status again = io.Write({.path = f->path(), .data = f});
  EXPECT_EQ(again.code(), Code::kInvalidArgument);
  EXPECT_EQ(again.message(), "File already exists: data/x.parquet");
  EXPECT_EQ(io.Write({.path = "../outside", .data = f}).code(), Code::kInvalidArgument);
  EXPECT_FALSE(io.Exists("../outside"));
  ASSERT_TRUE(io.Delete(f->path()).ok());
  EXPECT_EQ(io.Delete(f->path()).code(), Code::kNotFound);
  EXPECT_EQ(io.ReadDataFile(f->path()).status().code(), Code::kNotFound);
}

TEST_F(DirFileIOTest, AFileItDidNotWriteIsCorruptionNamingIt) {
  std::filesystem::create_directories(root_ + "/data");
  std::ofstream(root_ + "/data/junk.parquet") << "PAR1";
  DirFileIO io(root_);
  Result<FileRef> r = io.ReadDataFile("data/junk.parquet");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kCorruption);
  EXPECT_THAT(r.status().message(), HasSubstr("data/junk.parquet: not a file of this table"));
  EXPECT_TRUE(io.List().empty());
}

}  // namespace
}  // namespace commitlab::iceberg
