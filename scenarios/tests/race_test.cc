// The race built from `commitlab race`'s flags, run through the scenario runner: on OS threads
// every commit lands exactly once whatever the OS scheduler does (also under TSan); simulated, the
// same seed gives the same trace, a recorded schedule replays it, faults fire where they say, and
// the checker catches what a broken store or a missing idempotency check lets through.
#include "commitlab/scenarios/race.h"

#include <unistd.h>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "commitlab/scenarios/report_json.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/writer_name.h"

namespace commitlab::scenarios {
namespace {

using ::testing::HasSubstr;

constexpr char kLatency[] =
    "read-latest=uniform:0.2,1;write-manifest=uniform:1,4;publish=uniform:0.5,2;write-data=uniform:4,10";

Scenario Race(RaceSpec spec) {
  Result<Scenario> s = RaceScenario(spec);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? std::move(*s) : Scenario{};
}

RunReport RunRace(const Scenario& s, RunOptions options) {
  NullEventSink quiet;
  if (options.events == nullptr) options.events = &quiet;
  Result<RunReport> r = RunScenario(s, options);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(*r) : RunReport{};
}

std::vector<std::string> Violations(const RunReport& r) {
  std::vector<std::string> out;
  for (const ViolationReport& v : r.violations) out.push_back(v.violation.ToString());
  out.insert(out.end(), r.run_errors.begin(), r.run_errors.end());
  return out;
}

struct Traced {
  RunReport report;
  std::string trace;
};

Traced RunTraced(const Scenario& s, RunOptions options) {
  sim::History history;
  options.history = &history;
  Traced t{RunRace(s, options), ""};
  history.Footer(HistoryFooter(t.report));
  for (const std::string& line : history.lines()) t.trace += line + "\n";
  return t;
}

RunOptions Simulated(uint64_t seed, std::string sched = "random") { return {.seed = seed, .sched = std::move(sched)}; }

TEST(RaceScenarioTest, IsOneRepeatLinePerWriter) {
  Result<std::string> text = RaceScenarioText({.writers = 3, .commits = 7, .latency = "publish=const:1"});
  ASSERT_TRUE(text.ok());
  EXPECT_THAT(*text, HasSubstr("repeat 7: job-C: write rows=1; commit\n"));
  EXPECT_THAT(*text, HasSubstr("latency \"publish=const:1\"\n"));
  Scenario s = Race({.writers = 3, .commits = 7, .latency = "publish=const:1"});
  EXPECT_EQ(s.writers.size(), 3u);
  EXPECT_EQ(s.TotalSteps(), 42u);
  EXPECT_EQ(s.text, *text) << "the scenario keeps the text it was parsed from";
}

TEST(RaceScenarioTest, RefusesCountsOutOfRange) {
  EXPECT_THAT(RaceScenarioText({.writers = 0}).status().message(), HasSubstr("--writers 0 is out of range 1..1000"));
  EXPECT_THAT(RaceScenarioText({.commits = 100001}).status().message(),
              HasSubstr("--commits 100001 is out of range 1..100000"));
  EXPECT_THAT(RaceScenarioText({.writers = 1000, .commits = 100000}).status().message(),
              HasSubstr("at most 1000000 in one race"));
}

TEST(WriterNameTest, FollowsTheLecturesNaming) {
  EXPECT_EQ(sim::WriterName(0), "job-A");
  EXPECT_EQ(sim::WriterName(1), "job-B");
  EXPECT_EQ(sim::WriterName(25), "job-Z");
  EXPECT_EQ(sim::WriterName(26), "job-27");
}

struct ThreadCase {
  std::string store;
  int writers;
};

void PrintTo(const ThreadCase& c, std::ostream* os) { *os << c.store << " x" << c.writers; }

class ThreadRaceTest : public ::testing::TestWithParam<ThreadCase> {};

TEST_P(ThreadRaceTest, EveryCommitLandsExactlyOnce) {
  constexpr int kCommits = 100;
  const int writers = GetParam().writers;
  // Unlimited jittered retries: with 8 writers on a slow (sanitized) directory store, Paimon's 10
  // retries can run out, which is a give-up, not the lost or doubled commit this test looks for.
  Scenario s = Race({.writers = writers, .commits = kCommits, .policy = "full-jitter:base=1ms,cap=50ms"});
  RunOptions options{.sched = "free"};
  std::filesystem::path dir;
  if (GetParam().store == "dir") {
    dir = std::filesystem::temp_directory_path() / fmt::format("commitlab-race-test-{}-{}", getpid(), writers);
    std::filesystem::remove_all(dir);
    options.store = StoreKind::kTableDir;
    options.dir = dir.string();
  }
  RunReport r = RunRace(s, options);
  if (!dir.empty()) {
    EXPECT_TRUE(std::filesystem::exists(dir / "snapshot" / fmt::format("snapshot-{}", writers * kCommits)));
    std::filesystem::remove_all(dir);
  }
  EXPECT_THAT(Violations(r), ::testing::IsEmpty());
  ASSERT_EQ(r.latest_snapshot(), writers * kCommits);
  std::map<std::string, std::set<int64_t>> identifiers;
  const SnapshotChain& chain = r.table().chain;
  for (size_t i = 0; i < chain.size(); ++i) {
    EXPECT_EQ(chain[i].id, static_cast<int64_t>(i + 1));
    EXPECT_EQ(chain[i].parent_id, static_cast<int64_t>(i));
    EXPECT_TRUE(identifiers[chain[i].commit_user].insert(chain[i].commit_identifier).second)
        << chain[i].commit_user << " committed identifier " << chain[i].commit_identifier << " twice";
  }
  ASSERT_EQ(identifiers.size(), static_cast<size_t>(writers));
  for (const auto& [user, ids] : identifiers) {
    EXPECT_EQ(ids.size(), static_cast<size_t>(kCommits)) << user;
    EXPECT_EQ(*ids.begin(), 1) << user;
    EXPECT_EQ(*ids.rbegin(), kCommits) << user;
  }
  for (const WriterReport& w : r.writers) EXPECT_EQ(w.outcome, Outcome::kOk) << w.name << ": " << w.error;
  // Every failed attempt was retried once more.
  EXPECT_EQ(r.tally.attempts, writers * kCommits + r.tally.atomic_failures);
  EXPECT_EQ(chain.back().total_records, writers * kCommits);
}

INSTANTIATE_TEST_SUITE_P(StoresAndWriters, ThreadRaceTest,
                         ::testing::Values(ThreadCase{"memory", 2}, ThreadCase{"memory", 8}, ThreadCase{"dir", 2},
                                           ThreadCase{"dir", 8}),
                         [](const auto& param_info) {
                           return param_info.param.store + std::to_string(param_info.param.writers);
                         });

TEST(RaceOnThreadsTest, FaultRuleSelectsItsWriterByName) {
  Scenario s = Race({.commits = 5, .faults = {"job-B:publish.after:nth=1:unknown"}});
  RunReport r = RunRace(s, {.sched = "free"});
  ASSERT_EQ(r.fired_faults.size(), 1u);
  EXPECT_EQ(r.fired_faults[0], "job-B:publish.after:hit=1:unknown");
  EXPECT_THAT(Violations(r), ::testing::IsEmpty());
  EXPECT_EQ(r.latest_snapshot(), 10);
}

TEST(RaceSimulationTest, SameSeedGivesAByteIdenticalTrace) {
  Scenario s = Race({.latency = kLatency});
  for (uint64_t seed : {1u, 2u, 99u}) {
    for (const char* sched : {"random", "pct:depth=3", "round-robin"}) {
      Traced a = RunTraced(s, Simulated(seed, sched));
      Traced b = RunTraced(s, Simulated(seed, sched));
      ASSERT_EQ(a.trace, b.trace) << "seed " << seed << " sched " << sched;
      EXPECT_EQ(a.report.latest_snapshot(), 60);
      EXPECT_THAT(Violations(a.report), ::testing::IsEmpty());
    }
  }
}

TEST(RaceSimulationTest, SeedsGiveDifferentInterleavings) {
  Scenario s = Race({.latency = kLatency});
  std::set<std::string> schedules;
  std::set<int64_t> failures;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    RunReport r = RunRace(s, Simulated(seed));
    schedules.insert(r.schedule);
    failures.insert(r.tally.atomic_failures);
  }
  EXPECT_EQ(schedules.size(), 20u);
  EXPECT_GT(failures.size(), 3u);  // the lost-race count is a distribution, not one number
}

TEST(RaceSimulationTest, RecordedScheduleReplaysTheRunExactly) {
  Scenario s = Race({.latency = kLatency});
  Traced original = RunTraced(s, Simulated(5));
  RunOptions replay = Simulated(5);
  replay.schedule = original.report.schedule;
  Traced replayed = RunTraced(s, replay);
  EXPECT_EQ(original.trace, replayed.trace);
}

TEST(RaceSimulationTest, ScheduleThatNoLongerFitsIsRefusedWithTheStep) {
  Scenario s = Race({.latency = kLatency});
  RunReport original = RunRace(s, Simulated(5));
  RunOptions replay = Simulated(5);
  replay.schedule = original.schedule;
  NullEventSink quiet;
  replay.events = &quiet;
  Result<RunReport> r = RunScenario(Race({.commits = 29, .latency = kLatency}), replay);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("schedule diverged at step"));
}

