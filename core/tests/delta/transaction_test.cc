#include "commitlab/core/delta/transaction.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "commitlab/testing/test_env.h"
#include "commitlab/testing/test_util.h"

namespace commitlab::delta {
namespace {

using ::commitlab::test::RecordingSink;
using ::commitlab::test::TestEnv;
using ::testing::HasSubstr;
using ::testing::StartsWith;

DataFile F(std::string name, std::string partition = "x=1", int64_t rows = 10) {
  return DataFile{.name = std::move(name), .partition = std::move(partition), .row_count = rows};
}

class DeltaTransactionTest : public ::testing::Test {
 protected:
  // Version 0: a table partitioned by x (or not), with f1, f2 in x=1 and g1 in x=2.
  void CreateTable(IsolationLevel level, bool partitioned = true, Protocol protocol = {}) {
    OptimisticTransaction t = Start("creator");
    Metadata m{.id = "t", .schema = "id INT, x INT"};
    if (partitioned) m.partition_columns = {"x"};
    m.configuration[std::string(kIsolationLevelProperty)] = std::string(IsolationLevelName(level));
    t.UpdateMetadata(m);
    t.UpdateProtocol(protocol);
    const std::string x1 = partitioned ? "x=1" : "";
    t.Add(F("f1", x1));
    t.Add(F("f2", x1));
    t.Add(F("g1", partitioned ? "x=2" : ""));
    ASSERT_EQ(*t.Commit(Operation::kCreateTable), 0);
    sink_.events.clear();
  }
  OptimisticTransaction Start(std::string writer, TransactionOptions o = {}) {
    Result<OptimisticTransaction> t = OptimisticTransaction::Start(std::move(writer), &log_, &env_, &sink_, o);
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return std::move(t).value();
  }
  Commit Read(int64_t v) {
    Result<CommitRef> c = log_.Read(v);
    EXPECT_TRUE(c.ok());
    return c.ok() ? **c : Commit{};
  }
  // An UPDATE of f1 in x=1: reads x=1, removes f1, adds its rewritten copy.
  static void StageUpdate(OptimisticTransaction& t, const std::string& tag) {
    std::vector<DataFile> read = t.FilterFiles({"x=1"});
    ASSERT_EQ(read.size(), 2u);
    t.Remove(read[0]);
    t.Add(F("f1-" + tag));
  }

  TestEnv env_;
  MemoryDeltaLog log_;
  RecordingSink sink_;
};

TEST_F(DeltaTransactionTest, BlindAppendsNeverConflict) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction a = Start("A");
  OptimisticTransaction b = Start("B");
  a.Add(F("a1"));
  b.Add(F("b1"));
  ASSERT_EQ(*a.Commit(Operation::kInsert), 1);
  Result<int64_t> vb = b.Commit(Operation::kInsert);
  ASSERT_TRUE(vb.ok()) << vb.status().ToString();
  EXPECT_EQ(*vb, 2);
  EXPECT_TRUE(Read(1).commit_info.is_blind_append);
  EXPECT_EQ(Read(2).commit_info.user_name, "B");
  EXPECT_EQ(Read(2).commit_info.read_version, 0);
  EXPECT_EQ(b.stats().collisions, 1);
  EXPECT_EQ(b.stats().winners_checked, 1);
  EXPECT_EQ(b.stats().attempts, 2);
  EXPECT_EQ(sink_.Count(EventType::kPublished), 2);
}

TEST_F(DeltaTransactionTest, RetryGoesToTheNextVersionAtOnce) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction b = Start("B");
  for (const char* w : {"A1", "A2"}) {
    OptimisticTransaction a = Start(w);
    a.Add(F(std::string(w) + ".parquet"));
    ASSERT_TRUE(a.Commit(Operation::kInsert).ok());
  }
  b.Add(F("b1"));
  sink_.events.clear();
  ASSERT_EQ(*b.Commit(Operation::kInsert), 3);
  // One collision at version 1, one check of both winners, then version 3: no sleep in between.
  EXPECT_EQ(env_.slept_micros(), 0);
  EXPECT_EQ(sink_.Count(EventType::kRetryWait), 0);
  EXPECT_EQ(b.stats().winners_checked, 2);
  ASSERT_EQ(sink_.events.size(), 4u);
  EXPECT_EQ(sink_.events[0].type, EventType::kAttempt);
  EXPECT_EQ(sink_.events[0].message, "Attempting to commit version 1 with 2 actions with Serializable isolation level");
  EXPECT_EQ(sink_.events[1].type, EventType::kAtomicCommitFailed);
  EXPECT_EQ(sink_.events[1].snapshot_id, 1);
  EXPECT_EQ(sink_.events[1].message,
            "java.nio.file.FileAlreadyExistsException: T/_delta_log/00000000000000000001.json");
  EXPECT_EQ(sink_.events[2].type, EventType::kAttempt);
  EXPECT_EQ(sink_.events[2].message,
            "[attempt 1] No conflicts with versions [1, 3) with current txn having 1 adds, 0 removes, 0 read "
            "predicates, 0 read files. Attempting to commit version 3 with 2 actions with Serializable isolation "
            "level");
  EXPECT_EQ(sink_.events[3].type, EventType::kPublished);
  EXPECT_EQ(sink_.events[3].user, "B");
  EXPECT_EQ(sink_.events[3].message, "Committed delta #3 to T/_delta_log");
}

