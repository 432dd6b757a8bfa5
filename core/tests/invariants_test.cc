// The engines' invariants fire where they must hold: each test breaks one on purpose, through the
// public API or a test double standing in for a store, a log or a catalog, and sees the check abort
// with its reason (docs/architecture.md, section 5, "Checks"). Checks of every build are tested
// here in every build; DCHECKs only where they are live (no NDEBUG: the debug and checked presets,
// asan, tsan, fuzz).
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/delta/transaction.h"
#include "commitlab/core/expression.h"
#include "commitlab/core/iceberg/apply.h"
#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/file_set.h"
#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/iceberg/persistent_vector.h"
#include "commitlab/core/mutex.h"
#include "commitlab/core/paimon/committer.h"
#include "commitlab/core/paimon/memory_store.h"
#include "commitlab/core/paimon/table_state.h"
#include "commitlab/core/retry_budget.h"
#include "commitlab/testing/test_env.h"
#include "commitlab/testing/test_util.h"

namespace commitlab {
namespace {

using ::commitlab::test::Add;
using ::commitlab::test::AppendOf;
using ::commitlab::test::File;
using ::commitlab::test::TestEnv;

// Death tests fork; "threadsafe" re-runs the test binary in the child, so no thread a test
// started (none here, but the fixtures' environments may) is copied half-way.
class InvariantsTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

// ---- Paimon ----

// A store that answers a read of snapshot id with a snapshot labelled id + 1: a broken
// SnapshotStore. The committer reads shared snapshots (ReadSnapshotRef); MemoryStore's
// ReadSnapshot reads through it, so both answer wrongly.
class MislabellingStore : public MemoryStore {
 public:
  Result<SnapshotRef> ReadSnapshotRef(int64_t id) override {
    COMMITLAB_ASSIGN_OR_RETURN(SnapshotRef s, MemoryStore::ReadSnapshotRef(id));
    auto mislabelled = std::make_shared<Snapshot>(*s);
    mislabelled->id = id + 1;
    return SnapshotRef(std::move(mislabelled));
  }
};

TEST_F(InvariantsTest, PaimonConflictDetectionReplaysOnlyTheSnapshotsItAskedFor) {
  TestEnv env;
  MislabellingStore store;
  test::RecordingSink sink;
  paimon::Committer writer("job-A", {}, &env, &store, &sink);
  ASSERT_TRUE(writer.Commit(AppendOf(1, {Add(File("data-1"))})).ok());
  ASSERT_TRUE(writer.Commit(AppendOf(2, {Add(File("data-2"))})).ok());
  // Conflict detection replays snapshot 1 into its base before it checks against snapshot 2.
  paimon::Committer checker("job-B", {}, &env, &store, &sink);
  EXPECT_DEATH((void)checker.Commit(AppendOf(1, {Add(File("data-3"))}), /*check_append_files=*/true),
               "check failed at .*committer.cc.*a store returns the snapshot asked for");
}

TEST_F(InvariantsTest, PaimonTableStateHoldsAFileOnce) {
  TableState state;
  state.AddLive(File("data-1"));
  EXPECT_DEATH(state.AddLive(File("data-1")), "a file is live at most once");
}

TEST_F(InvariantsTest, AFunctionThatRequiresAMutexFindsItHeld) {
  Mutex mu;
  mu.Lock();
  mu.AssertHeld();  // held: nothing happens
  mu.Unlock();
  EXPECT_DEATH(mu.AssertHeld(), "a function marked REQUIRES\\(mu\\) runs with mu held by its thread");
}

// ---- Iceberg ----

TEST_F(InvariantsTest, IcebergSnapshotDeletesOnlyFilesLiveInItsParent) {
  iceberg::Snapshot first;
  first.snapshot_id = 1;
  first.sequence_number = 1;
  first.added_files = {iceberg::MakeDataFile("data/a.parquet", {})};
  const std::shared_ptr<iceberg::Snapshot> parent = iceberg::BuildSnapshot(nullptr, first, nullptr);
  iceberg::Snapshot change;
  change.snapshot_id = 2;
  change.parent_id = 1;
  change.sequence_number = 2;
  change.deleted_files = {iceberg::MakeDataFile("data/never-added.parquet", {})};
  EXPECT_DEATH(iceberg::BuildSnapshot(parent.get(), change, nullptr),
               "a snapshot deletes only data files live in its parent");
}

TEST_F(InvariantsTest, IcebergRestCatalogMovesMainOnlyToASnapshotItRetains) {
  iceberg::InMemoryRestCatalog catalog("db.tbl");
  const iceberg::MetadataRef v0 = *catalog.Current();
  // v1: a schema change, so that a commit built on v0 is merged into v1.
  auto v1 = std::make_shared<iceberg::TableMetadata>(*v0);
  v1->version = 1;
  v1->current_schema_id = 1;
  ASSERT_EQ(catalog.Commit(*v0, v1).outcome, iceberg::CasOutcome::kSwapped);
  // Main moved to snapshot 99, which the commit does not carry.
  auto broken = std::make_shared<iceberg::TableMetadata>(*v0);
  broken->version = 1;
  broken->current_snapshot_id = 99;
  broken->last_sequence_number = 1;
  EXPECT_DEATH((void)catalog.Commit(*v0, broken), "main names a snapshot the merged table retains");
}

TEST_F(InvariantsTest, IcebergPersistentVectorSetsOnlyAnEntryItHas) {
  iceberg::PersistentVector<int> v(std::vector<int>{1, 2, 3});
  v.set(2, 30);
  EXPECT_EQ(v.back(), 30);
  EXPECT_DEATH(v.set(3, 40), "set\\(\\) replaces an entry; push_back adds one");
}

#ifndef NDEBUG
TEST_F(InvariantsTest, IcebergFileSetKeysEachFileByItsOwnPathInCheckedBuilds) {
  iceberg::FileSet set;
  EXPECT_DEATH(set.emplace("data/b.parquet", iceberg::MakeDataFile("data/a.parquet", {}), 1),
               "a FileSet is keyed by each file's own path");
}

TEST_F(InvariantsTest, IcebergFileSetIteratorStaysInRangeInCheckedBuilds) {
  iceberg::FileSet set;
  set.emplace("data/a.parquet", iceberg::MakeDataFile("data/a.parquet", {}), 1);
  EXPECT_DEATH((void)set.end().sequence(), "a position read is an entry, not end\\(\\) or past it");
}
#endif

// ---- Delta ----

// A log whose newest version falls back once a write collides: a broken DeltaLog.
class ShrinkingLog : public delta::DeltaLog {
 public:
  Result<int64_t> LatestVersion() override {
    if (shrunk_) return int64_t{-1};
    return real_.LatestVersion();
  }
  Result<delta::CommitRef> Read(int64_t version) override { return real_.Read(version); }
  delta::WriteResult WriteIfAbsent(int64_t version, const delta::Commit& commit) override {
    if (version == 0) return real_.WriteIfAbsent(version, commit);
    shrunk_ = true;
    return {delta::WriteOutcome::kAlreadyExists, Status::OK()};
  }

