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
  c.writer_counts = e == Experiment::kBrooker ? std::vector<int>{3, 7} : std::vector<int>{2, 3};
  c.policies = {DefaultRetryPolicy(RetryKind::kNone), DefaultRetryPolicy(RetryKind::kFullJitter),
                PaimonDefaultPolicy()};
  c.runs = 4;
  c.commits = 3;
  c.seed = 11;
  c.threads = threads;
  return c;
}

TEST(RunSweepTest, RowsDoNotDependOnTheThreadCount) {
  for (Experiment e : {Experiment::kBrooker, Experiment::kFormats}) {
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
