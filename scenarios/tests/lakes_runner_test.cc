// Runner tests for Iceberg and Delta tables, publish points and the object store: each would fail
// if the behaviour it names broke (a gate that stopped holding, a check that stopped finding).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/runner.h"

namespace commitlab::scenarios {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

Scenario MustParse(std::string_view text) {
  Result<Scenario> s = ParseScenario(text, "t.scn");
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? std::move(*s) : Scenario();
}

Scenario Load(const std::string& name) {
  Result<Scenario> s = LoadScenarioFile((fs::path(COMMITLAB_SOURCE_DIR) / "scenarios" / name).string());
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? std::move(*s) : Scenario();
}

RunReport MustRun(const Scenario& s, RunOptions options = {}) {
  Result<RunReport> r = RunScenario(s, options);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(*r) : RunReport();
}

const WriterReport& W(const RunReport& r, std::string_view name) {
  for (const WriterReport& w : r.writers)
    if (w.name == name) return w;
  ADD_FAILURE() << "no writer " << name;
  return r.writers.front();
}

std::string Violations(const RunReport& r) {
  std::string out;
  for (const ViolationReport& v : r.violations) out += v.violation.ToString() + "\n";
  return out;
}

constexpr std::string_view kAppendRace =
    "title \"t\"\ntable name=ev protocol=iceberg\nwriter name=setup\nwriter name=a\nwriter name=b\n"
    "setup.s: append\na.a: append\nb.b: append\norder setup.s -> b.b\n";

TEST(LakesRunnerTest, APublishGateMakesTheLoserLoseTheSwapOnEverySeedAndOnThreads) {
  const Scenario gated = MustParse(std::string(kAppendRace) + "order b.b.publish -> a.a -> b.b.publish\n");
  RunOptions threads;
  threads.sched = "free";
  for (RunOptions options : {RunOptions{}, threads}) {
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      options.seed = seed;
      const RunReport r = MustRun(gated, options);
      EXPECT_EQ(W(r, "b").counters.atomic_failures, 1);
      EXPECT_EQ(W(r, "b").counters.attempts, 2);
      ASSERT_EQ(r.table().chain.size(), 3u);
      // One line: b re-applied on top of a.
      EXPECT_EQ(r.table().chain[1].commit_user, "a");
      EXPECT_EQ(r.table().chain[2].commit_user, "b");
      EXPECT_EQ(r.table().chain[2].parent_id, 2);
      EXPECT_TRUE(r.invariants_ok()) << Violations(r);
    }
  }
  // Without the gate, b starts after a has committed: its one attempt reads a's snapshot.
  const RunReport ungated = MustRun(MustParse(std::string(kAppendRace) + "order a.a -> b.b\n"));
  EXPECT_EQ(W(ungated, "b").counters.atomic_failures, 0);
  EXPECT_EQ(W(ungated, "b").counters.attempts, 1);
}

TEST(LakesRunnerTest, AGateIntoAPublishThatCanNeverOpenFailsTheRunInsteadOfHanging) {
  // a stops at its first line (a scan with nothing read), so it never appends and b cannot publish.
  const RunReport r =
      MustRun(MustParse("title \"t\"\ntable name=ev protocol=iceberg\nwriter name=a\nwriter name=b\n"
                        "a.x: scan\na.y: append\nb.b: append\norder a.y -> b.b.publish\n"));
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.run_errors.size(), 2u);
  EXPECT_EQ(r.run_errors[0], "t.scn:5:6: a: scan reads what a read step pinned: add a read before it");
  EXPECT_THAT(r.run_errors[1], HasSubstr("t.scn:8: order a.y -> b.b.publish can never hold: a stopped on a failed "
                                         "step before it finished t.scn:6, so b cannot publish at t.scn:7"));
  EXPECT_EQ(W(r, "b").outcome, Outcome::kRefused);
  EXPECT_EQ(W(r, "b").counters.unknown_outcomes, 0);  // stopped, not an outcome nobody knows
  EXPECT_EQ(W(r, "b").counters.attempts, 1);
  EXPECT_EQ(r.table().chain.size(), 0u);
}

