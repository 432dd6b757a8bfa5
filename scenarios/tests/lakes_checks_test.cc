// The Iceberg and Delta tables' checks (iceberg_table.h, delta_table.h) fire: a correct engine never forks a
// table or loses an acknowledged commit, so these tests break the tables by hand (a metadata swap
// with a wrong parent, an acknowledgement of a commit that is not there) and expect the report to
// say so. Each would fail if its check stopped finding.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "commitlab/core/delta/actions.h"
#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/operation.h"
#include "commitlab/testing/test_env.h"
#include "protocols/delta/delta_table.h"
#include "protocols/iceberg/iceberg_table.h"

namespace commitlab::scenarios::internal {
namespace {

using ::testing::HasSubstr;

Table MakeTable(std::string name, Protocol protocol, std::string isolation) {
  Table t;
  t.name = std::move(name);
  t.protocol = protocol;
  t.isolation = std::move(isolation);
  return t;
}

std::vector<std::string> Kinds(const std::vector<sim::Violation>& v) {
  std::vector<std::string> out;
  for (const sim::Violation& x : v) out.push_back(x.kind);
  return out;
}

class IcebergChecksTest : public ::testing::Test {
 protected:
  IcebergChecksTest() : table_(MakeTable("t", Protocol::kIceberg, "serializable")), run_(table_) {}

  // One append through the engine, acknowledged as a writer would be.
  void Append(const std::string& path) {
    iceberg::IcebergCommitter c("w", {}, &env_, run_.catalog(), run_.io(), &events_);
    const iceberg::FileRef f = iceberg::MakeDataFile(path, {{{"id", int64_t{1}}}});
    ASSERT_TRUE(c.WriteDataFile(f).ok());
    Result<iceberg::MetadataRef> base = c.Refresh();
    ASSERT_TRUE(base.ok());
    Result<iceberg::CommitResult> r = c.Commit(iceberg::NewAppend(**base, {f}));
    ASSERT_TRUE(r.ok()) << r.status().message();
    run_.Acknowledged(*r->snapshot_id, (*r->committed->FindSnapshot(*r->snapshot_id)).sequence_number);
  }

  std::vector<sim::Violation> Report(TableReport* out = nullptr) {
    TableReport report;
    std::vector<sim::Violation> found;
    std::vector<std::string> run_errors;
    run_.Report(out != nullptr ? out : &report, &found, &run_errors);
    return found;
  }

  test::TestEnv env_;
  NullEventSink events_;
  Table table_;
  IcebergTableRun run_;
};

TEST_F(IcebergChecksTest, ACorrectTableHasNoViolation) {
  Append("data/a.parquet");
  Append("data/b.parquet");
  EXPECT_TRUE(Report().empty());
}

TEST_F(IcebergChecksTest, ASnapshotWhoseParentIsNotTheOneBeforeItIsAFork) {
  Append("data/a.parquet");
  Append("data/b.parquet");
  // Swap in metadata whose second snapshot names no parent: two lines where there should be one.
  const iceberg::MetadataRef current = *run_.catalog()->Current();
  auto forked = std::make_shared<iceberg::TableMetadata>(*current);
  auto second = std::make_shared<iceberg::Snapshot>(*forked->snapshots[1]);
  second->parent_id = std::nullopt;
  forked->snapshots.set(1, second);
  forked->version = current->version + 1;
  ASSERT_EQ(run_.catalog()->CompareAndSwap(current->version, forked).outcome, iceberg::CasOutcome::kSwapped);
  const std::vector<sim::Violation> found = Report();
  ASSERT_EQ(Kinds(found), std::vector<std::string>{"fork"});
  EXPECT_THAT(found[0].message, HasSubstr("the snapshots do not form one line"));
}

TEST_F(IcebergChecksTest, AnAcknowledgedSnapshotNeitherRetainedNorExpiredIsLost) {
  Append("data/a.parquet");
  run_.Acknowledged(4242, 2);  // a writer was told of a snapshot the table does not hold
  std::vector<sim::Violation> found = Report();
  ASSERT_EQ(Kinds(found), std::vector<std::string>{"lost"});
  EXPECT_THAT(found[0].message, HasSubstr("acknowledged snapshot 4242 (sequence 2) is not in the table"));
  run_.Expired({4242});  // an expire step removed it: nothing lost
  EXPECT_TRUE(Report().empty());
}

TEST_F(IcebergChecksTest, AFileARetainedSnapshotReachesThatIsGoneIsMissing) {
  Append("data/a.parquet");
  ASSERT_TRUE(run_.io()->Delete("data/a.parquet").ok());
  const std::vector<sim::Violation> found = Report();
  ASSERT_EQ(Kinds(found), std::vector<std::string>{"missing_file"});
  EXPECT_THAT(found[0].message, HasSubstr("data/a.parquet is gone"));
}

TEST(DeltaChecksTest, AnAcknowledgedVersionThatDoesNotHoldTheWritersCommitIsLost) {
  const Table table = MakeTable("d", Protocol::kDelta, "Serializable");
  DeltaTableRun run(table);
  ASSERT_TRUE(run.Create().ok());
  delta::Commit c;
  c.commit_info.operation = delta::Operation::kInsert;
  c.commit_info.user_name = "winner";
  ASSERT_EQ(run.log()->WriteIfAbsent(1, c).outcome, delta::WriteOutcome::kWritten);
  run.Acknowledged("winner", 1);
  {
    TableReport report;
    std::vector<sim::Violation> found;
    std::vector<std::string> run_errors;
    run.Report(&report, &found, &run_errors);
    EXPECT_TRUE(found.empty());
  }
  run.Acknowledged("loser", 1);  // told it wrote version 1, which holds the winner's commit
  run.Acknowledged("loser", 7);  // told of a version that does not exist
  TableReport report;
  std::vector<sim::Violation> found;
  std::vector<std::string> run_errors;
  run.Report(&report, &found, &run_errors);
  ASSERT_EQ(Kinds(found), (std::vector<std::string>{"lost", "lost"}));
  EXPECT_EQ(found[0].message, "table d: loser was told it committed version 1, which holds a commit by winner");
  EXPECT_EQ(found[1].message, "table d: loser was told it committed version 7, which does not exist");
}

}  // namespace
}  // namespace commitlab::scenarios::internal
