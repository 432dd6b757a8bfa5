// Iceberg's JDBC catalog against a real PostgreSQL server, started for each test (PgCluster). A
// server that cannot start fails the test with the reason: it is never skipped.
#include "commitlab/catalogs/jdbc_catalog.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "commitlab/catalogs/pg_cluster.h"
#include "commitlab/core/events.h"
#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/file_io.h"
#include "commitlab/core/iceberg/operation.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/sim/fault_spec.h"
#include "commitlab/sim/real_env.h"
#include "threaded_appends.h"

namespace commitlab::catalogs {
namespace {

using iceberg::CasOutcome;
using iceberg::MetadataRef;
using iceberg::TableMetadata;
using ::testing::HasSubstr;

// Version `from.version + 1`, as a writer builds it from `from` (its log ends with from's file).
MetadataRef Next(const TableMetadata& from, std::string_view uuid) {
  auto m = std::make_shared<TableMetadata>(from);
  m->version = from.version + 1;
  m->location = iceberg::MetadataFilePath(m->version, uuid);
  m->metadata_log.Append(from.location);
  return m;
}

class JdbcCatalogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<std::unique_ptr<PgCluster>> c = PgCluster::Start();
    ASSERT_TRUE(c.ok()) << "cannot start the throwaway PostgreSQL server: " << c.status().ToString();
    cluster_ = std::move(*c);
    std::unique_ptr<JdbcCatalog> creator = Open();
    ASSERT_NE(creator, nullptr);
    ASSERT_TRUE(creator->CreateTable(initial_).ok());
  }
  std::unique_ptr<JdbcCatalog> Open() {
    Result<std::unique_ptr<JdbcCatalog>> c = JdbcCatalog::Open(cluster_->conninfo(), {}, &files_);
    EXPECT_TRUE(c.ok()) << c.status().ToString();
    return c.ok() ? std::move(*c) : nullptr;
  }
  // The row as the server has it: (metadata_location, previous_metadata_location).
  std::pair<std::string, std::string> Row() {
    Result<std::unique_ptr<PgConnection>> conn = PgConnection::Connect(cluster_->conninfo());
    EXPECT_TRUE(conn.ok());
    Result<PgRows> r = (*conn)->Exec("SELECT metadata_location, previous_metadata_location FROM iceberg_tables");
    EXPECT_TRUE(r.ok() && r->rows.size() == 1u);
    if (!r.ok() || r->rows.size() != 1u) return {};
    return {r->rows[0][0].value_or("NULL"), r->rows[0][1].value_or("NULL")};
  }

  std::unique_ptr<PgCluster> cluster_;
  MetadataFiles files_;
  const MetadataRef initial_ = std::make_shared<TableMetadata>(iceberg::NewTableMetadata("db.tbl"));
};

TEST_F(JdbcCatalogTest, TheRowNamesTheInitialMetadataAndATableIsCreatedOnce) {
  std::unique_ptr<JdbcCatalog> c = Open();
  Result<MetadataRef> current = c->Current();
  ASSERT_TRUE(current.ok()) << current.status().ToString();
  EXPECT_EQ((*current)->location, initial_->location);
  // CreateTable gives the table a random RFC 4122 version 4 uuid.
  const std::string& uuid = (*current)->Fields().uuid;
  ASSERT_EQ(uuid.size(), 36u);
  EXPECT_EQ(uuid[14], '4');
  EXPECT_NE(std::string("89ab").find(uuid[19]), std::string::npos);
  EXPECT_EQ(Row(), std::make_pair(initial_->location, std::string("NULL")));
  Status again = c->CreateTable(initial_);
  EXPECT_EQ(again.code(), Code::kConflict);
  EXPECT_EQ(again.message(), "Table already exists: db.tbl");
}

