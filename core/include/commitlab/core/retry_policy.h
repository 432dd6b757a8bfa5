// Retry policies: a pure function from (failures so far, previous wait, random stream) to the next
// wait, plus limits on retries and total time. The committer asks for a wait after every attempt
// that lost the race or ended with an unknown outcome.
#ifndef COMMITLAB_CORE_RETRY_POLICY_H_
#define COMMITLAB_CORE_RETRY_POLICY_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "commitlab/core/rng.h"
#include "commitlab/core/status.h"

namespace commitlab {

enum class RetryKind {
  kNone,          // retry at once
  kFixed,         // base every time
  kExponential,   // min(cap, base * 2^failures), no jitter (Brooker's "Exponential")
  kPaimon,        // Paimon RetryWaiter: min(base * 2^(failures-1), cap) + U[0, 20%)
  kIceberg,       // Iceberg Tasks: min(base * 2^(failures-1), cap) + U[0, 10%)
  kFullJitter,    // U[0, min(cap, base * 2^failures))
  kEqualJitter,   // v/2 + U[0, v/2), v = min(cap, base * 2^failures)
  kDecorrelated,  // min(cap, U[base, 3 * previous wait])
};
std::string_view RetryKindName(RetryKind k);  // "none", "fixed", "exponential", "paimon", ...

struct RetryPolicy {
  RetryKind kind = RetryKind::kPaimon;
  int64_t base_micros = 10'000;
  int64_t cap_micros = 10'000'000;
  double jitter = 0.2;                // additive jitter fraction (paimon, iceberg)
  int max_retries = 10;               // attempts = max_retries + 1; < 0 means unlimited
  int64_t total_timeout_micros = -1;  // < 0 means no limit
};

RetryPolicy PaimonDefaultPolicy();   // 10 ms, 10 s, +[0,20%), 10 retries, no timeout
RetryPolicy IcebergDefaultPolicy();  // 100 ms, 60 s, +[0,10%), 4 retries, 30 min total

// The wait before the next attempt, after `failures` (>= 1) failed attempts; `prev_wait_micros`
// is the wait chosen last time (0 before the first retry).
int64_t NextWaitMicros(const RetryPolicy& p, int failures, int64_t prev_wait_micros, Rng& rng);

// Parses "paimon", "none", "exponential:base=5ms,cap=2s", "fixed:base=50ms,retries=3", ...
// Keys: base, cap, jitter, retries, timeout; durations take us/ms/s suffixes.
Result<RetryPolicy> ParseRetryPolicy(std::string_view spec);
// The canonical spec string; ParseRetryPolicy(FormatRetryPolicy(p)) == p.
std::string FormatRetryPolicy(const RetryPolicy& p);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_RETRY_POLICY_H_
