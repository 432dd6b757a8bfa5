// The advisor's grid and ranking; what it prints is tested in labs/report/tests/.
#include "commitlab/sim/sweep_advisor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace commitlab::sim {
namespace {

TEST(AdvisorGridTest, EveryKindBaseAndCapOnceWithARetryLimitThenTheDefaults) {
  const std::vector<RetryPolicy> grid = AdvisorGrid();
  ASSERT_EQ(grid.size(), 1u + 4 * 4 * 3 + 2);
  std::set<std::string> specs;
  for (const RetryPolicy& p : grid) specs.insert(FormatRetryPolicy(p));
  EXPECT_EQ(specs.size(), grid.size()) << "no policy twice";
  EXPECT_EQ(grid.front().kind, RetryKind::kNone);
  EXPECT_EQ(grid[grid.size() - 2], PaimonDefaultPolicy());
  EXPECT_EQ(grid.back(), IcebergDefaultPolicy());
  for (size_t i = 0; i + 2 < grid.size(); ++i) EXPECT_EQ(grid[i].max_retries, 10) << FormatRetryPolicy(grid[i]);
  EXPECT_TRUE(specs.count("full-jitter:base=100ms,cap=100ms,retries=10"));
  EXPECT_TRUE(specs.count("decorrelated:base=1ms,cap=10s,retries=10"));
}

SweepRow Row(std::string policy, double p99, double p50, int64_t gave_up) {
  return SweepRow{.policy = std::move(policy), .p50_latency_ms = p50, .p99_latency_ms = p99, .gave_up_total = gave_up};
}

TEST(RankForAdviceTest, OnlyPoliciesWithoutGiveUpsAreRankedByP99ThenP50) {
  SweepResult r;
  r.rows = {Row("a", 300, 10, 0), Row("b", 100, 50, 2), Row("c", 200, 20, 0), Row("d", 200, 10, 0), Row("e", 50, 5, 1)};
  const Advice a = RankForAdvice(r);
  std::vector<std::string> ranked, gave_up;
  for (const SweepRow* w : a.ranked) ranked.push_back(w->policy);
  for (const SweepRow* w : a.gave_up) gave_up.push_back(w->policy);
  EXPECT_THAT(ranked, ::testing::ElementsAre("d", "c", "a"));  // b and e are faster, but gave up
  EXPECT_THAT(gave_up, ::testing::ElementsAre("e", "b"));
}

}  // namespace
}  // namespace commitlab::sim
