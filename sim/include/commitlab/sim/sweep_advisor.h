// The policy advisor behind `commitlab sweep --advise`: a small grid of retry policies, run at one
// operating point (writers, protocol, store capacity), ranked by p99 commit latency among those
// with which no writer gave up.
#ifndef COMMITLAB_SIM_SWEEP_ADVISOR_H_
#define COMMITLAB_SIM_SWEEP_ADVISOR_H_

#include <vector>

#include "commitlab/core/retry_policy.h"
#include "commitlab/sim/sweep.h"

namespace commitlab::sim {

// none, then exponential, equal-jitter, full-jitter and decorrelated with base 1, 5, 20 or 100 ms
// and cap 0.1, 1 or 10 s, each with Paimon's retry limit (10 retries, as a production writer has
// one); then Paimon's and Iceberg's defaults.
std::vector<RetryPolicy> AdvisorGrid();

struct Advice {
  std::vector<const SweepRow*> ranked;   // no writer gave up; by p99, then p50 latency, then policy
  std::vector<const SweepRow*> gave_up;  // the rest, fewest give-ups first
};

// Ranks the rows of `result` (one operating point: one N, protocol and capacity). The pointers
// point into result.rows.
Advice RankForAdvice(const SweepResult& result);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_SWEEP_ADVISOR_H_