TEST(LakesRunnerTest, AGateIntoAPaimonPublishThatCanNeverOpenFailsTheRunInsteadOfCommittingOnARetry) {
  // a crashes at its first publish with no restart, so a.y never finishes and b's publish gate
  // can never open. Paimon's committer retries an error at publish.before as an unknown outcome:
  // the gate must stop it at once, and again if it asked twice.
  const RunReport r =
      MustRun(MustParse("title \"t\"\ntable name=p protocol=paimon\nwriter name=a\nwriter name=b\n"
                        "fault a:publish.before:nth=1:crash\n"
                        "a.x: write; commit\na.y: write; commit\nb.c: write; commit\norder a.y -> b.c.publish\n"));
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.run_errors.size(), 1u);
  EXPECT_THAT(r.run_errors[0], HasSubstr("t.scn:9: order a.y -> b.c.publish can never hold: a crashed"));
  EXPECT_EQ(W(r, "a").outcome, Outcome::kCrashed);
  EXPECT_EQ(W(r, "b").outcome, Outcome::kRefused);
  EXPECT_THAT(W(r, "b").error, HasSubstr("can never hold"));
  EXPECT_EQ(W(r, "b").counters.committed, 0);
  EXPECT_EQ(W(r, "b").counters.unknown_outcomes, 0);
  EXPECT_EQ(W(r, "b").counters.attempts, 1);
  EXPECT_EQ(r.table().chain.size(), 0u);
}

TEST(LakesRunnerTest, AGateIntoADeltaPublishThatCanNeverOpenStopsTheCommitWithoutAnUnknownOutcome) {
  const RunReport r =
      MustRun(MustParse("title \"t\"\ntable name=d protocol=delta\nwriter name=a\nwriter name=b\n"
                        "a.x: commit\na.y: begin\nb.b: begin; add; commit\norder a.y -> b.b.publish\n"));
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.run_errors.size(), 2u);
  EXPECT_THAT(r.run_errors[1], HasSubstr("t.scn:8: order a.y -> b.b.publish can never hold"));
  EXPECT_EQ(W(r, "b").outcome, Outcome::kRefused);
  EXPECT_EQ(W(r, "b").counters.unknown_outcomes, 0);
  EXPECT_EQ(W(r, "b").counters.committed, 0);
  EXPECT_EQ(r.table().chain.size(), 0u);
}

TEST(LakesRunnerTest, CounterIncrementsThatOverflowAreARunErrorNotWrappedValues) {
  // 10^15 at a time: the 9223rd add no longer fits in 64 bits.
  const RunReport r =
      MustRun(MustParse("title \"t\"\ntable name=c protocol=iceberg\nwriter name=a\n"
                        "a: counter init key=hits value=1000000000000000; counter read key=hits\n"
                        "repeat 9300: a: counter add 1000000000000000\n"));
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.run_errors.size(), 1u);
  EXPECT_THAT(r.run_errors[0], HasSubstr("t.scn:5:17: a: counter add: "));
  EXPECT_THAT(r.run_errors[0], HasSubstr("does not fit in a 64-bit integer"));
  const WriterReport& a = W(r, "a");
  int64_t last = 0;
  for (const StepRecord& step : a.steps)
    if (step.status == StepStatus::kOk) last = step.committed;
  EXPECT_GT(last, 9'000'000'000'000'000'000);  // every value it wrote grew: none wrapped
}

TEST(LakesRunnerTest, ACounterReadOfAKeyNoInitCommittedIsARunError) {
  const RunReport r =
      MustRun(MustParse("title \"t\"\ntable name=c protocol=iceberg\nwriter name=a\na: counter read key=hits\n"));
  ASSERT_EQ(r.run_errors.size(), 1u);
  EXPECT_EQ(r.run_errors[0],
            "t.scn:4:4: a: counter read: counter hits is not initialised (no counter init of it "
            "has committed yet; an order line can make one go first)");
}

