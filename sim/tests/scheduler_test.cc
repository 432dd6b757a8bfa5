#include "commitlab/sim/scheduler.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "commitlab/core/rng.h"
#include "commitlab/sim/schedule.h"
#include "commitlab/sim/strategy.h"

namespace commitlab::sim {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

std::unique_ptr<Strategy> Make(std::string_view spec) {
  Result<std::unique_ptr<Strategy>> s = MakeStrategy(spec);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(s).value();
}

// A log line per writer segment: who ran, its own step counter, and the virtual time.
struct Entry {
  int writer;
  int i;
  int64_t now;
  bool operator==(const Entry&) const = default;
};

// `writers` writers; each does `rounds` rounds of: log, then yield or sleep a random 0-3 ms drawn
// from the run's stream. Returns the log, the schedule string and Run()'s status.
struct Outcome {
  std::vector<Entry> log;
  std::string schedule;
  Status status;
  int64_t end_micros = 0;
};
Outcome RunMixed(std::unique_ptr<Strategy> strategy, uint64_t seed, int writers = 3, int rounds = 8) {
  Scheduler s(std::move(strategy), seed);
  Outcome out;
  for (int w = 0; w < writers; ++w) {
    s.AddWriter("w" + std::to_string(w), [&s, &out, w, rounds] {
      for (int i = 0; i < rounds; ++i) {
        out.log.push_back({w, i, s.now_micros()});
        const int64_t pause = static_cast<int64_t>(s.rng().Below(4)) * 1000;
        if (pause == 0) {
          s.Yield();
        } else {
          s.SleepUntil(s.now_micros() + pause);
        }
      }
    });
  }
  out.status = s.Run();
  out.schedule = s.ScheduleString();
  out.end_micros = s.now_micros();
  return out;
}

TEST(SchedulerTest, RunsEveryWriterToCompletionWithEachStrategy) {
  for (std::string_view spec : {"random", "round-robin", "pct", "pct:depth=1", "pct:depth=5,k=20"}) {
    SCOPED_TRACE(spec);
    Scheduler s(Make(spec), 42);
    std::vector<int> done(4, 0);
    for (int w = 0; w < 4; ++w) {
      EXPECT_EQ(s.AddWriter("w" + std::to_string(w),
                            [&s, &done, w] {
                              for (int i = 0; i < 10; ++i) s.Yield();
                              ++done[static_cast<size_t>(w)];
                            }),
                w);
    }
    ASSERT_TRUE(s.Run().ok());
    EXPECT_EQ(done, std::vector<int>(4, 1));
    // One pick to start each writer's first segment, plus one per yield.
    EXPECT_EQ(s.steps(), 4 * 11);
    EXPECT_EQ(s.current(), -1);
    EXPECT_EQ(s.current_name(), "");
  }
}

TEST(SchedulerTest, RunsWritersOneAtATimeOnTheCallingThread) {
  Scheduler s(MakeRandomStrategy(), 3);
  int inside = 0;  // deliberately not atomic: only one writer may be between yields
  int overlaps = 0;
  const std::thread::id caller = std::this_thread::get_id();
  for (int w = 0; w < 5; ++w) {
    s.AddWriter("w" + std::to_string(w), [&] {
      for (int i = 0; i < 50; ++i) {
        overlaps += inside != 0;
        ++inside;
        EXPECT_EQ(std::this_thread::get_id(), caller);
        const int seen = inside;
        volatile int spin = 0;
        for (int k = 0; k < 100; ++k) spin = spin + 1;
        overlaps += inside != seen;
        --inside;
        s.Yield();
      }
    });
  }
  ASSERT_TRUE(s.Run().ok());
  EXPECT_EQ(overlaps, 0);
  EXPECT_EQ(inside, 0);
}

TEST(SchedulerTest, CurrentNamesTheRunningWriter) {
  Scheduler s(MakeRoundRobinStrategy(), 1);
  std::vector<std::string> seen;
  for (std::string name : {"job-A", "job-B"}) {
    s.AddWriter(name, [&] {
      seen.push_back(std::string(s.current_name()) + "#" + std::to_string(s.current()));
      s.Yield();
      seen.push_back(std::string(s.current_name()) + "#" + std::to_string(s.current()));
    });
  }
  ASSERT_TRUE(s.Run().ok());
  EXPECT_EQ(seen, (std::vector<std::string>{"job-A#0", "job-B#1", "job-A#0", "job-B#1"}));
  EXPECT_EQ(s.ScheduleString(), "sched1:2w:4s:abab");
}

TEST(SchedulerTest, SleepersWaitAndTheClockJumpsToTheEarliestWakeUp) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Scheduler s(MakeRandomStrategy(), seed);
    std::vector<std::string> order;
    int64_t last_seen = 0;
    bool went_back = false;
    auto note = [&](std::string what) {
      went_back |= s.now_micros() < last_seen;
      last_seen = s.now_micros();
      order.push_back(what + "@" + std::to_string(s.now_micros()));
    };
    s.AddWriter("late", [&] {
      s.SleepUntil(100);
      note("late");
    });
    s.AddWriter("early", [&] {
      s.SleepUntil(50);
      note("early");
      s.SleepUntil(20);  // in the past: a plain yield
      note("early-again");
    });
    s.AddWriter("busy", [&] {
      for (int i = 0; i < 5; ++i) {
        note("busy");
        s.Yield();
      }
    });
    ASSERT_TRUE(s.Run().ok());
    EXPECT_FALSE(went_back);
    // Yields never move the clock; sleepers resume exactly at their wake-up, in time order.
    std::vector<std::string> expected(5, "busy@0");
    expected.insert(expected.end(), {"early@50", "early-again@50", "late@100"});
    EXPECT_EQ(order, expected) << "seed " << seed;
    EXPECT_EQ(s.now_micros(), 100);
  }
}

