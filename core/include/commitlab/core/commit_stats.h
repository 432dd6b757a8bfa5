// CommitStats: what a committer counts, the same for Paimon's and Iceberg's (a run's tallies add
// these up).
#ifndef COMMITLAB_CORE_COMMIT_STATS_H_
#define COMMITLAB_CORE_COMMIT_STATS_H_

#include <cstdint>

namespace commitlab {

struct CommitStats {
  int64_t attempts = 0;          // publish attempts started
  int64_t snapshots = 0;         // snapshots this user published (or found by the idempotency check)
  int64_t atomic_failures = 0;   // lost races
  int64_t unknown_outcomes = 0;  // publishes that ended in an error
  int64_t idempotent_matches = 0;
  int64_t conflicts = 0;
  int64_t gave_up = 0;
  int64_t manifests_written = 0;

  CommitStats& operator+=(const CommitStats& o) {
    attempts += o.attempts;
    snapshots += o.snapshots;
    atomic_failures += o.atomic_failures;
    unknown_outcomes += o.unknown_outcomes;
    idempotent_matches += o.idempotent_matches;
    conflicts += o.conflicts;
    gave_up += o.gave_up;
    manifests_written += o.manifests_written;
    return *this;
  }
};

}  // namespace commitlab

#endif  // COMMITLAB_CORE_COMMIT_STATS_H_
