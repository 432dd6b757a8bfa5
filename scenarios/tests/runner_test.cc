#include "commitlab/scenarios/runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/report_json.h"
#include "commitlab/sim/fault_spec.h"
#include "commitlab/sim/schedule.h"

namespace commitlab::scenarios {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

fs::path ScenarioDir() { return fs::path(COMMITLAB_SOURCE_DIR) / "scenarios"; }

std::vector<fs::path> ScenarioFiles() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(ScenarioDir()))
    if (entry.path().extension() == ".scn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

Scenario Load(const fs::path& file) {
  Result<Scenario> s = LoadScenarioFile(file.string());
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? std::move(*s) : Scenario();
}

Scenario MustParse(std::string_view text) {
  Result<Scenario> s = ParseScenario(text, "t.scn");
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? std::move(*s) : Scenario();
}

// Everything that made a run fail, for a test's failure message.
std::string Problems(const RunReport& r) {
  std::string out;
  for (const ExpectationResult& e : r.expectations)
    if (!e.passed) out += ExpectationLine(e) + "\n";
  for (const std::string& e : r.run_errors) out += "run error: " + e + "\n";
  for (const ViolationReport& v : r.violations)
    if (!v.expected) out += "violation: " + v.violation.ToString() + "\n";
  return out;
}

RunReport MustRun(const Scenario& s, RunOptions options = {}) {
  Result<RunReport> r = RunScenario(s, options);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(*r) : RunReport();
}

RunOptions OnThreads() {
  RunOptions o;
  o.sched = "free";
  return o;
}

// A fresh directory, removed with everything in it when the test ends.
class TempDir {
 public:
  explicit TempDir(const std::string& name) : path_(fs::path(::testing::TempDir()) / ("runner_test_" + name)) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

const WriterReport& WriterNamed(const RunReport& r, std::string_view name) {
  for (const WriterReport& w : r.writers)
    if (w.name == name) return w;
  ADD_FAILURE() << "no writer " << name;
  return r.writers.front();
}

// --- the scenario files -----------------------------------------------------------------------

TEST(RunnerTest, EveryScenarioFileHoldsOnTheMemoryStore) {
  const std::vector<fs::path> files = ScenarioFiles();
  ASSERT_GE(files.size(), 8u);
  for (const fs::path& f : files) {
    SCOPED_TRACE(f.filename().string());
    const RunReport r = MustRun(Load(f));
    EXPECT_TRUE(r.ok()) << Problems(r);
    EXPECT_FALSE(r.expectations.empty());
    EXPECT_FALSE(r.schedule.empty());
  }
}

// Files whose tables all live in Paimon's snapshot store in memory: the ones a directory store can hold.
bool OnlyPaimonInMemory(const Scenario& s) {
  if (!s.object_store.empty()) return false;
  for (const Table& t : s.tables)
    if (t.protocol != Protocol::kPaimon) return false;
  return true;
}

TEST(RunnerTest, EveryScenarioFileHoldsOnTheDirectoryStoreAndRunsAsOnTheMemoryStore) {
  int paimon_files = 0;
  for (const fs::path& f : ScenarioFiles()) {
    SCOPED_TRACE(f.filename().string());
    const Scenario s = Load(f);
    if (!OnlyPaimonInMemory(s)) continue;
    ++paimon_files;
    const RunReport in_memory = MustRun(s);
    TempDir dir(f.stem().string());
    RunOptions options;
    options.store = StoreKind::kDir;
    options.dir = dir.path().string();
    const RunReport on_disk = MustRun(s, options);
    EXPECT_TRUE(on_disk.ok()) << Problems(on_disk);
    // The store changes nothing in a simulated run: same chain, same tallies, same schedule.
    EXPECT_EQ(on_disk.latest_snapshot(), in_memory.latest_snapshot());
    EXPECT_EQ(RunJson(on_disk), RunJson(in_memory));
    const fs::path table = dir.path() / s.tables[0].name;
    EXPECT_TRUE(fs::exists(table / "snapshot" / ("snapshot-" + std::to_string(on_disk.latest_snapshot()))));
    EXPECT_FALSE(fs::exists(table / "snapshot" / ("snapshot-" + std::to_string(on_disk.latest_snapshot() + 1))));
  }
  EXPECT_GE(paimon_files, 8);
}

TEST(RunnerTest, ScriptedScenariosHoldOnOsThreadsToo) {
  // Their order lines decide everything that matters, whatever the OS scheduler does.
  for (const char* name : {"paimon_conflict.scn", "paimon_lsm.scn", "paimon_lsm_disjoint.scn", "paimon_idempotent.scn",
                           "paimon_unknown.scn", "paimon_unknown_no_check.scn"}) {
    SCOPED_TRACE(name);
    const RunReport r = MustRun(Load(ScenarioDir() / name), OnThreads());
    EXPECT_TRUE(r.ok()) << Problems(r);
    EXPECT_TRUE(r.schedule.empty());
    EXPECT_TRUE(r.plan.free);
  }
}

TEST(RunnerTest, TheConflictScenarioProducesExactlyTheLecturesSnapshots) {
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    SCOPED_TRACE(seed);
    RunOptions options;
    options.seed = seed;
    const RunReport r = MustRun(Load(ScenarioDir() / "paimon_conflict.scn"), options);
    ASSERT_EQ(r.table().chain.size(), 6u);
    const std::vector<std::tuple<CommitKind, std::string, int64_t>> want = {
        {CommitKind::kAppend, "writer", 1},         {CommitKind::kAppend, "writer", 2},
        {CommitKind::kAppend, "writer", 3},         {CommitKind::kAppend, "compact-job-1", 1},
        {CommitKind::kCompact, "compact-job-1", 1}, {CommitKind::kAppend, "compact-job-2", 1}};
    for (size_t i = 0; i < want.size(); ++i) {
      const Snapshot& s = r.table().chain[i];
      EXPECT_EQ(std::tie(s.kind, s.commit_user, s.commit_identifier), want[i]) << SnapshotLine(s);
    }
    const WriterReport& job2 = WriterNamed(r, "compact-job-2");
    EXPECT_EQ(job2.outcome, Outcome::kRefused);
    EXPECT_THAT(job2.error,
                AllOf(StartsWith("File deletion conflicts detected! Give up committing."),
                      HasSubstr("Base commit user is: compact-job-2; Current commit user is: compact-job-2")));
    EXPECT_EQ(job2.counters.attempts, 2);  // its APPEND and its COMPACT: never retried
    EXPECT_EQ(job2.counters.atomic_failures, 0);
  }
}

// --- steps --------------------------------------------------------------------------------------

TEST(RunnerTest, CompactionCountsALevelsFilesOldestFirstBySnapshot) {
  // Two writers' files: whatever their random names, file 0 is the one snapshot 1 added.
  const Scenario s = MustParse(R"(title "oldest first"
table name=t protocol=paimon primary-key=true
writer name=a
writer name=b
writer name=c
a.one: write rows=1; commit
b.two: write rows=1; commit
c.plan: compact from=0 to=1 files=0
c: commit
order a.one -> b.two -> c.plan
expect latest-snapshot 4
)");
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    RunOptions options;
    options.seed = seed;
    const RunReport r = MustRun(s, options);
    ASSERT_TRUE(r.ok()) << Problems(r);
    const SnapshotChain& chain = r.table().chain;
    ASSERT_EQ(chain.size(), 4u);
    const Snapshot& compact = chain[3];
    ASSERT_EQ(compact.kind, CommitKind::kCompact);
    ASSERT_EQ(compact.changes.size(), 2u);
    EXPECT_EQ(compact.changes[0].kind, ChangeKind::kDelete);
    EXPECT_EQ(compact.changes[0].file.name, chain[0].changes[0].file.name) << "seed " << seed;
    EXPECT_EQ(compact.changes[1].file.level, 1);
  }
}

