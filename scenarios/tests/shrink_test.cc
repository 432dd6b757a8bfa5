#include "commitlab/scenarios/shrink.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "commitlab/scenarios/explore_order.h"
#include "commitlab/scenarios/parser.h"

namespace commitlab::scenarios {
namespace {

Scenario Load(const std::string& name) {
  Result<Scenario> s = LoadScenarioFile(std::string(COMMITLAB_SOURCE_DIR) + "/scenarios/tests/data/" + name);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(*s);
}

Scenario Parse(const std::string& text) {
  Result<Scenario> s = ParseScenario(text, "shrink.scn");
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(*s);
}

int64_t MaxStepsOfAWriter(const Scenario& s) {
  size_t most = 0;
  for (const Writer& w : s.writers) most = std::max(most, w.steps.size());
  return static_cast<int64_t>(most);
}

TEST(ShrinkTest, EightWritersOnTheCheckThenPutStoreShrinkToTwoWithAtMostTwoCommitsEach) {
  const Scenario big = Load("shrink_check_then_put.scn");
  Result<ShrinkResult> r = Shrink(big, {}, {.seed = 3});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->kind, "lost");
  EXPECT_EQ(r->before.writers, 8);
  EXPECT_EQ(r->before.steps, 480);
  EXPECT_EQ(r->before.faults, 2);
  EXPECT_EQ(r->after.writers, 2);
  EXPECT_EQ(r->after.faults, 0);
  const Scenario small = Parse(r->text);
  EXPECT_LE(MaxStepsOfAWriter(small), 4);  // write + commit, at most twice
  // The file as written shows the violation, and expects it: the run passes.
  Result<RunReport> run = RunScenario(small, {});
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_TRUE(ReportShows(*run, "lost"));
  EXPECT_TRUE(run->ok());
  EXPECT_THAT(r->text, testing::HasSubstr("expect invariant-violation lost\n"));
  EXPECT_FALSE(r->schedule.empty());
}

TEST(ShrinkTest, PinsProbabilisticFaultsToTheHitsThatFiredAndFindsTheDuplicate) {
  std::string text = "title \"duplicates\"\ntable name=t protocol=paimon\nidempotency-check off\n";
  for (const char* w : {"job-A", "job-B", "job-C", "job-D"}) text += std::string("writer name=") + w + "\n";
  text += "fault *:publish.after:p=0.2:unknown\n";
  for (const char* w : {"job-A", "job-B", "job-C", "job-D"})
    text += std::string("repeat 10: ") + w + ": write rows=1; commit\n";
  Result<ShrinkResult> r = Shrink(Parse(text), {}, {.kind = "duplicate", .seed = 2});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Scenario small = Parse(r->text);
  EXPECT_EQ(small.writers.size(), 1u);  // one writer retrying its own unknown outcome is enough
  EXPECT_EQ(small.writers[0].steps.size(), 2u);
  ASSERT_EQ(small.faults.size(), 1u);
  EXPECT_THAT(small.faults[0].text, testing::MatchesRegex("job-[A-D]:publish.after:nth=1:unknown"));
  // A deterministic failure needs no seed: it shows on every one.
  EXPECT_EQ(r->failing_seeds, r->checked_seeds);
  EXPECT_FALSE(r->pinned_seed);
}

TEST(ShrinkTest, LostUpdateKeepsItsOrderLines) {
  Result<ShrinkResult> r = Shrink(
      *LoadScenarioFile(std::string(COMMITLAB_SOURCE_DIR) + "/scenarios/iceberg_counter_stale.scn"), {}, {.seed = 1});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->kind, "lost_update");
  EXPECT_EQ(r->failing_seeds, r->checked_seeds);  // its order lines force the interleaving
  Result<RunReport> run = RunScenario(Parse(r->text), {.seed = 11});
  ASSERT_TRUE(run.ok());
  EXPECT_TRUE(ReportShows(*run, "lost_update"));
}

TEST(ShrinkTest, RefusesARunWithoutTheViolation) {
  const Scenario s = Parse("title \"fine\"\ntable name=t protocol=paimon\nwriter name=a\na: write rows=1; commit\n");
  Result<ShrinkResult> none = Shrink(s, {}, {});
  ASSERT_FALSE(none.ok());
  EXPECT_THAT(none.status().message(), testing::HasSubstr("shows no invariant violation"));
  Result<ShrinkResult> wrong = Shrink(s, {}, {.kind = "bogus"});
  ASSERT_FALSE(wrong.ok());
  EXPECT_THAT(wrong.status().message(), testing::HasSubstr("not a checker violation kind"));
}

}  // namespace
}  // namespace commitlab::scenarios