TEST_F(JdbcCatalogTest, OfTwoSwapsFromTheSameVersionOneWinsAndTheOtherIsACommitFailure) {
  std::unique_ptr<JdbcCatalog> a = Open(), b = Open();
  const MetadataRef base = *a->Current();
  const MetadataRef mine = Next(*base, "aaaa"), theirs = Next(*base, "bbbb");
  EXPECT_EQ(a->CompareAndSwap(0, mine).outcome, CasOutcome::kSwapped);
  const iceberg::CasResult lost = b->CompareAndSwap(0, theirs);
  EXPECT_EQ(lost.outcome, CasOutcome::kLost);
  EXPECT_EQ(lost.message, "Failed to update table db.tbl from catalog commitlab");  // JdbcTableOperations'
  EXPECT_EQ(Row(), std::make_pair(mine->location, base->location));
  EXPECT_EQ(*b->Current(), mine);
}

TEST_F(JdbcCatalogTest, AServerGoneAfterTheReadLeavesTheSwapUnknown) {
  std::unique_ptr<JdbcCatalog> a = Open();
  const MetadataRef base = *a->Current();
  ASSERT_TRUE(cluster_->Stop().ok());
  const iceberg::CasResult r = a->CompareAndSwap(0, Next(*base, "cccc"));
  EXPECT_EQ(r.outcome, CasOutcome::kUnknown);
  EXPECT_THAT(r.message, HasSubstr("PostgreSQL connection lost"));
  EXPECT_FALSE(a->Current().ok());
}

// Faults at the database boundary: the connection really dropped before the statement (nothing
// happened) and after it ran (the swap happened); both leave the writer's commit unknown, and its
// next commit goes through on a new connection.
TEST_F(JdbcCatalogTest, AConnectionDroppedAroundTheSwapLeavesItUnknownAndTheNextCommitReconnects) {
  sim::ScriptedFaultPlan faults;
  for (const char* spec : {"w:catalog.before:nth=1:error", "w:catalog.after:nth=1:error"}) {
    Result<sim::FaultRule> rule = sim::ParseFaultRule(spec);
    ASSERT_TRUE(rule.ok()) << rule.status().ToString();
    faults.AddRule(*rule);
  }
  sim::RealEnv env(3, &faults);
  Result<std::unique_ptr<JdbcCatalog>> catalog = JdbcCatalog::Open(cluster_->conninfo(), {}, &files_, &env);
  ASSERT_TRUE(catalog.ok()) << catalog.status().ToString();
  iceberg::InMemoryFileIO io;
  NullEventSink sink;
  iceberg::IcebergCommitter committer("w", {}, &env, catalog->get(), &io, &sink);
  std::vector<Status> results;
  std::vector<std::string> rows;
  ASSERT_TRUE(env.RunThreads({{"w",
                               [&] {
                                 for (int64_t k = 0; k < 3; ++k) {
                                   iceberg::FileRef f = iceberg::MakeDataFile(committer.NewDataFilePath(),
                                                                              {commitlab::Row{{"id", Value(k)}}});
                                   Status st = committer.WriteDataFile(f);
                                   Result<MetadataRef> base = committer.Refresh();
                                   if (st.ok() && base.ok())
                                     st = committer.Commit(iceberg::NewAppend(**base, {f})).status();
                                   results.push_back(base.ok() ? st : base.status());
                                   rows.push_back(Row().first);
                                 }
                               }}})
                  .ok());
  ASSERT_EQ(results.size(), 3u);
  // 1: dropped before the UPDATE: unknown to the writer, and the row still names version 0.
  EXPECT_EQ(results[0].code(), Code::kIOError);
  EXPECT_THAT(results[0].message(), HasSubstr("CommitStateUnknownException"));
  EXPECT_THAT(results[0].message(), HasSubstr("connection lost before the statement was sent"));
  EXPECT_EQ(rows[0], initial_->location);
  // 2: dropped after it ran: unknown to the writer, but the row names version 1.
  EXPECT_EQ(results[1].code(), Code::kIOError);
  EXPECT_THAT(results[1].message(), HasSubstr("connection lost before the answer to the statement"));
  EXPECT_THAT(rows[1], HasSubstr("metadata/00001-"));
  // 3: a new connection, a clean commit.
  EXPECT_TRUE(results[2].ok()) << results[2].ToString();
  EXPECT_THAT(rows[2], HasSubstr("metadata/00002-"));
  EXPECT_EQ(faults.fired().size(), 2u);
}