// A sink that keeps events but reads no message.
class MessagelessSink : public RecordingSink {
 public:
  bool wants_messages() const override { return false; }
};

// B collides with A at version 1, checks it and lands version 2; the sink sees every event.
void RaceTwoAppends(EventSink* sink) {
  TestEnv env;
  MemoryDeltaLog log;
  auto start = [&](std::string writer) {
    Result<OptimisticTransaction> t = OptimisticTransaction::Start(std::move(writer), &log, &env, sink);
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return std::move(t).value();
  };
  OptimisticTransaction creator = start("creator");
  creator.UpdateMetadata(Metadata{.id = "t", .schema = "id INT"});
  creator.UpdateProtocol(Protocol{});
  EXPECT_EQ(*creator.Commit(Operation::kCreateTable), 0);
  OptimisticTransaction a = start("A"), b = start("B");
  a.Add(F("a1"));
  b.Add(F("b1"));
  EXPECT_EQ(*a.Commit(Operation::kInsert), 1);
  EXPECT_EQ(*b.Commit(Operation::kInsert), 2);
  EXPECT_EQ(b.stats().collisions, 1);
}

// Messages are formatted only for a sink that reads them; the events themselves still come, in
// the same order, to a sink that wants events without their text.
TEST(DeltaTransactionEventsTest, ASinkWithoutMessagesGetsTheSameEventsWithEmptyText) {
  RecordingSink full;
  MessagelessSink bare;
  RaceTwoAppends(&full);
  RaceTwoAppends(&bare);
  RaceTwoAppends(nullptr);
  ASSERT_EQ(bare.events.size(), full.events.size());
  for (size_t i = 0; i < full.events.size(); ++i) {
    EXPECT_EQ(bare.events[i].type, full.events[i].type) << "event " << i;
    EXPECT_EQ(bare.events[i].user, full.events[i].user) << "event " << i;
    EXPECT_EQ(bare.events[i].snapshot_id, full.events[i].snapshot_id) << "event " << i;
    EXPECT_EQ(bare.events[i].message, "") << "event " << i;
  }
  for (EventType t : {EventType::kAttempt, EventType::kAtomicCommitFailed, EventType::kPublished}) {
    EXPECT_GT(bare.Count(t), 0) << EventTypeName(t);
    ASSERT_NE(full.Last(t), nullptr);
    EXPECT_FALSE(full.Last(t)->message.empty()) << EventTypeName(t);
  }
}

TEST_F(DeltaTransactionTest, TwoDeletesOfTheSameFileConflict) {
  CreateTable(IsolationLevel::kWriteSerializable);
  // Each removes f1 without scanning for it (the file is known from an earlier snapshot, as FSCK
  // or a dynamic partition overwrite does), so the delete-delete check is the one that fires.
  OptimisticTransaction a = Start("A");
  OptimisticTransaction b = Start("B");
  a.Remove(F("f1"));
  b.Remove(F("f1"));
  ASSERT_EQ(*a.Commit(Operation::kDelete), 1);
  Result<int64_t> vb = b.Commit(Operation::kDelete);
  EXPECT_EQ(vb.status().code(), Code::kConflict);
  EXPECT_THAT(vb.status().message(),
              StartsWith("ConcurrentDeleteDeleteException: This transaction attempted to delete one or more files "
                         "that were deleted (for example f1) by a concurrent update. Please try the operation again."));
  EXPECT_THAT(vb.status().message(), HasSubstr("\"operation\":\"DELETE\""));
  EXPECT_EQ(b.stats().conflicts, 1);
  EXPECT_EQ(sink_.LastOf(EventType::kConflict).message, vb.status().message());
  EXPECT_EQ(*log_.LatestVersion(), 1);
}