constexpr char kCrashAndRestart[] = R"(title "crash and restart"
table name=t protocol=paimon
writer name=job-A
fault job-A:publish.after:nth=1:crash      # the publish lands, then the job dies
job-A: write rows=1
job-A: checkpoint name=cp1
job-A.first: commit checkpoint=cp1
job-A.down: write rows=1                   # skipped: the job is down
job-A: restart
job-A.replay: filter-and-commit checkpoints=cp1
job-A: write rows=1
job-A.next: commit
expect step job-A.first crashed "simulated crash"
expect step job-A.replay committed 0
expect step job-A.next committed 1
expect latest-snapshot 2
expect per-user job-A=2
expect writer job-A ok
)";

TEST(RunnerTest, ACrashSkipsToTheRestartWhichKeepsTheCommitUser) {
  const Scenario s = MustParse(kCrashAndRestart);
  for (const RunOptions& options : {RunOptions{}, OnThreads()}) {
    SCOPED_TRACE(options.sched.value_or("simulated"));
    const RunReport r = MustRun(s, options);
    EXPECT_TRUE(r.ok()) << Problems(r);
    const WriterReport& w = r.writers[0];
    EXPECT_EQ(w.crashes, 1);
    ASSERT_EQ(w.steps.size(), 8u);
    EXPECT_EQ(w.steps[2].status, StepStatus::kFailed);
    EXPECT_EQ(w.steps[2].outcome, Outcome::kCrashed);
    EXPECT_EQ(w.steps[3].status, StepStatus::kSkipped);
    EXPECT_EQ(w.steps[4].status, StepStatus::kOk);  // the restart
    // The restarted job is the same commit user, so its replay is filtered out.
    for (const Snapshot& snap : r.table().chain) EXPECT_EQ(snap.commit_user, "job-A");
    EXPECT_EQ(r.table().chain[1].commit_identifier, 2);
  }
}