TEST(SchedulerTest, WritersDueAtTheSameInstantAreAllRunnable) {
  // Both wake at 10; round-robin after writer 1 (the last to run) picks writer 0 first.
  Scheduler s(MakeRoundRobinStrategy(), 1);
  std::vector<int> woke;
  for (int w = 0; w < 2; ++w) {
    s.AddWriter("w" + std::to_string(w), [&s, &woke, w] {
      s.SleepUntil(10);
      woke.push_back(w);
    });
  }
  ASSERT_TRUE(s.Run().ok());
  EXPECT_EQ(woke, (std::vector<int>{0, 1}));
  EXPECT_EQ(s.ScheduleString(), "sched1:2w:4s:abab");
}

TEST(SchedulerTest, SameSeedGivesTheSameRun) {
  for (std::string_view spec : {"random", "pct", "round-robin"}) {
    Outcome a = RunMixed(Make(spec), 7);
    Outcome b = RunMixed(Make(spec), 7);
    ASSERT_TRUE(a.status.ok());
    EXPECT_EQ(a.schedule, b.schedule) << spec;
    EXPECT_EQ(a.log, b.log) << spec;
    EXPECT_EQ(a.end_micros, b.end_micros) << spec;
  }
}

TEST(SchedulerTest, DifferentSeedsGiveDifferentSchedules) {
  for (std::string_view spec : {"random", "pct"}) {
    std::set<std::string> schedules;
    for (uint64_t seed = 1; seed <= 5; ++seed) schedules.insert(RunMixed(Make(spec), seed).schedule);
    EXPECT_GE(schedules.size(), 4u) << spec;
  }
}