TEST_F(JdbcCatalogTest, WithAWarehouseFolderAnotherProcessReadsTheMetadataTheSwapNames) {
  char dir[] = "/tmp/commitlab-jdbc-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  // Two registries on one folder stand for two processes: b never saw a's objects.
  MetadataFiles a_files(dir), b_files(dir);
  Result<std::unique_ptr<JdbcCatalog>> a = JdbcCatalog::Open(cluster_->conninfo(), {.name = "shared"}, &a_files);
  Result<std::unique_ptr<JdbcCatalog>> b = JdbcCatalog::Open(cluster_->conninfo(), {.name = "shared"}, &b_files);
  ASSERT_TRUE(a.ok() && b.ok());
  const MetadataRef initial = std::make_shared<TableMetadata>(iceberg::NewTableMetadata("db.shared"));
  ASSERT_TRUE((*a)->CreateTable(initial).ok());
  ASSERT_EQ((*a)->CompareAndSwap(0, Next(*initial, "aaaa")).outcome, CasOutcome::kSwapped);
  Result<MetadataRef> seen = (*b)->Current();
  ASSERT_TRUE(seen.ok()) << seen.status().ToString();
  EXPECT_EQ((*seen)->version, 1);
  EXPECT_EQ((*seen)->location, iceberg::MetadataFilePath(1, "aaaa"));
  EXPECT_EQ((*seen)->metadata_log.Entries(), std::vector<std::string>{initial->location});
  std::filesystem::remove_all(dir);
}

TEST_F(JdbcCatalogTest, FourThreadsAppendingEachThroughItsOwnConnectionLandEveryCommit) {
  test::ExpectThreadedAppendsLand(4, 10,
                                  [this](std::string) { return std::unique_ptr<iceberg::IcebergCatalog>(Open()); });
  const MetadataRef last = *Open()->Current();
  EXPECT_EQ(last->version, 40);
  EXPECT_EQ(last->LiveFiles().size(), 40u);
}

// With a folder the metadata files are JSON files there, and the row names them by absolute path,
// as JdbcTableOperations writes metadata_location; a second process reads them back.
TEST_F(JdbcCatalogTest, TheRowHoldsAbsoluteLocationsOfFilesAnotherProcessReads) {
  char dir[] = "/tmp/commitlab-jdbc-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  MetadataFiles files(dir);
  Result<std::unique_ptr<JdbcCatalog>> c = JdbcCatalog::Open(cluster_->conninfo(), {.name = "abs"}, &files);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  ASSERT_TRUE((*c)->CreateTable(initial_).ok());
  const MetadataRef base = *(*c)->Current();
  EXPECT_EQ(base->Fields().location, std::string(dir));
  ASSERT_EQ((*c)->CompareAndSwap(0, Next(*base, "dddd")).outcome, CasOutcome::kSwapped);
  Result<std::unique_ptr<PgConnection>> conn = PgConnection::Connect(cluster_->conninfo());
  ASSERT_TRUE(conn.ok());
  Result<PgRows> r = (*conn)->Exec(
      "SELECT metadata_location, previous_metadata_location FROM iceberg_tables WHERE table_name = 'abs'");
  ASSERT_TRUE(r.ok() && r->rows.size() == 1u);
  EXPECT_EQ(r->rows[0][0], std::string(dir) + "/" + iceberg::MetadataFilePath(1, "dddd"));
  EXPECT_EQ(r->rows[0][1], std::string(dir) + "/" + initial_->location);
  MetadataFiles elsewhere(dir);  // another process: nothing in memory
  Result<std::unique_ptr<JdbcCatalog>> other = JdbcCatalog::Open(cluster_->conninfo(), {.name = "abs"}, &elsewhere);
  ASSERT_TRUE(other.ok());
  Result<MetadataRef> read = (*other)->Current();
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ((*read)->version, 1);
  EXPECT_EQ((*read)->Fields().uuid, base->Fields().uuid);
  std::filesystem::remove_all(dir);
}

