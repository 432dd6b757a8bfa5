#include "commitlab/core/retry_policy.h"

#include <algorithm>

namespace commitlab {

RetryPolicy PaimonDefaultPolicy() { return {}; }

int64_t NextWaitMicros(const RetryPolicy& p, int failures, int64_t, Rng& rng) {
  // Paimon's RetryWaiter in milliseconds, as Java computes it.
  const int64_t base_ms = p.base_micros / 1000;
  const int shift = std::min(failures - 1, 40);
  int64_t wait_ms = std::min<int64_t>(base_ms << shift, p.cap_micros / 1000);
  wait_ms += static_cast<int64_t>(rng.Below(static_cast<uint64_t>(std::max<int64_t>(1, static_cast<int64_t>(wait_ms * p.jitter)))));
  return wait_ms * 1000;
}

}  // namespace commitlab
