// `commitlab catalog race` on real processes: the same workloads through the in-memory catalog
// (threads), a REST catalog server and PostgreSQL's JDBC catalog (writer processes), judged alike.
// PostgreSQL is a throwaway server per test (PgCluster); one that cannot start fails the test.
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/catalogs/pg_cluster.h"
#include "commitlab/catalogs/rest_catalog.h"
#include "commitlab_binary.h"
#include "serve_process.h"

extern char** environ;

namespace commitlab::process {
namespace {

using test::RunCommitlab;
using test::ServeProcess;
using ::testing::HasSubstr;

class CatalogRaceTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/commitlab-catalog-race-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    warehouse_ = dir;
    if (GetParam() == "postgres") {
      Result<std::unique_ptr<catalogs::PgCluster>> c = catalogs::PgCluster::Start();
      ASSERT_TRUE(c.ok()) << "cannot start the throwaway PostgreSQL server: " << c.status().ToString();
      cluster_ = std::move(*c);
    }
  }
  void TearDown() override { std::filesystem::remove_all(warehouse_); }

  // The race's JSON report; *exit_code its exit code.
  sim::Json Race(std::vector<std::string> extra, int* exit_code) {
    const std::string catalog = GetParam() == "postgres" ? cluster_->conninfo() : GetParam();
    std::vector<std::string> args = {
        "catalog", "race", "--catalog", catalog, "--json", "--table", "t" + std::to_string(++tables_)};
    if (GetParam() != "memory") args.insert(args.end(), {"--warehouse", warehouse_});
    args.insert(args.end(), extra.begin(), extra.end());
    test::CommandOutput r = RunCommitlab(args);
    *exit_code = r.exit_code;
    return sim::Json::parse(r.out, nullptr, false);
  }

  std::string warehouse_;
  std::unique_ptr<catalogs::PgCluster> cluster_;
  int tables_ = 0;
};

TEST_P(CatalogRaceTest, FourWritersAppendingLandEveryCommitOnce) {
  int rc = -1;
  // Retries enough that no writer runs out of them however the four interleave.
  sim::Json r = Race({"--writers", "4", "--commits", "10", "--policy", "iceberg:retries=1000"}, &rc);
  ASSERT_TRUE(r.is_object()) << "exit " << rc;
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(r["acknowledged"], 40);
  EXPECT_EQ(r["version"], 40);
  EXPECT_EQ(r["live_files"], 40);
  EXPECT_TRUE(r["missing"].empty());
  EXPECT_TRUE(r["duplicates"].empty());
  for (const sim::Json& w : r["writers"]) {
    EXPECT_EQ(w["error"], "");
    EXPECT_EQ(w["attempts"], 10 + w["atomic_failures"].get<int>()) << w.dump();  // each lost swap retried
  }
}

TEST_P(CatalogRaceTest, WithRetriesAtZeroALoserFailsAndLeavesItsFilesAsOrphans) {
  int rc = -1;
  // Eight writers of twenty commits each: a race without a single loss is all but impossible, and
  // whoever loses must show it as below.
  sim::Json r = Race({"--writers", "8", "--commits", "20", "--policy", "iceberg:retries=0"}, &rc);
  ASSERT_TRUE(r.is_object()) << "exit " << rc;
  EXPECT_EQ(rc, 0);  // giving up is what retries=0 asks for, not a violation
  EXPECT_EQ(r["live_files"], r["acknowledged"]);
  int gave_up = 0;
  for (const sim::Json& w : r["writers"]) {
    if (w["error"] == "") {
      EXPECT_EQ(w["acknowledged"], 20);
      continue;
    }
    ++gave_up;
    EXPECT_THAT(w["error"].get<std::string>(), HasSubstr("CommitFailedException"));
    EXPECT_EQ(w["atomic_failures"], 1);
  }
  // Each loser's data file (and, but through REST, its metadata file) is reached by no snapshot.
  EXPECT_GE(r["orphans"].get<int>(), gave_up);
}

