// The retry-policy sweep: hand-checkable runs of Brooker's experiment, aggregation, and seeds that
// do not depend on the thread count. What the sweep's files say is tested in labs/report/tests/.
#include "commitlab/sim/sweep.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace commitlab::sim {

// For gtest's failure messages (found by ADL).
void PrintTo(const SweepRow& r, std::ostream* os) {
  *os << fmt::format(
      "{{N={} {} runs={} calls={} completion={} finish={} p50={} p99={} ok={} gave_up={}/{} rate={} "
      "attempts={}}}",
      r.writers, r.policy, r.runs, r.mean_calls, r.mean_completion_ms, r.mean_finish_ms, r.p50_latency_ms,
      r.p99_latency_ms, r.mean_commits_ok, r.mean_gave_up, r.gave_up_total, r.commits_per_s, r.attempts_per_commit);
}

namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Every hop of a read and a publish takes exactly 10 ms: a commit without contention takes 40 ms.
LatencyModel ConstantHops() { return *ParseLatencyModel("read-latest=const:10;publish=const:10"); }

RetryPolicy Policy(std::string_view spec) {
  Result<RetryPolicy> p = ParseRetryPolicy(spec);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? *p : RetryPolicy{};
}

std::vector<int64_t> Sorted(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// ---- Percentile and list parsing -----------------------------------------------------------

TEST(PercentileTest, NearestRank) {
  std::vector<int64_t> hundred;
  for (int64_t i = 1; i <= 100; ++i) hundred.push_back(i);
  EXPECT_EQ(Percentile(hundred, 50), 50);
  EXPECT_EQ(Percentile(hundred, 99), 99);
  EXPECT_EQ(Percentile(hundred, 100), 100);
  EXPECT_EQ(Percentile(hundred, 0), 1);  // rank clamped to 1

  const std::vector<int64_t> four = {10, 20, 30, 40};
  EXPECT_EQ(Percentile(four, 50), 20);  // rank ceil(2.0) = 2
  EXPECT_EQ(Percentile(four, 75), 30);
  EXPECT_EQ(Percentile(four, 76), 40);  // rank ceil(3.04) = 4
  EXPECT_EQ(Percentile(four, 99), 40);
  EXPECT_EQ(Percentile(std::vector<int64_t>{7}, 99), 7);
  EXPECT_EQ(Percentile(std::vector<int64_t>{}, 50), 0);
}

TEST(ParseIntListTest, RangesAndLists) {
  Result<std::vector<int>> brooker = ParseIntList("10..190:10", 1, 1000);
  ASSERT_TRUE(brooker.ok()) << brooker.status().ToString();
  EXPECT_EQ(brooker->size(), 19u);
  EXPECT_EQ(brooker->front(), 10);
  EXPECT_EQ(brooker->back(), 190);
  EXPECT_THAT(*ParseIntList("2,4,8", 1, 1000), ElementsAre(2, 4, 8));
  EXPECT_THAT(*ParseIntList("1..3,10", 1, 1000), ElementsAre(1, 2, 3, 10));
  EXPECT_THAT(*ParseIntList("5..12:5", 1, 1000), ElementsAre(5, 10));
}

TEST(ParseIntListTest, RejectsBadPieces) {
  for (const char* bad : {"", "a", "5..1", "1..5:0", "3,2", "2,2", "0", "1..2000", "1..", "..5", "1,,2"}) {
    Result<std::vector<int>> r = ParseIntList(bad, 1, 1000);
    EXPECT_FALSE(r.ok()) << bad;
  }
  EXPECT_THAT(ParseIntList("1..2000", 1, 1000).status().message(), HasSubstr("out of range 1..1000"));
}

TEST(ParsePolicyListTest, NamesAndFullSpecs) {
  Result<std::vector<RetryPolicy>> ps = ParsePolicyList("none,exponential:base=5ms,cap=1s,full-jitter");
  ASSERT_TRUE(ps.ok()) << ps.status().ToString();
  ASSERT_EQ(ps->size(), 3u);
  EXPECT_EQ((*ps)[0].kind, RetryKind::kNone);
  EXPECT_EQ((*ps)[1].kind, RetryKind::kExponential);
  EXPECT_EQ((*ps)[1].cap_micros, 1'000'000);
  EXPECT_EQ((*ps)[2].kind, RetryKind::kFullJitter);
}

TEST(ParsePolicyListTest, RejectsUnknownEmptyAndRepeated) {
  EXPECT_FALSE(ParsePolicyList("none,bogus").ok());
  EXPECT_THAT(ParsePolicyList("none,,full-jitter").status().message(), HasSubstr("empty policy"));
  EXPECT_THAT(ParsePolicyList("none,none").status().message(), HasSubstr("given twice"));
  EXPECT_FALSE(ParsePolicyList("").ok());
}

TEST(SweepPoliciesTest, BrookersFiveThenTheFormatsDefaults) {
  std::vector<std::string> names;
  for (const RetryPolicy& p : DefaultSweepPolicies()) names.push_back(FormatRetryPolicy(p));
  EXPECT_THAT(names,
              ElementsAre("none", "exponential", "equal-jitter", "full-jitter", "decorrelated", "paimon", "iceberg"));
  for (const RetryPolicy& p : DefaultSweepPolicies()) {
    if (p.kind == RetryKind::kPaimon || p.kind == RetryKind::kIceberg) continue;
    EXPECT_EQ(p.max_retries, -1) << FormatRetryPolicy(p);  // Brooker's clients retry until they succeed
    if (p.kind != RetryKind::kNone) {
      EXPECT_EQ(p.base_micros, 5'000);
    }
  }
}

TEST(SweepPoliciesTest, FirstWaitOfPlainExponentialIsTenMilliseconds) {
  // The committer asks with failures = retry + 1, so the first wait uses attempt 1: 5 ms * 2^1.
  Rng rng(1);
  EXPECT_EQ(NextWaitMicros(DefaultRetryPolicy(RetryKind::kExponential), 1, 0, rng), 10'000);
}

// ---- One Brooker run, by hand --------------------------------------------------------------

TEST(BrookerRunTest, OneWriterMakesOneCallAndTakesFourHops) {
  RunOutcome r = RunBrookerOnce(1, DefaultRetryPolicy(RetryKind::kExponential), 7, ConstantHops());
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.calls, 1);
  EXPECT_EQ(r.commits_ok, 1);
  EXPECT_EQ(r.gave_up, 0);
  EXPECT_EQ(r.completion_micros, 40'000);
  EXPECT_THAT(r.latencies_micros, ElementsAre(40'000));
}

TEST(BrookerRunTest, OneWriterUnderBrookersLatencyTakesItsFourDrawnHops) {
  const LatencyModel brooker = *ParseLatencyModel(kBrookerLatencySpec);
  RunOutcome r = RunBrookerOnce(1, DefaultRetryPolicy(RetryKind::kNone), 7, brooker);
  EXPECT_EQ(r.calls, 1);
  ASSERT_THAT(r.latencies_micros, ElementsAre(r.completion_micros));
  // Four hops of |Normal(10, 2)| ms: far outside 4 x [2, 18] ms would mean a hop too many or few.
  EXPECT_GT(r.completion_micros, 8'000);
  EXPECT_LT(r.completion_micros, 72'000);
}

TEST(BrookerRunTest, WithoutBackoffTheLoserNeedsExactlyOneMoreRound) {
  // Both publish requests arrive at 30 ms; one wins (response at 40 ms), the other fails at 40 ms,
  // re-reads at once and lands one round (40 ms) later.
  RunOutcome r = RunBrookerOnce(2, DefaultRetryPolicy(RetryKind::kNone), 7, ConstantHops());
  EXPECT_EQ(r.calls, 3);
  EXPECT_EQ(r.commits_ok, 2);
  EXPECT_EQ(r.completion_micros, 80'000);
  EXPECT_THAT(Sorted(r.latencies_micros), ElementsAre(40'000, 80'000));
}

TEST(BrookerRunTest, ExponentialWaitsTenMillisecondsBeforeTheRetrysReadRequest) {
  RunOutcome r = RunBrookerOnce(2, DefaultRetryPolicy(RetryKind::kExponential), 7, ConstantHops());
  EXPECT_EQ(r.calls, 3);
  EXPECT_EQ(r.completion_micros, 90'000);  // 40 + 10 + 40
}

TEST(BrookerRunTest, DecorrelatedFirstWaitIsBetweenBaseAndThreeBases) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    RunOutcome r = RunBrookerOnce(2, DefaultRetryPolicy(RetryKind::kDecorrelated), seed, ConstantHops());
    EXPECT_EQ(r.calls, 3);
    EXPECT_GE(r.completion_micros, 85'000) << seed;  // 40 + U[5, 15] ms + 40
    EXPECT_LE(r.completion_micros, 95'000) << seed;
  }
}

TEST(BrookerRunTest, WritersThatExhaustTheirRetriesGiveUpAndAreCounted) {
  // No retries at all: of three writers publishing at 30 ms, one lands and two give up at 40 ms.
  RunOutcome r = RunBrookerOnce(3, Policy("iceberg:retries=0"), 7, ConstantHops());
  EXPECT_EQ(r.calls, 3);
  EXPECT_EQ(r.commits_ok, 1);
  EXPECT_EQ(r.gave_up, 2);
  EXPECT_EQ(r.completion_micros, 40'000);
  EXPECT_EQ(r.finish_micros, 40'000);
  EXPECT_THAT(r.latencies_micros, ElementsAre(40'000));  // give-ups have no latency sample
}

// The sweep's Brooker runs go through RunBrookerLoop, an event loop that must reproduce Paimon's
// committer on fibers (RunBrookerThroughCommitter) draw for draw: every field of every run equal,
// the order of the latencies included. Latency models with ties (constant hops), with zero
// latency (every sleep a yield, every step a draw among several ready writers) and with drawn
// manifest hops; policies that give up by retry count and by total timeout.
TEST(BrookerLoopTest, EveryRunEqualsTheRunThroughTheCommitter) {
  const std::vector<LatencyModel> latencies = {
      *ParseLatencyModel(kBrookerLatencySpec), ConstantHops(), *ParseLatencyModel(kLectureLatencySpec),
      *ParseLatencyModel("read-latest=const:0;publish=const:0"),
      *ParseLatencyModel("read-latest=exponential:3;write-manifest=uniform:0,2;publish=normal:1,4")};
  std::vector<RetryPolicy> policies = DefaultSweepPolicies();
  for (std::string_view spec :
       {"iceberg:retries=0", "iceberg:timeout=60ms", "paimon:base=1ms,cap=4ms,retries=3", "fixed:base=3ms,retries=2",
        "exponential:base=1ms,cap=20ms", "full-jitter:base=100us,cap=1ms"})
    policies.push_back(Policy(spec));
  int runs = 0;
  for (size_t l = 0; l < latencies.size(); ++l) {
    for (int writers : {1, 2, 3, 7, 20, 64}) {
      for (const RetryPolicy& policy : policies) {
        for (uint64_t seed = 1; seed <= 3; ++seed) {
          const RunOutcome want = RunBrookerThroughCommitter(writers, policy, seed, latencies[l]);
          const RunOutcome got = RunBrookerLoop(writers, policy, seed, latencies[l]);
          const std::string where =
              fmt::format("latency {} N={} {} seed {}", l, writers, FormatRetryPolicy(policy), seed);
          ASSERT_TRUE(want.status.ok()) << where << ": " << want.status.ToString();
          ASSERT_TRUE(got.status.ok()) << where << ": " << got.status.ToString();
          ASSERT_EQ(got.calls, want.calls) << where;
          ASSERT_EQ(got.commits_ok, want.commits_ok) << where;
          ASSERT_EQ(got.gave_up, want.gave_up) << where;
          ASSERT_EQ(got.completion_micros, want.completion_micros) << where;
          ASSERT_EQ(got.finish_micros, want.finish_micros) << where;
          ASSERT_EQ(got.latencies_micros, want.latencies_micros) << where;
          ASSERT_EQ(got.throttled, want.throttled) << where;
          ++runs;
        }
      }
    }
  }
  EXPECT_EQ(runs, 5 * 6 * 13 * 3);
}

// A wait of 50 million days puts the loser's clock past what the loop's packed heap holds
// (PackedWakeQueue::fits): the run goes through the committer instead, with the same outcome.
TEST(BrookerLoopTest, AClockPastThePackedHeapStillEqualsTheCommitter) {
  const RetryPolicy policy = Policy("fixed:base=50000000d,retries=1");
  for (int writers : {2, 3}) {
    const RunOutcome want = RunBrookerThroughCommitter(writers, policy, 5, ConstantHops());
    const RunOutcome got = RunBrookerLoop(writers, policy, 5, ConstantHops());
    ASSERT_TRUE(got.status.ok()) << got.status.ToString();
    EXPECT_GT(got.finish_micros, int64_t{1} << 61) << writers;
    EXPECT_EQ(got.calls, want.calls);
    EXPECT_EQ(got.commits_ok, want.commits_ok);
    EXPECT_EQ(got.gave_up, want.gave_up);
    EXPECT_EQ(got.finish_micros, want.finish_micros);
    EXPECT_EQ(got.latencies_micros, want.latencies_micros);
  }
}

// Both give up by the total timeout and by the retry count somewhere in the comparison above.
TEST(BrookerLoopTest, TheComparedPoliciesGiveUpBothWays) {
  const LatencyModel hops = ConstantHops();
  EXPECT_GT(RunBrookerLoop(20, Policy("iceberg:timeout=60ms"), 1, hops).gave_up, 0);
  EXPECT_GT(RunBrookerLoop(20, Policy("fixed:base=3ms,retries=2"), 1, hops).gave_up, 0);
  EXPECT_EQ(RunBrookerLoop(20, DefaultRetryPolicy(RetryKind::kNone), 1, hops).gave_up, 0);
}

TEST(AppendersRunTest, EveryCommitLandsUnderUnlimitedRetries) {
  RunOutcome r =
      RunAppendersOnce(4, 5, DefaultRetryPolicy(RetryKind::kFullJitter), 3, *ParseLatencyModel(kLectureLatencySpec));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.commits_ok, 20);
  EXPECT_EQ(r.gave_up, 0);
  EXPECT_GE(r.calls, 20);
  EXPECT_EQ(r.latencies_micros.size(), 20u);
  EXPECT_GE(r.finish_micros, r.completion_micros);
}

TEST(AppendersRunTest, EveryProtocolLandsEveryCommitUnderUnlimitedRetries) {
  const LatencyModel lecture = *ParseLatencyModel(kLectureLatencySpec);
  for (Protocol p : {Protocol::kPaimon, Protocol::kIceberg, Protocol::kDelta}) {
    RunOutcome r = RunAppendersOnce(4, 5, DefaultRetryPolicy(RetryKind::kFullJitter), 3, lecture, p);
    ASSERT_TRUE(r.status.ok()) << ProtocolName(p) << ": " << r.status.ToString();
    EXPECT_EQ(r.commits_ok, 20) << ProtocolName(p);
    EXPECT_EQ(r.gave_up, 0) << ProtocolName(p);
    EXPECT_GT(r.calls, 20) << ProtocolName(p) << ": four writers at once must lose some publishes";
    EXPECT_EQ(r.latencies_micros.size(), 20u) << ProtocolName(p);
  }
}

TEST(AppendersRunTest, AloneEachProtocolPublishesOncePerCommit) {
  const LatencyModel lecture = *ParseLatencyModel(kLectureLatencySpec);
  for (Protocol p : {Protocol::kPaimon, Protocol::kIceberg, Protocol::kDelta}) {
    RunOutcome r = RunAppendersOnce(1, 6, DefaultRetryPolicy(RetryKind::kNone), 3, lecture, p);
    EXPECT_EQ(r.calls, 6) << ProtocolName(p);
    EXPECT_EQ(r.commits_ok, 6) << ProtocolName(p);
  }
}

TEST(AppendersRunTest, EveryProtocolGivesUpAtTheRetryLimit) {
  // Eight writers with no retries: the first publish of each version wins, the others give up.
  const LatencyModel lecture = *ParseLatencyModel(kLectureLatencySpec);
  for (Protocol p : {Protocol::kPaimon, Protocol::kIceberg, Protocol::kDelta}) {
    RunOutcome r = RunAppendersOnce(8, 3, Policy("full-jitter:retries=0"), 5, lecture, p);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_GT(r.gave_up, 0) << ProtocolName(p);
    EXPECT_EQ(r.calls, r.commits_ok + r.gave_up) << ProtocolName(p) << ": one attempt per commit, no more";
  }
}

// ---- A store of limited capacity -----------------------------------------------------------

TEST(CapacityTest, EveryCallIsAnsweredOnlyAfterItsServiceEnds) {
  // 100 requests/s: 10 ms of service each. One writer: the read is served 10..20 ms (response at
  // 30), the zero-latency manifest write 30..40, the publish arrives at 50 and is served 50..60;
  // its response arrives at 70 ms, against 40 ms with no limit.
  RunOutcome r = RunBrookerOnce(1, DefaultRetryPolicy(RetryKind::kNone), 7, ConstantHops(),
                                StoreCapacity{.requests_per_s = 100, .queue = 8});
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.calls, 1);
  EXPECT_EQ(r.completion_micros, 70'000);
  EXPECT_EQ(r.throttled, 0);
}

TEST(CapacityTest, QueuedRequestsWaitForThoseAheadOfThem) {
  // Two writers' reads arrive together at 10 ms: A's is served 10..20, B's waits and is served
  // 20..30. A: manifest 30..40, publish arrives at 50, served 50..60, answered at 70 (as alone).
  // B: manifest 40..50, publish arrives at 60, served 60..70 and loses, answered at 80; at once a
  // read (served 90..100, answered 110), a manifest (110..120), a publish served 130..140: 150 ms.
  RunOutcome r = RunBrookerOnce(2, DefaultRetryPolicy(RetryKind::kNone), 7, ConstantHops(),
                                StoreCapacity{.requests_per_s = 100, .queue = 8});
  EXPECT_THAT(Sorted(r.latencies_micros), ElementsAre(70'000, 150'000));
  EXPECT_EQ(r.calls, 3);
  EXPECT_EQ(r.throttled, 0);
}

TEST(CapacityTest, AFullQueueAnswersSlowDownAndTheClientSendsAgainWithoutFailing) {
  // No queue at all: of ten reads arriving together, one is served and nine get 503 SlowDown; the
  // SDK waits and sends them again, so every writer still commits.
  RunOutcome r = RunBrookerOnce(10, DefaultRetryPolicy(RetryKind::kFullJitter), 7, ConstantHops(),
                                StoreCapacity{.requests_per_s = 1000, .queue = 0});
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_GE(r.throttled, 9);
  EXPECT_EQ(r.commits_ok, 10);
  EXPECT_EQ(r.gave_up, 0);
}

TEST(CapacityTest, AnUnlimitedStoreIsTheDefaultRunExactly) {
  const LatencyModel brooker = *ParseLatencyModel(kBrookerLatencySpec);
  RunOutcome a = RunBrookerOnce(20, DefaultRetryPolicy(RetryKind::kFullJitter), 9, brooker);
  RunOutcome b = RunBrookerOnce(20, DefaultRetryPolicy(RetryKind::kFullJitter), 9, brooker, StoreCapacity{});
  EXPECT_EQ(a.calls, b.calls);
  EXPECT_EQ(a.latencies_micros, b.latencies_micros);
  EXPECT_EQ(b.throttled, 0);
}

TEST(CapacityTest, WithoutBackoffALimitedStoreSlowsEveryoneDown) {
  const LatencyModel brooker = *ParseLatencyModel(kBrookerLatencySpec);
  RunOutcome free = RunBrookerOnce(40, DefaultRetryPolicy(RetryKind::kNone), 9, brooker);
  RunOutcome tight = RunBrookerOnce(40, DefaultRetryPolicy(RetryKind::kNone), 9, brooker,
                                    StoreCapacity{.requests_per_s = 300, .queue = 16});
  EXPECT_GT(tight.completion_micros, 2 * free.completion_micros);
  EXPECT_GT(tight.throttled, 0);
}

// ---- Aggregation and seeds -----------------------------------------------------------------

TEST(AggregateTest, MeansPooledPercentilesAndGiveUps) {
  std::vector<RunOutcome> runs(2);
  runs[0] = {.calls = 3,
             .commits_ok = 2,
             .gave_up = 0,
             .completion_micros = 80'000,
             .finish_micros = 80'000,
             .latencies_micros = {40'000, 80'000}};
  runs[1] = {.calls = 5,
             .commits_ok = 1,
             .gave_up = 1,
             .completion_micros = 40'000,
             .finish_micros = 120'000,
             .latencies_micros = {40'000}};
  SweepRow row = Aggregate(2, DefaultRetryPolicy(RetryKind::kNone), runs);
  EXPECT_EQ(row.writers, 2);
  EXPECT_EQ(row.policy, "none");
  EXPECT_EQ(row.runs, 2);
  EXPECT_DOUBLE_EQ(row.mean_calls, 4.0);
  EXPECT_DOUBLE_EQ(row.mean_completion_ms, 60.0);
  EXPECT_DOUBLE_EQ(row.mean_finish_ms, 100.0);
  EXPECT_DOUBLE_EQ(row.p50_latency_ms, 40.0);  // pooled {40, 40, 80}: rank 2
  EXPECT_DOUBLE_EQ(row.p99_latency_ms, 80.0);
  EXPECT_DOUBLE_EQ(row.mean_gave_up, 0.5);
  EXPECT_EQ(row.gave_up_total, 1);
  EXPECT_DOUBLE_EQ(row.mean_commits_ok, 1.5);
  EXPECT_DOUBLE_EQ(row.attempts_per_commit, 8.0 / 3.0);
  EXPECT_DOUBLE_EQ(row.commits_per_s, 3.0 / 0.2);  // 3 commits over 200 ms of runs
  EXPECT_DOUBLE_EQ(row.gave_up_pct, 25.0);         // 1 of 2 x 2 writers
  EXPECT_DOUBLE_EQ(row.mean_latency_ms, 160.0 / 3);
  // Nearest rank over two runs: p10 is the lower, p90 the higher.
  EXPECT_EQ(row.calls_spread, (Spread{3, 5}));
  EXPECT_EQ(row.completion_ms_spread, (Spread{40, 80}));
  EXPECT_EQ(row.commits_per_s_spread, (Spread{1 / 0.12, 2 / 0.08}));
  EXPECT_EQ(row.attempts_per_commit_spread, (Spread{1.5, 5}));
  EXPECT_EQ(row.p99_latency_ms_spread, (Spread{40, 80}));
  EXPECT_EQ(row.latency_ms_spread, (Spread{40, 60}));
}

TEST(RunSeedTest, DependsOnEveryLabelAndNothingElse) {
  const RetryPolicy full = DefaultRetryPolicy(RetryKind::kFullJitter);
  const RetryPolicy none = DefaultRetryPolicy(RetryKind::kNone);
  const uint64_t s = RunSeed(1, Experiment::kBrooker, 10, full, 0);
  EXPECT_EQ(s, RunSeed(1, Experiment::kBrooker, 10, full, 0));
  EXPECT_NE(s, RunSeed(2, Experiment::kBrooker, 10, full, 0));
  EXPECT_NE(s, RunSeed(1, Experiment::kFormats, 10, full, 0));
  EXPECT_NE(s, RunSeed(1, Experiment::kBrooker, 20, full, 0));
  EXPECT_NE(s, RunSeed(1, Experiment::kBrooker, 10, none, 0));
  EXPECT_NE(s, RunSeed(1, Experiment::kBrooker, 10, full, 1));
}

SweepConfig TinyConfig(Experiment e, int threads) {
  SweepConfig c = DefaultSweepConfig(e);
  c.writer_counts = e == Experiment::kFormats ? std::vector<int>{2, 3} : std::vector<int>{3, 7};
  if (e == Experiment::kCapacity) c.capacities = {300, 0};
  c.policies = {DefaultRetryPolicy(RetryKind::kNone), DefaultRetryPolicy(RetryKind::kFullJitter),
                PaimonDefaultPolicy()};
  c.runs = 4;
  c.commits = 3;
  c.seed = 11;
  c.threads = threads;
  return c;
}

TEST(RunSweepTest, RowsDoNotDependOnTheThreadCount) {
  for (Experiment e : {Experiment::kBrooker, Experiment::kCapacity, Experiment::kFormats}) {
    SweepResult one = RunSweep(TinyConfig(e, 1));
    SweepResult two = RunSweep(TinyConfig(e, 2));
    ASSERT_TRUE(one.status.ok()) << one.status.ToString();
    EXPECT_EQ(one.rows, two.rows) << ExperimentName(e);
  }
}

TEST(RunSweepTest, OneRowPerNAndPolicyInOrderAndProgressCountsEveryRun) {
  SweepConfig c = TinyConfig(Experiment::kBrooker, 2);
  int64_t calls = 0, last = 0, total = 0;
  c.progress = [&](int64_t done, int64_t all) {
    ++calls;
    last = done;
    total = all;
  };
  SweepResult r = RunSweep(c);
  ASSERT_EQ(r.rows.size(), 6u);
  EXPECT_EQ(r.rows[0].writers, 3);
  EXPECT_EQ(r.rows[0].policy, "none");
  EXPECT_EQ(r.rows[2].policy, "paimon");
  EXPECT_EQ(r.rows[5].writers, 7);
  EXPECT_EQ(calls, 24);
  EXPECT_EQ(last, 24);
  EXPECT_EQ(total, 24);
  for (const SweepRow& row : r.rows) {
    EXPECT_EQ(row.runs, 4);
    EXPECT_GE(row.mean_calls, row.writers);  // every writer publishes at least once
  }
}

TEST(RunSweepTest, FormatsRowsGoByAppendersThenProtocolThenPolicy) {
  SweepResult r = RunSweep(TinyConfig(Experiment::kFormats, 2));
  ASSERT_EQ(r.rows.size(), 2u * 3 * 3);
  EXPECT_EQ(r.rows[0].protocol, "paimon");
  EXPECT_EQ(r.rows[3].protocol, "iceberg");
  EXPECT_EQ(r.rows[6].protocol, "delta");
  EXPECT_EQ(r.rows[7].policy, "full-jitter");
  EXPECT_EQ(r.rows[9].writers, 3);
  // Brooker's runs are Paimon's whatever the protocol list says.
  SweepConfig b = TinyConfig(Experiment::kBrooker, 2);
  b.protocols = {Protocol::kDelta};
  for (const SweepRow& row : RunSweep(b).rows) EXPECT_EQ(row.protocol, "paimon");
}

TEST(RunSweepTest, CapacityRowsGoByCapacityAndShareTheirSeeds) {
  SweepResult r = RunSweep(TinyConfig(Experiment::kCapacity, 2));
  ASSERT_EQ(r.rows.size(), 2u * 2 * 3);
  EXPECT_EQ(r.rows[0].capacity_rps, 300);
  EXPECT_EQ(r.rows[3].capacity_rps, 0);
  // Unlimited capacity is Brooker's experiment: the same rows, capacity aside.
  SweepConfig b = TinyConfig(Experiment::kBrooker, 2);
  b.experiment = Experiment::kCapacity;  // the same seeds
  SweepResult unlimited = RunSweep(b);
  EXPECT_EQ(unlimited.rows[0], r.rows[3]);
  EXPECT_GT(r.rows[0].mean_completion_ms, r.rows[3].mean_completion_ms);
}

TEST(ParseProtocolListTest, NamesOnceEach) {
  EXPECT_THAT(*ParseProtocolList("delta,paimon"), ElementsAre(Protocol::kDelta, Protocol::kPaimon));
  EXPECT_THAT(ParseProtocolList("paimon,hudi").status().message(),
              HasSubstr("piece \"hudi\" is not one of paimon, iceberg, delta"));
  EXPECT_THAT(ParseProtocolList("delta,delta").status().message(), HasSubstr("\"delta\" is given twice"));
  EXPECT_EQ(FormatCapacity({}), "unlimited");
  EXPECT_EQ(FormatCapacity({.requests_per_s = 500, .queue = 4}), "500 req/s, queue 4");
}

TEST(RunSweepTest, EachRowEqualsItsRunsRunAlone) {
  // A row's runs use their own seeds: the same whatever else the sweep holds.
  SweepConfig c = TinyConfig(Experiment::kBrooker, 2);
  SweepResult all = RunSweep(c);
  c.writer_counts = {7};
  c.policies = {DefaultRetryPolicy(RetryKind::kFullJitter)};
  SweepResult alone = RunSweep(c);
  ASSERT_EQ(alone.rows.size(), 1u);
  EXPECT_EQ(alone.rows[0], all.rows[4]);  // N = 7, full-jitter
}

}  // namespace
}  // namespace commitlab::sim
