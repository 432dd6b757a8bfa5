#include "commitlab/report/sweep_summary.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "tiny_sweep.h"

namespace commitlab::report {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A Brooker result with rows chosen by hand.
sim::SweepResult Synthetic(const std::vector<std::tuple<std::string, double, double>>& per_policy_calls_and_ms) {
  sim::SweepResult r;
  r.config = sim::DefaultSweepConfig(sim::Experiment::kBrooker);
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
  const sim::SweepResult r = Synthetic({{"none", 25, 100},
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
  const sim::SweepResult r = Synthetic({{"none", 25, 100},
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
  sim::SweepResult r = Synthetic({{"none", 25, 100}, {"iceberg", 5, 10}});
  for (sim::SweepRow& row : r.rows)
    if (row.policy == "iceberg") row.gave_up_total = 3, row.mean_gave_up = 3;
  const std::string md = SweepSummaryMarkdown(&r, nullptr);
  EXPECT_THAT(md, HasSubstr("Least work: **none**"));
  EXPECT_THAT(
      md, HasSubstr("Not ranked, because writers gave up at their retry limit: iceberg (3.0 of 10 writers per run)"));
  EXPECT_THAT(md, HasSubstr("Not checked"));
}

}  // namespace
}  // namespace commitlab::report
