// The race under the simulator: the same seed gives the same trace byte for byte, a recorded
// schedule replays it, faults fire where they say, and the checker catches what a broken store
// or a missing idempotency check lets through.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "commitlab/core/memory_store.h"
#include "commitlab/core/object_store.h"
#include "commitlab/sim/race.h"
#include "commitlab/sim/trace.h"

namespace commitlab::sim {
namespace {

using ::testing::HasSubstr;

constexpr char kLatency[] = "read-latest=uniform:0.2,1;write-manifest=uniform:1,4;publish=uniform:0.5,2;"
                            "write-data=uniform:4,10";

RaceConfig Simulated(uint64_t seed, std::string sched = "random") {
  RaceConfig c;
  c.seed = seed;
  c.sched = std::move(sched);
  c.latency = *ParseLatencyModel(kLatency);
  return c;
}

struct Traced {
  RaceReport report;
  std::string trace;
};

Traced RunTraced(const RaceConfig& config) {
  MemoryStore store;
  NullEventSink sink;
  std::ostringstream out;
  TraceWriter trace(&out);
  Traced t{RunRace(config, &store, &sink, &trace), ""};
  trace.WriteFooter(t.report.schedule);
  t.trace = out.str();
  return t;
}

TEST(RaceSimulationTest, SameSeedGivesAByteIdenticalTrace) {
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    for (const char* sched : {"random", "pct", "round-robin"}) {
      Traced a = RunTraced(Simulated(seed, sched));
      Traced b = RunTraced(Simulated(seed, sched));
      ASSERT_TRUE(a.report.status.ok()) << a.report.status.ToString();
      ASSERT_EQ(DescribeFirstDifference(a.trace, b.trace), "") << "seed " << seed << " sched " << sched;
      EXPECT_EQ(a.report.latest_snapshot, 60);
      EXPECT_TRUE(a.report.violations.empty());
    }
  }
}

TEST(RaceSimulationTest, SeedsGiveDifferentInterleavings) {
  std::set<std::string> schedules;
  std::set<int64_t> failures;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Traced t = RunTraced(Simulated(seed));
    schedules.insert(t.report.schedule);
    failures.insert(t.report.atomic_failures);
  }
  EXPECT_EQ(schedules.size(), 20u);
  EXPECT_GT(failures.size(), 3u);  // the lost-race count is a distribution, not one number
}

TEST(RaceSimulationTest, RecordedScheduleReplaysTheRunExactly) {
  Traced original = RunTraced(Simulated(11, "pct"));
  Traced replayed = RunTraced(Simulated(11, "replay:" + original.report.schedule));
  ASSERT_TRUE(replayed.report.status.ok()) << replayed.report.status.ToString();
  EXPECT_EQ(DescribeFirstDifference(original.trace, replayed.trace), "");
}

TEST(RaceSimulationTest, ScheduleThatNoLongerFitsIsRefusedWithTheStep) {
  Traced original = RunTraced(Simulated(5));
  RaceConfig three = Simulated(5, "replay:" + original.report.schedule);
  three.writers = 3;
  Traced replayed = RunTraced(three);
  ASSERT_FALSE(replayed.report.status.ok());
  EXPECT_THAT(replayed.report.status.message(), HasSubstr("schedule diverged at step"));
}

TEST(RaceSimulationTest, UnknownOutcomeIsResolvedByTheIdempotencyCheck) {
  RaceConfig c = Simulated(3);
  c.faults = {*ParseFaultRule("job-B:publish.after:nth=1:unknown")};
  Traced t = RunTraced(c);
  EXPECT_TRUE(t.report.violations.empty()) << t.report.violations.front();
  EXPECT_EQ(t.report.latest_snapshot, 60);
  ASSERT_EQ(t.report.fired_faults.size(), 1u);
  EXPECT_EQ(t.report.fired_faults[0], "job-B:publish.after:hit=1:unknown");
  EXPECT_THAT(t.trace, HasSubstr("\"event\":\"idempotent_match\""));
}

TEST(RaceSimulationTest, WithoutTheIdempotencyCheckTheCheckerReportsTheDuplicate) {
  RaceConfig c = Simulated(3);
  c.faults = {*ParseFaultRule("job-B:publish.after:nth=1:unknown")};
  c.idempotency_check = false;
  Traced t = RunTraced(c);
  EXPECT_EQ(t.report.latest_snapshot, 61);  // job-B's identifier 1 landed twice
  // The retry re-adds the same data file, so the replay of the chain also sees a live file added.
  EXPECT_THAT(t.report.violations, ::testing::Contains(HasSubstr("duplicate: ")));
  EXPECT_THAT(t.report.violations, ::testing::Contains(HasSubstr("add_live: ")));
}

TEST(RaceSimulationTest, CheckerCatchesAStoreThatLetsTwoWritersPublishTheSameId) {
  RaceConfig c = Simulated(2);
  NullEventSink quiet;
  RaceReport lossy = RunRace(
      c, [](Env* env) { return std::unique_ptr<SnapshotStore>(new ObjectStore(env, {.mode = PublishMode::kCheckThenPut})); },
      &quiet);
  ASSERT_FALSE(lossy.violations.empty());
  EXPECT_THAT(lossy.violations.front(), HasSubstr("lost"));
  EXPECT_LT(lossy.latest_snapshot, 60);

  for (PublishMode safe : {PublishMode::kLocked, PublishMode::kConditionalPut}) {
    NullEventSink sink;
    RaceReport r = RunRace(
        c, [safe](Env* env) { return std::unique_ptr<SnapshotStore>(new ObjectStore(env, {.mode = safe})); }, &sink);
    EXPECT_TRUE(r.violations.empty()) << r.violations.front();
    EXPECT_EQ(r.latest_snapshot, 60);
  }
}

TEST(RaceSimulationTest, CrashedWriterStopsAndTheOthersFinish) {
  RaceConfig c = Simulated(4);
  c.faults = {*ParseFaultRule("job-A:manifest.before:nth=5:crash")};
  Traced t = RunTraced(c);
  EXPECT_TRUE(t.report.violations.empty()) << t.report.violations.front();
  // The 5th attempt crashes: at most 4 of job-A's commits landed (fewer if it lost races).
  EXPECT_LT(t.report.writers[0].commits_ok, 5);
  EXPECT_THAT(t.report.writers[0].error, HasSubstr("simulated crash at manifest.before of job-A"));
  EXPECT_EQ(t.report.writers[1].commits_ok, 30);
  EXPECT_EQ(t.report.latest_snapshot, t.report.writers[0].commits_ok + 30);
}

}  // namespace
}  // namespace commitlab::sim

namespace commitlab::sim {
namespace {

// On OS threads too, a fault rule finds its writer by name.
TEST(RaceOnThreadsTest, FaultRuleSelectsItsWriterByName) {
  RaceConfig c;
  c.commits = 5;
  c.faults = {*ParseFaultRule("job-B:publish.after:nth=1:unknown")};
  MemoryStore store;
  NullEventSink sink;
  RaceReport r = RunRace(c, &store, &sink);
  ASSERT_EQ(r.fired_faults.size(), 1u);
  EXPECT_EQ(r.fired_faults[0], "job-B:publish.after:hit=1:unknown");
  EXPECT_TRUE(r.violations.empty()) << r.violations.front();
  EXPECT_EQ(r.latest_snapshot, 10);
}

}  // namespace
}  // namespace commitlab::sim
