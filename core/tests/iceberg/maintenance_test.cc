#include "commitlab/core/iceberg/maintenance.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "commitlab/core/iceberg/apply.h"
#include "commitlab/core/iceberg/reader.h"
#include "commitlab/testing/iceberg_test_util.h"

namespace commitlab::iceberg {
namespace {

using ::commitlab::iceberg::test::IcebergFixture;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class IcebergMaintenanceTest : public IcebergFixture {
 protected:
  // S1 appends f1 (x = 1); S2 replaces it with f2 (x = 2).
  void SetUp() override {
    f1_ = Data("f1", {{{"x", int64_t{1}}}});
    f2_ = Data("f2", {{{"x", int64_t{2}}}});
    ASSERT_TRUE(writer_.Commit(NewAppend(*Current(), {f1_})).ok());
    s1_ = *Current()->current_snapshot_id;
    ASSERT_TRUE(writer_.Commit(NewRewrite(*Current(), {f1_}, {f2_})).ok());
  }
  Result<PinnedReader> Open(std::optional<int64_t> snapshot_id = std::nullopt) {
    return PinnedReader::Open(&catalog_, &io_, &env_, snapshot_id);
  }

  IcebergCommitter writer_ = Make("writer");
  IcebergCommitter maintenance_ = Make("maintenance");
  FileRef f1_, f2_;
  int64_t s1_ = 0;
};

TEST_F(IcebergMaintenanceTest, OrphanCleanupKeepsEveryFileARetainedSnapshotReaches) {
  // f1 is no longer live, but S1 still references it.
  FileRef lost = Data("never-committed");
  Result<std::vector<std::string>> removed = RemoveOrphanFiles(&catalog_, &io_, &env_);
  ASSERT_TRUE(removed.ok());
  EXPECT_THAT(*removed, ElementsAre(lost->path()));
  EXPECT_TRUE(io_.Exists(f1_->path()));
  EXPECT_TRUE(io_.Exists(f2_->path()));
  for (const SnapshotRef& s : Current()->snapshots) {
    EXPECT_TRUE(io_.Exists(s->manifest_list));
    for (const ManifestRef& m : s->manifests) EXPECT_TRUE(io_.Exists(m->path));
  }
  EXPECT_TRUE(io_.Exists(Current()->location));
  EXPECT_TRUE(io_.Exists(Current()->metadata_log.back()));
  ASSERT_TRUE(Open(s1_).ok());
  EXPECT_TRUE(Open(s1_)->ReadAll().ok());
}

TEST_F(IcebergMaintenanceTest, OrphanCleanupSparesFilesNewerThanItsCutOff) {
  env_.SleepMicros(1'000'000);
  const int64_t cut_off = env_.NowMicros();
  FileRef in_flight = Data("in-flight");  // a writer's file whose commit has not landed yet
  EXPECT_TRUE(RemoveOrphanFiles(&catalog_, &io_, &env_, cut_off)->empty());
  EXPECT_TRUE(io_.Exists(in_flight->path()));
  EXPECT_THAT(FindOrphanFiles(*Current(), io_.List()), ElementsAre(in_flight->path()));
}

TEST_F(IcebergMaintenanceTest, APinnedReaderSeesExactlyItsSnapshotWhileWritersCommit) {
  Result<PinnedReader> reader = Open();
  ASSERT_TRUE(reader.ok());
  const int64_t pinned = *reader->snapshot_id();
  ASSERT_TRUE(writer_.Commit(NewAppend(*Current(), {Data("f3", {{{"x", int64_t{3}}}})})).ok());
  ASSERT_TRUE(writer_.Commit(NewDeleteFiles(*Current(), {f2_})).ok());
  EXPECT_EQ(reader->snapshot_id(), pinned);
  ASSERT_EQ(reader->files().size(), 1u);
  EXPECT_EQ(reader->files()[0]->path(), f2_->path());
  EXPECT_EQ(*reader->ReadAll(), (std::vector<Row>{{{"x", int64_t{2}}}}));
  EXPECT_EQ(ReadAll(), (std::vector<Row>{{{"x", int64_t{3}}}}));
}

TEST_F(IcebergMaintenanceTest, ExpiryWithoutRetentionBreaksALongReader) {
  Result<PinnedReader> reader = Open(s1_);  // a long scan of S1, planned before the expiry
  ASSERT_TRUE(reader.ok());
  const std::string s1_list = Current()->FindSnapshot(s1_)->manifest_list;
  const std::string s1_manifest = Current()->FindSnapshot(s1_)->manifests[0]->path;

  Result<ExpireResult> expired = ExpireSnapshots(&maintenance_, {.retain_last = 1});
  ASSERT_TRUE(expired.ok()) << expired.status().ToString();
  EXPECT_THAT(expired->expired_snapshot_ids, ElementsAre(s1_));
  std::vector<std::string> deleted = {f1_->path(), s1_manifest, s1_list};
  std::sort(deleted.begin(), deleted.end());
  EXPECT_EQ(expired->deleted_files, deleted);
  EXPECT_EQ(Current()->snapshots.size(), 1u);
  EXPECT_EQ(maintenance_.stats().committed, 0);  // the expiry commits metadata, not a snapshot

  Result<std::vector<Row>> rows = reader->ReadAll();
  ASSERT_EQ(rows.status().code(), Code::kNotFound);
  EXPECT_EQ(rows.status().message(),
            fmt::format("FileNotFoundException: File does not exist: data/f1.parquet (snapshot {} was expired while "
                        "this reader was pinned to it; a retention that keeps it "
                        "(history.expire.min-snapshots-to-keep, max-snapshot-age-ms) protects long readers)",
                        s1_));
  EXPECT_EQ(Open(s1_).status().message(), fmt::format("Cannot find snapshot with ID {}", s1_));
  EXPECT_EQ(ReadAll(), (std::vector<Row>{{{"x", int64_t{2}}}}));  // the current snapshot is whole
}

TEST_F(IcebergMaintenanceTest, ARetentionThatKeepsTheSnapshotProtectsALongReader) {
  Result<PinnedReader> reader = Open(s1_);
  ASSERT_TRUE(reader.ok());
  const int64_t version = Current()->version;
  Result<ExpireResult> by_count = ExpireSnapshots(&maintenance_, {.retain_last = 2});
  ASSERT_TRUE(by_count.ok());
  EXPECT_TRUE(by_count->expired_snapshot_ids.empty());
  EXPECT_EQ(Current()->version, version);  // nothing to expire, nothing committed
  // By age: S1 is not older than the cut-off, so it stays although retain_last is 1.
  Result<ExpireResult> by_age = ExpireSnapshots(&maintenance_, {.retain_last = 1, .older_than_ms = 0});
  ASSERT_TRUE(by_age.ok());
  EXPECT_TRUE(by_age->deleted_files.empty());
  EXPECT_EQ(*reader->ReadAll(), (std::vector<Row>{{{"x", int64_t{1}}}}));
}

TEST_F(IcebergMaintenanceTest, ExpiryKeepsFilesTheRetainedSnapshotsStillReach) {
  FileRef f3 = Data("f3");
  ASSERT_TRUE(writer_.Commit(NewAppend(*Current(), {f3})).ok());
  const SnapshotRef s2 = Current()->FindSnapshot(*Current()->CurrentSnapshot()->parent_id);
  Result<ExpireResult> expired = ExpireSnapshots(&maintenance_, {.retain_last = 1});
  ASSERT_TRUE(expired.ok());
  EXPECT_EQ(expired->expired_snapshot_ids.size(), 2u);
  // f2 and S2's manifest are still live in S3: only S2's manifest list goes, with S1's files.
  EXPECT_TRUE(io_.Exists(f2_->path()));
  EXPECT_TRUE(io_.Exists(s2->manifests[0]->path));
  EXPECT_FALSE(io_.Exists(s2->manifest_list));
  EXPECT_FALSE(io_.Exists(f1_->path()));
  EXPECT_EQ(ReadAll().size(), 1u);
  EXPECT_TRUE(FindOrphanFiles(*Current(), io_.List()).empty());
}

TEST_F(IcebergMaintenanceTest, AFileDeletedOutsideExpiryIsReportedAsSuch) {
  Result<PinnedReader> reader = Open();
  ASSERT_TRUE(reader.ok());
  ASSERT_TRUE(io_.Delete(f2_->path()).ok());
  EXPECT_THAT(
      reader->ReadAll().status().message(),
      AllOf(StartsWith("FileNotFoundException: File does not exist: data/f2.parquet"), HasSubstr("is still retained")));
}

TEST_F(IcebergMaintenanceTest, SnapshotsToExpireKeepsTheNewestAncestors) {
  ASSERT_TRUE(writer_.Commit(NewAppend(*Current(), {Data("f3")})).ok());
  const TableMetadata& m = *Current();
  EXPECT_THAT(SnapshotsToExpire(m, {.retain_last = 1}),
              ElementsAre(m.snapshots[0]->snapshot_id, m.snapshots[1]->snapshot_id));
  EXPECT_THAT(SnapshotsToExpire(m, {.retain_last = 2}), ElementsAre(m.snapshots[0]->snapshot_id));
  EXPECT_TRUE(SnapshotsToExpire(m, {.retain_last = 3}).empty());
  EXPECT_TRUE(SnapshotsToExpire(m, {.retain_last = 1, .older_than_ms = 0}).empty());
}

}  // namespace
}  // namespace commitlab::iceberg
