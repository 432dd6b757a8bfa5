// The sweep's plots, one SVG document per chart.
#ifndef COMMITLAB_REPORT_SWEEP_CHARTS_H_
#define COMMITLAB_REPORT_SWEEP_CHARTS_H_

#include <string>
#include <string_view>
#include <vector>

#include "commitlab/sim/sweep.h"

namespace commitlab::report {

// One plot: its file name (e.g. "brooker-calls.svg") and SVG text.
struct SweepChart {
  std::string file;
  std::string svg;
};

// brooker (against N) and capacity (against requests/s): calls, completion, % gave up, calls and
// time to success per successful writer (and, for capacity, 503s). formats, per protocol: commits/s,
// attempts per commit, p99 commit latency and % gave up against appenders, one line per policy;
// then the protocols side by side. Bands show p10-p90 of the runs; hollow points, give-ups.
std::vector<SweepChart> SweepCharts(const sim::SweepResult& result);

// The policy a protocol retries with by default, as a sweep's policy name: "paimon", "iceberg",
// and "none" for Delta (a lost version is retried at once, without limit).
std::string_view NativePolicy(std::string_view protocol);

}  // namespace commitlab::report

#endif  // COMMITLAB_REPORT_SWEEP_CHARTS_H_
