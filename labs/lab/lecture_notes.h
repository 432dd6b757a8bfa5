// Where the lectures (docs/lectures.md) disagree with each other or with upstream, said in one line
// at the lab section whose run shows it, with that run's evidence: Iceberg's isolation levels,
// appends racing in Iceberg as in Delta, Delta's default isolation level, and what jitter does for
// two writers.
#ifndef COMMITLAB_LABS_LECTURE_NOTES_H_
#define COMMITLAB_LABS_LECTURE_NOTES_H_

#include <string>
#include <vector>

#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"

namespace commitlab::cli {

// The notes for the run of scenario file `file` (its name under scenarios/); none for most files.
// The Paimon race's note runs the race 2 × 20 more times, simulated.
std::vector<std::string> LectureNotes(const std::string& file, const scenarios::Scenario& scenario,
                                      const scenarios::RunReport& report, bool chinese = false);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_LECTURE_NOTES_H_