TEST_P(CatalogRaceTest, TheCounterLosesNoIncrementWhenALoserGivesUpOrRereads) {
  for (const std::string policy : {"give-up", "reread"}) {
    int rc = -1;
    sim::Json r = Race({"--writers", "3", "--commits", "4", "--workload", "counter", "--on-validation", policy}, &rc);
    ASSERT_TRUE(r.is_object()) << policy << ": exit " << rc;
    EXPECT_EQ(rc, 0) << policy;
    EXPECT_TRUE(r["lost_update"].is_null()) << r["lost_update"];
    EXPECT_EQ(r["counter"], 10 + 5 * r["acknowledged"].get<int>()) << policy;
  }
}

TEST_P(CatalogRaceTest, RecommittingAStaleValueIsCaughtAsALostUpdateWheneverOneHappens) {
  int rc = -1;
  sim::Json r =
      Race({"--writers", "3", "--commits", "4", "--workload", "counter", "--on-validation", "recommit-stale"}, &rc);
  ASSERT_TRUE(r.is_object()) << "exit " << rc;
  const int expected = 10 + 5 * r["acknowledged"].get<int>();
  if (r["counter"] == expected) {
    EXPECT_EQ(rc, 0);  // no two workers read the same value this time
  } else {
    EXPECT_EQ(rc, 1);
    EXPECT_LT(r["counter"].get<int>(), expected);
    EXPECT_THAT(r["lost_update"].get<std::string>(), HasSubstr("lost update: counter hits is"));
  }
}

INSTANTIATE_TEST_SUITE_P(Catalogs, CatalogRaceTest, ::testing::Values("memory", "rest", "postgres"));

class CatalogFaultTest : public CatalogRaceTest {};

// One writer, so that nothing but the fault decides: its commit is applied, the answer lost.
TEST_P(CatalogFaultTest, ACommitAppliedWhoseAnswerIsLostIsUnknownToItsWriter) {
  int rc = -1;
  sim::Json r = Race({"--writers", "1", "--commits", "3", "--fault", "*:catalog.after:nth=1:error"}, &rc);
  ASSERT_TRUE(r.is_object()) << "exit " << rc;
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(r["acknowledged"], 0);  // the writer stops at its first commit, unknown
  EXPECT_EQ(r["version"], 1);       // which the catalog applied all the same
  EXPECT_EQ(r["fired_faults"], sim::Json::array({"job-A:catalog.after:hit=1:error"}));
  EXPECT_EQ(r["writers"][0]["unknown"], 1);
  EXPECT_THAT(r["writers"][0]["error"].get<std::string>(), HasSubstr("CommitStateUnknownException"));
}

TEST_P(CatalogFaultTest, AFailureBeforeTheCommitAppliesNothing) {
  int rc = -1;
  sim::Json r = Race({"--writers", "1", "--commits", "3", "--fault", "*:catalog.before:nth=2:error"}, &rc);
  ASSERT_TRUE(r.is_object()) << "exit " << rc;
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(r["acknowledged"], 1);  // the first commit
  EXPECT_EQ(r["version"], 1);       // and nothing of the second
  EXPECT_EQ(r["writers"][0]["unknown"], 1);
}

// Several writers: whichever commits the lost answers belonged to, the acknowledged ones are all
// in the table and the rest are counted unknown, never as a violation.
TEST_P(CatalogFaultTest, LostAnswersAmongRacingWritersAreNeverAViolation) {
  int rc = -1;
  sim::Json r = Race({"--writers", "4", "--commits", "5", "--fault", "*:catalog.after:p=0.2:error"}, &rc);
  ASSERT_TRUE(r.is_object()) << "exit " << rc;
  EXPECT_EQ(rc, 0);
  EXPECT_TRUE(r["missing"].empty());
  int unknown = 0;
  for (const sim::Json& w : r["writers"]) unknown += w["unknown"].get<int>();
  EXPECT_EQ(static_cast<size_t>(unknown), r["fired_faults"].size());
  EXPECT_GE(r["version"].get<int>(), r["acknowledged"].get<int>());
  EXPECT_LE(r["version"].get<int>(), r["acknowledged"].get<int>() + unknown);
}