TEST(RaceSimulationTest, UnknownOutcomeIsResolvedByTheIdempotencyCheck) {
  Scenario s = Race({.latency = kLatency, .faults = {"job-B:publish.after:nth=1:unknown"}});
  Traced t = RunTraced(s, Simulated(3));
  EXPECT_THAT(Violations(t.report), ::testing::IsEmpty());
  EXPECT_EQ(t.report.latest_snapshot(), 60);
  ASSERT_EQ(t.report.fired_faults.size(), 1u);
  EXPECT_EQ(t.report.fired_faults[0], "job-B:publish.after:hit=1:unknown");
  EXPECT_THAT(t.trace, HasSubstr("{\"type\":\"idempotent_match\""));
}

TEST(RaceSimulationTest, WithoutTheIdempotencyCheckTheCheckerReportsTheDuplicate) {
  Scenario s = Race({.idempotency_check = false, .latency = kLatency, .faults = {"job-B:publish.after:nth=1:unknown"}});
  RunReport r = RunRace(s, Simulated(3));
  EXPECT_EQ(r.latest_snapshot(), 61);  // job-B's identifier 1 landed twice
  EXPECT_THAT(Violations(r), ::testing::Contains(HasSubstr("duplicate: ")));
  EXPECT_THAT(Violations(r), ::testing::Contains(HasSubstr("add_live: ")));
}

