#include "commitlab/core/iceberg/validation.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>

#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/maintenance.h"
#include "commitlab/testing/iceberg_test_util.h"

namespace commitlab::iceberg {
namespace {

using ::commitlab::iceberg::test::IcebergFixture;
using ::testing::HasSubstr;

}  // namespace

// Names the parameter in gtest's output.
void PrintTo(IsolationLevel level, std::ostream* os) { *os << IsolationLevelName(level); }

namespace {

Expression Partition(const std::string& value) { return Expression::Equal("p", value); }

// Two writers build their operations from the same metadata; the first commits, then the second
// tries: its (first) attempt refreshes and validates the first one's snapshot, as a retry would.
class IcebergValidationTest : public IcebergFixture {
 protected:
  void SetUp() override {
    IcebergCommitter setup = Make("setup");
    a0_ = Data("a0", {{{"x", int64_t{1}}}}, "p=a");
    b0_ = Data("b0", {{{"x", int64_t{2}}}}, "p=b");
    ASSERT_TRUE(setup.Commit(NewAppend(*Current(), {a0_, b0_})).ok());
    base_ = Current();
  }
  Status CommitAs(const std::string& writer, const Operation& op) {
    IcebergCommitter c = Make(writer);
    Result<CommitResult> r = c.Commit(op);
    if (!r.ok()) {
      // A refusal is final: no wait, no second attempt.
      EXPECT_EQ(c.stats().attempts, 1);
      EXPECT_EQ(c.stats().conflicts, 1);
    }
    return r.status();
  }

