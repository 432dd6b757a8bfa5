#include "commitlab/core/delta/log_store.h"

#include <gtest/gtest.h>

#include "commitlab/core/delta/snapshot.h"
#include "commitlab/testing/test_env.h"

namespace commitlab::delta {
namespace {

Commit WithAdd(std::string name, std::string partition = "x=1") {
  Commit c;
  c.adds.push_back({DataFile{.name = std::move(name), .partition = std::move(partition)}, true});
  return c;
}

TEST(DeltaLogStoreTest, EmptyLogHasVersionMinusOne) {
  MemoryDeltaLog log;
  ASSERT_TRUE(log.LatestVersion().ok());
  EXPECT_EQ(*log.LatestVersion(), -1);
  EXPECT_EQ(log.Read(0).status().code(), Code::kNotFound);
}

TEST(DeltaLogStoreTest, PutIfAbsentRefusesAnExistingVersion) {
  MemoryDeltaLog log;
  EXPECT_EQ(log.WriteIfAbsent(0, WithAdd("a")).outcome, WriteOutcome::kWritten);
  EXPECT_EQ(log.WriteIfAbsent(0, WithAdd("b")).outcome, WriteOutcome::kAlreadyExists);
  // The loser's write changed nothing.
  ASSERT_TRUE(log.Read(0).ok());
  EXPECT_EQ((*log.Read(0))->adds.at(0).file.name, "a");
  EXPECT_EQ(*log.LatestVersion(), 0);
}

// A written version is immutable: every read shares the one copy the log keeps, which the
// writer's later changes to its own Commit do not reach.
TEST(DeltaLogStoreTest, ReadsShareTheVersionAsWritten) {
  MemoryDeltaLog log;
  Commit mine = WithAdd("a");
  ASSERT_EQ(log.WriteIfAbsent(0, mine).outcome, WriteOutcome::kWritten);
  mine.adds.at(0).file.name = "changed";
  Result<CommitRef> first = log.Read(0), second = log.Read(0);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->get(), second->get());
  EXPECT_EQ((*first)->adds.at(0).file.name, "a");
}

TEST(DeltaLogStoreTest, RefusesAGap) {
  MemoryDeltaLog log;
  WriteResult r = log.WriteIfAbsent(1, WithAdd("a"));
  EXPECT_EQ(r.outcome, WriteOutcome::kError);
  EXPECT_EQ(r.error.code(), Code::kInvalidArgument);
  EXPECT_EQ(*log.LatestVersion(), -1);
}

TEST(DeltaLogStoreTest, FileNamesAreZeroPaddedToTwentyDigits) {
  EXPECT_EQ(DeltaFileName(1), "00000000000000000001.json");
  EXPECT_EQ(DeltaFileName(12345), "00000000000000012345.json");
}

TEST(DeltaLogStoreTest, SnapshotReplaysAddsRemovesAndTxns) {
  MemoryDeltaLog log;
  Commit v0 = WithAdd("a");
  v0.metadata = Metadata{.partition_columns = {"x"}};
  ASSERT_EQ(log.WriteIfAbsent(0, v0).outcome, WriteOutcome::kWritten);
  Commit v1 = WithAdd("b");
  v1.removes.push_back({DataFile{.name = "a", .partition = "x=1"}, true});
  v1.txns.push_back({"app", 7});
  ASSERT_EQ(log.WriteIfAbsent(1, v1).outcome, WriteOutcome::kWritten);

  test::TestEnv env;
  TableSnapshot s;
  ASSERT_TRUE(AdvanceSnapshot(s, log, env, 1).ok());
  EXPECT_EQ(s.version(), 1);
  ASSERT_EQ(s.files().size(), 1u);
  EXPECT_EQ(s.files().begin()->first, "b");
  EXPECT_EQ(s.TxnVersion("app"), 7);
  EXPECT_EQ(s.TxnVersion("other"), -1);
  EXPECT_TRUE(s.partitioned());
  EXPECT_EQ(env.ops(StorageOp::kReadSnapshot), 2);
  EXPECT_EQ(s.Apply(5, Commit{}).code(), Code::kInvalidArgument);
}

}  // namespace
}  // namespace commitlab::delta