TEST(SchedulerTest, ReplayReproducesTheRecordedRunWhateverStrategyRecordedIt) {
  for (std::string_view spec : {"random", "pct:depth=2,k=30", "round-robin"}) {
    SCOPED_TRACE(spec);
    Outcome recorded = RunMixed(Make(spec), 11);
    ASSERT_TRUE(recorded.status.ok());
    Result<std::unique_ptr<Strategy>> replay = MakeStrategy("replay:" + recorded.schedule);
    ASSERT_TRUE(replay.ok()) << replay.status().ToString();
    Outcome replayed = RunMixed(std::move(replay).value(), 11);
    ASSERT_TRUE(replayed.status.ok()) << replayed.status.ToString();
    EXPECT_EQ(replayed.log, recorded.log);
    EXPECT_EQ(replayed.schedule, recorded.schedule);
    EXPECT_EQ(replayed.end_micros, recorded.end_micros);
  }
}

TEST(SchedulerTest, ReplayRefusesAScheduleForAnotherWriterCount) {
  Outcome recorded = RunMixed(MakeRandomStrategy(), 5, /*writers=*/3);
  Result<std::unique_ptr<Strategy>> replay = MakeReplayStrategy(recorded.schedule);
  ASSERT_TRUE(replay.ok());
  Outcome replayed = RunMixed(std::move(replay).value(), 5, /*writers=*/2);
  ASSERT_EQ(replayed.status.code(), Code::kInvalidArgument);
  EXPECT_THAT(replayed.status.message(), StartsWith("schedule diverged at step 0: "));
  EXPECT_THAT(replayed.status.message(), HasSubstr("recorded with 3 writers, this run has 2 (a (w0), b (w1))"));
  EXPECT_TRUE(replayed.log.empty());  // refused before anything ran
}

TEST(SchedulerTest, ReplayRefusesATruncatedScheduleAtTheStepWhereItEnds) {
  Outcome recorded = RunMixed(MakeRandomStrategy(), 9);
  Result<RecordedSchedule> full = ParseSchedule(recorded.schedule);
  ASSERT_TRUE(full.ok());
  RecordedSchedule cut;
  cut.writers = full->writers;
  const int64_t keep = full->steps() - 5;
  for (const ScheduleRun& r : full->runs)
    for (int64_t i = 0; i < r.count && cut.steps() < keep; ++i) cut.Append(r.writer);

  Outcome replayed = RunMixed(Make("replay:" + FormatSchedule(cut)), 9);
  ASSERT_EQ(replayed.status.code(), Code::kInvalidArgument);
  EXPECT_THAT(replayed.status.message(),
              StartsWith("schedule diverged at step " + std::to_string(keep) + ": the schedule ends there, but "));
  // The run up to the divergence is the recorded one, and every writer still finished.
  ASSERT_EQ(replayed.log.size(), recorded.log.size());
  EXPECT_EQ(std::vector<Entry>(replayed.log.begin(), replayed.log.begin() + keep - 3),
            std::vector<Entry>(recorded.log.begin(), recorded.log.begin() + keep - 3));
}

TEST(SchedulerTest, ReplayRefusesAWriterThatCannotRunAndOneThatHasStepsLeft) {
  auto run = [](std::string_view schedule) {
    Scheduler s(Make("replay:" + std::string(schedule)), 1);
    s.AddWriter("sleeper", [&s] { s.SleepUntil(100); });
    s.AddWriter("yielder", [&s] {
      s.Yield();
      s.Yield();
    });
    return s.Run();
  };
  // a sleeps at step 0; the schedule wants it again at step 1, when only b can run.
  Status st = run("sched1:2w:5s:a2b3");
  ASSERT_EQ(st.code(), Code::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "schedule diverged at step 1: the schedule runs a (sleeper) next, but only b (yielder) can run");

  EXPECT_TRUE(run("sched1:2w:5s:ab3a").ok());
  st = run("sched1:2w:7s:ab3a2b");
  ASSERT_EQ(st.code(), Code::kInvalidArgument);
  EXPECT_EQ(st.message(), "schedule diverged at step 5: every writer has finished, but the schedule has 2 more steps");
}

// Counts the steps where the strategy switched away from a writer that could have gone on.
int Preemptions(const RecordedSchedule& s) { return static_cast<int>(s.runs.size()) - s.writers; }

