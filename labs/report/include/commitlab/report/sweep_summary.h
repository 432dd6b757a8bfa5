// The sweep's markdown summary: tables at a few N, who did least work and who finished first,
// and each of Brooker's qualitative claims checked against the numbers (whatever they say).
#ifndef COMMITLAB_REPORT_SWEEP_SUMMARY_H_
#define COMMITLAB_REPORT_SWEEP_SUMMARY_H_

#include <string>

#include "commitlab/sim/sweep.h"

namespace commitlab::report {

// Either result may be null (that experiment did not run).
std::string SweepSummaryMarkdown(const sim::SweepResult* brooker, const sim::SweepResult* formats);

}  // namespace commitlab::report

#endif  // COMMITLAB_REPORT_SWEEP_SUMMARY_H_