TEST(RunnerTest, ACrashWithNoRestartAfterItEndsTheWriter) {
  const Scenario s = MustParse(R"(title "crash"
table name=t protocol=paimon
writer name=job-A
fault job-A:manifest.before:nth=1:crash
job-A: write rows=1
job-A.c: commit
job-A.after: write rows=1
expect writer job-A crashed
expect step job-A.c crashed
expect latest-snapshot 0
)");
  const RunReport r = MustRun(s);
  EXPECT_TRUE(r.ok()) << Problems(r);
  EXPECT_EQ(r.writers[0].steps[2].status, StepStatus::kNotRun);
  EXPECT_THAT(r.writers[0].error, HasSubstr("crash"));
  EXPECT_EQ(r.fired_faults.size(), 1u);
}

// --- order gates ----------------------------------------------------------------------------------

TEST(RunnerTest, AWaitingWriterBlocksWithoutSpinningWhileTheClockMoves) {
  const Scenario s = MustParse(R"(title "wait"
table name=t protocol=paimon
writer name=slow
writer name=waiter
latency write-data=const:1000
slow.w: write rows=1; commit
waiter.go: write rows=1; commit
order slow.w -> waiter.go
expect snapshot 1 user=slow
expect snapshot 2 user=waiter
)");
  const RunReport r = MustRun(s);
  EXPECT_TRUE(r.ok()) << Problems(r);
  EXPECT_GE(r.virtual_micros, 4'000'000);  // both writes, request and response hop each
  // The waiter took no steps while it waited: a handful of steps in all, not thousands.
  Result<sim::RecordedSchedule> schedule = sim::ParseSchedule(r.schedule);
  ASSERT_TRUE(schedule.ok());
  EXPECT_LT(schedule->steps(), 40);
}

constexpr char kBrokenGate[] = R"(title "broken gate"
table name=t protocol=paimon
writer name=job-A
writer name=job-B
fault job-A:manifest.before:nth=1:error
job-A: write rows=1
job-A: commit
job-A.later: write rows=1
job-B.wait: write rows=1
order job-A.later -> job-B.wait
)";

TEST(RunnerTest, AGateWhoseWriterStoppedBeforeItsStepFailsTheRunNamingBothLines) {
  const Scenario s = MustParse(kBrokenGate);
  for (const RunOptions& options : {RunOptions{}, OnThreads()}) {
    SCOPED_TRACE(options.sched.value_or("simulated"));
    const RunReport r = MustRun(s, options);
    EXPECT_FALSE(r.ok());
    ASSERT_EQ(r.run_errors.size(), 1u);
    EXPECT_EQ(r.run_errors[0],
              "t.scn:10: order job-A.later -> job-B.wait can never hold: job-A stopped on a failed step before it "
              "finished t.scn:8, so job-B cannot start t.scn:9");
    EXPECT_EQ(WriterNamed(r, "job-A").outcome, Outcome::kRefused);
    EXPECT_EQ(WriterNamed(r, "job-B").outcome, Outcome::kRefused);
    EXPECT_EQ(WriterNamed(r, "job-B").steps[0].status, StepStatus::kFailed);
  }
}

