// What the labs print besides the log lines: the first lines of a long refusal, UUIDs cut short
// so that paths stay readable, a table's snapshot chain, and the Delta conflict matrix laid out
// from a run of scenarios/delta_conflict_matrix.scn. Pure functions, so that tests can pin them.
#ifndef COMMITLAB_LABS_LAB_TEXT_H_
#define COMMITLAB_LABS_LAB_TEXT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/scenarios/runner.h"

namespace commitlab::cli {

// The first `n` lines of `text` (all of them when it has fewer).
std::vector<std::string> FirstLines(std::string_view text, size_t n);
// Cuts every UUID (8-4-4-4-12 hex digits) in `text` to its first 8 digits and "…":
// metadata/00002-cb41eecb-51a9-6e38-3834-e6ccbeef326c.metadata.json stays recognizable.
std::string AbbreviateUuids(std::string_view text);
// A refusal as S2 第 5 讲 quotes it (docs/lectures.md#s2-5-conflict): the headline paragraph, then from
// "Base commit user is" on (Paimon's base entries, changes and cause), without the advice in between;
// each line indented.
std::vector<std::string> RefusalLines(std::string_view message);
// "v3  operation=append  user=writer-b  parent=2  total=3": a table's chain, one line a snapshot,
// for the tables the log does not narrate snapshot by snapshot (Iceberg's and Delta's).
// With `chinese`, 快照/版本 and 计数器 for snapshot/version and counter (the fields stay).
std::vector<std::string> ChainLines(const scenarios::TableReport& table, bool chinese = false);

// The loser's outcome of each table LEVEL-WINNER-LOSER of the matrix scenario, as a matrix per
// level ("commits", or the exception without Concurrent/Exception: "Append", "DeleteRead"), then
// the unordered pairs: "can" when either order refused the second commit. nullopt when the
// report is not a run of that scenario.
// With `chinese`, the labels and "commits", "can", "cannot" in Chinese (exception names stay).
std::optional<std::vector<std::string>> ConflictMatrixLines(const scenarios::RunReport& r, bool chinese = false);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_LAB_TEXT_H_