// PostgreSQL with its own settings (not the tests' fsync=off, synchronous_commit=off): writers
// append, the server crashes under them (an immediate stop), and once it has recovered every
// commit a writer was told of is in the table. With the tests' settings the same crash can lose
// acknowledged commits: an asynchronous commit answers before its WAL is written.
TEST(JdbcDurabilityTest, WithPostgresDefaultsACrashedServerLosesNoAcknowledgedCommit) {
  Result<std::unique_ptr<PgCluster>> cluster = PgCluster::Start(PgDurability::kDefaults);
  ASSERT_TRUE(cluster.ok()) << "cannot start the throwaway PostgreSQL server: " << cluster.status().ToString();
  MetadataFiles files;
  auto open = [&]() {
    Result<std::unique_ptr<JdbcCatalog>> c = JdbcCatalog::Open((*cluster)->conninfo(), {}, &files);
    EXPECT_TRUE(c.ok()) << c.status().ToString();
    return c.ok() ? std::move(*c) : nullptr;
  };
  ASSERT_TRUE(open()->CreateTable(std::make_shared<TableMetadata>(iceberg::NewTableMetadata("db.tbl"))).ok());
  constexpr int kWriters = 3, kCrashAfter = 30;
  sim::RealEnv env(11);
  iceberg::InMemoryFileIO io;
  NullEventSink sink;
  Result<RetryPolicy> policy = ParseRetryPolicy("full-jitter:base=1ms,cap=20ms");
  ASSERT_TRUE(policy.ok());
  std::mutex mu;
  std::condition_variable acked_cv;
  std::vector<std::string> acked;  // paths of acknowledged appends
  std::vector<std::unique_ptr<JdbcCatalog>> catalogs;
  std::vector<sim::RealEnv::Writer> bodies;
  for (int i = 0; i < kWriters; ++i) {
    catalogs.push_back(open());
    ASSERT_NE(catalogs.back(), nullptr);
    bodies.push_back(
        {"w" + std::to_string(i), [&, i] {
           iceberg::IcebergCommitter c("w" + std::to_string(i), {.retry = *policy}, &env,
                                       catalogs[static_cast<size_t>(i)].get(), &io, &sink);
           for (int64_t k = 0; k < 1000; ++k) {  // until the crash stops it
             iceberg::FileRef f = iceberg::MakeDataFile(c.NewDataFilePath(), {commitlab::Row{{"id", Value(k)}}});
             Result<MetadataRef> base = c.Refresh();
             if (!c.WriteDataFile(f).ok() || !base.ok() || !c.Commit(iceberg::NewAppend(**base, {f})).ok()) return;
             std::lock_guard<std::mutex> l(mu);
             acked.push_back(f->path());
             acked_cv.notify_all();
           }
         }});
  }
  Status crashed = Status::OK();
  bodies.push_back({"crash", [&] {
                      std::unique_lock<std::mutex> l(mu);
                      acked_cv.wait(l, [&] { return acked.size() >= kCrashAfter; });
                      l.unlock();
                      crashed = (*cluster)->Stop();
                    }});
  ASSERT_TRUE(env.RunThreads(std::move(bodies)).ok());
  ASSERT_TRUE(crashed.ok()) << crashed.ToString();
  ASSERT_TRUE((*cluster)->Restart().ok());
  Result<MetadataRef> after = open()->Current();
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  int lost = 0;
  for (const std::string& path : acked) lost += (*after)->LiveFiles().count(path) == 0 ? 1 : 0;
  EXPECT_GE(acked.size(), static_cast<size_t>(kCrashAfter));
  EXPECT_EQ(lost, 0) << lost << " of " << acked.size() << " acknowledged commits lost";
}

}  // namespace
}  // namespace commitlab::catalogs
