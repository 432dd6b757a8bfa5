// The sweep's markdown summary: every swept point in tables, who wins where (never a point where
// writers gave up), the plots linked, and each claim (Brooker's shapes, the Iceberg chapter's
// throughput claim, where no backoff stops winning) checked against the numbers, whatever they say.
#ifndef COMMITLAB_REPORT_SWEEP_SUMMARY_H_
#define COMMITLAB_REPORT_SWEEP_SUMMARY_H_

#include <string>

#include "commitlab/sim/sweep.h"

namespace commitlab::report {

// The experiments of one `commitlab sweep`; null where one did not run.
struct SweepResults {
  const sim::SweepResult* brooker = nullptr;
  const sim::SweepResult* capacity = nullptr;
  const sim::SweepResult* formats = nullptr;
};

std::string SweepSummaryMarkdown(const SweepResults& results);

}  // namespace commitlab::report

#endif  // COMMITLAB_REPORT_SWEEP_SUMMARY_H_
