// Retry policies: a pure function from (failures so far, previous wait, random stream) to the next
// wait, plus limits on retries and total time. The committer asks for a wait after every attempt
// that lost the race or ended with an unknown outcome.
//
// Formulas, with n = failures (clamped to >= 1), U_int[a, b] a uniform integer in [a, b] drawn
// through commitlab::Rng, and every wait in integer microseconds unless stated:
//   none          0
//   fixed         base
//   exponential   min(cap, base * 2^n)
//   paimon        in whole ms: d = min(base_ms * 2^(n-1), cap_ms);
//                 wait = d + U_int[0, max(1, floor(d * jitter)) - 1]  (RetryWaiter, count n-1)
//   iceberg       the paimon formula with Iceberg's defaults          (Tasks, attempt k = n)
//   full-jitter   U_int[0, v],              v = min(cap, base * 2^n)
//   equal-jitter  v/2 + U_int[0, v - v/2],  v = min(cap, base * 2^n), v/2 rounded down
//   decorrelated  min(cap, U_int[base, 3 * max(prev, base)]), prev = previous wait (0 at first)
// base_ms and cap_ms are base and cap truncated to whole milliseconds, as Java's options are.
// Powers of two saturate: once base * 2^n would exceed cap, the value is cap, for any n.
#ifndef COMMITLAB_CORE_RETRY_POLICY_H_
#define COMMITLAB_CORE_RETRY_POLICY_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "commitlab/core/rng.h"
#include "commitlab/core/status.h"

namespace commitlab {

enum class RetryKind {
  kNone,          // retry at once (Delta's conflict loop; Brooker's "No backoff")
  kFixed,         // base every time
  kExponential,   // min(cap, base * 2^failures), no jitter (Brooker's "Exponential")
  kPaimon,        // Paimon RetryWaiter: min(base * 2^(failures-1), cap) + U[0, jitter * that) ms
  kIceberg,       // Iceberg Tasks: same shape as kPaimon, 10% jitter by default
  kFullJitter,    // U[0, min(cap, base * 2^failures)]
  kEqualJitter,   // v/2 + U[0, v - v/2], v = min(cap, base * 2^failures)
  kDecorrelated,  // min(cap, U[base, 3 * max(previous wait, base)])
};
// "none", "fixed", "exponential", "paimon", "iceberg", "full-jitter", "equal-jitter",
// "decorrelated": the names ParseRetryPolicy accepts.
std::string_view RetryKindName(RetryKind k);

struct RetryPolicy {
  RetryKind kind = RetryKind::kPaimon;
  int64_t base_micros = 10'000;
  int64_t cap_micros = 10'000'000;    // unused by none and fixed
  double jitter = 0.2;                // additive jitter fraction; used by paimon and iceberg only
  int max_retries = 10;               // attempts = max_retries + 1; < 0 means unlimited
  int64_t total_timeout_micros = -1;  // < 0 means no limit

  friend bool operator==(const RetryPolicy&, const RetryPolicy&) = default;
};

// The policy ParseRetryPolicy returns for a bare name. Fields a kind does not use hold these
// defaults, so that Format/Parse round-trips; build custom policies from this, not from {}:
//   none, fixed, exponential, full-jitter, equal-jitter, decorrelated:
//     base 5 ms (0 for none), cap 2 s (0 for none and fixed), jitter 0, unlimited retries,
//     no timeout (Brooker's simulator: each client retries until it succeeds)
//   paimon:  PaimonDefaultPolicy()    iceberg: IcebergDefaultPolicy()
RetryPolicy DefaultRetryPolicy(RetryKind kind);
RetryPolicy PaimonDefaultPolicy();   // 10 ms, 10 s, +[0,20%), 10 retries, no timeout
RetryPolicy IcebergDefaultPolicy();  // 100 ms, 60 s, +[0,10%), 4 retries, 30 min total

// A wait and how the policy arrived at it: wait = base + jitter (decorrelated then caps it).
//   base    the deterministic part: min(cap, base * 2^n) for exponential, paimon and iceberg; half
//           of it for equal-jitter; 0 for full-jitter; the policy's base for decorrelated
//   jitter  what was drawn from the random stream on top of base (0 for the unjittered kinds)
struct RetryWait {
  int64_t base_micros = 0;
  int64_t jitter_micros = 0;
  int64_t wait_micros = 0;
};

// The wait before the next attempt, after `failures` (>= 1; smaller counts as 1) failed attempts;
// `prev_wait_micros` is the wait chosen last time (0 before the first retry). Only the jittered
// kinds (paimon, iceberg, full-jitter, equal-jitter, decorrelated) draw from `rng`.
RetryWait NextWait(const RetryPolicy& p, int failures, int64_t prev_wait_micros, Rng& rng);
// NextWait's wait alone.
int64_t NextWaitMicros(const RetryPolicy& p, int failures, int64_t prev_wait_micros, Rng& rng);

// How `w`, made by `p` after `failures` failed attempts, came about, for a reader:
//   paimon:       "11 ms = 10 ms × 2^0 + 1 ms jitter"     (at the cap: "10 s (the cap)")
//   exponential:  "40 ms = 5 ms × 2^3"                    fixed: "50 ms (fixed)"
//   full-jitter:  "3.2 ms, drawn from [0, 5 ms × 2^1]"    equal-jitter, decorrelated likewise
// A wait whose deterministic part is not what `p` makes (another policy made it) is told by its
// parts alone: "11 ms = 10 ms + 1 ms jitter".
std::string ExplainWait(const RetryPolicy& p, int failures, const RetryWait& w);
// The wait by its parts alone, for when the policy that made it is not known.
std::string ExplainWait(const RetryWait& w);

// Parses `NAME[:key=value,...]`, e.g. "paimon", "none", "exponential:base=5ms,cap=2s",
// "fixed:base=50ms,retries=3", "iceberg:timeout=none".
//   base, cap  durations: a non-negative number (decimals allowed) with us, ms, s, min, h or d
//   jitter     a fraction in [0, 1]
//   retries    an integer >= 0, or -1 / "unlimited"
//   timeout    a duration, or "none"
// Unset keys take DefaultRetryPolicy(kind)'s values. A key the kind does not use is an error
// (none: retries, timeout; fixed: also base; Brooker kinds: also cap; paimon, iceberg: also
// jitter), as are unknown or repeated keys, cap < base, and for paimon and iceberg a base or cap
// that is not a whole number of milliseconds. Errors are InvalidArgument naming the spec.
Result<RetryPolicy> ParseRetryPolicy(std::string_view spec);
// The canonical spec: the name, then the keys the kind uses whose values differ from
// DefaultRetryPolicy(kind), in the order base, cap, jitter, retries, timeout, each duration in the
// largest unit that divides it (0 is "0s"). ParseRetryPolicy(FormatRetryPolicy(p)) == p for
// every policy ParseRetryPolicy returns, and for any policy built from DefaultRetryPolicy(kind) by
// setting fields its kind uses to values the parser accepts. Fields a kind ignores are not
// printed, so e.g. RetryPolicy{.kind = RetryKind::kFixed} (jitter 0.2) does not round-trip.
std::string FormatRetryPolicy(const RetryPolicy& p);

// Durations as the spec syntax writes them: "250us", "10ms", "2s", "30min"; 0 is "0s".
std::string FormatDurationMicros(int64_t micros);
// Parses a non-negative duration such as "5ms", "1.5s" or "30min"; exact to the microsecond.
// The error message is "bad duration "X" (expected a number with us, ms, s, min, h or d)".
Result<int64_t> ParseDurationMicros(std::string_view text);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_RETRY_POLICY_H_