TEST_F(DeltaTransactionTest, DeleteOfAFileTheTxnReadIsADeleteReadConflict) {
  CreateTable(IsolationLevel::kWriteSerializable);
  OptimisticTransaction a = Start("A");
  OptimisticTransaction b = Start("B");
  for (OptimisticTransaction* t : {&a, &b}) {
    std::vector<DataFile> read = t->FilterFiles({"x=1"});
    t->Remove(read[0]);
  }
  ASSERT_TRUE(a.Commit(Operation::kDelete).ok());
  Result<int64_t> vb = b.Commit(Operation::kDelete);
  EXPECT_THAT(vb.status().message(),
              StartsWith("ConcurrentDeleteReadException: This transaction attempted to read one or more files that "
                         "were deleted (for example f1 in partition [x=1]) by a concurrent update."));
}

TEST_F(DeltaTransactionTest, ReadOfPartitionVsConcurrentBlindAppendUnderSerializable) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction a = Start("A");
  OptimisticTransaction b = Start("B");
  a.Add(F("a1"));  // blind append into x=1
  StageUpdate(b, "b");
  ASSERT_TRUE(a.Commit(Operation::kInsert).ok());
  Result<int64_t> vb = b.Commit(Operation::kUpdate);
  EXPECT_EQ(vb.status().code(), Code::kConflict);
  EXPECT_THAT(vb.status().message(), StartsWith("ConcurrentAppendException: Files were added to partition [x=1] by a "
                                                "concurrent update. Please try the operation again."));
}

TEST_F(DeltaTransactionTest, ReadOfPartitionVsConcurrentBlindAppendUnderWriteSerializable) {
  CreateTable(IsolationLevel::kWriteSerializable);
  OptimisticTransaction a = Start("A");
  OptimisticTransaction b = Start("B");
  a.Add(F("a1"));
  StageUpdate(b, "b");
  ASSERT_TRUE(a.Commit(Operation::kInsert).ok());
  Result<int64_t> vb = b.Commit(Operation::kUpdate);
  ASSERT_TRUE(vb.ok()) << vb.status().ToString();
  EXPECT_EQ(*vb, 2);
  EXPECT_EQ(Read(2).commit_info.isolation_level, IsolationLevel::kWriteSerializable);
  EXPECT_FALSE(Read(2).commit_info.is_blind_append);
  EXPECT_EQ(Read(2).commit_info.read_predicates, std::vector<std::string>{"x=1"});
  EXPECT_EQ(Read(2).commit_info.read_files, (std::vector<std::string>{"f1", "f2"}));
}

TEST_F(DeltaTransactionTest, ReadOfPartitionVsConcurrentRewriteUnderWriteSerializable) {
  CreateTable(IsolationLevel::kWriteSerializable);
  OptimisticTransaction a = Start("A");
  OptimisticTransaction b = Start("B");
  // A's add into x=1 is not a blind append: A read the table first.
  a.FilterFiles({"x=1"});
  a.Add(F("a1"));
  StageUpdate(b, "b");
  ASSERT_FALSE(b.CommitIsolationLevel(Operation::kUpdate) == IsolationLevel::kSnapshotIsolation);
  ASSERT_TRUE(a.Commit(Operation::kMerge).ok());
  EXPECT_EQ(ConflictExceptionName(b.Commit(Operation::kUpdate).status()), kConcurrentAppendException);
}

TEST_F(DeltaTransactionTest, AddsToAnotherPartitionDoNotConflict) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction a = Start("A");
  OptimisticTransaction b = Start("B");
  a.Add(F("a1", "x=2"));
  StageUpdate(b, "b");
  ASSERT_TRUE(a.Commit(Operation::kInsert).ok());
  EXPECT_EQ(*b.Commit(Operation::kUpdate), 2);
}