// Filters with ranges and connectives prune files by their id bounds; a file the filter only
// partly matches is refused, and filter=true deletes whatever is left.
TEST(LakesRunnerTest, RangeFiltersDeleteWholeFilesAndRefuseAPartialOne) {
  const Scenario s = MustParse(
      "title \"t\"\ntable name=t protocol=iceberg\nwriter name=w\nwriter name=v\n"
      "w: append keys=1..5; append keys=10..19; append keys=30..30\n"
      "w.range: delete filter=\"id >= 10 and id < 20\"\n"
      "w.none: delete filter=\"id > 100 or not (id != 999)\"\n"
      "w.partial: delete filter=id=3..4\n"
      "v.all: delete filter=true\n"
      "order w.partial -> v.all\n");
  const RunReport r = MustRun(s);
  const WriterReport& w = W(r, "w");
  ASSERT_EQ(w.steps.size(), 6u);
  EXPECT_EQ(w.steps[3].committed, 1);  // removes keys 10..19 only
  EXPECT_EQ(w.steps[4].committed, 1);  // deletes nothing, still a snapshot
  EXPECT_EQ(w.outcome, Outcome::kRefused);
  EXPECT_THAT(w.error, ::testing::HasSubstr("ref(name=\"id\") >= 3 and ref(name=\"id\") <= 4"));
  EXPECT_EQ(r.table().chain[r.table().chain.size() - 2].total_records, 6);  // 1..5 and 30 were left
  EXPECT_EQ(W(r, "v").outcome, Outcome::kOk);
  EXPECT_EQ(r.table().chain.back().total_records, 0);
}

TEST(LakesRunnerTest, ADeltaTransactionCannotRemoveAFileTwice) {
  const RunReport r =
      MustRun(MustParse("title \"t\"\ntable name=d protocol=delta\nwriter name=w\n"
                        "w: begin; add file=f1; commit\nw: begin; remove files=f1; remove files=f1; commit\n"));
  ASSERT_EQ(r.run_errors.size(), 1u);
  EXPECT_EQ(r.run_errors[0],
            "t.scn:5:28: w: remove: file f1 is already removed in this transaction (begun at version 1)");
}

TEST(LakesRunnerTest, RunnerRaisedFailuresAreLoggedAndARefusalBeforeTheCommitCounts) {
  // A delete of a file only partly matching is refused while the operation is built; a scan of a
  // file expiry deleted fails in the reader. Neither passes through the committer.
  struct Collect final : EventSink {
    void OnEvent(const Event& e) override {
      if (e.level == Level::kError) errors.push_back(std::string(EventTypeName(e.type)) + " " + e.message);
    }
    std::vector<std::string> errors;
  } events;
  RunOptions options;
  options.events = &events;
  const RunReport r = MustRun(MustParse("title \"t\"\ntable name=ev protocol=iceberg\nwriter name=w\n"
                                        "w.a: append rows=2\nw.d: delete filter=id=1\n"),
                              options);
  EXPECT_EQ(W(r, "w").outcome, Outcome::kRefused);
  EXPECT_EQ(W(r, "w").counters.conflicts, 1);
  EXPECT_EQ(r.tally.conflicts, 1);
  ASSERT_EQ(events.errors.size(), 1u);
  EXPECT_THAT(events.errors[0], HasSubstr("conflict ValidationException: Cannot delete file where some, but not all"));

  events.errors.clear();
  const RunReport gone = MustRun(Load("iceberg_long_reader.scn"), options);
  ASSERT_EQ(events.errors.size(), 1u);
  EXPECT_THAT(events.errors[0], HasSubstr("error FileNotFoundException: File does not exist: data/gone-setup-"));
  EXPECT_EQ(W(gone, "gone-reader").counters.conflicts, 0);
}

