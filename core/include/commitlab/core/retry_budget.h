// RetryBudget: a token bucket shared by all writers of a run, so that retries stop when most
// recent attempts failed (Brooker's "retry budget"; the AWS SDK retry quota, gRPC's retry
// throttling). Retries spend tokens, successes refund a little, first attempts are free.
#ifndef COMMITLAB_CORE_RETRY_BUDGET_H_
#define COMMITLAB_CORE_RETRY_BUDGET_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "commitlab/core/mutex.h"
#include "commitlab/core/status.h"

namespace commitlab {

struct RetryBudgetOptions {
  double tokens = 10.0;         // capacity, and the balance the bucket starts with
  double retry_cost = 1.0;      // taken by every retry the bucket allows
  double success_refund = 0.1;  // given back by every success, up to the capacity

  friend bool operator==(const RetryBudgetOptions&, const RetryBudgetOptions&) = default;
};

// Parses `budget[:key=value,...]` with keys tokens (> 0), cost (> 0) and refund (>= 0), each a
// number of at most 1e9; unset keys keep the defaults above. Errors are InvalidArgument naming
// the spec, the offending part and what was expected.
Result<RetryBudgetOptions> ParseRetryBudget(std::string_view spec);
// "budget" plus the keys that differ from the defaults; ParseRetryBudget reads it back equal.
std::string FormatRetryBudget(const RetryBudgetOptions& options);

// Thread-safe. Balances are kept in millionths of a token, so ten refunds of 0.1 pay for exactly
// one retry of cost 1 (doubles would leave 0.9999999999999999); options are rounded to that grain.
class RetryBudget {
 public:
  explicit RetryBudget(const RetryBudgetOptions& options = {});
  RetryBudget(const RetryBudget&) = delete;
  RetryBudget& operator=(const RetryBudget&) = delete;

  // Takes retry_cost tokens and returns true, or returns false and takes nothing when the balance
  // is below retry_cost: the writer should give up instead of retrying.
  bool TryAcquireRetry();
  // Refunds success_refund tokens, capped at the capacity.
  void OnSuccess();
  double tokens() const;
  const RetryBudgetOptions& options() const { return options_; }

 private:
  const RetryBudgetOptions options_;
  const int64_t capacity_;  // all in millionths of a token
  const int64_t cost_;
  const int64_t refund_;
  mutable Mutex mu_;
  int64_t balance_ GUARDED_BY(mu_);
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_RETRY_BUDGET_H_