// The compare-and-swap, pinned by a delay rather than left to a thread race: job-A has read the
// table and built its commit, and waits two seconds just before its swap while job-B commits. The
// swap must find the table moved (JdbcTableOperations' UPDATE ... WHERE metadata_location = old;
// the REST server's assert-ref-snapshot-id) and lose; a swap that did not compare would put A's
// stale metadata in place and drop B's acknowledged commits.
TEST_P(CatalogFaultTest, ASwapBuiltOnAStaleBaseLosesAndLosesNothing) {
  int rc = -1;
  sim::Json r = Race({"--writers", "2", "--commits", "3", "--fault", "job-A:catalog.before:nth=1:delay=2s"}, &rc);
  ASSERT_TRUE(r.is_object()) << "exit " << rc;
  EXPECT_EQ(rc, 0);
  EXPECT_TRUE(r["missing"].empty()) << r.dump();
  EXPECT_EQ(r["acknowledged"], 6);
  EXPECT_EQ(r["version"], 6);
  ASSERT_EQ(r["writers"][0]["user"], "job-A");
  EXPECT_GE(r["writers"][0]["atomic_failures"].get<int>(), 1) << "job-B committed during job-A's delay";
}

INSTANTIATE_TEST_SUITE_P(ServerCatalogs, CatalogFaultTest, ::testing::Values("rest", "postgres"));

TEST(CatalogServeTest, AServerCrashedAfterApplyingACommitServesItAfterARestart) {
  char dir[] = "/tmp/commitlab-serve-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string warehouse = std::string(dir) + "/catalog";
  ServeProcess crashing({"--warehouse", warehouse, "--fault", "*:catalog.after:nth=1:crash"});
  ASSERT_GT(crashing.port(), 0) << "the server did not say where it listens";
  test::CommandOutput race =
      RunCommitlab({"catalog", "race", "--catalog", "rest://127.0.0.1:" + std::to_string(crashing.port()), "--writers",
                    "1", "--warehouse", std::string(dir) + "/w"});
  EXPECT_EQ(race.exit_code, 2) << race.out;       // the table cannot be read back from a dead server
  if (race.exit_code != 2) crashing.Interrupt();  // it did not crash: do not wait for it forever
  EXPECT_EQ(crashing.Wait(), 137);

  // The commit was stored before the crash: a new server on the warehouse has it.
  ServeProcess restarted({"--warehouse", warehouse});
  ASSERT_GT(restarted.port(), 0);
  catalogs::RestCatalog client({.port = static_cast<uint16_t>(restarted.port())});
  Result<iceberg::MetadataRef> m = client.Current();
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ((*m)->version, 1);
  EXPECT_EQ((*m)->LiveFiles().count("data/job-A-00001.parquet"), 1u);
  restarted.Interrupt();
  EXPECT_EQ(restarted.Wait(), 0);  // Ctrl-C stops it cleanly
  std::filesystem::remove_all(dir);
}

TEST(CatalogRaceFlagsTest, WhatCannotRunIsRefusedWithExit2) {
  EXPECT_EQ(RunCommitlab({"catalog", "race", "--catalog", "memory", "--processes", "2"}).exit_code, 2);
  EXPECT_EQ(RunCommitlab({"catalog", "race", "--catalog", "nowhere"}).exit_code, 2);
  EXPECT_EQ(RunCommitlab({"catalog", "race", "--fault", "*:catalog.after:nth=1:error"}).exit_code, 2);
  EXPECT_EQ(RunCommitlab({"catalog", "race", "--catalog", "rest"}).exit_code, 2);  // no --warehouse
  EXPECT_EQ(RunCommitlab({"catalog", "serve"}).exit_code, 2);
  EXPECT_EQ(RunCommitlab({"catalog", "serve", "--warehouse", "/tmp", "--address", "0.0.0.0"}).exit_code, 2);
  EXPECT_EQ(RunCommitlab({"catalog", "frobnicate"}).exit_code, 2);
}

}  // namespace
}  // namespace commitlab::process