TEST(LakesRunnerTest, OrphanCleanupDuringACommitInFlightDeletesItsFilesUnlessItSparesRecentOnes) {
  const RunReport r = MustRun(Load("iceberg_orphans_in_flight.scn"));
  EXPECT_TRUE(r.ok());
  bool unguarded_missing = false;
  for (const ViolationReport& v : r.violations) {
    EXPECT_EQ(v.violation.kind, "missing_file");
    EXPECT_THAT(v.violation.message, HasSubstr("table unguarded: "));
    unguarded_missing = true;
  }
  EXPECT_TRUE(unguarded_missing);
  EXPECT_GT(W(r, "m").steps[0].committed, 0);   // the in-flight commit's files
  EXPECT_EQ(W(r, "gm").steps[0].committed, 0);  // spared: younger than the cut-off
  EXPECT_EQ(W(r, "w").outcome, Outcome::kOk);   // told it committed, and its data is gone
}

constexpr std::string_view kCounter =
    "title \"t\"\ntable name=c protocol=iceberg\nwriter name=setup\nwriter name=a\nwriter name=b\n"
    "setup.s: counter init key=hits value=10\n"
    "a.r: counter read key=hits; counter add 5\nb.r: counter read key=hits; counter add 5\n"
    "a.c: counter commit\nb.c: counter commit on-validation=";
constexpr std::string_view kCounterOrder =
    "\norder setup.s -> a.r\norder setup.s -> b.r\norder b.r -> a.c\norder a.c -> b.c\n";

TEST(LakesRunnerTest, TheCheckerReportsTheLostUpdateOfAStaleRecommitAndNothingElse) {
  const RunReport stale = MustRun(MustParse(std::string(kCounter) + "recommit-stale" + std::string(kCounterOrder)));
  EXPECT_EQ(stale.table().counters.at("hits"), 15);
  ASSERT_EQ(stale.violations.size(), 1u) << Violations(stale);
  EXPECT_EQ(stale.violations[0].violation.kind, "lost_update");
  EXPECT_EQ(stale.violations[0].violation.message,
            "lost update: counter hits is 15, but 2 acknowledged increments of 5 from 10 make 20 (1 increment lost)");
  EXPECT_FALSE(stale.invariants_ok());  // no expect line names it, so it fails the run

  const RunReport reread = MustRun(MustParse(std::string(kCounter) + "reread" + std::string(kCounterOrder)));
  EXPECT_EQ(reread.table().counters.at("hits"), 20);
  EXPECT_TRUE(reread.invariants_ok()) << Violations(reread);

  const RunReport give_up = MustRun(MustParse(std::string(kCounter) + "give-up" + std::string(kCounterOrder)));
  EXPECT_EQ(give_up.table().counters.at("hits"), 15);
  EXPECT_TRUE(give_up.invariants_ok()) << Violations(give_up);  // b was told it failed: nothing lost
  EXPECT_EQ(W(give_up, "b").outcome, Outcome::kRefused);
  EXPECT_THAT(W(give_up, "b").error, HasSubstr("ValidationException"));
}

TEST(LakesRunnerTest, OrphanCleanupRemovesTheLosersFilesAndNoLiveOne) {
  const RunReport r = MustRun(Load("iceberg_no_retry_orphans.scn"));
  EXPECT_TRUE(r.ok());
  const WriterReport& m = W(r, "maintenance");
  EXPECT_EQ(m.steps[0].committed, 2);  // counted
  EXPECT_EQ(m.steps[1].committed, 2);  // removed
  EXPECT_EQ(r.tally.orphan_files, 0);
  EXPECT_EQ(r.table().chain.size(), 2u);
  // The checker looks at every file a snapshot reaches: none is missing.
  for (const ViolationReport& v : r.violations) EXPECT_NE(v.violation.kind, "missing_file");
}

TEST(LakesRunnerTest, ExpiryBreaksAnUnprotectedReaderWithFileNotFound) {
  const RunReport r = MustRun(Load("iceberg_long_reader.scn"));
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(W(r, "reader").outcome, Outcome::kOk);
  const WriterReport& gone = W(r, "gone-reader");
  EXPECT_EQ(gone.outcome, Outcome::kRefused);
  EXPECT_THAT(gone.error, HasSubstr("FileNotFoundException: File does not exist: data/gone-setup-"));
}

