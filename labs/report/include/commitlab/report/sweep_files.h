// What a sweep leaves behind: a TSV per experiment, SVG plots and a markdown summary. Every file is
// a pure function of the results (no wall times, no host names), so the same seed writes the same
// bytes.
#ifndef COMMITLAB_REPORT_SWEEP_FILES_H_
#define COMMITLAB_REPORT_SWEEP_FILES_H_

#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/report/sweep_summary.h"
#include "commitlab/sim/sweep.h"

namespace commitlab::report {

// Writes <experiment>.tsv, the charts and summary.md into `dir` (created if missing), for the
// experiments that ran. All or nothing (ReplaceFiles), since the files describe one sweep together:
// a failure keeps the previous set. Appends the paths written to `written`. Errors name the file
// and the reason.
Status WriteSweepOutputs(const std::string& dir, const SweepResults& results, std::vector<std::string>* written);

}  // namespace commitlab::report

#endif  // COMMITLAB_REPORT_SWEEP_FILES_H_
