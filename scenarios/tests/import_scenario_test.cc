// `commitlab import --scenario K` on the vendored logs: the scenario parses, runs, replays the log's
// own interleaving with every commit landing, steps, and explore answers in which interleavings a
// commit would have conflicted, under the table's isolation level and under the other one.
#include "commitlab/sim/import/import_scenario.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "commitlab/scenarios/explore.h"
#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/stepper.h"
#include "commitlab/sim/import/import.h"
#include "commitlab/sim/std_regex.h"

namespace commitlab::scenarios {
namespace {

using ::testing::HasSubstr;

std::string Data(const std::string& rel) { return std::string(COMMITLAB_SOURCE_DIR) + "/scenarios/tests/data/" + rel; }

std::string ScenarioOf(const std::string& path, sim::import::ScenarioOptions options) {
  options.command = "commitlab import TABLE";
  sim::import::ScenarioSink sink(options);
  const Status st = sim::import::ImportLog({.path = path, .format = {}}, &sink);
  EXPECT_TRUE(st.ok()) << st.message();
  Result<std::string> text = sink.Text();
  EXPECT_TRUE(text.ok()) << text.status().message();
  return text.ok() ? *text : "";
}

Scenario Parsed(const std::string& text) {
  Result<Scenario> s = ParseScenario(text, "imported.scn");
  EXPECT_TRUE(s.ok()) << s.status().message() << "\n" << text;
  return s.ok() ? *s : Scenario{};
}

ExploreReport Explored(const Scenario& s) {
  Result<ExploreReport> r = Explore(s, RunOptions{}, ExploreOptions{});
  EXPECT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r.ok() && r->complete()) << s.title
                                       << (r.ok() ? fmt::format(" executions {} stopped {} cut {} {}", r->executions,
                                                                r->stopped, r->cut_preemptions, r->cut_steps)
                                                  : "");
  return r.ok() ? *r : ExploreReport{};
}

const std::string kDeletes = "real-tables/delta/basic-with-inserts-deletes-checkpoint";

TEST(ImportScenario, TheLastFourDeltaCommitsRunAsTheLogOrderedThem) {
  const std::string text = ScenarioOf(Data(kDeletes), {.commits = 4, .writer_per_commit = true});
  EXPECT_THAT(text, HasSubstr("versions 10..13"));
  EXPECT_THAT(text,
              HasSubstr("table name=basic-with-inserts-deletes-checkpoint protocol=delta isolation=Serializable"));
  EXPECT_THAT(text, HasSubstr("delete-13: remove files=part-00000-26da113c-2e45-4aba-b1ce-6eb5e46c53f7-c000,"));
  EXPECT_THAT(text, HasSubstr("order write-11.c11 -> delete-13.t13"));
  // The commented lines are the log's own interleaving: with them every commit lands, as it did.
  const std::string as_logged = std::regex_replace(text, std::regex("\n# order "), "\norder ");
  Result<RunReport> r = RunScenario(Parsed(as_logged), RunOptions{});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->ok());
  EXPECT_EQ(r->expectations_passed(), 4u);
}

TEST(ImportScenario, ExploreFindsTheDeleteRefusedUnderSerializable) {
  const Scenario s = Parsed(ScenarioOf(Data(kDeletes), {.commits = 4, .writer_per_commit = true}));
  Result<ExploreReport> r = Explore(s, RunOptions{}, ExploreOptions{.stop_at_first = true});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->findings.size(), 1u);
  EXPECT_THAT(r->findings[0].detail,
              HasSubstr("expect writer delete-13 ok (saw delete-13 refused: ConcurrentAppendException"));
}

// The whole search under both levels (thousands of executions: labelled long).
TEST(ImportScenario, ExploreFindsTheDeleteRefusedUnderSerializableOnly) {
  const ExploreReport serializable =
      Explored(Parsed(ScenarioOf(Data(kDeletes), {.commits = 4, .writer_per_commit = true})));
  ASSERT_EQ(serializable.findings.size(), 1u);
  EXPECT_THAT(serializable.findings[0].detail,
              HasSubstr("expect writer delete-13 ok (saw delete-13 refused: ConcurrentAppendException"));
  // WriteSerializable lets a blind append past a DELETE that read the table.
  const ExploreReport write_serializable = Explored(
      Parsed(ScenarioOf(Data(kDeletes), {.commits = 4, .isolation = "WriteSerializable", .writer_per_commit = true})));
  EXPECT_TRUE(write_serializable.ok());
  EXPECT_EQ(write_serializable.executions, serializable.executions);
}

TEST(ImportScenario, OneEngineIsOneWriterWhoseCommitsCannotRace) {
  const std::string text = ScenarioOf(Data(kDeletes), {.commits = 4});
  const Scenario s = Parsed(text);
  ASSERT_EQ(s.writers.size(), 1u);
  EXPECT_EQ(s.writers[0].name, "Apache-Spark-3-4-0-Delta-Lake-3-0-0-SNAPSHOT");
  EXPECT_TRUE(Explored(s).ok());
}

