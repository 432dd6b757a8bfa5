// Where the lectures (docs/lectures.md) disagree with each other or with upstream, said at the
// lab section whose run shows it, each conclusion computed from the runs it cites: Iceberg's
// isolation levels, appends racing in Iceberg as in Delta, Delta's default isolation level, the
// v41 -> v43 slip, an overwrite without validation, the counter stopped without a lost swap, the
// schema change Iceberg Java never retries, what jitter does for two writers, and the table lock
// the lectures contrast optimistic commits with.
#ifndef COMMITLAB_LABS_LECTURE_NOTES_H_
#define COMMITLAB_LABS_LECTURE_NOTES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"

namespace commitlab::cli {

// The notes for the run of scenario file `file` (its name under scenarios/); none for most files.
// The Paimon race's notes run the race 6 × 20 more times, simulated.
std::vector<std::string> LectureNotes(const std::string& file, const scenarios::Scenario& scenario,
                                      const scenarios::RunReport& report, bool chinese = false);

// The race's lost races over the seeds, with and without jitter, under the file's latency and a
// fixed one: medians.
struct JitterRuns {
  int seeds = 0;
  double jitter = 0;  // the policy's (0: it has none)
  double with = 0;    // median lost races
  double without = 0;
  double fixed_with = 0;  // the same with every latency fixed at its mean
  double fixed_without = 0;
};
std::string JitterNote(const JitterRuns& r, bool chinese);

// The race under a table lock held across each commit, against optimistic commits: medians.
struct LockRuns {
  int seeds = 0;
  int commits = 0;
  double occ_ms = 0;       // virtual time to the last commit
  double occ_lost = 0;     // lost races
  double occ_wait_ms = 0;  // retry waits, all writers
  double lock_ms = 0;
  double lock_wait_ms = 0;  // waits for the lock, all writers
};
std::string TableLockNote(const LockRuns& r, bool chinese);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_LECTURE_NOTES_H_
