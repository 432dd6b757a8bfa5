#include "commitlab/core/iceberg/file_io.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace commitlab::iceberg {
namespace {

TEST(InMemoryFileIOTest, AWrittenPathIsFoundByItsPathAndCannotBeWrittenAgain) {
  InMemoryFileIO io;
  FileRef f = MakeDataFile("data/x.parquet", {});
  ASSERT_TRUE(io.Write({.path = "data/x.parquet", .kind = FileKind::kData, .writer = "w1", .data = f}).ok());
  ASSERT_TRUE(io.Write({.path = "metadata/snap-1.avro", .kind = FileKind::kManifestList}).ok());

  Status again = io.Write({.path = "data/x.parquet", .kind = FileKind::kData, .writer = "w2"});
  EXPECT_EQ(again.code(), Code::kInvalidArgument);
  EXPECT_EQ(again.message(), "File already exists: data/x.parquet");
  Result<FileRef> read = io.ReadDataFile("data/x.parquet");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, f);  // the first write stands
  EXPECT_EQ(io.ReadDataFile("metadata/snap-1.avro").status().code(), Code::kInvalidArgument);
  EXPECT_EQ(io.ReadDataFile("data/y.parquet").status().code(), Code::kNotFound);
}

TEST(InMemoryFileIOTest, DeleteRemovesOnlyThatPathAndListIsInPathOrder) {
  InMemoryFileIO io;
  for (const char* path : {"m/c", "m/a", "m/b"}) ASSERT_TRUE(io.Write({.path = path}).ok());
  ASSERT_TRUE(io.Delete("m/a").ok());
  EXPECT_EQ(io.Delete("m/a").code(), Code::kNotFound);
  EXPECT_FALSE(io.Exists("m/a"));
  EXPECT_TRUE(io.Exists("m/b"));
  std::vector<std::string> listed;
  for (const StoredFile& f : io.List()) listed.push_back(f.path);
  EXPECT_EQ(listed, (std::vector<std::string>{"m/b", "m/c"}));
  ASSERT_TRUE(io.Write({.path = "m/a"}).ok());  // a deleted path may be written anew
}

TEST(InMemoryFileIOTest, ForgettingMetadataKeepsDataFilesOnly) {
  InMemoryFileIO io(InMemoryFileIO::Threads::kOne, InMemoryFileIO::Metadata::kForget);
  FileRef f = MakeDataFile("data/x.parquet", {});
  ASSERT_TRUE(io.Write({.path = "data/x.parquet", .kind = FileKind::kData, .data = f}).ok());
  for (FileKind kind : {FileKind::kManifest, FileKind::kManifestList, FileKind::kMetadata})
    ASSERT_TRUE(io.Write({.path = "metadata/" + std::string(FileKindName(kind)), .kind = kind}).ok());

  EXPECT_FALSE(io.Exists("metadata/manifest-list"));
  std::vector<std::string> listed;
  for (const StoredFile& s : io.List()) listed.push_back(s.path);
  EXPECT_EQ(listed, (std::vector<std::string>{"data/x.parquet"}));
  EXPECT_TRUE(io.Delete("metadata/manifest-list").ok());  // written, not kept: deleting it is no error
  Result<FileRef> read = io.ReadDataFile("data/x.parquet");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(*read, f);
  EXPECT_EQ(io.Write({.path = "data/x.parquet", .kind = FileKind::kData}).code(), Code::kInvalidArgument);
  ASSERT_TRUE(io.Delete("data/x.parquet").ok());
  EXPECT_FALSE(io.Exists("data/x.parquet"));
}

}  // namespace
}  // namespace commitlab::iceberg
