// Comparing two histories of one run event by event, as JSON values (a key order or number
// format that differs is no difference; a value that differs is), and saying where they part.
#ifndef COMMITLAB_SIM_HISTORY_DIFF_H_
#define COMMITLAB_SIM_HISTORY_DIFF_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "commitlab/sim/history.h"

namespace commitlab::sim {

// The first place where `recorded` and `replayed` (the lines after the header) differ: its index,
// and each side's line there (nullopt past the end of a side).
struct HistoryDifference {
  size_t index = 0;
  std::optional<Json> recorded = {};
  std::optional<Json> replayed = {};
};
std::optional<HistoryDifference> FirstDifference(const std::vector<Json>& recorded, const std::vector<Json>& replayed);

// Whether two lines hold the same JSON value: members in any order (ordered_json's own == compares
// their order too).
bool SameHistoryValue(const Json& a, const Json& b);

// One line of a history for a person: "step 412  t=0.031s  job-B  atomic_commit_failed  attempt 2
// snapshot 5  (lost to job-A)"; a footer or header by its type.
std::string DescribeHistoryLine(const Json& line);

// The members whose values differ between two lines, in `a`'s order, then those only in `b`:
// "snapshot: 5 -> 6, message: ...".
std::string DescribeChangedMembers(const Json& a, const Json& b);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_HISTORY_DIFF_H_