TEST(SchedulerTest, PctDepthOneNeverPreemptsAndDepthDPreemptsAtMostDMinusOneTimes) {
  std::set<std::string> orders;
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    for (int depth : {1, 2, 4}) {
      Scheduler s(MakePctStrategy(depth, /*k=*/40), seed);
      for (int w = 0; w < 4; ++w)
        s.AddWriter("w" + std::to_string(w), [&s] {
          for (int i = 0; i < 10; ++i) s.Yield();  // always runnable: a switch is a preemption
        });
      ASSERT_TRUE(s.Run().ok());
      // Each writer's run ends once when it finishes; any other switch is a preemption.
      EXPECT_LE(Preemptions(s.schedule()), depth - 1) << s.ScheduleString();
      if (depth == 1) {
        EXPECT_EQ(Preemptions(s.schedule()), 0);
        orders.insert(s.ScheduleString());
      }
    }
  }
  EXPECT_GE(orders.size(), 10u);  // the priorities are random: so is the order
}

// 无锁并发写入's lost update (docs/lectures.md#lock-free-counter): read, (yield), write back
// read+1. A bug of depth 2: it needs one preemption between one writer's read and its write.
bool LosesAnUpdate(std::unique_ptr<Strategy> strategy, uint64_t seed) {
  Scheduler s(std::move(strategy), seed);
  int counter = 0;
  for (int w = 0; w < 2; ++w)
    s.AddWriter("w" + std::to_string(w), [&] {
      s.Yield();
      const int read = counter;
      s.Yield();
      counter = read + 1;
    });
  EXPECT_TRUE(s.Run().ok());
  return counter != 2;
}

TEST(SchedulerTest, PctFindsADepthTwoBugAsOftenAsPromisedAndDepthOneNever) {
  int depth1 = 0;
  int depth2 = 0;
  const int runs = 300;
  for (uint64_t seed = 1; seed <= runs; ++seed) {
    depth1 += LosesAnUpdate(MakePctStrategy(1, 6), seed);
    depth2 += LosesAnUpdate(MakePctStrategy(2, 6), seed);
  }
  EXPECT_EQ(depth1, 0);
  // PCT's bound: probability >= 1/(n * k) = 1/12 per run.
  EXPECT_GE(depth2, runs / 12);
}

TEST(SchedulerTest, RandomStrategyFindsTheLostUpdate) {
  int lost = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed) lost += LosesAnUpdate(MakeRandomStrategy(), seed);
  EXPECT_GT(lost, 0);
  EXPECT_LT(lost, 50);
}

TEST(SchedulerTest, RoundRobinTakesTurnsByIndex) {
  Scheduler s(MakeRoundRobinStrategy(), 1);
  for (int w = 0; w < 3; ++w)
    s.AddWriter("w" + std::to_string(w), [&s, w] {
      for (int i = 0; i < w + 1; ++i) s.Yield();
    });
  ASSERT_TRUE(s.Run().ok());
  // a:1 yield, b:2, c:3 -> a b c a b c b c c
  EXPECT_EQ(s.ScheduleString(), "sched1:3w:9s:abcabcbc2");
}

TEST(SchedulerTest, AWriterThatNeverYieldsRunsInOneStep) {
  Scheduler s(MakeRandomStrategy(), 1);
  int ran = 0;
  s.AddWriter("quick", [&] { ++ran; });
  ASSERT_TRUE(s.Run().ok());
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(s.ScheduleString(), "sched1:1w:1s:a");
}

TEST(SchedulerTest, RunIsOnceAndAddWriterAfterItIsRefused) {
  Scheduler s(MakeRandomStrategy(), 1);
  ASSERT_TRUE(s.Run().ok());
  EXPECT_EQ(s.ScheduleString(), "sched1:0w:0s:");
  EXPECT_EQ(s.AddWriter("late", [] {}), -1);
  EXPECT_EQ(s.Run().code(), Code::kInvalidArgument);
}

