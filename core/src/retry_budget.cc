#include "commitlab/core/retry_budget.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <optional>
#include <system_error>

#include "commitlab/core/check.h"
#include "commitlab/core/spec_parse.h"

namespace commitlab {
namespace {

constexpr double kGrain = 1e6;     // millionths of a token
constexpr double kMaxValue = 1e9;  // keeps every balance far inside int64

int64_t ToGrains(double tokens) { return std::llround(tokens * kGrain); }

std::optional<double> ParseNumber(std::string_view s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

Result<RetryBudgetOptions> ParseRetryBudget(std::string_view spec) {
  const auto error = [&](std::string what) {
    return Status::InvalidArgument(fmt::format("retry budget \"{}\": {}", spec, what));
  };
  const Cut name_and_keys = CutAtFirst(spec, ':');
  const std::string_view name = name_and_keys.head;
  if (name != "budget") return error(fmt::format("unknown name \"{}\" (expected budget)", name));
  RetryBudgetOptions o;
  if (!name_and_keys.tail) return o;

  // tokens and cost must be positive; a zero refund is allowed (the bucket only drains).
  struct Field {
    std::string_view key;
    double* value;
    bool positive;
  };
  const Field fields[] = {
      {"tokens", &o.tokens, true}, {"cost", &o.retry_cost, true}, {"refund", &o.success_refund, false}};
  const Status items = ForEachKeyValue(*name_and_keys.tail, [&](std::string_view key, std::string_view value) {
    const auto f = std::find_if(std::begin(fields), std::end(fields), [&](const Field& x) { return x.key == key; });
    if (f == std::end(fields)) {
      return Status::InvalidArgument(fmt::format("unknown key \"{}\" (expected one of tokens, cost, refund)", key));
    }
    const std::optional<double> v = ParseNumber(value);
    if (!v || (f->positive ? *v <= 0 : *v < 0) || *v > kMaxValue) {
      return Status::InvalidArgument(fmt::format("bad value \"{}\" for key {} (expected a number {} and at most 1e9)",
                                                 value, key, f->positive ? "> 0" : ">= 0"));
    }
    *f->value = *v;
    return Status::OK();
  });
  if (!items.ok()) return error(items.message());
  return o;
}

std::string FormatRetryBudget(const RetryBudgetOptions& options) {
  const RetryBudgetOptions d;
  std::string out = "budget";
  char sep = ':';
  const auto add = [&](std::string_view key, double value, double default_value) {
    if (value == default_value) return;
    // fmt prints the shortest text that reads back as the same double.
    out += fmt::format("{}{}={}", sep, key, value);
    sep = ',';
  };
  add("tokens", options.tokens, d.tokens);
  add("cost", options.retry_cost, d.retry_cost);
  add("refund", options.success_refund, d.success_refund);
  return out;
}

RetryBudget::RetryBudget(const RetryBudgetOptions& options)
    : options_(options),
      capacity_(ToGrains(options.tokens)),
      cost_(ToGrains(options.retry_cost)),
      refund_(ToGrains(options.success_refund)),
      balance_(capacity_) {
  COMMITLAB_CHECK(capacity_ >= 0 && cost_ >= 0 && refund_ >= 0,
                  "a budget's amounts are not negative (ParseRetryBudget refuses them), so its balance stays in "
                  "[0, tokens]");
}

bool RetryBudget::TryAcquireRetry() {
  MutexLock l(&mu_);
  if (balance_ < cost_) return false;
  balance_ -= cost_;
  COMMITLAB_CHECK(balance_ >= 0, "a retry is paid for out of the balance, never on credit");
  return true;
}

void RetryBudget::OnSuccess() {
  MutexLock l(&mu_);
  balance_ = std::min(capacity_, balance_ + refund_);
  COMMITLAB_CHECK(balance_ >= 0 && balance_ <= capacity_, "a refund fills the bucket up to its capacity, no further");
}

double RetryBudget::tokens() const {
  MutexLock l(&mu_);
  COMMITLAB_CHECK(balance_ >= 0 && balance_ <= capacity_, "a budget's balance stays in [0, tokens]");
  return static_cast<double>(balance_) / kGrain;
}

}  // namespace commitlab