TEST_F(DeltaTransactionTest, AFilterKeepsItsPartitionConjunctsAndReadsWhatTheyMatch) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction t = Start("T");
  using Op = Expression::Op;
  // x >= 2 and id > 5: the data conjunct is dropped, the partition one recorded.
  const std::vector<DataFile> read =
      t.FilterFiles(Expression::And(Expression::Compare(Op::kGreaterThanOrEqual, "x", int64_t{2}),
                                    Expression::Compare(Op::kGreaterThan, "id", int64_t{5})));
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].name, "g1");
  ASSERT_EQ(t.reads().read_predicates.size(), 1u);
  EXPECT_EQ(t.reads().read_predicates[0].ToString(), "x >= 2");
  EXPECT_TRUE(t.reads().read_predicates[0].Matches(F("new", "x=3")));
  EXPECT_FALSE(t.reads().read_predicates[0].Matches(F("new", "x=1")));
}

TEST_F(DeltaTransactionTest, AFilterOnADataColumnAloneReadsTheWholeTable) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction t = Start("T");
  // An OR that names a data column is no partition filter: trackReadPredicates records TRUE.
  const std::vector<DataFile> read = t.FilterFiles(Expression::Or(
      Expression::Equal("x", int64_t{1}), Expression::Compare(Expression::Op::kGreaterThan, "id", int64_t{2019})));
  EXPECT_EQ(read.size(), 3u);
  EXPECT_EQ(t.reads().read_predicates[0].ToString(), "true");
}

TEST_F(DeltaTransactionTest, ARangeReadConflictsOnlyWithAddsInItsRange) {
  CreateTable(IsolationLevel::kSerializable);
  using Op = Expression::Op;
  const Expression above_3 = Expression::Compare(Op::kGreaterThan, "x", int64_t{3});
  for (const auto& [partition, conflicts] : std::vector<std::pair<std::string, bool>>{{"x=4", true}, {"x=3", false}}) {
    OptimisticTransaction a = Start("A");
    OptimisticTransaction b = Start("B");
    b.FilterFiles(above_3);
    b.Add(F("b-" + partition, "x=9"));
    a.Add(F("a-" + partition, partition));
    ASSERT_TRUE(a.Commit(Operation::kInsert).ok());
    Result<int64_t> v = b.Commit(Operation::kUpdate);
    EXPECT_EQ(!v.ok(), conflicts) << partition;
    if (!v.ok()) {
      EXPECT_EQ(ConflictExceptionName(v.status()), kConcurrentAppendException);
    }
  }
}

TEST_F(DeltaTransactionTest, UnpartitionedTableConflictsWithAnyAdd) {
  CreateTable(IsolationLevel::kSerializable, /*partitioned=*/false);
  OptimisticTransaction a = Start("A");
  OptimisticTransaction b = Start("B");
  a.Add(F("a1", ""));
  b.FilterFiles();
  b.Remove(F("g1", ""));
  ASSERT_TRUE(a.Commit(Operation::kInsert).ok());
  EXPECT_THAT(
      b.Commit(Operation::kDelete).status().message(),
      StartsWith("ConcurrentAppendException: Files were added to the root of the table by a concurrent update."));
}

// OPTIMIZE of x=1: reads f1 and f2, replaces them by one file, dataChange=false throughout.
void StageOptimize(OptimisticTransaction& t) {
  std::vector<DataFile> read = t.FilterFiles({"x=1"});
  for (const DataFile& f : read) t.Remove(f, /*data_change=*/false);
  t.Add(F("compacted", "x=1", 20), /*data_change=*/false);
}

class DeltaCompactionTest : public DeltaTransactionTest, public ::testing::WithParamInterface<IsolationLevel> {};

TEST_P(DeltaCompactionTest, IgnoresConcurrentAppends) {
  CreateTable(GetParam());
  OptimisticTransaction a = Start("A");
  OptimisticTransaction c = Start("compactor");
  a.FilterFiles({"x=1"});  // even an append that read the table first, i.e. not a blind one
  a.Add(F("a1"));
  StageOptimize(c);
  EXPECT_EQ(c.CommitIsolationLevel(Operation::kOptimize), IsolationLevel::kSnapshotIsolation);
  ASSERT_TRUE(a.Commit(Operation::kMerge).ok());
  Result<int64_t> vc = c.Commit(Operation::kOptimize);
  ASSERT_TRUE(vc.ok()) << vc.status().ToString();
  EXPECT_EQ(Read(*vc).commit_info.isolation_level, IsolationLevel::kSnapshotIsolation);
  EXPECT_EQ(c.stats().winners_checked, 1);
}