TEST(RunnerTest, ADeadlockBetweenGatesIsReportedNotHung) {
  // The parser refuses cycles; a scenario built in code can still have one.
  Scenario s = MustParse(R"(title "cycle"
table name=t protocol=paimon
writer name=a
writer name=b
a.one: write rows=1
b.one: write rows=1
order a.one -> b.one
)");
  OrderEdge back = s.order[0];
  std::swap(back.before, back.after);
  back.text = "b.one -> a.one";
  s.order.push_back(back);
  for (const RunOptions& options : {RunOptions{}, OnThreads()}) {
    SCOPED_TRACE(options.sched.value_or("simulated"));
    const RunReport r = MustRun(s, options);
    EXPECT_FALSE(r.ok());
    ASSERT_EQ(r.run_errors.size(), 2u);
    for (const std::string& e : r.run_errors) {
      EXPECT_THAT(e, HasSubstr("deadlock: every unfinished writer is blocked waiting for another: a, b"));
      EXPECT_THAT(e, StartsWith("t.scn:7: order "));
    }
    EXPECT_EQ(r.latest_snapshot(), 0);
  }
}

TEST(RunnerTest, UsingACheckpointBeforeItIsSavedIsARunError) {
  const Scenario s = MustParse(R"(title "too early"
table name=t protocol=paimon
writer name=a
writer name=b
a: write rows=1
a.cp: checkpoint name=c1
b.use: commit checkpoint=c1
order b.use -> a.cp
)");
  const RunReport r = MustRun(s);
  ASSERT_EQ(r.run_errors.size(), 1u);
  EXPECT_EQ(r.run_errors[0],
            "t.scn:7:8: b: checkpoint \"c1\" is not saved yet: a saves it at t.scn:6 and has not got there (an order "
            "line can make it go first)");
  EXPECT_FALSE(r.ok());
}

TEST(RunnerTest, CompactingAFileThatIsNotThereIsARunError) {
  const Scenario s = MustParse(R"(title "no such file"
table name=t protocol=paimon primary-key=true
writer name=a
a: write rows=1; commit
a: compact from=0 to=1 files=0,3
)");
  const RunReport r = MustRun(s);
  ASSERT_EQ(r.run_errors.size(), 1u);
  EXPECT_EQ(r.run_errors[0],
            "t.scn:5:4: a: compact: there is no file 3 in bucket 0 L0: it has 1 file(s) as of snapshot 1");
  EXPECT_EQ(r.writers[0].outcome, Outcome::kRefused);
}

TEST(RunnerTest, CompactingAnEmptyLevelCompactsNothing) {
  const Scenario s = MustParse(R"(title "empty level"
table name=t protocol=paimon primary-key=true
writer name=a
a: compact from=0 to=1
a: commit
expect latest-snapshot 1
expect snapshot 1 kind=APPEND delta=0
)");
  // A step's detail is told to the observer as the step ends; the report keeps only its outcome.
  struct Details : RunObserver {
    void OnStep(const Writer&, const Step&, const StepResult& r) override { details.push_back(r.detail); }
    std::vector<std::string> details;
  } observer;
  RunOptions options;
  options.observer = &observer;
  const RunReport r = MustRun(s, options);
  EXPECT_TRUE(r.ok()) << Problems(r);
  ASSERT_FALSE(observer.details.empty());
  EXPECT_THAT(observer.details[0], HasSubstr("nothing to compact"));
  EXPECT_EQ(r.writers[0].steps[0].status, StepStatus::kOk);
}

// --- plans and options ----------------------------------------------------------------------------

Status PlanError(std::string_view text, RunOptions options = {}) {
  Result<RunPlan> plan = PlanRun(MustParse(text), options);
  return plan.ok() ? Status::OK() : plan.status();
}