TEST(ImportScenario, EveryVendoredDeltaTableMakesAScenarioThatRuns) {
  for (const char* table : {"basic-with-inserts-merge", "basic-with-inserts-overwrite-restore",
                            "commit-info-containing-arbitrary-operationParams-types",
                            "data-skipping-change-stats-collected-across-versions", "delta-0.2.0",
                            "dv-partitioned-with-checkpoint", "log-replay-latest-metadata-protocol",
                            "snapshot-repartitioned", "time-travel-partition-changes-b", "v2-checkpoint-json"}) {
    SCOPED_TRACE(table);
    const std::string text = ScenarioOf(Data(std::string("real-tables/delta/") + table), {.commits = 3});
    const std::string as_logged = std::regex_replace(text, std::regex("\n# order "), "\norder ");
    Result<RunReport> r = RunScenario(Parsed(as_logged), RunOptions{});
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_TRUE(r->ok()) << text;
  }
}

TEST(ImportScenario, IcebergCommitsAreTheirOperations) {
  const std::string text = ScenarioOf(Data("real-tables/iceberg/iceberg_spark_compaction_with_dangling_delete"),
                                      {.commits = 3, .writer_per_commit = true});
  EXPECT_THAT(text, HasSubstr("overwrite-3.c3: row-delta delete=true rows=1 validate=data-files-exist,deleted-files,"
                              "data,deletes"));
  EXPECT_THAT(text, HasSubstr("replace-5.c5: rewrite"));
  const ExploreReport r = Explored(Parsed(text));
  EXPECT_FALSE(r.ok());  // a compaction and a merge-on-read delete of its files refuse each other
  const std::string flink =
      ScenarioOf(Data("real-tables/iceberg/iceberg_v2_delete_equality_partitioned"), {.commits = 2});
  EXPECT_THAT(flink, HasSubstr("flink-0909766ab9d7637470b746e6f14cbde6.c5: row-delta delete-keys=1..1 rows=1"));
  // Flink's equality deletes validate nothing: every interleaving lands them all.
  EXPECT_TRUE(Explored(Parsed(flink)).ok());
  const std::string schema = ScenarioOf(Data("real-tables/iceberg/iceberg_v3_default_value"), {.commits = 2});
  EXPECT_THAT(schema, HasSubstr(": schema id=1"));
  Result<RunReport> run = RunScenario(Parsed(schema), RunOptions{});
  ASSERT_TRUE(run.ok()) << run.status().message();
}

TEST(ImportScenario, PaimonSnapshotsAreTheirCommitKinds) {
  const std::string text = ScenarioOf(Data("import/paimon-duplicate"), {.commits = 3});
  EXPECT_THAT(text, HasSubstr("writer name=u1 user=u1"));
  EXPECT_THAT(text, HasSubstr("u1.c3: write rows=1; commit identifier=2"));
  EXPECT_THAT(text, HasSubstr("#   PROBLEM duplicate_commit: snapshot 3"));
  Result<RunReport> run = RunScenario(Parsed(text), RunOptions{});
  ASSERT_TRUE(run.ok()) << run.status().message();
  const std::string docs = ScenarioOf(Data("real-tables/paimon/docs-snapshot-4"), {.commits = 1});
  EXPECT_THAT(docs, HasSubstr("compact from=0 to=5 files=all; commit identifier=9223372036854775807"));
  EXPECT_TRUE(Explored(Parsed(docs)).ok());
}

TEST(ImportScenario, TheStepperWalksAnImportedScenario) {
  const Scenario s = Parsed(ScenarioOf(Data(kDeletes), {.commits = 4, .writer_per_commit = true}));
  Result<std::unique_ptr<Stepper>> stepper = Stepper::Create(s, RunOptions{});
  ASSERT_TRUE(stepper.ok()) << stepper.status().message();
  for (int i = 0; i < 1000 && !(*stepper)->state().finished; ++i) ASSERT_TRUE((*stepper)->PickAsTheSeedWould().ok());
  EXPECT_TRUE((*stepper)->state().finished);
}

TEST(ImportScenario, AnIsolationLevelTheFormatLacksIsRefused) {
  sim::import::ScenarioSink sink({.commits = 2, .isolation = "snapshot"});
  ASSERT_TRUE(sim::import::ImportLog({.path = Data(kDeletes), .format = {}}, &sink).ok());
  Result<std::string> text = sink.Text();
  ASSERT_FALSE(text.ok());
  EXPECT_THAT(text.status().message(), HasSubstr("a Delta table's level is Serializable or WriteSerializable"));
}

}  // namespace
}  // namespace commitlab::scenarios
