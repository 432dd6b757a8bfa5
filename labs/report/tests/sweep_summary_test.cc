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
  const std::string md = SweepSummaryMarkdown({.brooker = &r});
  // Every N, in every table and in the winners' table.
  EXPECT_THAT(md, HasSubstr("| N | none | exponential | equal-jitter | full-jitter | decorrelated |"));
  EXPECT_THAT(md, HasSubstr("| 10 | 25.0 | 30.0 | 12.0 | 11.0 | 14.0 |"));
  EXPECT_THAT(md, HasSubstr("| 50 | 625 | 150 | 60.0 | 55.0 | 70.0 |"));
  EXPECT_THAT(md, HasSubstr("| 10 | **full-jitter** (11.0 calls) | **none** (0.10 s) | none |"));
  EXPECT_THAT(md, HasSubstr("| 50 | **full-jitter** (55.0 calls) | **none** (0.50 s) | none |"));
  EXPECT_THAT(md, HasSubstr("[calls](brooker-calls.svg)"));
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
  const std::string md = SweepSummaryMarkdown({.brooker = &r});
  EXPECT_THAT(md, HasSubstr("| 10 | **exponential** (5.0 calls)"));
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
    if (row.policy == "iceberg") row.gave_up_total = 3, row.mean_gave_up = 3, row.gave_up_pct = 30;
  const std::string md = SweepSummaryMarkdown({.brooker = &r});
  // Iceberg does less work and finishes sooner, but only because writers gave up.
  EXPECT_THAT(md, HasSubstr("| 10 | **none** (25.0 calls) | **none** (0.10 s) | iceberg (30.0%) |"));
  EXPECT_THAT(md, HasSubstr("| 10 | 25.0 | 5.0 † |"));
  EXPECT_THAT(md, HasSubstr("Not checked"));
}

// A formats result with one row per (appenders, protocol, policy) and commits/s given by hand.
sim::SweepResult SyntheticFormats(const std::vector<std::tuple<std::string, std::string, double>>& rates) {
  sim::SweepResult r;
  r.config = sim::DefaultSweepConfig(sim::Experiment::kFormats);
  r.config.writer_counts = {2, 8};
  r.config.protocols = {Protocol::kIceberg, Protocol::kDelta};
  r.config.policies = {Policy("none"), Policy("full-jitter"), Policy("iceberg")};
  for (int w : r.config.writer_counts)
    for (const auto& [protocol, policy, rate] : rates)
      r.rows.push_back({.writers = w, .protocol = protocol, .policy = policy, .runs = 1, .commits_per_s = rate * w});
  return r;
}

TEST(SummaryTest, ChecksTheIcebergChaptersThroughputClaimBothWays) {
  sim::SweepResult r = SyntheticFormats({{"iceberg", "iceberg", 30},
                                         {"iceberg", "none", 30},
                                         {"iceberg", "full-jitter", 20},
                                         {"delta", "none", 40},
                                         {"delta", "full-jitter", 10},
                                         {"delta", "iceberg", 1}});
  std::string md = SweepSummaryMarkdown({.formats = &r});
  EXPECT_THAT(md, HasSubstr("| appenders | iceberg / iceberg | delta / none | iceberg / full-jitter | "
                            "delta / full-jitter |"));
  EXPECT_THAT(md, HasSubstr("higher throughput than Delta's, each with its own retries: **does not agree** (at none "
                            "of 2 appender counts; iceberg / iceberg lands 0.75x to 0.75x the commits/s of delta / "
                            "none)"));
  EXPECT_THAT(md, HasSubstr("under the same policy (full-jitter): **agrees** (at all 2 appender counts; iceberg / "
                            "full-jitter lands 2.00x to 2.00x"));
  EXPECT_THAT(md, HasSubstr("[commits-per-s](formats-iceberg-commits-per-s.svg)"));

  // A point where Iceberg's writers gave up is not compared.
  for (sim::SweepRow& row : r.rows)
    if (row.protocol == "iceberg" && row.policy == "iceberg" && row.writers == 8) row.gave_up_total = 1;
  md = SweepSummaryMarkdown({.formats = &r});
  EXPECT_THAT(md, HasSubstr("**does not agree** (at none of 1 appender counts; iceberg / iceberg lands 0.75x to "
                            "0.75x the commits/s of delta / none; 1 not compared: writers gave up)"));
}

TEST(SummaryTest, SaysWhereNoBackoffStopsWinningAgainstALimitedStore) {
  sim::SweepResult r;
  r.config = sim::DefaultSweepConfig(sim::Experiment::kCapacity);
  r.config.capacities = {250, 4000, 0};
  r.config.policies = {Policy("none"), Policy("full-jitter")};
  auto row = [](int64_t capacity, const char* policy, double ms) {
    return sim::SweepRow{
        .writers = 50, .capacity_rps = capacity, .policy = policy, .runs = 1, .mean_completion_ms = ms};
  };
  r.rows = {row(250, "none", 9000),         row(250, "full-jitter", 4000), row(4000, "none", 1200),
            row(4000, "full-jitter", 3000), row(0, "none", 1100),          row(0, "full-jitter", 2900)};
  const std::string md = SweepSummaryMarkdown({.capacity = &r});
  EXPECT_THAT(md, HasSubstr("| 250 | **full-jitter** (4.00 s) | none (9.00 s) | #2 of 2 |"));
  EXPECT_THAT(md, HasSubstr("| unlimited | **none** (1.10 s) | full-jitter (2.90 s) | #1 of 2 |"));
  EXPECT_THAT(md, HasSubstr("No backoff finishes first at: 4000, unlimited. It does not at: 250."));
}

}  // namespace
}  // namespace commitlab::report