 private:
  delta::MemoryDeltaLog real_;
  bool shrunk_ = false;
};

TEST_F(InvariantsTest, DeltaTransactionNeverGoesBackBelowAVersionItTried) {
  TestEnv env;
  ShrinkingLog log;
  Result<delta::OptimisticTransaction> create = delta::OptimisticTransaction::Start("creator", &log, &env, nullptr);
  ASSERT_TRUE(create.ok());
  create->UpdateMetadata(delta::Metadata{.id = "t", .schema = "id INT"});
  ASSERT_EQ(*create->Commit(delta::Operation::kCreateTable), 0);
  Result<delta::OptimisticTransaction> txn = delta::OptimisticTransaction::Start("writer", &log, &env, nullptr);
  ASSERT_TRUE(txn.ok());
  txn->Add(DataFile{.name = "f1", .row_count = 1});
  EXPECT_DEATH((void)txn->Commit(delta::Operation::kInsert),
               "a log only grows: a transaction never goes back below a version it tried");
}

// ---- Shared parts ----

TEST_F(InvariantsTest, ARetryBudgetNeverGoesIntoDebt) {
  EXPECT_DEATH({ RetryBudget b(RetryBudgetOptions{.tokens = 10, .retry_cost = -1, .success_refund = 0.1}); },
               "a budget's amounts are not negative");
}

TEST_F(InvariantsTest, AFilterHasTheOperandsItsOperatorTakes) {
  Expression broken;
  broken.op = Expression::Op::kAnd;
  broken.children = {Expression::Equal("x", int64_t{1})};  // and with one operand
  EXPECT_DEATH((void)RowMatches(broken, Row{{"x", int64_t{1}}}), "a filter's and/or have two operands, its not one");
}

}  // namespace
}  // namespace commitlab