TEST(RaceSimulationTest, CheckerCatchesAStoreThatLetsTwoWritersPublishTheSameId) {
  RunReport lossy = RunRace(Race({.object_store = "check-then-put", .latency = kLatency}), Simulated(2));
  ASSERT_THAT(Violations(lossy), ::testing::Not(::testing::IsEmpty()));
  EXPECT_THAT(Violations(lossy).front(), HasSubstr("lost"));
  EXPECT_LT(lossy.latest_snapshot(), 60);
  for (const char* safe : {"locked", "conditional-put"}) {
    RunReport r = RunRace(Race({.object_store = safe, .latency = kLatency}), Simulated(2));
    EXPECT_THAT(Violations(r), ::testing::IsEmpty()) << safe;
    EXPECT_EQ(r.latest_snapshot(), 60) << safe;
  }
}

TEST(RaceSimulationTest, CrashedWriterStopsAndTheOthersFinish) {
  RunReport r = RunRace(Race({.latency = kLatency, .faults = {"job-A:manifest.before:nth=5:crash"}}), Simulated(4));
  EXPECT_THAT(Violations(r), ::testing::IsEmpty());
  // The 5th attempt crashes: at most 4 of job-A's commits landed (fewer if it lost races).
  EXPECT_LT(r.writers[0].counters.committed, 5);
  EXPECT_EQ(r.writers[0].outcome, Outcome::kCrashed);
  EXPECT_THAT(r.writers[0].error, HasSubstr("simulated crash at manifest.before of job-A"));
  EXPECT_EQ(r.writers[1].counters.committed, 30);
  EXPECT_EQ(r.latest_snapshot(), r.writers[0].counters.committed + 30);
}

}  // namespace
}  // namespace commitlab::scenarios