INSTANTIATE_TEST_SUITE_P(DeltaTableLevels, DeltaCompactionTest,
                         ::testing::Values(IsolationLevel::kSerializable, IsolationLevel::kWriteSerializable),
                         [](const ::testing::TestParamInfo<IsolationLevel>& p) {
                           return std::string(IsolationLevelName(p.param));
                         });

TEST_F(DeltaTransactionTest, CompactionConflictsWithConcurrentDeleteOfItsInputs) {
  CreateTable(IsolationLevel::kWriteSerializable);
  OptimisticTransaction d = Start("deleter");
  OptimisticTransaction c = Start("compactor");
  d.FilterFiles({"x=1"});
  d.Remove(F("f2"));
  StageOptimize(c);
  ASSERT_TRUE(d.Commit(Operation::kDelete).ok());
  Result<int64_t> vc = c.Commit(Operation::kOptimize);
  EXPECT_THAT(vc.status().message(),
              StartsWith("ConcurrentDeleteReadException: This transaction attempted to read one or more files that "
                         "were deleted (for example f2 in partition [x=1]) by a concurrent update."));
}

TEST_F(DeltaTransactionTest, CompactionOfUnreadFilesConflictsDeleteDelete) {
  CreateTable(IsolationLevel::kWriteSerializable);
  OptimisticTransaction d = Start("deleter");
  OptimisticTransaction c = Start("compactor");
  d.Remove(F("f2"));
  c.Remove(F("f1"), false);
  c.Remove(F("f2"), false);
  c.Add(F("compacted"), false);
  ASSERT_TRUE(d.Commit(Operation::kDelete).ok());
  EXPECT_EQ(ConflictExceptionName(c.Commit(Operation::kOptimize).status()), kConcurrentDeleteDeleteException);
}

TEST_F(DeltaTransactionTest, SameAppIdRunningTwiceConflicts) {
  CreateTable(IsolationLevel::kWriteSerializable);
  OptimisticTransaction a = Start("query-run-1");
  OptimisticTransaction b = Start("query-run-2");
  for (OptimisticTransaction* t : {&a, &b}) {
    ASSERT_EQ(t->TxnVersion("query-1"), -1);  // batch 0 not yet committed: write it
    t->Add(F(t->writer() + "-batch0", "x=3"));
    t->SetTransactionVersion("query-1", 0);
  }
  ASSERT_TRUE(a.Commit(Operation::kStreamingUpdate).ok());
  Result<int64_t> vb = b.Commit(Operation::kStreamingUpdate);
  EXPECT_THAT(vb.status().message(),
              StartsWith("ConcurrentTransactionException: This error occurs when multiple streaming queries are using "
                         "the same checkpoint to write into this table. Did you run multiple instances of the same "
                         "streaming query at the same time?"));
  // A restarted run reads the app's version and skips the batch it already wrote.
  OptimisticTransaction c = Start("query-run-3");
  EXPECT_EQ(c.TxnVersion("query-1"), 0);
}

TEST_F(DeltaTransactionTest, DifferentAppIdsDoNotConflict) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction a = Start("A");
  OptimisticTransaction b = Start("B");
  a.TxnVersion("query-a");
  a.Add(F("a", "x=3"));
  a.SetTransactionVersion("query-a", 0);
  b.TxnVersion("query-b");
  b.Add(F("b", "x=3"));
  b.SetTransactionVersion("query-b", 0);
  ASSERT_TRUE(a.Commit(Operation::kStreamingUpdate).ok());
  ASSERT_EQ(*b.Commit(Operation::kStreamingUpdate), 2);
  EXPECT_EQ(sink_.LastOf(EventType::kPublished).message, "Committed delta #2 to T/_delta_log");
}

// OptimisticTransactionSuite "has SetTransaction version conflicts": one app id with two versions in
// one commit is an IllegalArgumentException, and nothing is written.
TEST_F(DeltaTransactionTest, TwoVersionsOfOneAppIdInOneCommitCommitNothing) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction t = Start("query-run-1");
  t.Add(F("batch", "x=1"));
  t.SetTransactionVersion("TestAppId", 2);
  t.SetTransactionVersion("TestAppId", 1);
  Result<int64_t> v = t.Commit(Operation::kStreamingUpdate);
  EXPECT_EQ(v.status().code(), Code::kInvalidArgument);
  EXPECT_EQ(v.status().message(),
            "IllegalArgumentException: Two SetTransaction actions within the same transaction have the same appId "
            "TestAppId but different versions 2 and 1.");
  EXPECT_EQ(*log_.LatestVersion(), 0);
  EXPECT_EQ(Start("reader").TxnVersion("TestAppId"), -1);
}