TEST(SchedulerTest, ManyWritersStartAndEndCleanly) {
  Scheduler s(MakeRandomStrategy(), 1);
  int finished = 0;
  for (int w = 0; w < 100; ++w)
    s.AddWriter("w" + std::to_string(w), [&s, &finished, w] {
      std::vector<int> on_the_fiber_stack_and_heap(100, w);  // freed before the fiber ends
      s.Yield();
      finished += on_the_fiber_stack_and_heap[99] == w;
    });
  ASSERT_TRUE(s.Run().ok());
  EXPECT_EQ(finished, 100);
  // Writers from 52 on are written {N}.
  EXPECT_THAT(s.ScheduleString(), HasSubstr("{"));
  Result<RecordedSchedule> parsed = ParseSchedule(s.ScheduleString());
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(*parsed, s.schedule());
}

// Many writers sleeping for random times: each must wake exactly when it asked to, and the clock
// must never run backwards, whichever path (push, or swapping in for the earliest sleeper) its
// sleep took through the wake-up heap.
TEST(SchedulerTest, ManySleepersEachWakeExactlyOnTimeAndTheClockNeverGoesBack) {
  Scheduler s(MakeRandomStrategy(), 7);
  Rng durations(11);
  std::vector<int64_t> wakes;  // the clock at every wake-up, in order
  int late = 0;
  for (int w = 0; w < 64; ++w) {
    std::vector<int64_t> mine;
    for (int k = 0; k < 50; ++k) mine.push_back(durations.Between(0, 1000));
    s.AddWriter("w" + std::to_string(w), [&s, &wakes, &late, mine] {
      for (int64_t d : mine) {
        const int64_t due = s.now_micros() + d;
        s.SleepUntil(due);
        late += s.now_micros() != due;
        wakes.push_back(s.now_micros());
      }
    });
  }
  ASSERT_TRUE(s.Run().ok());
  EXPECT_EQ(late, 0);
  ASSERT_EQ(wakes.size(), 64u * 50u);
  EXPECT_TRUE(std::is_sorted(wakes.begin(), wakes.end()));
}

TEST(SchedulerTest, WithoutRecordingTheRunIsTheSameButNoScheduleIsKept) {
  auto run = [](bool record, std::vector<int>* order) {
    Scheduler s(MakeRandomStrategy(), 3);
    s.set_record_schedule(record);
    for (int w = 0; w < 5; ++w)
      s.AddWriter("w" + std::to_string(w), [&s, order, w] {
        for (int k = 0; k < 4; ++k) {
          order->push_back(w);
          s.SleepUntil(s.now_micros() + 10 * (w + 1));
        }
      });
    EXPECT_TRUE(s.Run().ok());
    return std::make_pair(s.steps(), s.schedule().steps());
  };
  std::vector<int> recorded, unrecorded;
  const auto [steps_on, kept_on] = run(true, &recorded);
  const auto [steps_off, kept_off] = run(false, &unrecorded);
  EXPECT_EQ(recorded, unrecorded);
  EXPECT_EQ(steps_on, steps_off);
  EXPECT_EQ(kept_on, steps_on);
  EXPECT_EQ(kept_off, 0);
}

TEST(SchedulerTest, SleepOutsideARunOnlyMovesTheClock) {
  Scheduler s(MakeRandomStrategy(), 1);
  s.Yield();
  s.SleepUntil(30);
  s.SleepUntil(10);
  EXPECT_EQ(s.now_micros(), 30);
  EXPECT_EQ(s.steps(), 0);
}

// --- blocking -----------------------------------------------------------------------------------

