#include "commitlab/core/retry_budget.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace commitlab {
namespace {

TEST(RetryBudgetTest, DefaultsAreGrpcRetryThrottling) {
  const RetryBudgetOptions o;
  EXPECT_EQ(o.tokens, 10.0);
  EXPECT_EQ(o.retry_cost, 1.0);
  EXPECT_EQ(o.success_refund, 0.1);
}

TEST(RetryBudgetTest, RetriesSpendTheBucketUntilItCannotPay) {
  RetryBudget b(RetryBudgetOptions{.tokens = 10, .retry_cost = 1, .success_refund = 0.1});
  EXPECT_EQ(b.tokens(), 10.0);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(b.TryAcquireRetry()) << i;
  EXPECT_EQ(b.tokens(), 0.0);
  EXPECT_FALSE(b.TryAcquireRetry());
  EXPECT_EQ(b.tokens(), 0.0);  // a refused retry takes nothing
}

TEST(RetryBudgetTest, TenRefundsOfATenthPayForExactlyOneRetry) {
  RetryBudget b(RetryBudgetOptions{.tokens = 10, .retry_cost = 1, .success_refund = 0.1});
  while (b.TryAcquireRetry()) {
  }
  for (int i = 0; i < 9; ++i) b.OnSuccess();
  EXPECT_DOUBLE_EQ(b.tokens(), 0.9);
  EXPECT_FALSE(b.TryAcquireRetry());
  b.OnSuccess();
  EXPECT_EQ(b.tokens(), 1.0);  // exact: the bucket counts millionths, not doubles
  EXPECT_TRUE(b.TryAcquireRetry());
  EXPECT_FALSE(b.TryAcquireRetry());
}

TEST(RetryBudgetTest, RefundsStopAtCapacity) {
  RetryBudget b(RetryBudgetOptions{.tokens = 3, .retry_cost = 2, .success_refund = 0.5});
  b.OnSuccess();
  EXPECT_EQ(b.tokens(), 3.0);
  ASSERT_TRUE(b.TryAcquireRetry());
  EXPECT_EQ(b.tokens(), 1.0);
  EXPECT_FALSE(b.TryAcquireRetry());  // 1 < cost 2
  for (int i = 0; i < 10; ++i) b.OnSuccess();
  EXPECT_EQ(b.tokens(), 3.0);
}

TEST(RetryBudgetTest, CostAboveCapacityNeverRetries) {
  RetryBudget b(RetryBudgetOptions{.tokens = 1, .retry_cost = 5, .success_refund = 1});
  EXPECT_FALSE(b.TryAcquireRetry());
  b.OnSuccess();
  EXPECT_FALSE(b.TryAcquireRetry());
}

TEST(RetryBudgetTest, ZeroRefundOnlyDrains) {
  RetryBudget b(RetryBudgetOptions{.tokens = 2, .retry_cost = 1, .success_refund = 0});
  EXPECT_TRUE(b.TryAcquireRetry());
  EXPECT_TRUE(b.TryAcquireRetry());
  b.OnSuccess();
  EXPECT_FALSE(b.TryAcquireRetry());
}

TEST(RetryBudgetTest, SharedByThreadsGrantsExactlyTheCapacity) {
  RetryBudget b(RetryBudgetOptions{.tokens = 1000, .retry_cost = 1, .success_refund = 0});
  std::atomic<int> granted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) granted += b.TryAcquireRetry() ? 1 : 0;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(granted.load(), 1000);
  EXPECT_EQ(b.tokens(), 0.0);
}

TEST(RetryBudgetTest, ParsesSpecs) {
  Result<RetryBudgetOptions> o = ParseRetryBudget("budget");
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(*o, RetryBudgetOptions{});

  o = ParseRetryBudget("budget:tokens=10,cost=1,refund=0.1");
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(*o, RetryBudgetOptions{});

  o = ParseRetryBudget("budget:refund=1,tokens=500,cost=5");  // the AWS SDK's retry quota
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(*o, (RetryBudgetOptions{.tokens = 500, .retry_cost = 5, .success_refund = 1}));

  o = ParseRetryBudget("budget:refund=0");
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->success_refund, 0.0);
}

TEST(RetryBudgetTest, FormatRoundTrips) {
  EXPECT_EQ(FormatRetryBudget(RetryBudgetOptions{}), "budget");
  const RetryBudgetOptions aws{.tokens = 500, .retry_cost = 5, .success_refund = 1};
  EXPECT_EQ(FormatRetryBudget(aws), "budget:tokens=500,cost=5,refund=1");
  for (const RetryBudgetOptions& o :
       {RetryBudgetOptions{}, aws, RetryBudgetOptions{.tokens = 2.5},
        RetryBudgetOptions{.retry_cost = 0.3, .success_refund = 0.01}, RetryBudgetOptions{.success_refund = 0}}) {
    Result<RetryBudgetOptions> again = ParseRetryBudget(FormatRetryBudget(o));
    ASSERT_TRUE(again.ok()) << FormatRetryBudget(o) << ": " << again.status().ToString();
    EXPECT_EQ(*again, o) << FormatRetryBudget(o);
  }
}

TEST(RetryBudgetTest, ParseErrorsNameTheProblem) {
  const struct {
    const char* spec;
    const char* message;
  } cases[] = {
      {"bucket", "retry budget \"bucket\": unknown name \"bucket\" (expected budget)"},
      {"", "retry budget \"\": unknown name \"\" (expected budget)"},
      {"budget:", "retry budget \"budget:\": expected key=value, got \"\""},
      {"budget:tokens", "retry budget \"budget:tokens\": expected key=value, got \"tokens\""},
      {"budget:size=3",
       "retry budget \"budget:size=3\": unknown key \"size\" (expected one of tokens, cost, "
       "refund)"},
      {"budget:cost=1,cost=2", "retry budget \"budget:cost=1,cost=2\": key cost given twice"},
      {"budget:tokens=0",
       "retry budget \"budget:tokens=0\": bad value \"0\" for key tokens (expected a number > 0 "
       "and at most 1e9)"},
      {"budget:cost=-1",
       "retry budget \"budget:cost=-1\": bad value \"-1\" for key cost (expected a number > 0 and "
       "at most 1e9)"},
      {"budget:refund=x",
       "retry budget \"budget:refund=x\": bad value \"x\" for key refund (expected a number >= 0 "
       "and at most 1e9)"},
      {"budget:refund=-0.1",
       "retry budget \"budget:refund=-0.1\": bad value \"-0.1\" for key refund (expected a number "
       ">= 0 and at most 1e9)"},
      {"budget:tokens=inf",
       "retry budget \"budget:tokens=inf\": bad value \"inf\" for key tokens (expected a number > "
       "0 and at most 1e9)"},
      {"budget:tokens=2e9",
       "retry budget \"budget:tokens=2e9\": bad value \"2e9\" for key tokens (expected a number > "
       "0 and at most 1e9)"},
  };
  for (const auto& c : cases) {
    Result<RetryBudgetOptions> o = ParseRetryBudget(c.spec);
    ASSERT_FALSE(o.ok()) << c.spec;
    EXPECT_EQ(o.status().code(), Code::kInvalidArgument);
    EXPECT_EQ(o.status().message(), c.message);
  }
}

}  // namespace
}  // namespace commitlab
