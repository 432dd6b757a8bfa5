#include "commitlab/scenarios/explore.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "commitlab/scenarios/explore_order.h"
#include "commitlab/scenarios/parser.h"

namespace commitlab::scenarios {
namespace {

std::string Race(int writers, int commits, const std::string& extra = "") {
  std::string text = "title \"race\"\ntable name=t protocol=paimon\n";
  for (int w = 0; w < writers; ++w) text += "writer name=job-" + std::string(1, static_cast<char>('A' + w)) + "\n";
  for (int w = 0; w < writers; ++w)
    text += "repeat " + std::to_string(commits) + ": job-" + std::string(1, static_cast<char>('A' + w)) +
            ".c: write rows=1; commit\n";
  return text + extra;
}

// The Iceberg counter of "无锁并发写入" with both workers free to interleave (no order lines).
constexpr char kCounter[] = R"(title "counter"
table name=counters protocol=iceberg
writer name=setup
writer name=worker-a
writer name=worker-b
setup.s: counter init key=hits value=10
worker-a.r: counter read key=hits; counter add 5
worker-b.r: counter read key=hits; counter add 5
worker-a.c: counter commit
worker-b.c: counter commit
order setup.s -> worker-a.r
order setup.s -> worker-b.r
)";

Scenario Parse(const std::string& text) {
  Result<Scenario> s = ParseScenario(text, "explore.scn");
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(*s);
}

ExploreReport MustExplore(const Scenario& s, ExploreOptions options = {}, RunOptions run = {}) {
  Result<ExploreReport> r = Explore(s, run, options);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(*r) : ExploreReport{};
}

std::set<std::string> Keys(const ExploreReport& r) {
  std::set<std::string> keys;
  for (const ExploreOutcome& o : r.outcomes) keys.insert(o.key);
  return keys;
}

// The outcomes seeded runs reach, untimed as explore runs: half under random, half under PCT
// (which reaches the schedules where one writer runs far ahead with probability ~1/2, not 2^-30).
std::set<std::string> SeededOutcomes(const Scenario& s, uint64_t seeds) {
  std::set<std::string> keys;
  NullEventSink quiet;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    RunOptions run{.seed = seed, .sched = seed % 2 == 0 ? "random" : "pct:depth=3,k=80", .events = &quiet};
    run.untimed = true;
    Result<RunReport> r = RunScenario(s, run);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (r.ok()) keys.insert(OutcomeKey(*r));
  }
  return keys;
}

const ExploreFinding* Find(const ExploreReport& r, const std::string& kind) {
  for (const ExploreFinding& f : r.findings)
    if (f.kind == kind) return &f;
  return nullptr;
}

