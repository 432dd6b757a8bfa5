// What `commitlab sweep --advise` prints: the ranked policies of one operating point and why the
// first is advised.
#ifndef COMMITLAB_REPORT_SWEEP_ADVICE_H_
#define COMMITLAB_REPORT_SWEEP_ADVICE_H_

#include <string>

#include "commitlab/sim/sweep.h"
#include "commitlab/sim/sweep_advisor.h"

namespace commitlab::report {

// Markdown: the operating point, the best `top` policies in a table, the advice and its reasons
// (the margin over the next, the p10-p90 of per-run p99, Paimon's default beside it), and the
// policies not ranked because writers gave up. REQUIRES: `advice` ranks `result`.
std::string AdviceMarkdown(const sim::SweepResult& result, const sim::Advice& advice, int top = 5);

}  // namespace commitlab::report

#endif  // COMMITLAB_REPORT_SWEEP_ADVICE_H_
