// The sweep's tables: one TSV per experiment, one row per cell (N, capacity, protocol, policy).
#ifndef COMMITLAB_REPORT_SWEEP_TSV_H_
#define COMMITLAB_REPORT_SWEEP_TSV_H_

#include <string>

#include "commitlab/sim/sweep.h"

namespace commitlab::report {

// The header line (no trailing newline) of the experiment's TSV.
std::string SweepTsvHeader(sim::Experiment e);
// Header, then one line per row, each ending in '\n'.
std::string SweepTsv(const sim::SweepResult& result);

}  // namespace commitlab::report

#endif  // COMMITLAB_REPORT_SWEEP_TSV_H_