TEST(SchedulerTest, ABlockedWriterWaitsWithoutStepsUntilUnblockedAndTheClockMoves) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(seed);
    Scheduler s(MakeRandomStrategy(), seed);
    std::vector<std::string> order;
    const int waiter = s.AddWriter("waiter", [&] {
      order.push_back("wait");
      EXPECT_TRUE(s.Block().ok());
      order.push_back("resumed at " + std::to_string(s.now_micros()));
    });
    s.AddWriter("sleeper", [&] {
      s.SleepUntil(5000);  // the waiter must not hold the clock at 0
      order.push_back("unblock");
      EXPECT_TRUE(s.blocked(waiter));  // it ran at time 0, before the clock could move
      s.Unblock(waiter);
      EXPECT_FALSE(s.blocked(waiter));
    });
    ASSERT_TRUE(s.Run().ok());
    // Whoever starts first, the waiter resumes only after the unblock, at the sleeper's time.
    EXPECT_EQ(order, (std::vector<std::string>{"wait", "unblock", "resumed at 5000"}));
    // No spinning: each writer starts once, the sleeper wakes once, the waiter resumes once.
    EXPECT_EQ(s.steps(), 4);
  }
}

TEST(SchedulerTest, UnblockingAWriterThatIsNotBlockedDoesNothing) {
  Scheduler s(MakeRoundRobinStrategy(), 1);
  int ran = 0;
  s.AddWriter("a", [&] {
    s.Unblock(1);
    s.Unblock(7);  // no such writer
    ++ran;
  });
  s.AddWriter("b", [&] { ++ran; });
  ASSERT_TRUE(s.Run().ok());
  EXPECT_EQ(ran, 2);
  EXPECT_EQ(s.ScheduleString(), "sched1:2w:2s:ab");
}

TEST(SchedulerTest, WhenEveryUnfinishedWriterIsBlockedRunReportsTheDeadlockNamingThem) {
  Scheduler s(MakeRandomStrategy(), 9);
  std::vector<Status> seen(3);
  s.AddWriter("job-1", [&] { seen[0] = s.Block(); });
  s.AddWriter("job-2", [&] { seen[1] = s.Block(); });
  s.AddWriter("free", [&] { s.SleepUntil(100); });  // sleeping is not blocked: no deadlock yet
  const Status run = s.Run();
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.code(), Code::kInvalidArgument);
  EXPECT_THAT(run.message(), StartsWith("deadlock: "));
  EXPECT_THAT(run.message(), HasSubstr("job-1, job-2"));
  EXPECT_THAT(run.message(), Not(HasSubstr("free")));
  // Both blocked writers were released with the error, so their fibers ended cleanly.
  EXPECT_EQ(seen[0].message(), run.message());
  EXPECT_EQ(seen[1].message(), run.message());
  EXPECT_EQ(s.now_micros(), 100);  // the deadlock came once the sleeper had finished
}

TEST(SchedulerTest, BlockAfterADeadlockAndOutsideAWriterFailsAtOnce) {
  Scheduler s(MakeRoundRobinStrategy(), 1);
  EXPECT_EQ(s.Block().code(), Code::kInvalidArgument);
  Status first, second;
  s.AddWriter("alone", [&] {
    first = s.Block();
    second = s.Block();
  });
  const Status run = s.Run();
  EXPECT_THAT(run.message(), HasSubstr("deadlock: every unfinished writer is blocked waiting for another: alone"));
  EXPECT_EQ(first.message(), run.message());
  EXPECT_EQ(second.message(), run.message());
}

