// The retry-policy sweep: hand-checkable runs of Brooker's experiment, aggregation, seeds that do
// not depend on the thread count, and the files it writes (TSV, SVG, summary).
#include "commitlab/sim/sweep.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "commitlab/sim/sweep_output.h"
#include "commitlab/sim/sweep_svg.h"

namespace commitlab::sim {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

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

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    out.push_back(text.substr(start, nl - start));
  return out;
}

size_t Fields(const std::string& line) { return static_cast<size_t>(std::count(line.begin(), line.end(), '\t')) + 1; }

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
    EXPECT_EQ(SweepTsv(one), SweepTsv(two)) << ExperimentName(e);
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
  EXPECT_EQ(Lines(SweepTsv(alone))[1], Lines(SweepTsv(all))[5]);
}

// ---- Outputs -------------------------------------------------------------------------------

TEST(SweepTsvTest, HeaderThenOneRowPerPoint) {
  for (Experiment e : {Experiment::kBrooker, Experiment::kFormats}) {
    SweepResult r = RunSweep(TinyConfig(e, 2));
    const std::vector<std::string> lines = Lines(SweepTsv(r));
    ASSERT_EQ(lines.size(), 1 + r.rows.size());
    EXPECT_EQ(lines[0], SweepTsvHeader(e));
    for (const std::string& line : lines) EXPECT_EQ(Fields(line), Fields(lines[0])) << line;
  }
  EXPECT_THAT(SweepTsvHeader(Experiment::kBrooker), HasSubstr("writers\tpolicy\truns\tmean_calls\tmean_completion_ms"));
  EXPECT_THAT(SweepTsvHeader(Experiment::kFormats), HasSubstr("commits_per_s\tattempts_per_commit"));
}

// Checks that every tag is closed in order (a tiny XML well-formedness check) and counts elements.
struct TagCount {
  bool balanced = true;
  std::string root = {};
  std::map<std::string, int> count = {};
};

TagCount ParseTags(const std::string& svg) {
  TagCount out;
  std::vector<std::string> open;
  for (size_t at = svg.find('<'); at != std::string::npos; at = svg.find('<', at + 1)) {
    const size_t end = svg.find('>', at);
    if (end == std::string::npos) return {.balanced = false};
    std::string tag = svg.substr(at + 1, end - at - 1);
    if (tag.empty() || tag[0] == '?' || tag[0] == '!') continue;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) out.balanced = false;
      if (!open.empty()) open.pop_back();
      continue;
    }
    const bool self_closing = tag.back() == '/';
    const std::string name = tag.substr(0, tag.find_first_of(" /"));
    if (out.root.empty()) out.root = name;
    ++out.count[name];
    if (!self_closing) open.push_back(name);
  }
  if (!open.empty()) out.balanced = false;
  return out;
}

TEST(SvgTest, WellFormedWithOneLinePerSeriesAndEscapedText) {
  LineChart chart{.title = "calls <&> \"quotes\"",
                  .x_label = "N",
                  .y_label = "calls",
                  .series = {{"none", {{10, 50}, {20, 200}, {30, 450}}}, {"a<b", {{10, 40}, {20, 90}, {30, 140}}}}};
  const std::string svg = RenderLineChartSvg(chart);
  const TagCount tags = ParseTags(svg);
  EXPECT_TRUE(tags.balanced) << svg;
  EXPECT_EQ(tags.root, "svg");
  EXPECT_EQ(tags.count.at("svg"), 1);
  EXPECT_EQ(tags.count.at("polyline"), 2);
  EXPECT_EQ(tags.count.at("circle"), 6);
  EXPECT_THAT(svg, HasSubstr("calls &lt;&amp;&gt; &quot;quotes&quot;"));
  EXPECT_THAT(svg, HasSubstr(">a&lt;b</text>"));
  EXPECT_THAT(svg, Not(HasSubstr("a<b")));
  EXPECT_THAT(svg, HasSubstr("xmlns=\"http://www.w3.org/2000/svg\""));
}

TEST(SvgTest, LogAxesLeaveOutNonPositivePointsAndEmptyChartsStillRender) {
  LineChart chart{.title = "t", .log_x = true, .log_y = true, .series = {{"s", {{0, 1}, {2, 10}, {4, 0}, {8, 1000}}}}};
  const std::string svg = RenderLineChartSvg(chart);
  EXPECT_TRUE(ParseTags(svg).balanced);
  EXPECT_EQ(ParseTags(svg).count.at("circle"), 2);
  EXPECT_THAT(svg, Not(HasSubstr("nan")));
  EXPECT_THAT(svg, Not(HasSubstr("inf")));

  const std::string empty = RenderLineChartSvg(LineChart{.title = "nothing"});
  EXPECT_TRUE(ParseTags(empty).balanced);
  EXPECT_THAT(empty, Not(HasSubstr("nan")));
}