TEST(RunnerTest, BadFaultAndLatencyLinesAreInputErrorsAtTheirPosition) {
  const std::string head = "title \"x\"\ntable name=t protocol=paimon\nwriter name=job-A\n";
  Status st = PlanError(head + "fault job-A:publish.afterr:nth=1:unknown\n");
  EXPECT_THAT(st.message(), AllOf(StartsWith("t.scn:4:13: "), HasSubstr("publish.afterr")));
  st = PlanError(head + "fault job-Z:publish.after:nth=1:unknown\n");
  EXPECT_EQ(st.message(),
            "t.scn:4:7: fault \"job-Z:publish.after:nth=1:unknown\": writer \"job-Z\" is not declared (expected a "
            "writer name or *)");
  st = PlanError(head + "fault job-A:publish.after:nth=1:lost\n");
  EXPECT_EQ(st.message(),
            "t.scn:4:33: fault \"job-A:publish.after:nth=1:lost\": effect \"lost\" is only meaningful at "
            "publish.before (the store refuses the publish as if another writer had won); at publish.after use error");
  st = PlanError(head + "fault job-A:publish.before:first=0:lost\n");
  EXPECT_EQ(st.message(),
            "t.scn:4:28: fault \"job-A:publish.before:first=0:lost\": bad trigger \"first=0\" (expected first=N with "
            "N a whole number >= 1)");
  st = PlanError(head + "latency publish=uniform:1,5\nlatency publish=const:2\n");
  EXPECT_THAT(st.message(), AllOf(StartsWith("t.scn:5:9: "), HasSubstr("\"publish\" is given twice")));
  st = PlanError(head + "latency publish=sometimes\n");
  EXPECT_THAT(st.message(), AllOf(StartsWith("t.scn:4:9: "), HasSubstr("sometimes")));
  RunOptions on_disk;
  on_disk.store = StoreKind::kDir;
  on_disk.dir = "unused";
  st = PlanError("title \"x\"\ntable name=t protocol=iceberg\nwriter name=a\n", on_disk);
  EXPECT_EQ(st.message(),
            "t.scn:2:1: table t: a directory store holds paimon tables only, not protocol iceberg (run it on the "
            "memory store)");
}

// A rule that could never fire is a mistake, not a quiet no-op: a writer nobody declared, or a
// point the writer's engine never passes (Delta writes no manifest before its commit).
TEST(RunnerTest, AFaultRuleThatCouldNeverFireIsAnInputError) {
  const std::string delta = "title \"x\"\ntable name=t protocol=delta\nwriter name=a\na: begin; add rows=1; commit\n";
  EXPECT_THAT(PlanError(delta + "fault a:manifest.before:nth=1:error\n").message(),
              AllOf(StartsWith("t.scn:5:"), HasSubstr("writer a's delta commits have no manifest.before point")));
  EXPECT_TRUE(PlanError(delta + "fault a:publish.before:nth=1:error\n").ok());
  RunOptions options;
  options.faults = {*sim::ParseFaultRule("nobody:publish.before:nth=1:error")};
  EXPECT_EQ(
      PlanError(delta, options).message(),
      "--fault nobody:publish.before:nth=1:error: writer \"nobody\" is not declared (expected a writer name or *)");
  options.faults = {*sim::ParseFaultRule("*:manifest.before:always:error")};
  EXPECT_THAT(PlanError(delta, options).message(), HasSubstr("the writers' commits have no manifest.before point"));
  // `*` over a Paimon and a Delta writer: the Paimon writer passes the point.
  const std::string mixed =
      "title \"x\"\ntable name=p protocol=paimon\ntable name=d protocol=delta\n"
      "writer name=a table=p\nwriter name=b table=d\na: write rows=1; commit\nb: begin; add rows=1; commit\n";
  EXPECT_TRUE(PlanError(mixed, options).ok());
  // A catalog on a real server's points: only an Iceberg table with such a catalog has them.
  options.faults = {*sim::ParseFaultRule("*:catalog.after:nth=1:error")};
  EXPECT_EQ(PlanError(mixed, options).message(),
            "--fault *:catalog.after:nth=1:error: catalog.after is reached only by an Iceberg table whose catalog "
            "is on a real server (catalog=jdbc or rest-server), and no writer here commits to one: the rule could "
            "never fire");
  const std::string in_memory = "title \"x\"\ntable name=t protocol=iceberg\nwriter name=a\na: append rows=1\n";
  EXPECT_THAT(PlanError(in_memory, options).message(), HasSubstr("the rule could never fire"));
  const std::string on_a_server =
      "title \"x\"\ntable name=t protocol=iceberg catalog=rest-server\nwriter name=a\na: append rows=1\n";
  EXPECT_TRUE(PlanError(on_a_server, options).ok());
}

