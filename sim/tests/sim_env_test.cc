#include "commitlab/sim/sim_env.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "commitlab/core/paimon/committer.h"
#include "commitlab/core/paimon/memory_store.h"
#include "commitlab/sim/latency.h"
#include "commitlab/sim/scheduler.h"
#include "commitlab/sim/step_access.h"
#include "commitlab/sim/strategy.h"

namespace commitlab::sim {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<Strategy> Make(std::string_view spec) {
  Result<std::unique_ptr<Strategy>> s = MakeStrategy(spec);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(s).value();
}

LatencyModel Latency(std::string_view spec) {
  Result<LatencyModel> m = ParseLatencyModel(spec);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? *m : LatencyModel();
}

TEST(SimEnvTest, NowIsTheVirtualClockAndSleepsAreSchedulingPoints) {
  Scheduler sched(MakeRandomStrategy(), 1);
  SimEnv env(&sched);
  std::vector<int64_t> seen;
  sched.AddWriter("w", [&] {
    const int64_t steps = sched.steps();
    seen.push_back(env.NowMicros());
    seen.push_back(sched.steps() - steps);  // NowMicros is not a scheduling point
    env.SleepMicros(1500);
    seen.push_back(env.NowMicros());
    env.SleepMicros(0);  // still a scheduling point
    env.SleepMicros(-7);
    seen.push_back(env.NowMicros());
    seen.push_back(sched.steps() - steps);
  });
  ASSERT_TRUE(sched.Run().ok());
  EXPECT_EQ(seen, (std::vector<int64_t>{0, 0, 1500, 1500, 3}));
  EXPECT_EQ(&env.rng(), &sched.rng());
}

// A writer that would loop forever (a fault that always fires, retried without limit) is stopped
// at its next fault point once the step budget is spent, as a crash would stop it; the other
// writer finishes, and the verdict names who was still running.
TEST(SimEnvTest, TheStepBudgetStopsAWriterThatWouldNeverEnd) {
  Scheduler sched(MakeRandomStrategy(), 1);
  sched.set_budget(/*max_steps=*/500, /*max_virtual_micros=*/0);
  SimEnv env(&sched);
  Status stopped;
  bool other_done = false;
  sched.AddWriter("looper", [&] {
    while (stopped.ok()) stopped = env.FaultPoint("publish.before");
  });
  sched.AddWriter("other", [&] {
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(env.FaultPoint("manifest.before").ok());
    other_done = true;
  });
  ASSERT_TRUE(sched.Run().ok());
  EXPECT_TRUE(other_done);
  EXPECT_EQ(stopped.code(), Code::kCrashed);
  EXPECT_THAT(stopped.message(), HasSubstr("gave up after 500 steps (the --max-steps budget)"));
  EXPECT_TRUE(sched.over_budget());
  EXPECT_EQ(sched.budget_verdict(), "gave up after 500 steps (the --max-steps budget)");
  ASSERT_EQ(sched.over_budget_running().size(), 1u);
  EXPECT_EQ(sched.writer_name(sched.over_budget_running()[0]), "looper");
  EXPECT_LE(sched.steps(), 502);
}

TEST(SimEnvTest, TheVirtualTimeBudgetStopsARunWhoseClockRunsAway) {
  Scheduler sched(MakeRandomStrategy(), 1);
  sched.set_budget(/*max_steps=*/0, /*max_virtual_micros=*/1'000'000);
  SimEnv env(&sched);
  int64_t sleeps = 0;
  sched.AddWriter("sleeper", [&] {
    while (env.FaultPoint("read-latest.before").ok()) {
      env.SleepMicros(60'000);
      ++sleeps;
    }
  });
  ASSERT_TRUE(sched.Run().ok());
  EXPECT_EQ(sched.budget_verdict(), "gave up after 1s of virtual time (the --max-virtual-time budget)");
  EXPECT_GE(sleeps, 16);  // 17 sleeps of 60 ms pass 1 s
  EXPECT_LE(sleeps, 18);
}

// Within budget nothing changes: the same run, the same steps.
TEST(SimEnvTest, ABudgetTheRunStaysWithinChangesNothing) {
  auto run = [](int64_t budget) {
    Scheduler sched(MakeRandomStrategy(), 7);
    sched.set_budget(budget, budget);
    SimEnv env(&sched);
    for (const char* name : {"a", "b"}) {
      sched.AddWriter(name, [&env] {
        for (int i = 0; i < 20; ++i) EXPECT_TRUE(env.FaultPoint("publish.before").ok());
      });
    }
    EXPECT_TRUE(sched.Run().ok());
    EXPECT_FALSE(sched.over_budget());
    return sched.ScheduleString();
  };
  EXPECT_EQ(run(0), run(1'000'000));
}

TEST(SimEnvTest, StorageOpsSleepTheirRequestAndResponseHops) {
  Scheduler sched(MakeRandomStrategy(), 1);
  SimEnv env(&sched, Latency("publish.request=const:5;publish.response=const:2;read-latest=const:0.25"));
  std::vector<int64_t> times;
  sched.AddWriter("w", [&] {
    env.BeginStorageOp(StorageOp::kPublish);
    times.push_back(env.NowMicros());
    env.EndStorageOp(StorageOp::kPublish);
    times.push_back(env.NowMicros());
    env.BeginStorageOp(StorageOp::kReadLatest);
    env.EndStorageOp(StorageOp::kReadLatest);
    times.push_back(env.NowMicros());
    env.BeginStorageOp(StorageOp::kWriteManifest);  // zero latency: a yield, no time
    env.EndStorageOp(StorageOp::kWriteManifest);
    times.push_back(env.NowMicros());
  });
  ASSERT_TRUE(sched.Run().ok());
  EXPECT_EQ(times, (std::vector<int64_t>{5000, 7000, 7500, 7500}));
  EXPECT_EQ(sched.steps(), 1 + 6);
}

TEST(SimEnvTest, AnOperationTakesEffectWhenItsRequestArrives) {
  for (std::string_view spec : {"random", "pct", "round-robin"}) {
    Scheduler sched(Make(spec), 3);
    SimEnv env(&sched, Latency("publish=const:5"));
    std::vector<std::string> log;
    auto note = [&](std::string_view what) { log.push_back(fmt::format("{}@{}", what, env.NowMicros())); };
    sched.AddWriter("A", [&] {
      env.BeginStorageOp(StorageOp::kPublish);
      note("A publishes");  // the request arrived: the effect happens now
      env.EndStorageOp(StorageOp::kPublish);
      note("A resumes");
    });
    sched.AddWriter("B", [&] {
      env.SleepMicros(1000);
      note("B acts");
      env.SleepMicros(6000);
      note("B acts again");
    });
    ASSERT_TRUE(sched.Run().ok());
    EXPECT_EQ(log,
              (std::vector<std::string>{"B acts@1000", "A publishes@5000", "B acts again@7000", "A resumes@10000"}))
        << spec;
  }
}

TEST(SimEnvTest, LatencyDrawsComeFromTheRunsStream) {
  auto run = [](uint64_t seed) {
    Scheduler sched(MakeRandomStrategy(), seed);
    SimEnv env(&sched, Latency("*=uniform:0,10"));
    std::vector<int64_t> times;
    for (int w = 0; w < 2; ++w)
      sched.AddWriter(fmt::format("w{}", w), [&] {
        for (int i = 0; i < 5; ++i) {
          env.BeginStorageOp(StorageOp::kReadLatest);
          env.EndStorageOp(StorageOp::kReadLatest);
          times.push_back(env.NowMicros());
        }
      });
    EXPECT_TRUE(sched.Run().ok());
    return times;
  };
  EXPECT_EQ(run(5), run(5));
  EXPECT_NE(run(5), run(6));
}

class ScriptedFaults : public FaultPlan {
 public:
  FaultDecision Check(std::string_view writer, std::string_view point, Rng&) override {
    hits.push_back(fmt::format("{}:{}", writer, point));
    if (point == fault::kManifestBefore) return {Status::OK(), 3000};
    if (point == fault::kPublishBefore && writer == "B") return {Status::IOError("simulated publish failure"), 0};
    return {};
  }
  std::vector<std::string> hits;
};

TEST(SimEnvTest, FaultPointsYieldThenAskThePlanAsTheCurrentWriter) {
  Scheduler sched(MakeRoundRobinStrategy(), 1);
  ScriptedFaults faults;
  SimEnv env(&sched, LatencyModel(), &faults);
  std::map<std::string, std::string> results;
  for (std::string name : {"A", "B"}) {
    sched.AddWriter(name, [&, name] {
      Status manifest = env.FaultPoint(fault::kManifestBefore);
      Status publish = env.FaultPoint(fault::kPublishBefore);
      results[name] = fmt::format("{}/{} t={}", manifest.ok(), publish.ToString(), env.NowMicros());
    });
  }
  ASSERT_TRUE(sched.Run().ok());
  // The delay is slept; B's publish fails. Each fault point yields first: A and B alternate.
  EXPECT_EQ(results["A"], "true/OK t=3000");
  EXPECT_THAT(results["B"], testing::MatchesRegex("true/.*simulated publish failure t=3000"));
  // 2 starts + per writer: 2 fault-point yields and 1 delay.
  EXPECT_EQ(sched.steps(), 2 + 2 * 3);
  EXPECT_EQ(faults.hits, (std::vector<std::string>{"A:manifest.before", "B:manifest.before", "A:publish.before",
                                                   "B:publish.before"}));
}

TEST(SimEnvTest, FaultPointWithoutAPlanIsJustASchedulingPoint) {
  Scheduler sched(MakeRandomStrategy(), 1);
  SimEnv env(&sched);
  Status st = Status::Corruption("unset");
  sched.AddWriter("w", [&] { st = env.FaultPoint(fault::kPublishAfter); });
  ASSERT_TRUE(sched.Run().ok());
  EXPECT_TRUE(st.ok());
  EXPECT_EQ(sched.steps(), 2);
}

// --- two Paimon appenders racing on the memory store ------------------------------------------

class LogSink : public EventSink {
 public:
  void OnEvent(const Event& e) override {
    lines.push_back(fmt::format("{} {} {} #{} a{} t={}", e.time_micros, EventTypeName(e.type), e.user, e.snapshot_id,
                                e.attempt, e.wait_micros));
    counts[e.type]++;
  }
  std::vector<std::string> lines;
  std::map<EventType, int> counts;
};

struct Race {
  Status status;
  std::string schedule;
  std::vector<Snapshot> snapshots;
  std::vector<std::string> events;
  int atomic_failures = 0;
  int gave_up = 0;
  std::map<std::string, int> per_user;
};

Race RunRace(std::unique_ptr<Strategy> strategy, uint64_t seed, const LatencyModel& latency = {}, int commits = 30) {
  Scheduler sched(std::move(strategy), seed);
  SimEnv env(&sched, latency);
  MemoryStore store;
  LogSink sink;
  std::vector<std::unique_ptr<paimon::Committer>> committers;
  for (std::string name : {"job-A", "job-B"}) {
    committers.push_back(
        std::make_unique<paimon::Committer>(name, paimon::CommitOptions{.table = "race_log"}, &env, &store, &sink));
    paimon::Committer* c = committers.back().get();
    sched.AddWriter(name, [c, name, commits] {
      for (int i = 1; i <= commits; ++i) {
        DataFile f{.name = fmt::format("data-{}-{}.parquet", name, i), .row_count = 1};
        Result<int> r = c->Commit(Committable{.identifier = i, .append_changes = {{ChangeKind::kAdd, f}}});
        EXPECT_TRUE(r.ok()) << name << " commit " << i << ": " << r.status().ToString();
      }
    });
  }
  Race out;
  out.status = sched.Run();
  out.schedule = sched.ScheduleString();
  Result<std::optional<Snapshot>> latest = store.LatestSnapshot();
  const int64_t last = latest.ok() && latest->has_value() ? (*latest)->id : 0;
  for (int64_t id = 1; id <= last; ++id) {
    Result<Snapshot> s = store.ReadSnapshot(id);
    if (s.ok()) {
      out.snapshots.push_back(*s);
      out.per_user[s->commit_user]++;
    }
  }
  out.events = std::move(sink.lines);
  out.atomic_failures = sink.counts[EventType::kAtomicCommitFailed];
  out.gave_up = sink.counts[EventType::kGaveUp];
  return out;
}

void ExpectSixtyContiguousSnapshots(const Race& r) {
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.snapshots.size(), 60u);
  for (size_t i = 0; i < r.snapshots.size(); ++i) {
    EXPECT_EQ(r.snapshots[i].id, static_cast<int64_t>(i) + 1);
    EXPECT_EQ(r.snapshots[i].parent_id, static_cast<int64_t>(i));
  }
  EXPECT_EQ(r.per_user, (std::map<std::string, int>{{"job-A", 30}, {"job-B", 30}}));
  EXPECT_EQ(r.gave_up, 0);
}

TEST(SimRaceTest, TwoAppendersCommitSixtySnapshotsAndSomeSeedsLoseRaces) {
  int seeds_with_failures = 0;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    Race r = RunRace(MakeRandomStrategy(), seed);
    ExpectSixtyContiguousSnapshots(r);
    seeds_with_failures += r.atomic_failures > 0;
  }
  EXPECT_GE(seeds_with_failures, 1);
}