// The same version twice is a duplicate: kept once (checkForSetTransactionConflictAndDedup).
TEST_F(DeltaTransactionTest, OneVersionOfAnAppIdTwiceIsCommittedOnce) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction t = Start("query-run-1");
  t.SetTransactionVersion("TestAppId", 1);
  t.SetTransactionVersion("other", 7);
  t.SetTransactionVersion("TestAppId", 1);
  ASSERT_EQ(*t.Commit(Operation::kStreamingUpdate), 1);
  const Commit c = Read(1);
  ASSERT_EQ(c.txns.size(), 2u);
  EXPECT_EQ(c.txns[0].app_id, "TestAppId");
  EXPECT_EQ(c.txns[1].app_id, "other");
  EXPECT_EQ(Start("reader").TxnVersion("TestAppId"), 1);
}

TEST_F(DeltaTransactionTest, MetadataChangeFailsEveryConcurrentWriter) {
  CreateTable(IsolationLevel::kWriteSerializable);
  OptimisticTransaction alter = Start("alter");
  OptimisticTransaction insert = Start("insert");
  Metadata m = *alter.snapshot().metadata();
  m.configuration["delta.appendOnly"] = "true";
  alter.UpdateMetadata(m);
  insert.Add(F("i1"));  // even a blind append
  ASSERT_TRUE(alter.Commit(Operation::kSetTableProperties).ok());
  Result<int64_t> v = insert.Commit(Operation::kInsert);
  EXPECT_THAT(v.status().message(), StartsWith("MetadataChangedException: The metadata of the Delta table has been "
                                               "changed by a concurrent update. Please try the operation again."));
}

TEST_F(DeltaTransactionTest, ProtocolUpgradeFailsOnlyAConcurrentUpgrade) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction up1 = Start("upgrade-1");
  OptimisticTransaction up2 = Start("upgrade-2");
  OptimisticTransaction insert = Start("insert");
  up1.UpdateProtocol(Protocol{.min_reader_version = 3, .min_writer_version = 7, .writer_features = {"appendOnly"}});
  up2.UpdateProtocol(Protocol{.min_reader_version = 3, .min_writer_version = 7, .writer_features = {"invariants"}});
  insert.Add(F("i1"));
  ASSERT_TRUE(up1.Commit(Operation::kUpgradeProtocol).ok());
  EXPECT_THAT(up2.Commit(Operation::kUpgradeProtocol).status().message(),
              StartsWith("ProtocolChangedException: The protocol version of the Delta table has been changed by a "
                         "concurrent update. Please try the operation again."));
  EXPECT_EQ(*insert.Commit(Operation::kInsert), 2);
}

TEST_F(DeltaTransactionTest, ProtocolDowngradeFailsEveryone) {
  CreateTable(IsolationLevel::kSerializable, true, Protocol{3, 7, {"deletionVectors"}});
  OptimisticTransaction drop = Start("drop-feature");
  OptimisticTransaction insert = Start("insert");
  drop.UpdateProtocol(Protocol{3, 7, {}});
  insert.Add(F("i1"));
  ASSERT_TRUE(drop.Commit(Operation::kUpgradeProtocol).ok());
  EXPECT_EQ(ConflictExceptionName(insert.Commit(Operation::kInsert).status()), kProtocolChangedException);
}

TEST_F(DeltaTransactionTest, TwoWritersCreatingTheTableRaceOnProtocol) {
  OptimisticTransaction a = Start("A");
  OptimisticTransaction b = Start("B");
  EXPECT_EQ(a.read_version(), -1);
  for (OptimisticTransaction* t : {&a, &b}) {
    t->UpdateMetadata(Metadata{.id = t->writer(), .schema = "id INT"});
    t->Add(F(t->writer() + "-0", ""));
  }
  ASSERT_EQ(*a.Commit(Operation::kCreateTable), 0);
  EXPECT_TRUE(Read(0).protocol.has_value());  // the first commit always carries a protocol
  EXPECT_THAT(b.Commit(Operation::kCreateTable).status().message(),
              StartsWith("ProtocolChangedException: The protocol version of the Delta table has been changed by a "
                         "concurrent update. This happens when multiple writers are writing to an empty directory. "
                         "Creating the table ahead of time will avoid this conflict. Please try the operation again."));
}