TEST(RunnerTest, OptionsWinOverTheScenarioDefaults) {
  const Scenario s = Load(ScenarioDir() / "paimon_race.scn");  // seed 42, sched random
  Result<RunPlan> plan = PlanRun(s, {});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->seed, 42u);
  EXPECT_EQ(plan->strategy, "random");
  EXPECT_EQ(plan->retry.max_retries, 10);
  RunOptions options;
  options.seed = 7;
  options.sched = "pct:depth=2";
  options.latency = sim::LatencyModel{};
  plan = PlanRun(s, options);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->seed, 7u);
  EXPECT_EQ(plan->strategy, "pct:depth=2");
  EXPECT_EQ(plan->latency, sim::LatencyModel{});
  options.sched = "free";
  options.schedule = "sched1:2w:1s:a";
  EXPECT_FALSE(PlanRun(s, options).ok());
  options.sched = "sometimes";
  options.schedule.clear();
  EXPECT_THAT(PlanRun(s, options).status().message(), HasSubstr("sched \"sometimes\" is not one of"));
}

TEST(RunnerTest, AScheduleStringReplaysTheRunAndAWrongOneIsRefused) {
  const Scenario s = Load(ScenarioDir() / "paimon_conflict.scn");
  RunOptions options;
  options.seed = 3;
  const RunReport first = MustRun(s, options);
  options.schedule = first.schedule;
  const RunReport again = MustRun(s, options);
  EXPECT_EQ(again.plan.strategy, "replay:" + first.schedule);
  EXPECT_EQ(again.schedule, first.schedule);
  EXPECT_EQ(again.table().chain, first.table().chain);  // file names and all
  options.schedule = "sched1:3w:2s:ab";
  Result<RunReport> diverged = RunScenario(s, options);
  ASSERT_FALSE(diverged.ok());
  EXPECT_THAT(diverged.status().message(), HasSubstr("schedule diverged"));
}

TEST(RunnerTest, FaultsFromTheOptionsAddToTheScenarios) {
  const Scenario s = MustParse(R"(title "x"
table name=t protocol=paimon
writer name=job-A
job-A: write rows=1
job-A: commit
)");
  RunOptions options;
  Result<sim::FaultRule> rule = sim::ParseFaultRule("job-A:publish.after:nth=1:unknown");
  ASSERT_TRUE(rule.ok());
  options.faults.push_back(*rule);
  const RunReport r = MustRun(s, options);
  EXPECT_EQ(r.tally.unknown_outcomes, 1);
  EXPECT_EQ(r.tally.idempotent_matches, 1);
  EXPECT_EQ(r.fired_faults, std::vector<std::string>{"job-A:publish.after:hit=1:unknown"});
}

// --- the report -----------------------------------------------------------------------------------

TEST(RunnerTest, AnUnexpectedViolationFailsTheRunAndAnExpectedOneDoesNot) {
  Scenario s = Load(ScenarioDir() / "paimon_unknown_no_check.scn");
  RunReport r = MustRun(s);
  EXPECT_TRUE(r.ok()) << Problems(r);
  EXPECT_TRUE(r.invariants_ok());
  ASSERT_EQ(r.violations.size(), 2u);
  std::erase_if(s.expectations, [](const Expectation& e) { return std::holds_alternative<InvariantExpect>(e.body); });
  r = MustRun(s);
  EXPECT_FALSE(r.invariants_ok());
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.expectations_failed(), 0);
}

TEST(RunnerTest, FailedExpectationsSayWhereAndWhatWasSeen) {
  const RunReport r = MustRun(Load(ScenarioDir() / "tests" / "data" / "failing.scn"));
  ASSERT_EQ(r.expectations.size(), 3u);
  EXPECT_TRUE(r.expectations[0].passed);
  const std::string file = (ScenarioDir() / "tests" / "data" / "failing.scn").string();
  EXPECT_EQ(ExpectationLine(r.expectations[1]),
            "FAIL " + file + ":9: expect latest-snapshot 5 (saw latest snapshot 1)");
  EXPECT_EQ(ExpectationLine(r.expectations[2]),
            "FAIL " + file + ":10: expect writer job-A refused \"no such refusal\" (saw job-A ok)");
  EXPECT_EQ(r.expectations_failed(), 2);
  EXPECT_FALSE(r.ok());
}

