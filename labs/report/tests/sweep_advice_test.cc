#include "commitlab/report/sweep_advice.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tiny_sweep.h"

namespace commitlab::report {
namespace {

using ::testing::HasSubstr;

sim::SweepResult Point() {
  sim::SweepResult r;
  r.config = sim::DefaultSweepConfig(sim::Experiment::kFormats);
  r.config.writer_counts = {8};
  r.config.protocols = {Protocol::kPaimon};
  r.config.runs = 10;
  auto row = [](const char* policy, double p99, double lo, double hi, int64_t gave_up, double pct) {
    return sim::SweepRow{.writers = 8,
                         .protocol = "paimon",
                         .policy = policy,
                         .runs = 10,
                         .p50_latency_ms = 9,
                         .p99_latency_ms = p99,
                         .gave_up_total = gave_up,
                         .commits_per_s = 40,
                         .attempts_per_commit = 1.5,
                         .gave_up_pct = pct,
                         .p99_latency_ms_spread = {lo, hi}};
  };
  r.rows = {row("full-jitter", 600, 450, 700, 0, 0), row("decorrelated", 1600, 1300, 1900, 0, 0),
            row("paimon", 3000, 2500, 3500, 0, 0), row("none:retries=10", 20, 10, 30, 33, 41.2)};
  return r;
}

TEST(AdviceTest, AdvisesTheLowestP99WithoutGiveUpsAndSaysWhy) {
  const sim::SweepResult r = Point();
  const std::string md = AdviceMarkdown(r, sim::RankForAdvice(r));
  EXPECT_THAT(md, HasSubstr("8 writers appending on paimon (10 commits each"));
  EXPECT_THAT(md, HasSubstr("| 1 | full-jitter | 600 | 450-700 | 9.0 | 40.0 | 1.50 |"));
  EXPECT_THAT(md, HasSubstr("Advice: **full-jitter**. Of the 3 policies with which no writer gave up in 10 runs"));
  EXPECT_THAT(md, HasSubstr("The next, decorrelated, is 167% slower at p99 (1600 ms), and their per-run ranges do "
                            "not overlap."));
  EXPECT_THAT(md, HasSubstr("Paimon's default: p99 3000 ms."));
  EXPECT_THAT(md, HasSubstr("Not ranked, because writers gave up at their retry limit (1 policies): none:retries=10 "
                            "(41.2%)."));
}

TEST(AdviceTest, SaysSoWhenEveryPolicyGaveUp) {
  sim::SweepResult r = Point();
  for (sim::SweepRow& w : r.rows) w.gave_up_total = 1, w.gave_up_pct = 5;
  const std::string md = AdviceMarkdown(r, sim::RankForAdvice(r));
  EXPECT_THAT(md, HasSubstr("No policy kept every writer"));
  EXPECT_THAT(md, HasSubstr("The fewest give-ups: **full-jitter** (5.0% of writers)."));
}

}  // namespace
}  // namespace commitlab::report