TEST_F(DeltaTransactionTest, FirstCommitNeedsMetadata) {
  OptimisticTransaction a = Start("A");
  a.Add(F("a", ""));
  EXPECT_EQ(a.Commit(Operation::kInsert).status().message(),
            "Couldn't find Metadata while committing the first version of the Delta table.");
  EXPECT_EQ(*log_.LatestVersion(), -1);
}

TEST_F(DeltaTransactionTest, CommitsOnlyOnce) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction a = Start("A");
  a.Add(F("a"));
  ASSERT_TRUE(a.Commit(Operation::kInsert).ok());
  EXPECT_EQ(a.Commit(Operation::kInsert).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(*log_.LatestVersion(), 1);
}

TEST_F(DeltaTransactionTest, GivesUpAfterMaxCommitAttempts) {
  CreateTable(IsolationLevel::kSerializable);
  EXPECT_EQ(TransactionOptions{}.max_commit_attempts, 10'000'000);
  OptimisticTransaction b = Start("B", TransactionOptions{.max_commit_attempts = 0});
  OptimisticTransaction a = Start("A");
  a.Add(F("a"));
  b.Add(F("b"));
  ASSERT_TRUE(a.Commit(Operation::kInsert).ok());
  Result<int64_t> vb = b.Commit(Operation::kInsert);
  EXPECT_EQ(vb.status().code(), Code::kRetriesExhausted);
  EXPECT_THAT(vb.status().message(),
              StartsWith("This commit has failed as it has been tried 1 times but did not succeed.\n"));
  EXPECT_THAT(vb.status().message(), HasSubstr("Commit started at version: 1\nCommit failed at version: 1\n"));
  EXPECT_EQ(b.stats().gave_up, 1);
  EXPECT_EQ(sink_.Count(EventType::kGaveUp), 1);
}

TEST_F(DeltaTransactionTest, AGivenPolicyWaitsBeforeEachRetryAndItsLimitReplacesMaxCommitAttempts) {
  CreateTable(IsolationLevel::kSerializable);
  Result<RetryPolicy> exponential = ParseRetryPolicy("exponential:base=5ms,cap=1s,retries=1");
  ASSERT_TRUE(exponential.ok());
  OptimisticTransaction b = Start("B", TransactionOptions{.retry = *exponential});
  for (const char* w : {"A1", "A2"}) {
    OptimisticTransaction a = Start(w);
    a.Add(F(w));
    ASSERT_TRUE(a.Commit(Operation::kInsert).ok());
  }
  // B loses version 1, waits 10 ms (5 ms x 2^1), reads both winners and lands version 3.
  b.Add(F("b"));
  ASSERT_EQ(*b.Commit(Operation::kInsert), 3);
  EXPECT_EQ(env_.slept_micros(), 10'000);
  EXPECT_EQ(b.stats().winners_checked, 2);
  // C may not retry at all: its first loss gives up, though max_commit_attempts would allow more.
  Result<RetryPolicy> once = ParseRetryPolicy("full-jitter:retries=0");
  ASSERT_TRUE(once.ok());
  OptimisticTransaction late = Start("late", TransactionOptions{.read_version = 0, .retry = *once});
  late.Add(F("c"));
  Result<int64_t> v = late.Commit(Operation::kInsert);
  EXPECT_EQ(v.status().code(), Code::kRetriesExhausted);
  EXPECT_EQ(late.stats().attempts, 1);
  EXPECT_EQ(env_.slept_micros(), 10'000);  // no wait before giving up
}

TEST_F(DeltaTransactionTest, ErrorBeforeTheWriteIsAnUnknownOutcome) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction a = Start("A");
  a.Add(F("a"));
  env_.InjectOnce(fault::kPublishBefore, Status::IOError("simulated publish failure"));
  Result<int64_t> v = a.Commit(Operation::kInsert);
  EXPECT_EQ(v.status().code(), Code::kIOError);
  EXPECT_THAT(v.status().message(), HasSubstr("Caused by: simulated publish failure"));
  EXPECT_EQ(*log_.LatestVersion(), 0);  // nothing was written, but the writer cannot know
  EXPECT_EQ(a.stats().unknown_outcomes, 1);
  EXPECT_EQ(sink_.Count(EventType::kUnknownOutcome), 1);
}

// A `lost` fault: the put-if-absent finds N.json. The conflict check finds no winner and the
// transaction writes version N on its next attempt.
TEST_F(DeltaTransactionTest, AnInjectedCollisionFindsNoWinnerAndRetriesTheSameVersion) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction a = Start("A");
  a.Add(F("a"));
  env_.InjectOnce(fault::kPublishBefore, Status::LostRace("simulated lost race"));
  Result<int64_t> v = a.Commit(Operation::kInsert);
  ASSERT_TRUE(v.ok()) << v.status().ToString();
  EXPECT_EQ(*v, 1);
  EXPECT_EQ(a.stats().collisions, 1);
  EXPECT_EQ(a.stats().unknown_outcomes, 0);
  EXPECT_EQ(sink_.Count(EventType::kAtomicCommitFailed), 1);
}

