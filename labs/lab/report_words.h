// A run report's parts as the labs tell them, in the lab's language (`--lang en|zh`): the writers'
// outcomes, a Paimon snapshot line, the invariants checked and the violations found, what made a
// run fail. In English they are runner_text.cc's words; in Chinese each protocol's checks are said
// in its lecture's terms.
#ifndef COMMITLAB_LABS_REPORT_WORDS_H_
#define COMMITLAB_LABS_REPORT_WORDS_H_

#include <string>
#include <vector>

#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/language.h"

namespace commitlab::cli {

// "refused", "gave-up", ...; 被拒绝, 放弃, ...
std::string OutcomeWord(scenarios::Outcome o, sim::Language language);
// How a writer ended, as a student should read it: a refusal after an unknown outcome and no
// conflict is "outcome unknown" (结果未知: the publish may have landed, SnapshotProducer.commit's
// CommitStateUnknownException), one without any publish attempt (a reader) "failed" (失败);
// otherwise OutcomeWord.
std::string WriterOutcomeWord(const scenarios::WriterReport& w, sim::Language language);
// "snapshot 5  COMPACT  user=compact-job-1  identifier=1  total=3"; 快照 5 ...
std::string SnapshotLineIn(const Snapshot& s, sim::Language language);
// "invariants: ok (...)" or the violations, one a line; 不变量：...
std::vector<std::string> InvariantLinesIn(const scenarios::RunReport& r, sim::Language language);
// "lost; 2 expectation(s) failed"; 丢失的提交；2 条预期未成立
std::string FailureSummaryIn(const scenarios::RunReport& r, sim::Language language);
// "FAIL x.scn:12: expect ... (saw ...)"
std::string ExpectationLineIn(const scenarios::ExpectationResult& e, sim::Language language);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_REPORT_WORDS_H_
