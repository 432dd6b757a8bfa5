// `commitlab check HISTORY.jsonl`: the verdict a history carries. An imported history
// (`commitlab import -o`) is judged by its findings: each with the commits that show it, and exit 1
// when one is a problem. A run's history by its footer's verdicts: violations, run errors and
// failed expectations. The table-directory check (check_command.cc) is unchanged.
#ifndef COMMITLAB_LABS_CHECK_HISTORY_H_
#define COMMITLAB_LABS_CHECK_HISTORY_H_

#include <string>

namespace commitlab::cli {

// Whether `path` is a file (a history to check) rather than a table directory.
bool IsHistoryPath(const std::string& path);

// Prints the report (text, or one JSON object with `json`: docs/check_history.schema.json) and
// returns the exit code: 0 sound, 1 a problem or a failed verdict, 2 not a readable history.
int CheckHistory(const std::string& path, bool json);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_CHECK_HISTORY_H_