TEST(ExploreTest, PaimonRaceOutcomesEqualThoseOfOneHundredThousandSeeds) {
  const Scenario s = Parse(Race(2, 2));
  const ExploreReport r = MustExplore(s);
  EXPECT_TRUE(r.complete());
  EXPECT_TRUE(r.ok());
  EXPECT_GT(r.outcomes.size(), 10u);
  EXPECT_EQ(Keys(r), SeededOutcomes(s, 100'000));
}

TEST(ExploreTest, IcebergCounterOutcomesEqualThoseOfOneHundredThousandSeeds) {
  const Scenario s = Parse(kCounter);
  const ExploreReport r = MustExplore(s);
  EXPECT_TRUE(r.complete());
  // Both orders of the commits, the loser refused or not: the counter ends at 15 only when one
  // worker was refused.
  EXPECT_GE(r.outcomes.size(), 2u);
  EXPECT_EQ(Keys(r), SeededOutcomes(s, 100'000));
}

// The unreduced search of even two one-commit writers has billions of executions (each storage
// operation is two scheduling points), so it is compared under a preemption bound, where it
// completes and already reaches every outcome there is.
TEST(ExploreTest, ReductionFindsTheUnreducedOutcomesInFewerExecutions) {
  struct Case {
    std::string text;
    int preemptions;
    bool all;  // the bounded unreduced search reaches every outcome
  };
  // Without its order lines the counter's reads may come before the init: run errors, 9 outcomes.
  std::string open_counter = kCounter;
  open_counter.erase(open_counter.find("order setup.s"));
  for (const Case& c :
       {Case{Race(2, 1), 3, true}, Case{kCounter, 2, true}, Case{open_counter, 2, true}, Case{Race(3, 1), 2, false}}) {
    const Scenario s = Parse(c.text);
    const ExploreReport reduced = MustExplore(s);
    const ExploreReport full = MustExplore(s, {.preemptions = c.preemptions, .reduce = false});
    EXPECT_TRUE(reduced.complete()) << c.text;
    EXPECT_FALSE(full.stopped) << c.text;
    const std::set<std::string> mine = Keys(reduced), theirs = Keys(full);
    EXPECT_TRUE(std::includes(mine.begin(), mine.end(), theirs.begin(), theirs.end())) << c.text;
    if (c.all) {
      EXPECT_EQ(mine, theirs) << c.text;
    }
    EXPECT_LT(reduced.executions * 10, full.executions) << c.text;
  }
}

TEST(ExploreTest, SameScenarioSameSearch) {
  const Scenario s = Parse(Race(2, 2));
  const ExploreReport a = MustExplore(s);
  const ExploreReport b = MustExplore(s);
  EXPECT_EQ(a.executions, b.executions);
  EXPECT_EQ(a.sleep_blocked, b.sleep_blocked);
  ASSERT_EQ(a.outcomes.size(), b.outcomes.size());
  for (size_t i = 0; i < a.outcomes.size(); ++i) {
    EXPECT_EQ(a.outcomes[i].key, b.outcomes[i].key);
    EXPECT_EQ(a.outcomes[i].count, b.outcomes[i].count);
  }
}

TEST(ExploreTest, FindsTheLostCommitOnTheCheckThenPutStore) {
  const Scenario s = Parse("store object:check-then-put\n" + Race(2, 1));
  const ExploreReport r = MustExplore(s);
  EXPECT_TRUE(r.complete());
  EXPECT_FALSE(r.ok());
  const ExploreFinding* lost = Find(r, "lost");
  ASSERT_NE(lost, nullptr);
  EXPECT_FALSE(lost->expected);
  EXPECT_LE(lost->switches, 2);  // a HEAD each, then both PUTs

  // Its schedule replays to the same loss.
  RunOptions replay{.schedule = lost->schedule};
  replay.untimed = true;
  Result<RunReport> again = RunScenario(s, replay);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_TRUE(ReportShows(*again, "lost"));
}

TEST(ExploreTest, SoundConfigurationsShowNoViolation) {
  for (const std::string& text : {"store object:conditional-put\n" + Race(2, 2), Race(3, 1),
                                  Race(2, 1, "fault job-A:publish.after:maybe:unknown\n"), std::string(kCounter)}) {
    const ExploreReport r = MustExplore(Parse(text));
    EXPECT_TRUE(r.complete()) << text;
    EXPECT_TRUE(r.ok()) << text << (r.findings.empty() ? "" : r.findings.front().detail);
    EXPECT_TRUE(r.findings.empty()) << text;
  }
}

TEST(ExploreTest, MaybeFaultIsExploredBothWaysAndFindsTheDuplicate) {
  const Scenario s = Parse(Race(2, 1, "idempotency-check off\nfault job-A:publish.after:maybe:unknown\n"));
  const ExploreReport r = MustExplore(s);
  EXPECT_TRUE(r.complete());
  const ExploreFinding* dup = Find(r, "duplicate");
  ASSERT_NE(dup, nullptr);
  EXPECT_THAT(dup->faults, testing::ElementsAre("job-A:publish.after:nth=1:unknown"));
  EXPECT_LE(dup->switches, 2);  // job-A's retry wait lets job-B go first
  // Not every execution has it: the ones where the fault does not fire are clean.
  EXPECT_LT(dup->executions, r.executions);

  // Both writers may be told "unknown": a run with two duplicates still counts once.
  const ExploreReport both =
      MustExplore(Parse(Race(2, 1, "idempotency-check off\nfault *:publish.after:maybe:unknown\n")));
  for (const ExploreFinding& f : both.findings) EXPECT_LE(f.executions, both.executions) << f.kind;
}

TEST(ExploreTest, FindsTheStaleRecommitsLostUpdateWithOrderLinesThatForceIt) {
  Scenario s = Parse(std::string(kCounter));
  s = Parse(std::string(kCounter).replace(std::string(kCounter).find("worker-b.c: counter commit"), 26,
                                          "worker-b.c: counter commit on-validation=recommit-stale"));
  const ExploreReport r = MustExplore(s);
  const ExploreFinding* lost = Find(r, "lost_update");
  ASSERT_NE(lost, nullptr);
  EXPECT_LE(lost->switches, 4);
  Result<OrderLines> order = CounterexampleOrderLines(s, {}, *lost);
  ASSERT_TRUE(order.ok()) << order.status().ToString();
  ASSERT_FALSE(order->lines.empty()) << order->note;
  EXPECT_THAT(order->note, testing::HasSubstr("5 of seeds 1..5"));
}

TEST(ExploreTest, PreemptionBoundCutsTheSearchAndSaysSo) {
  const Scenario s = Parse(Race(2, 2));
  const ExploreReport unbounded = MustExplore(s);
  const ExploreReport none = MustExplore(s, {.preemptions = 0});
  EXPECT_FALSE(none.complete());
  EXPECT_GT(none.cut_preemptions, 0);
  EXPECT_LT(none.executions, unbounded.executions);
  EXPECT_LT(none.outcomes.size(), unbounded.outcomes.size());
}

TEST(ExploreTest, MaxStepsCutsAnExecution) {
  const ExploreReport r = MustExplore(Parse(Race(2, 2)), {.max_steps = 20});
  EXPECT_FALSE(r.complete());
  EXPECT_GT(r.cut_steps, 0);
  EXPECT_EQ(r.executions, 0);
}

TEST(ExploreTest, StopAtFirstStopsAtTheFirstFailure) {
  const Scenario s = Parse("store object:check-then-put\n" + Race(2, 1));
  const ExploreReport r = MustExplore(s, {.stop_at_first = true});
  EXPECT_TRUE(r.stopped);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.outcomes.back().count, 1);
}

TEST(ExploreTest, RefusesProbabilisticFaultsAndFreeThreads) {
  Result<ExploreReport> p = Explore(Parse(Race(2, 1, "fault *:publish.before:p=0.1:error\n")), {}, {});
  ASSERT_FALSE(p.ok());
  EXPECT_THAT(p.status().message(), testing::HasSubstr("write the trigger as maybe"));
  Result<ExploreReport> free = Explore(Parse(Race(2, 1, "sched free\n")), {}, {});
  ASSERT_FALSE(free.ok());
  EXPECT_THAT(free.status().message(), testing::HasSubstr("sched free"));
}

TEST(ExploreTest, WithoutOrderLinesKeepsLineNumbers) {
  const Scenario s = Parse(kCounter);
  Result<Scenario> open = WithoutOrderLines(s);
  ASSERT_TRUE(open.ok()) << open.status().ToString();
  EXPECT_TRUE(open->order.empty());
  EXPECT_EQ(open->writers[1].steps[0].pos.line, s.writers[1].steps[0].pos.line);
}

}  // namespace
}  // namespace commitlab::scenarios
