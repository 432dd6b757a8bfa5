// Why a run went as it did, read from its history (docs/history.md), after Elle's anomaly
// explanations: each lost race says who won it, what the loser had built on and how long it waits
// by the policy's own formula; a file-deletion conflict is S2 第 5 讲's merge table
// (docs/lectures.md#s2-5-conflict) with the snapshot and writer that removed the file; an LSM
// conflict gives both files' levels and key ranges; a give-up after Long.MAX_VALUE millis says
// commit.timeout was unset; a lost update names the stale read and the commit it overwrote; any
// other invariant violation is the checker's.
#ifndef COMMITLAB_SIM_EXPLAIN_H_
#define COMMITLAB_SIM_EXPLAIN_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/language.h"

namespace commitlab::sim {

struct Explanation {
  size_t line = 0;                      // the history line it explains (1-based; the footer for a lost update)
  std::string writer = {};              // "" for the run as a whole
  std::string kind = {};                // lost-race, conflict, gave-up, unknown-outcome, crash, lost-update, violation,
                                        // an imported log's finding or note
  std::vector<std::string> lines = {};  // the first says what happened; the rest why
};

// The explanations of a whole history, in history order. InvalidArgument "line N: ..." when a
// line is not what the format says.
Result<std::vector<Explanation>> ExplainHistory(const std::vector<Json>& history,
                                                Language language = Language::kEnglish);

// What a kind of explanation is called, as a count says it: "lost races", 竞争落败, ...
std::string ExplanationKindName(const std::string& kind, Language language);

// Explanations as text: each first line after "why: " ("原因："), the rest indented under it;
// past `max_per_kind` of one kind, one line says how many more there were.
std::string ExplanationText(const std::vector<Explanation>& explanations, size_t max_per_kind = SIZE_MAX,
                            Language language = Language::kEnglish);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_EXPLAIN_H_