TEST(SimRaceTest, StorageLatencyMakesTheRaceBite) {
  int failures = 0;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    Race r = RunRace(MakeRandomStrategy(), seed, Latency("*=uniform:1,3;publish=normal:5,2"));
    ExpectSixtyContiguousSnapshots(r);
    failures += r.atomic_failures;
  }
  EXPECT_GE(failures, 3);
}

TEST(SimRaceTest, SameSeedSameRunAndTheScheduleStringReplaysIt) {
  const LatencyModel latency = Latency("*=exp:1");
  Race a = RunRace(MakeRandomStrategy(), 17, latency);
  Race b = RunRace(MakeRandomStrategy(), 17, latency);
  ExpectSixtyContiguousSnapshots(a);
  EXPECT_EQ(a.schedule, b.schedule);
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.snapshots, b.snapshots);

  Race replayed = RunRace(Make("replay:" + a.schedule), 17, latency);
  ASSERT_TRUE(replayed.status.ok()) << replayed.status.ToString();
  EXPECT_EQ(replayed.events, a.events);
  EXPECT_EQ(replayed.snapshots, a.snapshots);
  EXPECT_EQ(replayed.schedule, a.schedule);

  // The same schedule with a race of fewer commits no longer fits.
  Race shorter = RunRace(Make("replay:" + a.schedule), 17, latency, /*commits=*/29);
  ASSERT_EQ(shorter.status.code(), Code::kInvalidArgument);
  EXPECT_THAT(shorter.status.message(), testing::StartsWith("schedule diverged at step "));
}

