// A counterexample found by `commitlab explore`, as `order` lines a person can paste into the
// scenario: for each read or publish that met another writer's earlier publish (or that a later
// publish met), a sync point that keeps the two in the order the counterexample had them.
#ifndef COMMITLAB_SCENARIOS_EXPLORE_ORDER_H_
#define COMMITLAB_SCENARIOS_EXPLORE_ORDER_H_

#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/explore.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"

namespace commitlab::scenarios {

struct OrderLines {
  std::vector<std::string> lines = {};  // "order job-A.c.publish -> job-B.c"
  std::string note = {};                // how often they reproduce the finding, or why there are no lines
};

// Replays the finding's execution, derives the lines, appends them to the scenario's text and
// runs that (timed, as `commitlab run` does) on seeds 1..kOrderCheckSeeds to say how often the
// finding comes back. No lines when a line involved has no label (the note names it) or when the
// interleaving happens inside one line, where no sync point reaches (the note says so).
inline constexpr int kOrderCheckSeeds = 5;
Result<OrderLines> CounterexampleOrderLines(const Scenario& scenario, const RunOptions& base,
                                            const ExploreFinding& finding);

// True when the run shows the finding's kind (a violation kind, "expect FILE:LINE", "run error").
bool ReportShows(const RunReport& report, const std::string& kind);

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_EXPLORE_ORDER_H_
