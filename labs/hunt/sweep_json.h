// `commitlab sweep --json`: the sweep's rows as JSON, each with its cell (its index in row order),
// and the config each experiment ran; what a sweep shard prints and `commitlab merge` puts back
// together in cell order.
#ifndef COMMITLAB_LABS_SWEEP_JSON_H_
#define COMMITLAB_LABS_SWEEP_JSON_H_

#include "commitlab/sim/history.h"
#include "commitlab/sim/sweep.h"

namespace commitlab::cli {

// What an experiment ran: every input of its rows (not threads, not where files go).
sim::Json SweepConfigJson(const sim::SweepConfig& c);
// {"experiment","cells","rows":[{"cell",...every SweepRow field...}]}
sim::Json SweepResultJson(const sim::SweepResult& r);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_SWEEP_JSON_H_
