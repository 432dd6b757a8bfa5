#include "commitlab/core/delta/conflict_checker.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace commitlab::delta {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

DataFile F(std::string name, std::string partition = "x=1") {
  return DataFile{.name = std::move(name), .partition = std::move(partition)};
}

Commit BlindAppend(std::string name, std::string partition = "x=1") {
  Commit w;
  w.adds.push_back({F(std::move(name), std::move(partition)), true});
  w.commit_info.operation = Operation::kInsert;
  w.commit_info.is_blind_append = true;
  return w;
}

// T read x=1 and rewrote f1.
CurrentTransactionInfo Updater() {
  CurrentTransactionInfo t;
  t.partitioned = true;
  t.read_predicates.push_back(ReadPredicate::In({"x=1"}));
  t.read_files["f1"] = F("f1");
  t.actions.removes.push_back({F("f1"), true});
  t.actions.adds.push_back({F("f1-updated"), true});
  return t;
}

TEST(DeltaConflictCheckerTest, BlindAppendCountsOnlyUnderSerializable) {
  const Commit w = BlindAppend("new");
  Status s = CheckConflicts(Updater(), w, 1, IsolationLevel::kSerializable);
  EXPECT_EQ(ConflictExceptionName(s), kConcurrentAppendException);
  EXPECT_THAT(s.message(), StartsWith("ConcurrentAppendException: Files were added to partition [x=1] by a "
                                      "concurrent update. Please try the operation again.\nConflicting commit: "
                                      "{\"version\":1,"));
  EXPECT_THAT(s.message(), HasSubstr("\"isBlindAppend\":true"));
  EXPECT_THAT(s.message(),
              HasSubstr("\nRefer to https://docs.delta.io/latest/concurrency-control.html for more details."));
  EXPECT_TRUE(CheckConflicts(Updater(), w, 1, IsolationLevel::kWriteSerializable).ok());
  EXPECT_TRUE(CheckConflicts(Updater(), w, 1, IsolationLevel::kSnapshotIsolation).ok());
}

TEST(DeltaConflictCheckerTest, WriteSerializableChecksBlindAppendsWhenTxnChangesMetadata) {
  CurrentTransactionInfo t = Updater();
  t.actions.metadata = Metadata{.partition_columns = {"x"}};
  // The metadata check looks at the winner only; T's own metadata change widens the append check.
  EXPECT_EQ(ConflictExceptionName(CheckConflicts(t, BlindAppend("new"), 1, IsolationLevel::kWriteSerializable)),
            kConcurrentAppendException);
}

TEST(DeltaConflictCheckerTest, AddsOutsideTheReadPartitionsDoNotConflict) {
  EXPECT_TRUE(CheckConflicts(Updater(), BlindAppend("new", "x=2"), 1, IsolationLevel::kSerializable).ok());
}

TEST(DeltaConflictCheckerTest, UnpartitionedTableMatchesAnyAdd) {
  CurrentTransactionInfo t = Updater();
  t.partitioned = false;
  Status s = CheckConflicts(t, BlindAppend("new", ""), 1, IsolationLevel::kSerializable);
  EXPECT_THAT(s.message(), StartsWith("ConcurrentAppendException: Files were added to the root of the table by a "
                                      "concurrent update."));
}

TEST(DeltaConflictCheckerTest, ReadWholeTableConflictsWithAnyRemove) {
  CurrentTransactionInfo t;
  t.partitioned = true;
  t.read_whole_table = true;
  t.read_predicates.push_back(ReadPredicate::All());
  Commit w;
  w.removes.push_back({F("elsewhere", "x=9"), true});
  Status s = CheckConflicts(t, w, 3, IsolationLevel::kSnapshotIsolation);
  EXPECT_THAT(s.message(), StartsWith("ConcurrentDeleteReadException: This transaction attempted to read one or "
                                      "more files that were deleted (for example elsewhere) by a concurrent update."));
}

TEST(DeltaConflictCheckerTest, AppendCheckRunsBeforeDeleteChecks) {
  Commit w;  // an UPDATE that rewrote f1: both an add in x=1 and a remove of a file T read
  w.removes.push_back({F("f1"), true});
  w.adds.push_back({F("f1-theirs"), true});
  EXPECT_EQ(ConflictExceptionName(CheckConflicts(Updater(), w, 1, IsolationLevel::kWriteSerializable)),
            kConcurrentAppendException);
  // At SnapshotIsolation the append check is off, so the delete of a read file decides.
  Status s = CheckConflicts(Updater(), w, 1, IsolationLevel::kSnapshotIsolation);
  EXPECT_THAT(s.message(), StartsWith("ConcurrentDeleteReadException: This transaction attempted to read one or "
                                      "more files that were deleted (for example f1 in partition [x=1]) by a "
                                      "concurrent update. Please try the operation again."));
}

TEST(DeltaConflictCheckerTest, OtherAppIdsDoNotConflict) {
  CurrentTransactionInfo t;
  t.read_app_ids.insert("query-1");
  Commit w;
  w.txns.push_back({"query-2", 5});
  EXPECT_TRUE(CheckConflicts(t, w, 1, IsolationLevel::kSerializable).ok());
  w.txns.push_back({"query-1", 5});
  EXPECT_EQ(ConflictExceptionName(CheckConflicts(t, w, 1, IsolationLevel::kSerializable)),
            kConcurrentTransactionException);
}

TEST(DeltaConflictCheckerTest, ProtocolCheckComesFirst) {
  CurrentTransactionInfo t = Updater();
  t.actions.protocol = Protocol{.min_writer_version = 7};
  Commit w = BlindAppend("new");
  w.protocol = Protocol{.min_writer_version = 7};
  w.metadata = Metadata{};
  Status s = CheckConflicts(t, w, 4, IsolationLevel::kSerializable);
  EXPECT_EQ(s.message().rfind("ProtocolChangedException: The protocol version of the Delta table has been changed "
                              "by a concurrent update. Please try the operation again.",
                              0),
            0u);
}

TEST(DeltaConflictCheckerTest, ExceptionNameOnlyForConflicts) {
  EXPECT_EQ(ConflictExceptionName(Status::IOError("ConcurrentAppendException: no")), "");
  EXPECT_EQ(ConflictExceptionName(Status::Conflict("Something else")), "");
  EXPECT_EQ(ConflictExceptionName(Status::OK()), "");
}

}  // namespace
}  // namespace commitlab::delta