  FileRef a0_, b0_;
  MetadataRef base_;
};

class IcebergValidationByLevelTest : public IcebergValidationTest,
                                     public ::testing::WithParamInterface<IsolationLevel> {};

INSTANTIATE_TEST_SUITE_P(Iceberg, IcebergValidationByLevelTest,
                         ::testing::Values(IsolationLevel::kSerializable, IsolationLevel::kSnapshot),
                         [](const auto& level) { return std::string(IsolationLevelName(level.param)); });

TEST_P(IcebergValidationByLevelTest, OverwritesOfTheSamePartitionRefuseTheLoser) {
  FileRef a1 = Data("a1", OneRow(), "p=a");
  FileRef a2 = Data("a2", OneRow(), "p=a");
  Operation first = NewOverwriteByFilter(*base_, Partition("a"), {a1}, GetParam());
  Operation second = NewOverwriteByFilter(*base_, Partition("a"), {a2}, GetParam());
  ASSERT_TRUE(CommitAs("writer-1", first).ok());
  Status st = CommitAs("writer-2", second);
  ASSERT_EQ(st.code(), Code::kConflict);
  if (GetParam() == IsolationLevel::kSerializable) {
    // validateAddedDataFiles sees the winner's new file first.
    EXPECT_EQ(st.message(),
              "ValidationException: Found conflicting files that can contain records matching "
              "ref(name=\"p\") == \"a\": [data/p=a/a1.parquet]");
  } else {
    // Snapshot isolation checks deletes only: the winner deleted the file this overwrite replaces.
    EXPECT_EQ(st.message(),
              "ValidationException: Found conflicting deleted files that can contain records matching "
              "ref(name=\"p\") == \"a\": [data/p=a/a0.parquet]");
  }
  EXPECT_EQ(LivePaths(), (std::vector<std::string>{a1->path(), b0_->path()}));
  EXPECT_EQ(sink_.LastOf(EventType::kConflict).message, st.message());
  EXPECT_EQ(env_.slept_micros(), 0);
}

TEST_P(IcebergValidationByLevelTest, OverwritesOfDifferentPartitionsBothCommit) {
  FileRef a1 = Data("a1", OneRow(), "p=a");
  FileRef b1 = Data("b1", OneRow(), "p=b");
  ASSERT_TRUE(CommitAs("writer-1", NewOverwriteByFilter(*base_, Partition("a"), {a1}, GetParam())).ok());
  ASSERT_TRUE(CommitAs("writer-2", NewOverwriteByFilter(*base_, Partition("b"), {b1}, GetParam())).ok());
  EXPECT_EQ(LivePaths(), (std::vector<std::string>{a1->path(), b1->path()}));
  std::vector<SnapshotRef> chain = Chain();
  ASSERT_EQ(chain.size(), 3u);
  EXPECT_EQ(chain[2]->operation, DataOperation::kOverwrite);
  EXPECT_EQ(chain[2]->parent_id, chain[1]->snapshot_id);
  ASSERT_EQ(chain[2]->deleted_files.size(), 1u);
  EXPECT_EQ(chain[2]->deleted_files[0], b0_);
}

TEST_P(IcebergValidationByLevelTest, AnOverwriteRacingAnAppendIntoItsPartition) {
  FileRef a1 = Data("a1", OneRow(), "p=a");
  FileRef a2 = Data("a2", OneRow(), "p=a");
  Operation overwrite = NewOverwriteByFilter(*base_, Partition("a"), {a2}, GetParam());
  ASSERT_TRUE(CommitAs("appender", NewAppend(*base_, {a1})).ok());
  Status st = CommitAs("overwriter", overwrite);
  if (GetParam() == IsolationLevel::kSerializable) {
    EXPECT_EQ(st.message(),
              "ValidationException: Found conflicting files that can contain records matching "
              "ref(name=\"p\") == \"a\": [data/p=a/a1.parquet]");
    EXPECT_EQ(LivePaths(), (std::vector<std::string>{a0_->path(), a1->path(), b0_->path()}));
  } else {
    // Re-applied on the refreshed table, the row filter also overwrites the rows it never saw.
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(LivePaths(), (std::vector<std::string>{a2->path(), b0_->path()}));
  }
}

TEST_P(IcebergValidationByLevelTest, DeleteRacingAConcurrentInsert) {
  Result<Operation> del = NewDeleteByFilter(*base_, Partition("a"), GetParam());
  ASSERT_TRUE(del.ok());
  ASSERT_EQ(del->files_to_delete.size(), 1u);  // a0, from the scan of the base
  FileRef a1 = Data("a1", {{{"x", int64_t{3}}}}, "p=a");
  ASSERT_TRUE(CommitAs("inserter", NewAppend(*base_, {a1})).ok());
  Status st = CommitAs("deleter", *del);
  if (GetParam() == IsolationLevel::kSerializable) {
    EXPECT_EQ(st.message(),
              "ValidationException: Found conflicting files that can contain records matching "
              "ref(name=\"p\") == \"a\": [data/p=a/a1.parquet]");
    EXPECT_EQ(LivePaths(), (std::vector<std::string>{a0_->path(), a1->path(), b0_->path()}));
  } else {
    // Succeeds, and the concurrently inserted row survives the DELETE that never saw it.
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(LivePaths(), (std::vector<std::string>{a1->path(), b0_->path()}));
    EXPECT_EQ(Chain().back()->operation, DataOperation::kDelete);
  }
}

TEST_P(IcebergValidationByLevelTest, ARewriteOfAFileDeletedConcurrentlyIsMissingItsFiles) {
  FileRef merged = Data("merged", {{{"x", int64_t{1}}}, {{"x", int64_t{2}}}});
  Operation compaction = NewRewrite(*base_, {a0_, b0_}, {merged});
  ASSERT_TRUE(CommitAs("deleter", NewDeleteFiles(*base_, {a0_})).ok());
  Status st = CommitAs("compactor", compaction);
  EXPECT_EQ(st.message(), "ValidationException: Missing required files to delete: data/p=a/a0.parquet");
  EXPECT_EQ(LivePaths(), std::vector<std::string>{b0_->path()});
}

TEST_F(IcebergValidationTest, TwoCompactionsOfTheSameFilesRefuseTheSecond) {
  ASSERT_TRUE(CommitAs("compactor-1", NewRewrite(*base_, {a0_, b0_}, {Data("c1")})).ok());
  Status st = CommitAs("compactor-2", NewRewrite(*base_, {a0_, b0_}, {Data("c2")}));
  EXPECT_EQ(st.message(),
            "ValidationException: Missing required files to delete: data/p=a/a0.parquet,data/p=b/b0.parquet");
  EXPECT_EQ(LivePaths(), std::vector<std::string>{"data/c1.parquet"});
}

TEST_F(IcebergValidationTest, ARewriteReappliesOverAConcurrentAppend) {
  FileRef merged = Data("merged");
  FileRef fresh = Data("fresh", OneRow(), "p=a");
  Operation compaction = NewRewrite(*base_, {a0_, b0_}, {merged});
  ASSERT_TRUE(CommitAs("appender", NewAppend(*base_, {fresh})).ok());
  ASSERT_TRUE(CommitAs("compactor", compaction).ok());
  EXPECT_EQ(LivePaths(), (std::vector<std::string>{merged->path(), fresh->path()}));
  EXPECT_EQ(Chain().back()->operation, DataOperation::kReplace);
}

TEST_F(IcebergValidationTest, DeletingAFileDeletedConcurrentlyIsMissingIt) {
  ASSERT_TRUE(CommitAs("deleter-1", NewDeleteFiles(*base_, {b0_})).ok());
  EXPECT_EQ(CommitAs("deleter-2", NewDeleteFiles(*base_, {b0_})).message(),
            "ValidationException: Missing required files to delete: data/p=b/b0.parquet");
}

TEST_F(IcebergValidationTest, ADeleteByFilterRefusesAFileOnlyPartlyMatching) {
  IcebergCommitter c = Make("writer");
  FileRef mixed = Data("mixed", {{{"name", std::string("hits")}}, {{"name", std::string("misses")}}});
  ASSERT_TRUE(c.Commit(NewAppend(*Current(), {mixed})).ok());
  Result<Operation> del = NewDeleteByFilter(*Current(), Expression::Equal("name", std::string("hits")));
  EXPECT_EQ(del.status().code(), Code::kConflict);
  EXPECT_EQ(del.status().message(),
            "ValidationException: Cannot delete file where some, but not all, rows match "
            "filter ref(name=\"name\") == \"hits\": data/mixed.parquet");
}

// Through a pointer catalog a schema change commits from the metadata it started from or not at
// all; the REST catalog's requirements are tested in rest_catalog_test.cc.
TEST_F(IcebergValidationTest, ConcurrentSchemaChangesRefuseTheSecond) {
  ASSERT_TRUE(CommitAs("alter-1", NewSchemaChange(*base_, 1)).ok());
  Status st = CommitAs("alter-2", NewSchemaChange(*base_, 2));
  EXPECT_EQ(st.code(), Code::kConflict);
  EXPECT_EQ(st.message(), "CommitFailedException: Cannot commit: stale table metadata");
  EXPECT_EQ(Current()->current_schema_id, 1);
}

TEST_F(IcebergValidationTest, ASchemaChangeFromStaleMetadataIsRefusedEvenOverAnAppend) {
  Operation alter = NewSchemaChange(*base_, 1);
  ASSERT_TRUE(CommitAs("appender", NewAppend(*base_, {Data("c")})).ok());
  EXPECT_EQ(CommitAs("alter", alter).message(), "CommitFailedException: Cannot commit: stale table metadata");
  EXPECT_EQ(Current()->current_schema_id, 0);
}

TEST_F(IcebergValidationTest, AStartingSnapshotExpiredSinceCannotBeValidatedFrom) {
  const int64_t start = *base_->current_snapshot_id;
  Operation overwrite = NewOverwriteByFilter(*base_, Partition("a"), {Data("a1", OneRow(), "p=a")});
  ASSERT_TRUE(CommitAs("appender", NewAppend(*base_, {Data("b1", OneRow(), "p=b")})).ok());
  ASSERT_TRUE(CommitAs("appender", NewAppend(*Current(), {Data("b2", OneRow(), "p=b")})).ok());
  IcebergCommitter maintenance = Make("maintenance");
  ASSERT_TRUE(ExpireSnapshots(&maintenance, {.retain_last = 1}).ok());
  Status st = CommitAs("overwriter", overwrite);
  EXPECT_EQ(st.message(), fmt::format("ValidationException: Cannot determine history between starting snapshot {} "
                                      "and the last known ancestor {}",
                                      start, *Current()->current_snapshot_id));
}

TEST_F(IcebergValidationTest, AReplaceAddsNoNewData) {
  // VALIDATE_ADDED_FILES_OPERATIONS leave replace out: a compaction's output is not "added data".
  IcebergCommitter c = Make("compactor");
  ASSERT_TRUE(c.Commit(NewRewrite(*Current(), {a0_}, {Data("a-compacted", {}, "p=a")})).ok());
  Result<std::vector<SnapshotRef>> history = ValidationHistory(*Current(), base_->current_snapshot_id);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 1u);
  EXPECT_TRUE(ValidateAddedDataFiles(*history, Partition("a")).ok());
  EXPECT_THAT(ValidateDeletedDataFiles(*history, Partition("a")).message(), HasSubstr("[data/p=a/a0.parquet]"));
  EXPECT_TRUE(ValidateDeletedDataFiles(*history, Partition("b")).ok());
}

TEST_F(IcebergValidationTest, TheHistoryIsNewestFirstAndStopsAtTheStart) {
  IcebergCommitter c = Make("writer");
  ASSERT_TRUE(c.Commit(NewAppend(*Current(), {Data("c1")})).ok());
  ASSERT_TRUE(c.Commit(NewAppend(*Current(), {Data("c2")})).ok());
  Result<std::vector<SnapshotRef>> history = ValidationHistory(*Current(), base_->current_snapshot_id);
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 2u);
  EXPECT_EQ((*history)[0]->snapshot_id, *Current()->current_snapshot_id);
  EXPECT_EQ((*history)[1]->parent_id, base_->current_snapshot_id);
  EXPECT_EQ(ValidationHistory(*Current(), std::nullopt)->size(), 3u);
  EXPECT_TRUE(ValidationHistory(*Current(), Current()->current_snapshot_id)->empty());
}

TEST_F(IcebergValidationTest, AHistoryWhoseParentsFormACycleIsRefusedNotWalkedForever) {
  // Metadata no commit makes but a damaged file can hold (snapshots written whole name any parent):
  // the first snapshot's parent is the current one, whose parent is the first.
  IcebergCommitter c = Make("writer");
  ASSERT_TRUE(c.Commit(NewAppend(*Current(), {Data("c1")})).ok());
  TableMetadata damaged = *Current();
  auto first = std::make_shared<Snapshot>(*damaged.snapshots[0]);
  first->parent_id = damaged.current_snapshot_id;
  damaged.snapshots.set(0, first);
  Result<std::vector<SnapshotRef>> history = ValidationHistory(damaged, int64_t{12345});
  ASSERT_FALSE(history.ok());
  EXPECT_EQ(history.status().code(), Code::kCorruption);
  EXPECT_THAT(history.status().message(), HasSubstr("the table metadata is damaged"));
}

}  // namespace
}  // namespace commitlab::iceberg