TEST(RunnerTest, OrphanFilesAreCountedPerWriterAndPerTable) {
  const RunReport r = MustRun(Load(ScenarioDir() / "paimon_retries_exhausted.scn"));
  int64_t per_writer = 0;
  for (const WriterReport& w : r.writers) {
    per_writer += w.counters.orphan_files;
    // A lost race leaves its manifest; a commit given up leaves its data file too.
    EXPECT_EQ(w.counters.orphan_files, w.counters.atomic_failures + w.counters.gave_up) << w.name;
  }
  EXPECT_EQ(r.tally.orphan_files, per_writer);
  EXPECT_EQ(r.tally.orphan_files, r.table().orphan_files);
  EXPECT_GE(r.tally.orphan_files, 3);
}

class RecordingObserver : public RunObserver {
 public:
  void OnStart(const RunPlan& plan, const std::string&) override {
    events.push_back("start seed " + std::to_string(plan.seed));
  }
  void OnSnapshot(const Table& table, const Snapshot& s) override {
    events.push_back(table.name + " snapshot " + std::to_string(s.id));
  }
  void OnStep(const Writer& w, const Step& step, const StepResult& r) override {
    events.push_back(w.name + " " + std::string(OpName(step.op)) + " " + std::string(StepStatusName(r.status)));
  }
  std::vector<std::string> events;
};

TEST(RunnerTest, TheObserverSeesTheStartEachStepAndEachSnapshotOnceInOrder) {
  RecordingObserver observer;
  RunOptions options;
  options.observer = &observer;
  const RunReport r = MustRun(Load(ScenarioDir() / "paimon_unknown_no_check.scn"), options);
  // Snapshot 1 landed with an unknown outcome: it shows with the next publish, before snapshot 2.
  EXPECT_EQ(observer.events, (std::vector<std::string>{"start seed 1", "job-A write ok", "unknown_log snapshot 1",
                                                       "unknown_log snapshot 2", "job-A commit ok"}));
  (void)r;
  RecordingObserver conflict;
  options.observer = &conflict;
  MustRun(Load(ScenarioDir() / "paimon_conflict.scn"), options);
  std::vector<std::string> snapshots;
  for (const std::string& e : conflict.events)
    if (e.find(" snapshot ") != std::string::npos) snapshots.push_back(e);
  EXPECT_EQ(snapshots.size(), 6u);
  EXPECT_TRUE(std::is_sorted(snapshots.begin(), snapshots.end()));
  EXPECT_EQ(conflict.events.back(), "compact-job-2 commit failed");
}

TEST(RunnerTest, TheJsonReportHasTheDocumentedFields) {
  const RunReport r = MustRun(Load(ScenarioDir() / "paimon_conflict.scn"));
  const sim::Json json = RunJson(r);
  for (const char* key : {"scenario", "seed", "sched", "ok", "tables", "writers", "tally", "verdicts", "schedule"})
    EXPECT_TRUE(json.contains(key)) << key;
  EXPECT_EQ(json["seed"], 1u);
  const sim::Json& table = json["tables"][0];
  EXPECT_EQ(table["latest_snapshot"], 6);
  const sim::Json& snapshots = table["snapshots"];
  ASSERT_EQ(snapshots.size(), 6u);
  EXPECT_EQ(snapshots[4]["kind"], "COMPACT");
  EXPECT_EQ(snapshots[4]["user"], "compact-job-1");
  EXPECT_EQ(snapshots[4]["total_records"], 3);
  const sim::Json& job2 = json["writers"][2];
  EXPECT_EQ(job2["name"], "compact-job-2");
  EXPECT_EQ(job2["outcome"], "refused");
  for (const char* key : {"committed", "attempts", "atomic_failures", "conflicts", "gave_up"})
    EXPECT_TRUE(job2["counters"].contains(key)) << key;
  EXPECT_EQ(job2["counters"]["committed"], 1);
  EXPECT_THAT(job2["message"].get<std::string>(), StartsWith("File deletion conflicts detected!"));
  EXPECT_TRUE(json["writers"][0]["message"].is_null());
  for (const char* key : {"atomic_failures", "conflicts", "unknown_outcomes", "orphan_files"})
    EXPECT_TRUE(json["tally"].contains(key)) << key;
  EXPECT_EQ(json["tally"]["conflicts"], 1);
  EXPECT_EQ(json["verdicts"]["invariants_ok"], true);
  EXPECT_EQ(json["verdicts"]["expectations"]["failed"], 0);
  EXPECT_EQ(json["verdicts"]["expectations"]["passed"], r.expectations.size());
}

}  // namespace
}  // namespace commitlab::scenarios