TEST(LakesRunnerTest, DeltaScriptMistakesAreRunErrorsNamingTheLine) {
  const std::string head = "title \"t\"\ntable name=d protocol=delta\nwriter name=w\n";
  RunReport r = MustRun(MustParse(head + "w: add file=f1\n"));
  ASSERT_EQ(r.run_errors.size(), 1u);
  EXPECT_EQ(r.run_errors[0], "t.scn:4:4: w: add needs a transaction: add a begin step before it");
  r = MustRun(MustParse(head + "w: begin; remove files=f9; remove files=f9\n"));
  ASSERT_EQ(r.run_errors.size(), 1u);
  EXPECT_EQ(r.run_errors[0],
            "t.scn:4:28: w: remove: file f9 is already removed in this transaction (begun at version 0)");
}

// As upstream, a remove is not looked up in the snapshot: a file the table never held is removed
// by name and the commit lands (OptimisticTransactionLegacyTests removes addB_P1 so).
TEST(LakesRunnerTest, DeltaRemovesAFileNotLiveAtTheReadVersion) {
  const RunReport r =
      MustRun(MustParse("title \"t\"\ntable name=d protocol=delta partitions=p\nwriter name=w\n"
                        "w: begin; remove files=f9 partition=p=1; commit\nexpect latest-snapshot 1\n"));
  EXPECT_TRUE(r.run_errors.empty()) << r.run_errors.front();
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(W(r, "w").outcome, Outcome::kOk);
}

TEST(LakesRunnerTest, DeltaTablesReportTheirVersionsAsSnapshots) {
  const RunReport r = MustRun(Load("delta_conflicts.scn"));
  EXPECT_TRUE(r.ok());
  ASSERT_EQ(r.table().chain.size(), 3u);  // versions 1..3; version 0 is the table's creation
  EXPECT_EQ(r.table().operations, (std::vector<std::string>{"INSERT", "INSERT", "INSERT"}));
  EXPECT_EQ(W(r, "del-B").counters.conflicts, 1);
  EXPECT_THAT(W(r, "del-B").error, HasSubstr("ConcurrentDeleteDeleteException"));
}

TEST(LakesRunnerTest, OnlyACheckThenPutObjectStoreLosesACommit) {
  for (const char* mode : {"check-then-put", "locked", "conditional-put"}) {
    SCOPED_TRACE(mode);
    const RunReport r = MustRun(MustParse(
        fmt::format("title \"t\"\nstore object:{}\ntable name=o protocol=paimon\nwriter name=a\nwriter name=b\n"
                    "latency publish=const:1\na.c: write; commit\nb.c: write; commit\n"
                    "order a.c.publish -> b.c.publish\norder b.c.publish -> a.c.publish\n",
                    mode)));
    const bool lossy = std::string_view(mode) == "check-then-put";
    EXPECT_EQ(r.latest_snapshot(), lossy ? 1 : 2);
    EXPECT_EQ(r.violations.size(), lossy ? 1u : 0u) << Violations(r);
    if (lossy) {
      EXPECT_EQ(r.violations[0].violation.kind, "lost");
    }
  }
}

TEST(LakesRunnerTest, ADirectoryStoreRefusesIcebergDeltaAndObjectStoreFiles) {
  RunOptions dir;
  dir.store = StoreKind::kDir;
  dir.dir = "unused";
  for (const char* name : {"iceberg_counter.scn", "delta_conflicts.scn", "object_store_locked.scn"}) {
    SCOPED_TRACE(name);
    Result<RunPlan> plan = PlanRun(Load(name), dir);
    ASSERT_FALSE(plan.ok());
    const bool object_store = std::string_view(name) == "object_store_locked.scn";
    EXPECT_THAT(plan.status().message(),
                HasSubstr(object_store ? "the file puts its tables on store object:locked; a directory store cannot "
                                         "replace it"
                                       : "a directory store holds paimon tables only"));
  }
}

}  // namespace
}  // namespace commitlab::scenarios