// A Brooker result with rows chosen by hand.
SweepResult Synthetic(const std::vector<std::tuple<std::string, double, double>>& per_policy_calls_and_ms) {
  SweepResult r;
  r.config = DefaultSweepConfig(Experiment::kBrooker);
  r.config.writer_counts = {10, 50};
  r.config.policies.clear();
  for (const auto& [name, calls, ms] : per_policy_calls_and_ms) r.config.policies.push_back(Policy(name));
  for (int n : r.config.writer_counts) {
    for (const auto& [name, calls, ms] : per_policy_calls_and_ms) {
      // Scale with N so that "none" grows as N^2 when its calls are given as N^2/4 at N = 10.
      const double scale = name == "none" ? (n / 10.0) * (n / 10.0) : n / 10.0;
      r.rows.push_back(
          {.writers = n, .policy = name, .runs = 1, .mean_calls = calls * scale, .mean_completion_ms = ms * n / 10.0});
    }
  }
  return r;
}

TEST(SummaryTest, ReportsWinnersAndAgreementWithBrookersShape) {
  const SweepResult r = Synthetic({{"none", 25, 100},
                                   {"exponential", 30, 3000},
                                   {"equal-jitter", 12, 700},
                                   {"full-jitter", 11, 500},
                                   {"decorrelated", 14, 450}});
  const std::string md = SweepSummaryMarkdown(&r, nullptr);
  EXPECT_THAT(md, HasSubstr("### N = 10"));
  EXPECT_THAT(md, HasSubstr("### N = 50"));
  EXPECT_THAT(md, HasSubstr("Least work: **full-jitter**"));
  EXPECT_THAT(md, HasSubstr("Finished first: **none**"));
  EXPECT_THAT(md, HasSubstr("much more work than the jittered policies (here: 2.7x to 2.7x"));
  EXPECT_THAT(md, Not(HasSubstr("does not agree")));
  EXPECT_THAT(md, HasSubstr("calls grow as N^2.00 for N from 10 to 50"));
  EXPECT_THAT(md, HasSubstr("625 calls at N = 50, 1.00 x N^2/4): **agrees**"));
}

TEST(SummaryTest, SaysSoWhenTheDataDisagree) {
  // Exponential cheaper and faster than everything jittered: the opposite of Brooker's finding.
  const SweepResult r = Synthetic({{"none", 25, 100},
                                   {"exponential", 5, 200},
                                   {"equal-jitter", 12, 700},
                                   {"full-jitter", 11, 500},
                                   {"decorrelated", 14, 450}});
  const std::string md = SweepSummaryMarkdown(&r, nullptr);
  EXPECT_THAT(md, HasSubstr("Least work: **exponential**"));
  EXPECT_THAT(
      md,
      HasSubstr("jittered policies (here: 0.5x to 0.5x the calls of the cheapest jittered one): **does not agree**"));
  EXPECT_THAT(
      md,
      HasSubstr(
          "Full jitter does about the least work (within 10% of the fewest calls of the five): **does not agree**"));
}

TEST(SummaryTest, PoliciesWhoseWritersGaveUpAreNotRanked) {
  SweepResult r = Synthetic({{"none", 25, 100}, {"iceberg", 5, 10}});
  for (SweepRow& row : r.rows)
    if (row.policy == "iceberg") row.gave_up_total = 3, row.mean_gave_up = 3;
  const std::string md = SweepSummaryMarkdown(&r, nullptr);
  EXPECT_THAT(md, HasSubstr("Least work: **none**"));
  EXPECT_THAT(
      md, HasSubstr("Not ranked, because writers gave up at their retry limit: iceberg (3.0 of 10 writers per run)"));
  EXPECT_THAT(md, HasSubstr("Not checked"));
}

TEST(WriteSweepOutputsTest, WritesTsvPlotsAndSummary) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / fmt::format("commitlab-sweep-test-{}", getpid());
  std::filesystem::remove_all(dir);
  SweepResult brooker = RunSweep(TinyConfig(Experiment::kBrooker, 2));
  SweepResult formats = RunSweep(TinyConfig(Experiment::kFormats, 2));
  std::vector<std::string> written;
  ASSERT_TRUE(WriteSweepOutputs(dir.string(), &brooker, &formats, &written).ok());
  for (const char* f :
       {"brooker.tsv", "formats.tsv", "brooker-calls.svg", "brooker-completion.svg", "formats-commits-per-s.svg",
        "formats-attempts-per-commit.svg", "formats-p99-latency.svg", "summary.md"}) {
    EXPECT_TRUE(std::filesystem::is_regular_file(dir / f)) << f;
    EXPECT_NE(std::find(written.begin(), written.end(), (dir / f).string()), written.end()) << f;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace commitlab::sim