TEST(SchedulerTest, ARunWithBlockingReplaysFromItsScheduleString) {
  // A chain of hand-offs: each writer waits for the one before it, then unblocks the next.
  auto run = [](std::unique_ptr<Strategy> strategy, std::vector<std::string>* log) {
    Scheduler s(std::move(strategy), 4);
    std::vector<bool> done(4, false);
    std::vector<bool> waiting(4, false);
    for (int w = 0; w < 4; ++w) {
      s.AddWriter("w" + std::to_string(w), [&, w] {
        while (w > 0 && !done[static_cast<size_t>(w - 1)]) {
          waiting[static_cast<size_t>(w)] = true;
          EXPECT_TRUE(s.Block().ok());
        }
        s.SleepUntil(s.now_micros() + static_cast<int64_t>(s.rng().Below(3)) * 1000);
        log->push_back(std::string(s.current_name()) + "@" + std::to_string(s.now_micros()));
        done[static_cast<size_t>(w)] = true;
        if (w < 3 && waiting[static_cast<size_t>(w + 1)]) s.Unblock(w + 1);
      });
    }
    EXPECT_TRUE(s.Run().ok());
    return s.ScheduleString();
  };
  std::vector<std::string> first, again;
  const std::string schedule = run(MakeRandomStrategy(), &first);
  ASSERT_EQ(first.size(), 4u);
  for (int w = 0; w < 4; ++w) EXPECT_THAT(first[static_cast<size_t>(w)], StartsWith("w" + std::to_string(w) + "@"));
  Result<std::unique_ptr<Strategy>> replay = MakeReplayStrategy(schedule);
  ASSERT_TRUE(replay.ok());
  EXPECT_EQ(run(std::move(*replay), &again), schedule);
  EXPECT_EQ(again, first);
}

// --- schedule strings -------------------------------------------------------------------------

TEST(ScheduleStringTest, FormatsRunsCompactly) {
  RecordedSchedule s{.writers = 60, .runs = {}};
  for (int w : {0, 1, 1, 1, 0, 0, 25, 26, 51, 52, 52, 59}) s.Append(w);
  EXPECT_EQ(FormatSchedule(s), "sched1:60w:12s:ab3a2zAZ{52}2{59}");
  Result<RecordedSchedule> back = ParseSchedule(FormatSchedule(s));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, s);
}

std::vector<ScheduleRun> Runs(const RecordedSchedule& s) {
  std::vector<ScheduleRun> out;
  for (ScheduleRun r : s.runs) out.push_back(r);
  return out;
}

TEST(ScheduleStringTest, RunsOfManyStepsAndHighWritersRoundTrip) {
  // Writers and counts past 127 take two varint bytes each; the last run is still open.
  RecordedSchedule s{.writers = 300, .runs = {}};
  for (int i = 0; i < 300; ++i) s.Append(200);
  s.Append(1);
  for (int i = 0; i < 129; ++i) s.Append(299);
  EXPECT_EQ(s.steps(), 430);
  EXPECT_EQ(s.runs.size(), 3u);
  EXPECT_EQ(Runs(s), (std::vector<ScheduleRun>{{200, 300}, {1, 1}, {299, 129}}));
  EXPECT_EQ(FormatSchedule(s), "sched1:300w:430s:{200}300b{299}129");
  Result<RecordedSchedule> back = ParseSchedule(FormatSchedule(s));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, s);
}

TEST(ScheduleStringTest, EmptyAndSingleRunSchedules) {
  Result<RecordedSchedule> empty = ParseSchedule("sched1:1w:0s:");
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_TRUE(empty->runs.empty());
  EXPECT_TRUE(empty->runs.begin() == empty->runs.end());
  EXPECT_EQ(FormatSchedule(*empty), "sched1:1w:0s:");
  Result<RecordedSchedule> one = ParseSchedule("sched1:1w:5s:a2a3");
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  EXPECT_EQ(Runs(*one), (std::vector<ScheduleRun>{{0, 5}}));
  EXPECT_EQ(FormatSchedule(*one), "sched1:1w:5s:a5");
}

TEST(ScheduleStringTest, ParsingIgnoresWhitespaceAndMergesRepeatedWriters) {
  Result<RecordedSchedule> s = ParseSchedule("  sched1:2w:7s:ab3\n  a a\tb ");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(FormatSchedule(*s), "sched1:2w:7s:ab3a2b");
}