TEST_F(DeltaTransactionTest, ErrorAfterTheWriteLeavesTheVersionWritten) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction a = Start("A");
  a.Add(F("a"));
  env_.InjectOnce(fault::kPublishAfter, Status::IOError("simulated lost response"));
  EXPECT_EQ(a.Commit(Operation::kInsert).status().code(), Code::kIOError);
  EXPECT_EQ(*log_.LatestVersion(), 1);
  EXPECT_EQ(sink_.LastOf(EventType::kUnknownOutcome).snapshot_id, 1);
  EXPECT_EQ(sink_.Count(EventType::kPublished), 0);
}

TEST_F(DeltaTransactionTest, CrashWhileReadingLatestStopsTheStart) {
  env_.InjectOnce(fault::kReadLatestBefore, Status::Crashed("simulated crash"));
  Result<OptimisticTransaction> t = OptimisticTransaction::Start("A", &log_, &env_, &sink_);
  EXPECT_EQ(t.status().code(), Code::kCrashed);
  EXPECT_EQ(sink_.Count(EventType::kCrashed), 1);
}

TEST_F(DeltaTransactionTest, BaseSnapshotIsAdvancedNotReplayed) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction a = Start("A");
  TableSnapshot held = a.snapshot();
  a.Add(F("a"));
  ASSERT_TRUE(a.Commit(Operation::kInsert).ok());
  const int reads = env_.ops(StorageOp::kReadSnapshot);
  Result<OptimisticTransaction> b = OptimisticTransaction::Start("B", &log_, &env_, &sink_, {}, &held);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(env_.ops(StorageOp::kReadSnapshot) - reads, 1);  // only version 1
  EXPECT_EQ(b->read_version(), 1);
  EXPECT_EQ(b->snapshot().files().count("a"), 1u);
}

TEST_F(DeltaTransactionTest, ABaseTakenOverStartsWhereACopiedOneWould) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction a = Start("A");
  a.Add(F("a"));
  ASSERT_TRUE(a.Commit(Operation::kInsert).ok());
  TableSnapshot copied = a.snapshot();
  TableSnapshot carried = a.TakeSnapshot();
  OptimisticTransaction c = Start("C");
  c.Add(F("c"));
  ASSERT_TRUE(c.Commit(Operation::kInsert).ok());
  Result<OptimisticTransaction> from_copy = OptimisticTransaction::Start("B", &log_, &env_, &sink_, {}, &copied);
  const int reads = env_.ops(StorageOp::kReadSnapshot);
  Result<OptimisticTransaction> from_move =
      OptimisticTransaction::Start("B", &log_, &env_, &sink_, {}, std::move(carried));
  ASSERT_TRUE(from_copy.ok() && from_move.ok());
  EXPECT_EQ(env_.ops(StorageOp::kReadSnapshot) - reads, *log_.LatestVersion() - copied.version());  // advanced
  EXPECT_EQ(from_move->read_version(), from_copy->read_version());
  EXPECT_EQ(from_move->snapshot().files(), from_copy->snapshot().files());
  EXPECT_EQ(from_move->snapshot().files().count("c"), 1u);
}

TEST_F(DeltaTransactionTest, StartsAtAGivenReadVersion) {
  CreateTable(IsolationLevel::kSerializable);
  OptimisticTransaction a = Start("A");
  a.Add(F("a"));
  ASSERT_TRUE(a.Commit(Operation::kInsert).ok());
  OptimisticTransaction old = Start("B", TransactionOptions{.read_version = 0});
  EXPECT_EQ(old.read_version(), 0);
  EXPECT_EQ(old.snapshot().files().count("a"), 0u);
}

}  // namespace
}  // namespace commitlab::delta
