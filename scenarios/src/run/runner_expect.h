// Evaluates a scenario's `expect` lines against a finished run.
#ifndef COMMITLAB_SCENARIOS_RUNNER_EXPECT_H_
#define COMMITLAB_SCENARIOS_RUNNER_EXPECT_H_

#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"

namespace commitlab::scenarios::internal {

// Fills r->expectations (one per line, in file order) and marks each violation that an
// `expect invariant-violation` line names as expected. REQUIRES: r's tables, writers, tally and
// violations are filled in.
void EvaluateExpectations(const Scenario& s, RunReport* r);

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_RUNNER_EXPECT_H_
