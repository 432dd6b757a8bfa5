// The sweep's plots, one SVG document per chart.
#ifndef COMMITLAB_REPORT_SWEEP_CHARTS_H_
#define COMMITLAB_REPORT_SWEEP_CHARTS_H_

#include <string>
#include <vector>

#include "commitlab/sim/sweep.h"

namespace commitlab::report {

// One plot: its file name (e.g. "brooker-calls.svg") and SVG text.
struct SweepChart {
  std::string file;
  std::string svg;
};

// brooker: calls and completion time against N; formats: commits/s, attempts per commit and p99
// commit latency against the number of appenders. One line per policy.
std::vector<SweepChart> SweepCharts(const sim::SweepResult& result);

}  // namespace commitlab::report

#endif  // COMMITLAB_REPORT_SWEEP_CHARTS_H_