TEST(ScheduleStringTest, RefusesMalformedStringsSayingWhatWasExpected) {
  struct Case {
    std::string_view text;
    std::string_view message;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"2w:7s:ab3a2b", "expected it to start with \"sched1:\""},
           {"sched1:xw:1s:a", "expected the writer count as \"<W>w:\""},
           {"sched1:2w:s:a", "expected the step count as \"<S>s:\""},
           {"sched1:2w:3s:a!b", "unexpected '!' at offset 14: expected a writer (a-z, A-Z or {N})"},
           {"sched1:2w:3s:a{1", "expected \"{<writer index>}\" at offset 14"},
           {"sched1:2w:3s:ac2", "step 1 names writer c (#2), but the header says 2 writers"},
           {"sched1:2w:3s:a0b2", "bad repeat count after writer a"},
           {"sched1:2w:9s:ab3a2b", "it lists 7 steps but its header says 9: was it cut short when copied?"},
       }) {
    Result<RecordedSchedule> s = ParseSchedule(c.text);
    ASSERT_FALSE(s.ok()) << c.text;
    EXPECT_EQ(s.status().code(), Code::kInvalidArgument);
    EXPECT_THAT(s.status().message(), HasSubstr(c.message)) << c.text;
    EXPECT_THAT(s.status().message(), StartsWith("schedule string \""));
  }
}

// --- strategy specs ---------------------------------------------------------------------------

TEST(StrategySpecTest, ParsesEverySpecToItsCanonicalForm) {
  EXPECT_EQ(Make("random")->Describe(), "random");
  EXPECT_EQ(Make("round-robin")->Describe(), "round-robin");
  EXPECT_EQ(Make("pct")->Describe(), "pct:depth=3,k=200");
  EXPECT_EQ(Make("pct:depth=1")->Describe(), "pct:depth=1,k=200");
  EXPECT_EQ(Make("pct:k=50,depth=2")->Describe(), "pct:depth=2,k=50");
  EXPECT_EQ(Make("replay:sched1:2w:3s:a b2")->Describe(), "replay:sched1:2w:3s:ab2");
}

TEST(StrategySpecTest, ErrorsNameTheSpecAndWhatWasExpected) {
  struct Case {
    std::string_view spec;
    std::string_view message;
  };
  for (const Case& c : std::initializer_list<Case>{
           {"fifo",
            "unknown scheduling strategy \"fifo\": expected random, round-robin, pct[:depth=D,k=K] or "
            "replay:SCHEDULE"},
           {"pct:depth=0", "strategy \"pct:depth=0\": depth must be an integer from 1 to 64, got \"0\""},
           {"pct:depth=3x", "strategy \"pct:depth=3x\": depth must be an integer from 1 to 64, got \"3x\""},
           {"pct:k=", "strategy \"pct:k=\": k must be an integer from 1 to"},
           {"pct:steps=9", "strategy \"pct:steps=9\": unknown parameter \"steps=9\"; expected depth=D or k=K"},
           {"replay:ab", "strategy replay: schedule string \"ab\": expected it to start with \"sched1:\""},
       }) {
    Result<std::unique_ptr<Strategy>> s = MakeStrategy(c.spec);
    ASSERT_FALSE(s.ok()) << c.spec;
    EXPECT_EQ(s.status().code(), Code::kInvalidArgument);
    EXPECT_THAT(s.status().message(), StartsWith(std::string(c.message))) << c.spec;
  }
}

TEST(StrategySpecTest, PctReportsItsDrawnSettings) {
  std::unique_ptr<Strategy> pct = MakePctStrategy(3, 100);
  const std::vector<std::string> names = {"job-A", "job-B"};
  ASSERT_TRUE(pct->Start(names, 12345).ok());
  const std::string settings = pct->DrawnSettings();
  EXPECT_THAT(settings, testing::MatchesRegex("priorities=job-A:[34],job-B:[34] change-points=[0-9]+,[0-9]+"));
  // Same draw, same settings.
  ASSERT_TRUE(pct->Start(names, 12345).ok());
  EXPECT_EQ(pct->DrawnSettings(), settings);
}

}  // namespace
}  // namespace commitlab::sim
