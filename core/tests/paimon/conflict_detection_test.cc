#include "commitlab/core/paimon/conflict_detection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "commitlab/testing/test_util.h"

namespace commitlab::paimon {
namespace {

using ::commitlab::test::Add;
using ::commitlab::test::Del;
using ::commitlab::test::File;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

ConflictContext Ctx(bool primary_key = true) {
  return {"conflict_orders", "compact-job-2", "compact-job-2", primary_key};
}

TableState StateWith(std::vector<DataFile> files) {
  TableState s;
  for (const DataFile& f : files) s.AddLive(f);
  return s;
}

TEST(ConflictDetectionTest, DeletingLiveFilesPasses) {
  TableState base = StateWith({File("a", 0), File("b", 0)});
  EXPECT_TRUE(CheckConflicts(base, {Del(File("a", 0)), Del(File("b", 0)), Add(File("c", 5, 1, 9))}, Ctx()).ok());
}

TEST(ConflictDetectionTest, DeletingAFileAnotherJobDeletedIsAFileDeletionConflict) {
  // S2 第 5 讲, scenario 2 (docs/lectures.md#s2-5-conflict): job-1 already replaced the L0 files with its L5 file.
  TableState base = StateWith({File("data-l5-job1", 5, 1, 3, 3)});
  Status st = CheckConflicts(base, {Del(File("data-0", 0)), Add(File("data-l5-job2", 5, 1, 3, 3))}, Ctx());
  ASSERT_EQ(st.code(), Code::kConflict);
  EXPECT_THAT(st.message(), StartsWith("File deletion conflicts detected! Give up committing."));
  EXPECT_THAT(st.message(), HasSubstr("Base commit user is: compact-job-2; Current commit user is: compact-job-2"));
  EXPECT_THAT(st.message(),
              HasSubstr("Base entries are:\n{kind=ADD, partition=, bucket=0, level=5, fileName=data-l5-job1"));
  EXPECT_THAT(st.message(), HasSubstr("Changes are:\n{kind=DELETE, partition=, bucket=0, level=0, fileName=data-0"));
  EXPECT_THAT(
      st.message(),
      HasSubstr("Caused by: Trying to delete file data-0 for table conflict_orders which is not previously added."));
}

DataFile WithBuckets(DataFile f, int32_t total_buckets, std::string partition = "") {
  f.total_buckets = total_buckets;
  f.partition = std::move(partition);
  return f;
}

// Applies `files` as snapshots 1, 2, ... so that their commit order is known.
TableState Committed(std::vector<DataFile> files) {
  TableState s;
  int64_t id = 0;
  for (const DataFile& f : files) EXPECT_TRUE(s.Apply({.id = ++id, .changes = {Add(f)}}).ok());
  return s;
}

TEST(ConflictDetectionTest, ABucketCountOtherThanThePartitionsGivesUpUnlessOverwriting) {
  TableState base = Committed({WithBuckets(File("a"), 2, "dt=1"), WithBuckets(File("b"), 1, "dt=2")});
  const std::vector<FileChange> delta = {Add(WithBuckets(File("c"), 1, "dt=1"))};
  Status st = CheckConflicts(base, delta, Ctx());
  ASSERT_EQ(st.code(), Code::kConflict);
  EXPECT_THAT(st.message(),
              StartsWith("Total buckets of partition 1 changed from 2 to 1 without overwrite. Give up committing."));
  EXPECT_THAT(st.message(), Not(HasSubstr("Caused by")));
  ConflictContext overwrite = Ctx();
  overwrite.kind = CommitKind::kOverwrite;
  EXPECT_TRUE(CheckConflicts(base, delta, overwrite).ok());
  // Another partition's count is its own; a file without a count (0) is never checked.
  EXPECT_TRUE(CheckConflicts(base, {Add(WithBuckets(File("d"), 1, "dt=2")), Add(File("e"))}, Ctx()).ok());
}

TEST(ConflictDetectionTest, ThePartitionsCountIsItsOldestLiveFiles) {
  // Committed with 1 bucket, then with 2 (an unchecked append): the first count read wins.
  TableState base = Committed({WithBuckets(File("z-old"), 1), WithBuckets(File("a-new"), 2)});
  Status st = CheckConflicts(base, {Add(WithBuckets(File("c", 5), 2))}, Ctx());
  EXPECT_THAT(st.message(), StartsWith("Total buckets of partition  changed from 1 to 2 without overwrite."));
  // Once the old file is gone the partition has one count again.
  ASSERT_TRUE(base.Apply({.id = 3, .changes = {Del(WithBuckets(File("z-old"), 1))}}).ok());
  EXPECT_TRUE(CheckConflicts(base, {Add(WithBuckets(File("c", 5), 2))}, Ctx()).ok());
}

TEST(ConflictDetectionTest, LevelIsPartOfFileIdentity) {
  TableState base = StateWith({File("a", 1)});
  EXPECT_EQ(CheckConflicts(base, {Del(File("a", 0))}, Ctx()).code(), Code::kConflict);
}

TEST(ConflictDetectionTest, AddingALiveFileIsAConflict) {
  TableState base = StateWith({File("a", 0)});
  Status st = CheckConflicts(base, {Add(File("a", 0))}, Ctx(false));
  ASSERT_EQ(st.code(), Code::kConflict);
  EXPECT_THAT(st.message(), HasSubstr("Trying to add file a which is already in the the map"));
}

TEST(ConflictDetectionTest, DeltaThatDeletesTheSameFileTwiceConflicts) {
  TableState base = StateWith({File("a", 0)});
  EXPECT_EQ(CheckConflicts(base, {Del(File("a", 0)), Del(File("a", 0))}, Ctx(false)).code(), Code::kConflict);
}

// ConflictDetection.checkConflicts merges the delta alone first: a file deleted and added again in
// one commit is refused although the base holds it, since scans deduplicate by name.
TEST(ConflictDetectionTest, DeletingAndReAddingOneFileInOneDeltaConflicts) {
  TableState base = StateWith({File("f", 0)});
  Status st = CheckConflicts(base, {Del(File("f", 0)), Add(File("f", 0))}, Ctx(false));
  ASSERT_EQ(st.code(), Code::kConflict);
  EXPECT_THAT(st.message(),
              HasSubstr("Caused by: Trying to add file f which is already in the the map: {kind=DELETE, partition=, "
                        "bucket=0, level=0, fileName=f"));
}

TEST(ConflictDetectionTest, AddingThenDeletingOneFileInOneDeltaPasses) {
  EXPECT_TRUE(CheckConflicts(StateWith({}), {Add(File("f", 0)), Del(File("f", 0))}, Ctx(false)).ok());
}

// mergeEntries fails on an ADD as it meets it; a DELETE that found nothing fails only after the
// merge (checkDeleteInEntries).
TEST(ConflictDetectionTest, AnAddConflictIsReportedBeforeAnEarlierDeleteOfNothing) {
  TableState base = StateWith({File("a", 0)});
  Status st = CheckConflicts(base, {Del(File("gone", 0)), Add(File("a", 0))}, Ctx(false));
  ASSERT_EQ(st.code(), Code::kConflict);
  EXPECT_THAT(st.message(), HasSubstr("Caused by: Trying to add file a which is already in the the map"));
}

// mergeEntries: a second DELETE of a file already deleted in this delta removes the leftover
// DELETE again, so three DELETEs of a live file leave nothing over; a later ADD meets the
// leftover DELETE in the map.
TEST(ConflictDetectionTest, RepeatedDeletesFollowMergeEntries) {
  TableState base = StateWith({File("x", 0)});
  EXPECT_TRUE(CheckConflicts(base, {Del(File("x", 0)), Del(File("x", 0)), Del(File("x", 0))}, Ctx(false)).ok());
  Status st = CheckConflicts(base, {Del(File("x", 0)), Del(File("x", 0)), Add(File("x", 0))}, Ctx(false));
  ASSERT_EQ(st.code(), Code::kConflict);
  EXPECT_THAT(st.message(), HasSubstr("Caused by: Trying to add file x which is already in the the map: {kind=DELETE"));
}

TEST(ConflictDetectionTest, LsmOverlapInTheSameLevelConflicts) {
  // S2 第 5 讲's self-test (docs/lectures.md#s2-5-self-test): job-1 put [1,20] into L5; job-2 compacts file 2
  // into L5 as [15,30].
  TableState base = StateWith({File("l5-job1", 5, 1, 20), File("l0-2", 0, 15, 30)});
  Status st = CheckConflicts(base, {Del(File("l0-2", 0, 15, 30)), Add(File("l5-job2", 5, 15, 30))}, Ctx());
  ASSERT_EQ(st.code(), Code::kConflict);
  EXPECT_THAT(st.message(), StartsWith("LSM conflicts detected! Give up committing. Conflict files are:\n"));
  EXPECT_THAT(st.message(), HasSubstr("level 5, file l5-job1"));
  EXPECT_THAT(st.message(), HasSubstr("level 5, file l5-job2"));
}

TEST(ConflictDetectionTest, TouchingKeyRangesConflict) {
  TableState base = StateWith({File("x", 1, 1, 10)});
  EXPECT_EQ(CheckConflicts(base, {Add(File("y", 1, 10, 20))}, Ctx()).code(), Code::kConflict);
}

TEST(ConflictDetectionTest, DisjointKeyRangesPass) {
  TableState base = StateWith({File("x", 1, 1, 10)});
  EXPECT_TRUE(CheckConflicts(base, {Add(File("y", 1, 11, 20))}, Ctx()).ok());
}

TEST(ConflictDetectionTest, LevelZeroMayOverlap) {
  TableState base = StateWith({File("x", 0, 1, 10)});
  EXPECT_TRUE(CheckConflicts(base, {Add(File("y", 0, 1, 10))}, Ctx()).ok());
}

TEST(ConflictDetectionTest, OverlapAcrossBucketsOrLevelsIsFine) {
  TableState base = StateWith({File("x", 1, 1, 10, 1, /*bucket=*/0)});
  EXPECT_TRUE(CheckConflicts(base, {Add(File("y", 1, 1, 10, 1, /*bucket=*/1))}, Ctx()).ok());
  EXPECT_TRUE(CheckConflicts(base, {Add(File("z", 2, 1, 10))}, Ctx()).ok());
}

TEST(ConflictDetectionTest, AppendOnlyTablesSkipTheLsmCheck) {
  TableState base = StateWith({File("x", 1, 1, 10)});
  EXPECT_TRUE(CheckConflicts(base, {Add(File("y", 1, 5, 20))}, Ctx(/*primary_key=*/false)).ok());
}

TEST(ConflictDetectionTest, ReplacingAnOverlappingFileInTheSameDeltaPasses) {
  TableState base = StateWith({File("x", 1, 1, 10)});
  EXPECT_TRUE(CheckConflicts(base, {Del(File("x", 1, 1, 10)), Add(File("y", 1, 1, 10))}, Ctx()).ok());
}

TEST(ConflictDetectionTest, LongListsAreCutAtFiftyEntries) {
  std::vector<FileChange> delta;
  for (int i = 0; i < 60; ++i) delta.push_back(Del(File("gone-" + std::to_string(i))));
  Status st = CheckConflicts(TableState(), delta, Ctx(false));
  ASSERT_EQ(st.code(), Code::kConflict);
  EXPECT_THAT(st.message(), HasSubstr("gone-49"));
  EXPECT_THAT(st.message(), ::testing::Not(HasSubstr("gone-50,")));
  EXPECT_THAT(st.message(), HasSubstr("The entry list above are not fully displayed"));
}

}  // namespace
}  // namespace commitlab::paimon
