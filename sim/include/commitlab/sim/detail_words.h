// What a scripted step did (a step_end's `detail`, which the runner writes in English: "write
// data-…-0.parquet (bucket 0, L0, keys 1..1, rows=1)", "read counter hits = 10 at v1 ..."), told in
// Chinese for `--lang zh`: the lab's narration, the stepper and the timeline page. One table of
// forms per protocol, each a pattern and its Chinese; names, files, filters and numbers are kept.
#ifndef COMMITLAB_SIM_DETAIL_WORDS_H_
#define COMMITLAB_SIM_DETAIL_WORDS_H_

#include <string>

#include "commitlab/sim/language.h"

namespace commitlab::sim {

// `detail` in `language`; a detail of a form not in the tables stays as the runner wrote it.
std::string StepDetailSentence(const std::string& detail, Language language);
// A writer's or step's outcome as a history names it ("refused", "gave-up", ...), or as a lab names
// it ("outcome unknown", "failed"), in `language`.
std::string OutcomeText(const std::string& outcome, Language language);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_DETAIL_WORDS_H_
