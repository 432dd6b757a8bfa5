#include "commitlab/sim/sweep_advisor.h"

#include <algorithm>

namespace commitlab::sim {

std::vector<RetryPolicy> AdvisorGrid() {
  const int retries = PaimonDefaultPolicy().max_retries;
  RetryPolicy none = DefaultRetryPolicy(RetryKind::kNone);
  none.max_retries = retries;
  std::vector<RetryPolicy> grid = {none};
  for (RetryKind kind :
       {RetryKind::kExponential, RetryKind::kEqualJitter, RetryKind::kFullJitter, RetryKind::kDecorrelated}) {
    for (int64_t base_ms : {1, 5, 20, 100}) {
      for (int64_t cap_ms : {100, 1'000, 10'000}) {
        RetryPolicy p = DefaultRetryPolicy(kind);
        p.base_micros = base_ms * 1000;
        p.cap_micros = cap_ms * 1000;
        p.max_retries = retries;
        grid.push_back(p);
      }
    }
  }
  grid.push_back(PaimonDefaultPolicy());
  grid.push_back(IcebergDefaultPolicy());
  return grid;
}

Advice RankForAdvice(const SweepResult& result) {
  Advice a;
  for (const SweepRow& row : result.rows) (row.gave_up_total == 0 ? a.ranked : a.gave_up).push_back(&row);
  std::stable_sort(a.ranked.begin(), a.ranked.end(), [](const SweepRow* x, const SweepRow* y) {
    if (x->p99_latency_ms != y->p99_latency_ms) return x->p99_latency_ms < y->p99_latency_ms;
    if (x->p50_latency_ms != y->p50_latency_ms) return x->p50_latency_ms < y->p50_latency_ms;
    return x->policy < y->policy;
  });
  std::stable_sort(a.gave_up.begin(), a.gave_up.end(),
                   [](const SweepRow* x, const SweepRow* y) { return x->gave_up_total < y->gave_up_total; });
  return a;
}

}  // namespace commitlab::sim
