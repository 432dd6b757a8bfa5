#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/file_io.h"
#include "commitlab/core/iceberg/operation.h"
#include "commitlab/testing/test_env.h"
#include "commitlab/testing/test_util.h"

namespace commitlab::iceberg {
namespace {

// A REST catalog fails a commit only on a change its requirements name, and otherwise applies
// the commit's updates to the table as it is now (UpdateRequirements, CatalogHandlers.commit).
class RestCatalogTest : public ::testing::Test {
 protected:
  Status CommitAs(const std::string& writer, const Operation& op, int* attempts = nullptr) {
    IcebergCommitter c(writer, {}, &env_, &catalog_, &io_, &sink_);
    Result<CommitResult> r = c.Commit(op);
    if (attempts != nullptr) *attempts = r.ok() ? r->attempts : 0;
    return r.status();
  }
  FileRef Data(const std::string& name) {
    FileRef f = MakeDataFile("data/" + name + ".parquet", {{{"id", int64_t{1}}}});
    EXPECT_TRUE(io_.Write({.path = f->path(), .kind = FileKind::kData, .data = f}).ok());
    return f;
  }
  MetadataRef Current() { return *catalog_.Current(); }

  ::commitlab::test::TestEnv env_;
  InMemoryFileIO io_;
  InMemoryRestCatalog catalog_{"db.tbl"};
  ::commitlab::test::RecordingSink sink_;
};

TEST_F(RestCatalogTest, ASecondSchemaChangeFailsItsRequirement) {
  const MetadataRef base = Current();
  ASSERT_TRUE(CommitAs("alter-1", NewSchemaChange(*base, 1)).ok());
  Status st = CommitAs("alter-2", NewSchemaChange(*base, 2));
  EXPECT_EQ(st.code(), Code::kConflict);
  EXPECT_EQ(st.message(), "CommitFailedException: Requirement failed: current schema changed: expected id 0 != 1");
  EXPECT_EQ(Current()->current_schema_id, 1);
}

TEST_F(RestCatalogTest, AnAppendBuiltBeforeASchemaChangeIsAppliedToTheNewVersion) {
  ASSERT_TRUE(CommitAs("setup", NewAppend(*Current(), {Data("a")})).ok());
  const MetadataRef base = Current();
  ASSERT_TRUE(CommitAs("alter", NewSchemaChange(*base, 1)).ok());
  // An append whose writer refreshed before the schema change: main still points where it did.
  auto next = std::make_shared<TableMetadata>(*base);
  next->version = base->version + 1;
  next->location = "metadata/appender.metadata.json";
  auto snapshot = std::make_shared<Snapshot>(*base->CurrentSnapshot());
  snapshot->snapshot_id = 77;
  snapshot->parent_id = base->current_snapshot_id;
  snapshot->sequence_number = base->last_sequence_number + 1;
  next->snapshots.push_back(snapshot);
  next->current_snapshot_id = 77;
  next->last_sequence_number = snapshot->sequence_number;
  CasResult r = catalog_.Commit(*base, next);
  ASSERT_EQ(r.outcome, CasOutcome::kSwapped) << r.message;
  ASSERT_NE(r.current, nullptr);
  EXPECT_EQ(r.current, Current());
  EXPECT_EQ(Current()->version, base->version + 2);
  EXPECT_EQ(Current()->current_schema_id, 1);  // the schema change is kept
  EXPECT_EQ(Current()->current_snapshot_id, 77);
  EXPECT_EQ(Current()->snapshots.size(), 2u);
  EXPECT_EQ(Current()->location, "metadata/appender.metadata.json");
}

TEST_F(RestCatalogTest, ASchemaChangeLandsOverAConcurrentAppendInOneAttempt) {
  ASSERT_TRUE(CommitAs("setup", NewAppend(*Current(), {Data("a")})).ok());
  const Operation alter = NewSchemaChange(*Current(), 1);
  ASSERT_TRUE(CommitAs("appender", NewAppend(*Current(), {Data("b")})).ok());
  int attempts = 0;
  ASSERT_TRUE(CommitAs("alter", alter, &attempts).ok());
  EXPECT_EQ(attempts, 1);
  EXPECT_EQ(Current()->current_schema_id, 1);
  EXPECT_EQ(Current()->LiveFiles().size(), 2u);
}

TEST_F(RestCatalogTest, ACommitMovingMainFromAStaleSnapshotFailsItsRequirement) {
  ASSERT_TRUE(CommitAs("setup", NewAppend(*Current(), {Data("a")})).ok());
  const MetadataRef base = Current();
  ASSERT_TRUE(CommitAs("first", NewAppend(*base, {Data("b")})).ok());
  const MetadataRef now = Current();
  // What a writer that refreshed before "first" committed would send: main moved from base's.
  auto next = std::make_shared<TableMetadata>(*base);
  next->version = base->version + 1;
  next->current_snapshot_id = 42;
  CasResult r = catalog_.Commit(*base, next);
  EXPECT_EQ(r.outcome, CasOutcome::kLost);
  EXPECT_EQ(r.message, fmt::format("Requirement failed: branch main has changed: expected id {} != {}",
                                   *base->current_snapshot_id, *now->current_snapshot_id));
  EXPECT_EQ(Current(), now);
}

}  // namespace
}  // namespace commitlab::iceberg