// Records, at every pick, what the first runnable writer's next step touches, and runs it.
class AccessRecorder final : public Strategy {
 public:
  std::string Describe() const override { return "record"; }
  Status Start(std::span<const std::string>, uint64_t) override { return Status::OK(); }
  Result<int> Pick(const SchedulePoint& p) override {
    seen.push_back(std::string(StepAccessName(p.scheduler->next_access(p.runnable.front()))));
    runnable.push_back(p.runnable.size());
    return p.runnable.front();
  }
  std::vector<std::string> seen;
  std::vector<size_t> runnable;
};

TEST(SimEnvTest, EachSchedulingPointSaysWhatTheNextStepTouches) {
  auto recorder = std::make_unique<AccessRecorder>();
  AccessRecorder* r = recorder.get();
  Scheduler sched(std::move(recorder), 1);
  SimEnv env(&sched);
  sched.AddWriter("w", [&] {
    env.BeginStorageOp(StorageOp::kPublish);
    env.EndStorageOp(StorageOp::kPublish);
    env.BeginStorageOp(StorageOp::kWriteManifest);
    (void)env.FaultPoint("publish.before");
    env.SleepMicros(5);
    sched.set_opaque(true);
    env.BeginStorageOp(StorageOp::kReadLatest);
    sched.set_opaque(false);
    env.BeginStorageOp(StorageOp::kReadSnapshot);
  });
  ASSERT_TRUE(sched.Run().ok());
  EXPECT_THAT(r->seen,
              testing::ElementsAre("local", "publish", "local", "write-file", "fault", "wait", "opaque", "read"));
}

TEST(SimEnvTest, UntimedSleepsLeaveTheClockAndTheWriterRunnable) {
  auto recorder = std::make_unique<AccessRecorder>();
  AccessRecorder* r = recorder.get();
  Scheduler sched(std::move(recorder), 1);
  sched.set_untimed(true);
  SimEnv env(&sched, Latency("publish=const:1000"));
  std::vector<int64_t> times;
  sched.AddWriter("a", [&] {
    env.SleepMicros(1'000'000);
    env.BeginStorageOp(StorageOp::kPublish);
    times.push_back(env.NowMicros());
  });
  sched.AddWriter("b", [&] { times.push_back(env.NowMicros()); });
  ASSERT_TRUE(sched.Run().ok());
  EXPECT_THAT(times, testing::ElementsAre(0, 0));
  // a stays runnable through its sleep and its request hop: both writers can be picked each time.
  EXPECT_THAT(r->runnable, testing::ElementsAre(2, 2, 2, 1));
}

}  // namespace
}  // namespace commitlab::sim
