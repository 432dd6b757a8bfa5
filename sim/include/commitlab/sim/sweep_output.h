// What a sweep leaves behind: a TSV per experiment, SVG plots and a markdown summary that checks
// the Brooker experiment against the shape of Brooker's published results. Every file is a pure
// function of the results (no wall times, no host names), so the same seed writes the same bytes.
#ifndef COMMITLAB_SIM_SWEEP_OUTPUT_H_
#define COMMITLAB_SIM_SWEEP_OUTPUT_H_

#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/sim/sweep.h"

namespace commitlab::sim {

// The header line (no trailing newline) of the experiment's TSV.
std::string SweepTsvHeader(Experiment e);
// Header, then one line per row, each ending in '\n'.
std::string SweepTsv(const SweepResult& result);

// One plot: its file name (e.g. "brooker-calls.svg") and SVG text.
struct SweepChart {
  std::string file;
  std::string svg;
};
// brooker: calls and completion time against N; formats: commits/s, attempts per commit and p99
// commit latency against the number of appenders. One line per policy.
std::vector<SweepChart> SweepCharts(const SweepResult& result);

// The markdown summary; either result may be null (that experiment did not run).
std::string SweepSummaryMarkdown(const SweepResult* brooker, const SweepResult* formats);

// Writes <experiment>.tsv, the charts and summary.md into `dir` (created if missing); appends the
// paths written to `written`. Errors name the file.
Status WriteSweepOutputs(const std::string& dir, const SweepResult* brooker, const SweepResult* formats,
                         std::vector<std::string>* written);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_SWEEP_OUTPUT_H_
